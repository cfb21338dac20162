"""The fio text parser's units: it keeps fio 3's binary figure in the unit printed (GiB/s and B/s
converted exactly), reads "10.3k" IOPS, and takes the binary figure whichever side kb_base puts it."""

from pathlib import Path

import pytest

from cardbench.errors import ParseError
from cardbench.parsers.fio import text_output as fio_text

RUN = (Path(__file__).parent / "fixtures" / "import-corpus" / "fio_text" / "fio_text--rnd4k-q32-q1-markdown.out")
HEADER = ("job: (g=0): rw=read, bs=(R) 1024KiB-1024KiB, (W) 1024KiB-1024KiB, (T) 1024KiB-1024KiB, "
          "ioengine=libaio, iodepth=8")
REPORT = "job: (groupid=0, jobs=1): err= 0: pid=1: Thu Nov 26 15:30:29 2026"


def job(line):
    only, = fio_text.parse("\n".join([HEADER, "fio-3.33", "", REPORT, line]))["jobs"]
    return only


def test_docstring_names_the_units_the_parser_keeps():
    for unit in ("MiB/s", "KiB/s", "KB/s"):
        assert unit in fio_text.__doc__ and unit in fio_text.INFO.units


def test_gib_per_second_is_kept_as_mib_per_second():
    entry = job("  read: IOPS=1536, BW=1536MiB/s (1611MB/s)(15.0GiB/10000msec)")
    assert (entry["value"], entry["unit"]) == (1536, "MiB/s")
    entry = job("  read: IOPS=1536, BW=1.50GiB/s (1611MB/s)(15.0GiB/10000msec)")
    assert (entry["value"], entry["unit"]) == (1536, "MiB/s")  # 1.50 × 1024, exact


def test_thousands_of_iops_and_kb_base_1000():
    entry = job("  read: IOPS=10.3k, BW=40.2MiB/s (42.2MB/s)(402MiB/10000msec)")
    assert entry["iops"] == 10300
    swapped = job("  read: IOPS=1507, BW=6175kB/s (6031KiB/s)(60.3MB/9768msec)")
    assert (swapped["value"], swapped["unit"]) == (6031, "KiB/s")


def test_unified_reporting_is_refused():
    with pytest.raises(ParseError, match="unified_rw_reporting"):
        job("  mixed: IOPS=39, BW=39.1MiB/s (41.0MB/s)(122MiB/3118msec)")


def test_a_block_size_range_is_refused_naming_the_job_line():
    text = "\n".join([HEADER.replace("1024KiB-1024KiB", "4096B-64.0KiB", 1), REPORT,
                      "  read: IOPS=39, BW=39.1MiB/s (41.0MB/s)(122MiB/3118msec)"])
    with pytest.raises(ParseError, match="block size range") as caught:
        fio_text.parse(text)
    assert caught.value.line == 1


def test_ansi_colours_and_quoting_are_read_through():
    text = RUN.read_text(encoding="utf-8")
    coloured = "\n".join("> \x1b[1m" + line + "\x1b[0m" if "IOPS=" in line else "> " + line
                         for line in text.splitlines())
    assert [j["value"] for j in fio_text.parse(coloured)["jobs"]] == [6033, 5997]


def test_a_subtest_printed_in_kib_and_mib_is_kept_in_kib():
    runs = [[HEADER, REPORT, "  read: IOPS=9, BW=9990KiB/s (10.2MB/s)(29.3MiB/3003msec)"],
            [HEADER, REPORT, "  read: IOPS=10, BW=10.0MiB/s (10.5MB/s)(30.0MiB/3000msec)"]]
    fields = fio_text.to_session(fio_text.parse("\n".join(line for run in runs for line in run)))
    entry, = fields.measurements["results"]
    assert (entry["unit"], entry["runs"]) == ("KiB/s", [9990, 10240])  # 10.0 MiB/s × 1024


def test_only_clones_below_fio_s_dots_are_summed():
    line = "  read: IOPS=39, BW=39.1MiB/s (41.0MB/s)(122MiB/3118msec)"
    clones = fio_text.parse("\n".join([HEADER, "...", REPORT, line, REPORT, line]))["jobs"]
    assert [(j["test"], j["value"]) for j in clones] == [("SEQ1M Q8T2", 78.2)]
    two_jobs = fio_text.parse("\n".join([HEADER, HEADER, REPORT, line, REPORT, line]))["jobs"]
    assert [(j["test"], j["value"]) for j in two_jobs] == [("SEQ1M Q8T1", 39.1), ("SEQ1M Q8T1", 39.1)]


def test_a_job_that_failed_is_named_with_its_error():
    failed = REPORT.replace("err= 0: pid=1:",
                            "err= 5 (file:io_u.c:1845, func=io_u error, error=Input/output error): pid=1:")
    with pytest.raises(ParseError, match="stopped with fio error 5"):
        fio_text.parse("\n".join([HEADER, failed, "  cpu          : usr=0.00%, sys=0.00%"]))
