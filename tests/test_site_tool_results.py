"""The site shows other tools' figures (tool_results): statistics in MB/s and MiB/s, the card page's table,
the card's JSON twin."""

import pytest

from cardbench.figures.aggregate import aggregate
from cardbench.figures.formatting import format_by_size
from cardbench.pages.pagemodel import card_page

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
    cells = hdparm["figures"].split("</td>")  # mean, worst, best as finished cells
    assert f'data-mib="{format_by_size(39.19)}"' in cells[1] and f'data-mib="{format_by_size(39.34)}"' in cells[2]
    assert hdparm["printed"].endswith("MiB/s")
    assert rows[2]["rate"] is False
    assert rows[2]["figures"].split("</td>")[1] == f'<td class="num">{format_by_size(3990)}'
    assert rows[2]["printed"] == f"{format_by_size(4001)} IOPS"


@pytest.mark.build
@pytest.mark.slow
def test_a_built_card_page_shows_other_tools_escaped_and_its_twin_holds_them(tmp_path):
    import json

    import yaml

    import sitebuild
    from conftest import ROOT

    cards = tmp_path / "cards"
    cards.mkdir()
    card = yaml.safe_load((ROOT / "data" / "cards" / "lexar-class-10-16gb-microsdhc.yaml").read_text(encoding="utf-8"))
    card["sessions"].append({"id": "2026-01-02-hdparm", "label": "hdparm", "date": "2026-01-02",
                             "source": {"name": "t"}, "tools": [{"name": "hdparm"}],
                             "tool_results": [dict(HDPARM, test="hdparm -t <script>x</script>")]})
    (cards / "lexar-class-10-16gb-microsdhc.yaml").write_text(yaml.safe_dump(card, sort_keys=False), encoding="utf-8")
    project, agg, built = sitebuild.build(tmp_path / "site", cards_dir=cards)
    assert agg.returncode == 0, agg.stderr
    assert built.returncode == 0, built.stdout + built.stderr
    page = (project / "public" / "cards" / "lexar-class-10-16gb-microsdhc" / "index.html").read_text(encoding="utf-8")
    assert "Other tools" in page and "hdparm -t &lt;script" in page and "<script>x" not in page
    assert "39.3 MiB/s" in page  # the mean as printed: (39.26 + 39.19 + 39.34) / 3
    twin = json.loads((project / "public" / "cards" / "lexar-class-10-16gb-microsdhc" / "index.json").read_text())
    shown = [s for s in twin["sessions"] if s["id"] == "2026-01-02-hdparm"][0]["tool_results"][0]
    assert shown["unit"] == "MiB/s" and shown["run_count"] == 3


def test_other_tools_rates_are_charted_and_iops_are_not():
    import json

    page = card_page(aggregate([card_with_tool_results()])["cards"]["acme-a"])
    chart = page["sessions"][0]["other_tools_chart"]
    figure = json.loads(chart["figure"])
    labels = figure["data"][0]["y"]
    assert labels == ["hdparm: hdparm -t", "iozone: iozone write (102400 kB file, 4 kB records)"]  # no IOPS figure
    bars = {trace["meta"]["role"]: trace["x"] for trace in figure["data"] if trace["type"] == "bar"}
    assert bars["read"][0] == pytest.approx((39.26 + 39.19 + 39.34) / 3 * 1.048576, abs=0.001)
    assert "<b>" not in chart["figure"]
