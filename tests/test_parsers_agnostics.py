"""The Raspberry Pi SD Card Speed Test (agnostics): its versions, its units, its own verdict, and refusals
of cut-off output. Inputs are the import corpus's captured runs (tests/fixtures/import-corpus/agnostics)."""

from pathlib import Path

import pytest

from cardbench.errors import ParseError
from cardbench.parsers import NAMED, NOT_MINE, SHAPED, agnostics
from cardbench.parsers.registry import detect_format

CORPUS = Path(__file__).parent / "fixtures" / "import-corpus" / "agnostics"


def read(case):
    return (CORPUS / f"agnostics--{case}.out").read_text(encoding="utf-8")


def figures(parsed):
    return {(e["test"], e["unit"]): e["runs"] for e in agnostics.to_session(parsed).measurements["tool_results"]}


def test_units_are_the_docstrings():
    # The docstring: bandwidths are fio's KiB/s ("KB/sec"), random 4K figures IOPS.
    assert "KiB/s" in agnostics.__doc__ and '"KB/sec"' in agnostics.__doc__
    assert agnostics.INFO.units["KB/sec"].startswith("KiB/s")
    found = figures(agnostics.parse(read("gui-log-2024-pass")))
    assert found == {("seq-write", "KiB/s"): [19509], ("rand-4k-write", "IOPS"): [700],
                     ("rand-4k-read", "IOPS"): [2601], ("prepare-file", "KiB/s"): [19516],
                     ("seq-read", "KiB/s"): [39038]}


def test_three_runs_and_the_windows_verdict():
    parsed = agnostics.parse(read("gui-log-three-runs-fail"))
    assert parsed["verdict"] == "FAIL" and parsed["version"] == "0.5"
    assert [run["checks"]["rand-4k-write"] for run in parsed["runs"]] == ["FAIL"] * 3
    assert figures(parsed)[("rand-4k-write", "IOPS")] == [399, 399, 399]


def test_a_later_run_that_passes_passes_the_test():
    parsed = agnostics.parse(read("kb-s-two-runs-prompt-crlf"))
    assert parsed["verdict"] == "PASS" and len(parsed["runs"]) == 2
    assert [all(v == "PASS" for v in run["checks"].values()) for run in parsed["runs"]] == [False, True]


@pytest.mark.parametrize("case, verdict", [("one-run-email-quote-wrapped", "PASS"), ("feb-2020-all-passed", "PASS"),
                                           ("markdown-fence-2024", "PASS")])
def test_each_version_reads(case, verdict):
    parsed = agnostics.parse(read(case))
    assert parsed["verdict"] == verdict and len(parsed["runs"]) == 1


def test_a_wrapped_verdict_line_is_joined():
    parsed = agnostics.parse("seq-write;0;0;12000;3\nrand-4k-write;0;0;2400;600\nrand-4k-read;8000;2000;0;0\n"
                             "> Random read speed 2000 IOPS (target\n> 1500) - FAIL\n")
    assert parsed["runs"][0]["checks"]["rand-4k-read"] == "FAIL"  # the printed verdict, as printed


def test_verdict_from_figures_when_the_script_printed_none():
    text = "seq-write;0;0;9999;2\nrand-4k-write;0;0;2400;600\nrand-4k-read;8000;2000;0;0\n"
    parsed = agnostics.parse(text)
    assert parsed["verdict"] == "FAIL" and parsed["runs"][0]["checks"]["seq-write"] == "FAIL"  # 10000 KB/sec target


def test_cut_off_output_is_refused_naming_the_line():
    lines = read("gui-log-three-runs-fail").splitlines()
    with pytest.raises(ParseError) as cut_in_a_run:
        agnostics.parse("\n".join(lines[:15]))
    assert cut_in_a_run.value.line == 13 and "rand-4k-write" in cut_in_a_run.value.message
    with pytest.raises(ParseError) as cut_between_runs:  # run 1 failed, no run 2, no "Test FAIL"
        agnostics.parse("\n".join(line for line in lines[4:12]))
    assert "no further run follows" in cut_between_runs.value.message and cut_between_runs.value.line == 8
    with pytest.raises(ParseError) as no_outcome:
        agnostics.parse("\n".join(lines[:-2]))
    assert "Test PASS" in no_outcome.value.message


def test_the_first_version_and_a_cancelled_test_are_refused():
    with pytest.raises(ParseError, match="February 2020"):
        agnostics.parse("prepare-file;0;19000\nseq-write;0;19000\n")
    with pytest.raises(ParseError, match="cancelled"):
        agnostics.parse("Test : SD Card Speed Test\nRun 1\nprepare-file;0;0;19516;38\nTest aborted\n")


def test_detection():
    assert agnostics.detect(read("gui-log-2024-pass")) == NAMED
    jobs = "seq-write;0;0;12000;3\nrand-4k-write;0;0;2400;600\nrand-4k-read;8000;2000;0;0\n"
    assert agnostics.detect(jobs) == SHAPED
    assert agnostics.detect("Sequential write 10 MB/s") == NOT_MINE
    for case in ("gui-log-2024-pass", "kb-s-two-runs-prompt-crlf", "one-run-email-quote-wrapped"):
        assert detect_format(read(case)).name == "agnostics"
