"""fio's normal text output through `cardbench import`: each job's figure lands in the unit fio printed,
agreeing with the bytes and seconds fio printed beside it; what cannot be named is refused naming the line."""

import re
from pathlib import Path

import pytest

from cardbench.core.units import RATE_UNIT_BYTES
from cardbench.errors import ParseError
from cliimport import imported_session
from cardbench.parsers.fio import text_output as fio_text
from cardbench.parsers import registry

CORPUS = Path(__file__).parent / "fixtures" / "import-corpus" / "fio_text"
FIXTURES = Path(__file__).parent / "fixtures" / "fio_text"
SIZES = {"B": 1, "KiB": 1024, "MiB": 1024 ** 2, "KB": 1024, "MB": 1024 ** 2}  # fio 2.x's KB/MB are binary


def imported(path, tmp_path, capsys):
    return imported_session(path, tmp_path, capsys)


def io_over_runtime(text):
    """Bytes a second of every job line, worked out from the io and runtime fio printed beside the rate."""
    rates = []
    for line in text.splitlines():
        fio3 = re.search(r": IOPS=.*\((\d+(?:\.\d+)?)(B|KiB|MiB)/(\d+)msec\)", line)
        fio2 = re.search(r": io=(\d+(?:\.\d+)?)(B|KB|MB), .*runt=\s*(\d+)msec", line)
        found = fio3 or fio2
        if found:
            rates.append(float(found.group(1)) * SIZES[found.group(2)] * 1000 / int(found.group(3)))
    return rates


@pytest.mark.parametrize("case", ["seq1m-read-write-prompts", "rnd4k-q32-q1-markdown", "randrw-mix70-command",
                                  "fio2x-three-jobs", "terminal-log-progress", "jobfile-two-runs"])
def test_figures_agree_with_bytes_over_seconds(case, tmp_path, capsys):
    path = CORPUS / f"fio_text--{case}.out"
    session = imported(path, tmp_path, capsys)
    stored = [run * RATE_UNIT_BYTES[entry["unit"]] for entry in session["results"] for run in entry["runs"]]
    worked_out = io_over_runtime(path.read_text(encoding="utf-8"))
    assert len(stored) == len(worked_out)
    for value, expected in zip(sorted(stored), sorted(worked_out)):  # subtest order against file order
        assert value == pytest.approx(expected, rel=0.01)


def test_units_are_those_the_docstring_names(tmp_path, capsys):
    """fio 3's BW is binary (MiB/s, KiB/s); fio 2.x's "KB/s" is KiB/s, as the module says."""
    assert {"MiB/s", "KiB/s", "KB/s"} <= set(fio_text.INFO.units)
    fio3 = imported(CORPUS / "fio_text--seq1m-read-write-prompts.out", tmp_path / "a", capsys)
    assert [r["unit"] for r in fio3["results"]] == ["MiB/s", "MiB/s"]
    assert fio3["results"][0]["runs"] == [39.1]  # "BW=39.1MiB/s (41.0MB/s)"
    fio2 = imported(CORPUS / "fio_text--fio2x-three-jobs.out", tmp_path / "b", capsys)
    assert fio2["results"][0]["unit"] == "KiB/s" and fio2["results"][0]["runs"] == [39768]  # "bw=39768KB/s"


def test_threads_without_group_reporting_add_up(tmp_path, capsys):
    session = imported(CORPUS / "fio_text--numjobs2-email-quote.out", tmp_path, capsys)
    entry, = session["results"]
    assert entry["test"] == "RND4K Q4T2"
    assert entry["runs"] == [994 + 1012] and entry["iops"] == [248 + 253]  # the two threads' lines


def test_several_runs_give_several_runs_each(tmp_path, capsys):
    session = imported(CORPUS / "fio_text--jobfile-two-runs.out", tmp_path, capsys)
    assert [len(r["runs"]) for r in session["results"]] == [2, 2, 2]


def test_detected_as_fio_text_but_fio_json_wins_over_it():
    text = (CORPUS / "fio_text--rnd4k-q32-q1-markdown.out").read_text(encoding="utf-8")
    assert registry.detect_format(text).name == "fio-text"
    both = (Path(__file__).parent / "fixtures" / "import-corpus" / "fio" / "fio--normal-and-json.out").read_text()
    assert registry.detect_format(both).name == "fio-json"


def test_only_the_group_summary_lands_with_block_size_and_depth_not_stated():
    parsed = fio_text.parse((FIXTURES / "group-summary-only.out").read_text(encoding="utf-8"))
    job, = parsed["jobs"]
    assert (job["test"], job["value"], job["unit"], job["stated"]) == (
        "fio read (block size and depth not stated)", 6033, "KiB/s", False)
    fields = fio_text.to_session(parsed)
    assert "results" not in fields.measurements
    entry, = fields.measurements["tool_results"]
    assert (entry["tool"], entry["unit"], entry["runs"]) == ("fio", "KiB/s", [6033])
    assert "only fio's group summary (line 1)" in fields.notes[0]


def test_the_group_summary_below_its_job_line_is_that_job_s_figure():
    text = (FIXTURES / "group-summary-only.out").read_text(encoding="utf-8")
    header = ("rnd: (g=0): rw=randread, bs=(R) 4096B-4096B, (W) 4096B-4096B, (T) 4096B-4096B, ioengine=libaio, "
              "iodepth=32\nfio-3.33\n")
    job, = fio_text.parse(header + text)["jobs"]
    assert (job["test"], job["value"], job["iops"]) == ("RND4K Q32T1", 6033, None)


def test_a_report_without_its_job_line_lands_with_block_size_and_depth_not_stated():
    text = (CORPUS / "fio_text--seq1m-read-write-prompts.out").read_text(encoding="utf-8")
    without = "\n".join(line for line in text.splitlines() if "(g=0)" not in line and "fio --" not in line)
    parsed = fio_text.parse(without)
    assert [(j["test"], j["value"]) for j in parsed["jobs"]] == [
        ("fio read (block size and depth not stated)", 39.1), ("fio write (block size and depth not stated)", 19.1)]
    assert "from the job's report line on" in parsed["notes"][0]


def test_a_report_without_its_job_line_takes_the_logged_command():
    text = (CORPUS / "fio_text--seq1m-read-write-prompts.out").read_text(encoding="utf-8")
    without = "\n".join(line for line in text.splitlines() if "(g=0)" not in line)
    parsed = fio_text.parse(without)
    assert [(j["test"], j["value"]) for j in parsed["jobs"]] == [("SEQ1M Q8T1", 39.1), ("SEQ1M Q8T1", 19.1)]
    assert "read from the fio command logged above it" in parsed["notes"][0]


def test_mixed_job_without_its_read_share_takes_it_from_the_ios_issued():
    parsed = fio_text.parse((FIXTURES / "randrw-without-command.out").read_text(encoding="utf-8"))
    assert {job["test"] for job in parsed["jobs"]} == {"RND4K Q4T1 mix 70/30"}  # run with --rwmixread=70
    assert "taken as 70 % from the I/Os fio issued (3374 reads, 1504 writes), 69.2 % reads" in parsed["notes"][0]


def test_mixed_job_without_rwmix_in_its_command_is_fifty_fifty():
    text = (FIXTURES / "randrw-without-command.out").read_text(encoding="utf-8")
    parsed = fio_text.parse("$ fio --name=mix70 --rw=randrw --bs=4k\n" + text)
    assert {job["test"] for job in parsed["jobs"]} == {"RND4K Q4T1 mix 50/50"}


def test_a_job_line_without_results_is_cut_off():
    text = (CORPUS / "fio_text--jobfile-two-runs.out").read_text(encoding="utf-8")
    cut = text[:text.rindex("rnd4k-write: (groupid=2")]
    with pytest.raises(ParseError, match="'rnd4k-write' has no results: the output is cut off"):
        fio_text.parse(cut)


def test_contradicting_bandwidths_are_refused():
    text = (CORPUS / "fio_text--seq1m-read-write-prompts.out").read_text(encoding="utf-8")
    with pytest.raises(ParseError, match="not the same rate") as caught:
        fio_text.parse(text.replace("BW=39.1MiB/s (41.0MB/s)", "BW=39.1MiB/s (39.1MB/s)", 1))
    assert caught.value.line == 7
    with pytest.raises(ParseError, match="not io ÷ runtime"):
        fio_text.parse(text.replace("(122MiB/3118msec)", "(122MiB/6118msec)", 1))


def test_read_share_from_the_job_file_shown_above_its_run():
    output = (FIXTURES / "randrw-without-command.out").read_text(encoding="utf-8")
    job_file = "$ cat mix.fio\n[global]\nrwmixread=50\n[mix70]\nrw=randrw\nrwmixread=70\n$ sudo fio mix.fio\n"
    assert {job["test"] for job in fio_text.parse(job_file + output)["jobs"]} == {"RND4K Q4T1 mix 70/30"}
    global_only = job_file.replace("rwmixread=70\n", "")
    assert {job["test"] for job in fio_text.parse(global_only + output)["jobs"]} == {"RND4K Q4T1 mix 50/50"}
