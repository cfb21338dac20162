"""Logs of benchmark scripts that run several tools: Jeff Geerling's microsd-benchmarks.sh, PiBenchmarks' Storage.sh."""

from pathlib import Path

import pytest

from cardbench.errors import ParseError
from cardbench.parsers import NAMED, NOT_MINE, microsd_benchmarks, pibenchmarks

CORPUS = Path(__file__).parent / "fixtures" / "import-corpus" / "logs"
LOGS = Path(__file__).parent / "fixtures" / "script-logs"


def test_script_modules_state_the_units_of_each_tool():
    for module in (microsd_benchmarks, pibenchmarks):
        assert module.INFO.units["MB/sec"] == "hdparm: MiB/s" and "MiB/s" in module.__doc__
    assert pibenchmarks.INFO.units["KB/s"] == "fio, iozone: KiB/s" and "KB/s\nare KiB/s" in pibenchmarks.__doc__


def test_geerling_log_gives_each_tools_figures_with_the_scripts_dd_command():
    fields = microsd_benchmarks.to_session(microsd_benchmarks.parse(
        (CORPUS / "logs--microsd-benchmarks-script.out").read_text()))
    dd = fields.measurements["dd"][0]
    assert (dd["block_size"], dd["count"], dd["flags"], dd["command"]) == (
        "8K", 51200, ["fsync"], "dd if=/dev/zero of=~/test bs=8k count=50k conv=fsync")
    assert dd["runs"] == [13.6] and 419430400 / 30.871 / 1e6 == pytest.approx(13.6, abs=0.05)
    assert [e["tool"] for e in fields.measurements["tool_results"]] == ["hdparm"] + ["iozone"] * 4
    assert [r["test"] for r in fields.measurements["results"]] == ["RND4K Q1T1", "RND4K Q1T1"]


def test_pibenchmarks_fio_figures_are_kib_and_agree_with_their_iops():
    parsed = pibenchmarks.parse((CORPUS / "logs--pibenchmarks-raw-ansi.out").read_text())
    assert parsed["fio"]["read"]["iops"] * 4 == pytest.approx(parsed["fio"]["read"]["kib_s"], rel=0.001)
    assert parsed["score"] == 1340
    fields = pibenchmarks.to_session(parsed)
    assert "1340" not in str(fields.measurements) and "Score: 1340" in " ".join(fields.notes)
    assert "40.34" not in str(fields.measurements)  # the cached reads: notes only


def test_pibenchmarks_table_and_raw_log_give_the_same_figures():
    raw = pibenchmarks.to_session(pibenchmarks.parse((CORPUS / "logs--pibenchmarks-raw-ansi.out").read_text()))
    table = pibenchmarks.to_session(pibenchmarks.parse((CORPUS / "logs--pibenchmarks-table-crlf.out").read_text()))
    assert raw.measurements["results"][:2] == table.measurements["results"][:2]
    assert [r["runs"] for r in raw.measurements["results"]] == [r["runs"] for r in table.measurements["results"]]


def test_script_logs_refuse_what_is_cut_off_or_unreadable_naming_the_line():
    with pytest.raises(ParseError, match="iozone test complete") as cut:
        pibenchmarks.parse((LOGS / "pibenchmarks-cut-off.txt").read_text())
    assert cut.value.line == 32
    table = "     Category                  Test                      Result     \nDD    Disk Write    14.3 MB/min\n"
    with pytest.raises(ParseError, match="no figure") as unreadable:
        pibenchmarks.parse(table)
    assert unreadable.value.line == 2
    with pytest.raises(ParseError, match="without its"):
        microsd_benchmarks.parse("Running hdparm test...\n/dev/mmcblk0:\n Timing buffered disk reads: ")


def test_script_detection():
    assert pibenchmarks.detect("\x1b[33mRunning HDParm tests ...\x1b(B\x1b[m") == NAMED
    assert microsd_benchmarks.detect("Raspberry Pi Dramble microSD benchmarks") == NAMED
    assert microsd_benchmarks.detect("Running iozone test...") == NOT_MINE


def test_a_pibenchmarks_table_row_without_a_figure_is_noted_not_refused():
    table = ("     Category                  Test                      Result     \n"
             "HDParm                    Disk Read                                         \n"
             "DD                        Disk Write                14.3 MB/s                \n"
             "IOZone                    4k random read             KB/s                    \n")
    fields = pibenchmarks.to_session(pibenchmarks.parse(table))
    assert [e["test"] for e in fields.measurements["tool_results"]] == ["DD Disk Write"]
    assert "no figure for HDParm Disk Read, IOZone 4k random read" in " ".join(fields.notes)
