"""hdparm and iozone tool modules: the units they read, what becomes a card figure, and refusals naming the line."""

from pathlib import Path

import pytest

from cardbench.core.units import RATE_TO_MB_S, RATE_UNIT_BYTES
from cardbench.errors import ParseError
from cardbench.parsers import NAMED, NOT_MINE, SHAPED, hdparm, iozone
from cardbench.parsers.registry import detect_format, format_named

CORPUS = Path(__file__).parent / "fixtures" / "import-corpus"
LOGS = Path(__file__).parent / "fixtures" / "script-logs"


# --- hdparm -----------------------------------------------------------------------------------

def test_hdparm_units_are_binary_as_its_docstring_says():
    # hdparm counts buffers of 2 × 1024 × 1024 bytes as "MB": MB/sec is MiB/s, kB/sec KiB/s.
    assert hdparm.INFO.units["MB/sec"].startswith("MiB/s") and hdparm.INFO.units["kB/sec"].startswith("KiB/s")
    assert "MB/sec\" is MiB/s" in hdparm.__doc__
    run = hdparm.parse(" Timing buffered disk reads: 124 MB in  3.02 seconds =  41.03 MB/sec\n")["runs"][0]
    assert (run["value"], run["unit"], run["mib"], run["seconds"]) == (41.03, "MiB/s", 124, 3.02)
    # Worked out apart from the parser: 124 MiB in 3.02 s is 43.05 MB/s; 41.03 MiB/s shown in MB/s agrees.
    by_bytes = 124 * 1048576 / 3.02 / 1e6
    assert by_bytes == pytest.approx(run["value"] * RATE_TO_MB_S[run["unit"]], rel=0.005)
    slow = hdparm.parse(" Timing O_DIRECT disk reads:   2 MB in  3.50 seconds = 585.14 kB/sec\n")["runs"][0]
    assert slow["unit"] == "KiB/s" and 2 * 1048576 / 3.5 / RATE_UNIT_BYTES["KiB/s"] == pytest.approx(585.14, rel=0.005)


def test_a_nul_inside_a_timing_line_refuses_the_file_naming_the_line():
    """Without the check the damaged run was left out unseen: three runs became two."""
    text = (CORPUS / "hdparm" / "hdparm--three-runs-pi-prompt.out").read_text(encoding="utf-8")
    damaged = text.replace(" Timing buffered disk reads: 120 MB in  3.06 seconds =  39.19",
                           " Tim\x00ing buffered disk reads: 120 MB in  3.06 seconds =  39.19")
    assert damaged != text
    with pytest.raises(ParseError, match=r"this line holds U\+0000 \(NUL\)") as err:
        format_named("hdparm").read_session(damaged)
    assert err.value.line == 8 and "\x00" in err.value.text
    assert format_named("hdparm").read_session(text).measurements["tool_results"][0]["runs"] == [39.26, 39.19, 39.34]


def test_hdparm_runs_of_one_test_are_one_entry_and_cached_reads_are_notes_only():
    text = ("$ sudo hdparm -Tt /dev/sdc\n\n/dev/sdc:\n"
            " Timing cached reads:   9880 MB in  2.01 seconds = 4909.01 MB/sec\n"
            " Timing buffered disk reads: 120 MB in  3.19 seconds =  37.66 MB/sec\n"
            "$ sudo hdparm -Tt /dev/sdc\n\n/dev/sdc:\n"
            " Timing cached reads:   9890 MB in  2.00 seconds = 4945.00 MB/sec\n"
            " Timing buffered disk reads: 120 MB in  3.06 seconds =  39.25 MB/sec\n"
            "$ sudo hdparm --direct -t /dev/sdc\n\n/dev/sdc:\n"
            " Timing O_DIRECT disk reads: 122 MB in  3.03 seconds =  40.32 MB/sec\n")
    fields = hdparm.to_session(hdparm.parse(text))
    entries = fields.measurements["tool_results"]
    assert [(e["test"], e["runs"], e["direct"]) for e in entries] == [
        ("hdparm -t", [37.66, 39.25], False), ("hdparm -t --direct", [40.32], True)]
    assert all(e["unit"] == "MiB/s" and e["op"] == "read" and e["target"] == "device" for e in entries)
    assert "hdparm -T: 4909.01 MB/sec" in fields.notes[0] and "not a card figure" in fields.notes[0]
    assert "4909.01" not in str(entries)


def test_hdparm_refusals_name_the_line():
    with pytest.raises(ParseError, match="only cached reads") as only_cached:
        hdparm.to_session(hdparm.parse((LOGS / "hdparm-cached-only.txt").read_text()))
    assert only_cached.value.line == 4
    with pytest.raises(ParseError) as cut:
        hdparm.parse("/dev/sdc:\n Timing buffered disk reads: 120 MB in  3.06 seconds =  39.26 MB/sec\n"
                     "/dev/sdc:\n Timing buffered disk reads: ")
    assert cut.value.line == 4
    with pytest.raises(ParseError, match="cannot give") as edited:
        hdparm.parse(" Timing buffered disk reads: 120 MB in  3.06 seconds =  93.26 MB/sec\n")
    assert edited.value.line == 1


def test_hdparm_detection():
    assert hdparm.detect(" Timing buffered disk reads: 120 MB in  3.06 seconds =  39.26 MB/sec") == SHAPED
    assert hdparm.detect("$ hdparm -t /dev/sdc\n"
                         " Timing buffered disk reads: 1 MB in 1.00 seconds = 1.00 MB/sec") == NAMED
    assert hdparm.detect("Timing is everything") == NOT_MINE


# --- iozone -----------------------------------------------------------------------------------

def test_iozone_units_are_kib_as_its_docstring_says():
    assert iozone.INFO.units["kBytes/sec"].startswith("KiB/s") and "kB/s\nis KiB/s" in iozone.__doc__
    parsed = iozone.parse((CORPUS / "iozone" / "iozone--pi-direct-4k.out").read_text())
    run = parsed["runs"][0]
    assert (run["version"], run["direct"], run["fsync"]) == ("3.471", True, True)
    assert run["rows"] == [{"kb": 102400, "reclen": 4, "line": 32, "values": {
        "write": 8047, "rewrite": 8000, "read": 10536, "reread": 15081, "random read": 15965, "random write": 7991}}]
    # The writes were held to 2000 I/Os a second: 2000 × 4 KiB = 8000 KiB/s, what iozone printed.
    assert 2000 * 4096 / RATE_UNIT_BYTES["KiB/s"] == pytest.approx(run["rows"][0]["values"]["random write"], rel=0.01)


def test_iozone_direct_4k_random_is_rnd4k_q1t1_and_the_rest_tool_figures():
    fields = iozone.to_session(iozone.parse((CORPUS / "iozone" / "iozone--pi-direct-4k.out").read_text()))
    results = fields.measurements["results"]
    assert [(r["test"], r["op"], r["unit"], r["runs"], r["size"]) for r in results] == [
        ("RND4K Q1T1", "read", "KiB/s", [15965], "100M"), ("RND4K Q1T1", "write", "KiB/s", [7991], "100M")]
    tests = [(e["test"], e["op"], e["block_size"], e["direct"]) for e in fields.measurements["tool_results"]]
    assert tests[0] == ("iozone write (102400 kB file, 4 kB records)", "write", "4K", True)
    assert [t[1] for t in tests] == ["write", "write", "read", "read"]


def test_iozone_without_o_direct_keeps_random_figures_as_tool_figures():
    fields = iozone.to_session(iozone.parse((CORPUS / "iozone" / "iozone--auto-table.out").read_text()))
    assert "results" not in fields.measurements
    entries = fields.measurements["tool_results"]
    assert len(entries) == 72 and {e["test"].split("(")[1].split(",")[0] for e in entries} == {"8192 kB file"}
    assert "8192 kB file are kept" in fields.notes[0]


def test_iozone_table_trimmed_to_its_tests_lands_when_its_command_names_every_row():
    """A paste of the command and the table alone, its header cut to the columns run (-i 0 -i 1 -i 2): the
    corpus's real one (see its README)."""
    from cardbench.imports.transcript import unwrap
    text = unwrap((CORPUS / "iozone" / "iozone--dramble-iozone-trimmed-header.out").read_text())
    run, = iozone.parse(text)["runs"]
    assert run["direct"] and [row["reclen"] for row in run["rows"]] == [4, 512, 16384]
    with pytest.raises(ParseError, match="iozone test complete"):
        iozone.parse(text[:text.index("102400   16384")])  # the 16 MiB row cut off


def test_iozone_refusals_name_the_line():
    with pytest.raises(ParseError, match="iozone test complete") as cut:
        iozone.parse((LOGS / "iozone-cut-off.txt").read_text())
    assert cut.value.line == 31
    header = "              kB  reclen    write    read  rewrite    reread\n"  # not iozone's order
    with pytest.raises(ParseError, match="other columns") as other:
        iozone.parse("Command line used: iozone -a\n" + header + "iozone test complete.\n")
    assert other.value.line == 2
    with pytest.raises(ParseError, match="operations per second") as ops:
        iozone.parse("\tIozone: Performance Test of File I/O\n\tOutput is in operations per second.\n")
    assert ops.value.line == 2
    with pytest.raises(ParseError, match="throughput mode") as throughput:
        iozone.parse("\tIozone: Performance Test of File I/O\n\tChildren see throughput for  2 initial writers  = "
                     "  16032.50 kB/sec\n")
    assert throughput.value.line == 2


def test_an_excerpt_of_the_table_as_an_article_quotes_it():
    # Header cut after 'random write', no banner, settings or "iozone test complete." (an article's code block).
    excerpt = ("    #### [Card](http://ix.io/x)\n\n"
               "                                                        random    random\n"
               "        kB  reclen    write  rewrite    read    reread    read     write\n"
               "    102400       4     1971     1992     7182     7061     5373     2324\n")
    [run] = iozone.parse(excerpt)["runs"]
    assert (run["direct"], run["fsync"], run["command"]) == (None, None, None)
    assert run["rows"][0]["values"] == {"write": 1971, "rewrite": 1992, "read": 7182, "reread": 7061,
                                        "random read": 5373, "random write": 2324}
    fields = iozone.to_session({"runs": [run]})
    assert "results" not in fields.measurements  # O_DIRECT unknown: not RND4K Q1T1
    assert [e["runs"] for e in fields.measurements["tool_results"]][-2:] == [[5373], [2324]]
    assert all("direct" not in e for e in fields.measurements["tool_results"])
    # A figure beyond the quoted columns stands under none of them.
    with pytest.raises(ParseError, match="under no column"):
        iozone.parse(excerpt.rstrip("\n") + "     9999\n")


def test_detection_prefers_the_script_log_over_the_tools_it_runs():
    log = (CORPUS / "logs" / "logs--microsd-benchmarks-script.out").read_text()
    assert detect_format(log).name == "microsd-benchmarks"
    assert detect_format((CORPUS / "iozone" / "iozone--auto-table.out").read_text()).name == "iozone"


def test_hdparm_figures_add_up_within_the_rounding_of_the_printed_seconds():
    # A 16 MiB device read in 0.0134 s: hdparm prints 0.01 seconds and 1194.03 MB/sec (16 / 0.0134).
    run = hdparm.parse(" Timing buffered disk reads:  16 MB in  0.01 seconds = 1194.03 MB/sec\n")["runs"][0]
    assert run["value"] == 1194.03
    with pytest.raises(ParseError, match="cannot give"):
        hdparm.parse(" Timing buffered disk reads:  16 MB in  0.01 seconds = 4194.03 MB/sec\n")
