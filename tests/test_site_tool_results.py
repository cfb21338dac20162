"""The site shows other tools' figures (tool_results): statistics in MB/s and MiB/s, the card page's table,
the card's JSON twin."""

import pytest

from cardbench.site.aggregate import aggregate
from cardbench.site.formatting import num
from cardbench.site.pagemodel import card_page

HDPARM = {"tool": "hdparm", "test": "hdparm -t", "op": "read", "unit": "MiB/s", "runs": [39.26, 39.19, 39.34]}
IOZONE = {"tool": "iozone", "test": "iozone write (102400 kB file, 4 kB records)", "op": "write", "unit": "KiB/s",
          "runs": [8047]}
FIO_IOPS = {"tool": "fio", "test": "<b>4k</b> iops", "op": "read", "unit": "IOPS", "runs": [4012, 3990]}


def card_with_tool_results():
    session = {"id": "s1", "label": "hdparm and iozone", "tool_results": [HDPARM, IOZONE, FIO_IOPS]}
    return {"schema_version": 1, "slug": "acme-a", "brand": "Acme", "model": "A", "capacity_gb": 64,
            "form_factor": "microSD", "family": "SDXC", "bus": "UHS-I", "source": {"name": "t"}, "sessions": [session]}


def test_the_twin_holds_each_tool_figure_with_its_statistics_in_mb_and_mib():
    twin = aggregate([card_with_tool_results()])["cards"]["acme-a"]["sessions"][0]["tool_results"]
    hdparm, iozone, iops = twin
    assert hdparm["printed"] == {"mean": pytest.approx(39.263333, abs=1e-5), "min": 39.19, "max": 39.34}
    assert hdparm["run_count"] == 3
    # MiB/s as printed is MiB/s; MB/s = MiB/s × 1.048576, worked out here apart from the code.
    assert hdparm["mib_s"]["min"] == pytest.approx(39.19, abs=0.001)
    assert hdparm["mb_s"]["max"] == pytest.approx(39.34 * 1048576 / 1e6, abs=0.001)
    assert iozone["mb_s"]["mean"] == pytest.approx(8047 * 1024 / 1e6, abs=0.001)
    assert "mb_s" not in iops and iops["printed"] == {"mean": 4001, "min": 3990, "max": 4012}


def test_the_card_page_lists_other_tools_worst_and_best():
    page = card_page(aggregate([card_with_tool_results()])["cards"]["acme-a"])
    rows = page["sessions"][0]["other_tools"]
    assert [row["tool"] for row in rows] == ["hdparm", "iozone", "fio"]
    hdparm = rows[0]
    assert (hdparm["figure"], hdparm["count"], hdparm["rate"]) == ("hdparm -t (read)", 3, True)
    assert hdparm["worst"]["mib"] == num(39.19) and hdparm["best"]["mib"] == num(39.34)
    assert hdparm["printed"].endswith("MiB/s")
    assert rows[2]["rate"] is False and rows[2]["worst"] == {"text": num(3990)} and rows[2]["printed"] == f"{num(4001)} IOPS"
