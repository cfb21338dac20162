"""sysbench fileio through `cardbench import`: figures in MiB/s as sysbench printed them, agreeing with
its requests and bytes; only random, synchronous, direct runs with their block size printed become
CrystalDiskMark-style subtests."""

import re
from pathlib import Path

import pytest

from cardbench.errors import ParseError
from cliimport import imported_session
from cardbench.parsers import registry, sysbench

CORPUS = Path(__file__).parent / "fixtures" / "import-corpus" / "sysbench"


def imported(path, tmp_path, capsys):
    return imported_session(path, tmp_path, capsys)


def test_v1_random_direct_runs_are_rnd16k_q1t1_agreeing_with_requests(tmp_path, capsys):
    path = CORPUS / "sysbench--v1-rndrd-rndwr-16k-direct.out"
    session = imported(path, tmp_path, capsys)
    text = path.read_text(encoding="utf-8")
    requests = [float(v) for v in re.findall(r"(?:reads|writes)/s:\s+(\d+\.\d+)", text) if float(v)]
    assert [r["test"] for r in session["results"]] == ["RND16K Q1T1", "RND16K Q1T1"]
    for entry, per_second in zip(session["results"], requests):
        assert entry["unit"] == "MiB/s"
        assert entry["runs"][0] == pytest.approx(per_second * 16384 / 2 ** 20, abs=0.006)  # printed to 0.01


def test_v04_mb_per_sec_is_mib_per_second_of_its_bytes(tmp_path, capsys):
    """sysbench 0.4's "Mb/sec": bytes over total time in 2^20 bytes a second, as the docstring says."""
    assert "Mb/sec" in sysbench.INFO.units and "MiB/s" in sysbench.INFO.units["Mb/sec"]
    session = imported(CORPUS / "sysbench--v04-rndrd-16k-direct.out", tmp_path, capsys)
    entry, = session["results"]
    assert entry["unit"] == "MiB/s"
    assert entry["runs"][0] == pytest.approx(102400 * 16384 / 60.0014 / 2 ** 20, rel=1e-4)  # reads × block ÷ time
    assert entry["iops"][0] == pytest.approx(102400 / 60.0014, rel=1e-5)


def test_buffered_sequential_and_mixed_runs_are_tool_results(tmp_path, capsys):
    session = imported(CORPUS / "sysbench--v1-seqwr-seqrd-rndrw-fenced.out", tmp_path, capsys)
    assert "results" not in session
    assert [(t["test"], t["op"], t.get("direct")) for t in session["tool_results"]] == [
        ("fileio seqwr", "write", False), ("fileio seqrd", "read", True), ("fileio rndrw", "read", False),
        ("fileio rndrw", "write", False)]


def test_random_direct_without_a_stated_block_size_is_a_tool_result():
    text = (CORPUS / "sysbench--v1-rndrd-rndwr-16k-direct.out").read_text(encoding="utf-8")
    without = "\n".join(line.replace(" --file-block-size=16K", "") for line in text.splitlines()
                        if not line.startswith("Block size"))
    fields = sysbench.to_session(sysbench.parse(without))
    assert "results" not in fields.measurements and len(fields.measurements["tool_results"]) == 2
    buffered = text.replace("Extra file open flags: directio", "Extra file open flags: (none)")
    assert "results" not in sysbench.to_session(sysbench.parse(buffered)).measurements


def test_detected_as_sysbench():
    for path in CORPUS.glob("*.out"):
        assert registry.detect_format(path.read_text(encoding="utf-8")).name == "sysbench", path.name


def test_cut_off_figures_are_refused_naming_the_line():
    text = (CORPUS / "sysbench--v1-rndrd-rndwr-16k-direct.out").read_text(encoding="utf-8")
    cut = text[:text.index("Throughput:")]
    with pytest.raises(ParseError, match="cut off") as caught:
        sysbench.parse(cut)
    assert caught.value.line is not None


def test_figures_without_options_land_with_the_test_mode_not_stated():
    text = (CORPUS / "sysbench--v1-rndrd-rndwr-16k-direct.out").read_text(encoding="utf-8")
    first = text[text.index("File operations:"):]
    fields = sysbench.to_session(sysbench.parse(first[:first.index("pi@raspberrypi")]))
    assert "results" not in fields.measurements
    assert {entry["test"] for entry in fields.measurements["tool_results"]} == {"fileio (test mode not stated)"}
    assert "without its options above them" in fields.notes[0]


def test_figures_without_options_take_the_logged_command():
    text = (CORPUS / "sysbench--v1-rndrd-rndwr-16k-direct.out").read_text(encoding="utf-8")
    first = text[:text.index("sysbench 1.0.20")] + text[text.index("File operations:"):]
    run = sysbench.parse(first[:first.index("pi@raspberrypi", 10)])["runs"][0]
    assert (run["mode"], run["block_size_bytes"], run["direct"]) == ("rndrd", 16384, True)


def test_v04_12_prints_its_open_flags_in_decimal():
    text = V04.read_text(encoding="utf-8").replace("flags: 4000", "flags: 16384")
    assert sysbench.parse(text)["runs"][0]["direct"] is True  # 16384 = 0x4000, O_DIRECT on x86
    assert sysbench.parse(text.replace("flags: 16384", "flags: 4096"))["runs"][0]["direct"] is False  # O_DSYNC


V04 = CORPUS / "sysbench--v04-rndrd-16k-direct.out"


def test_v04_open_flags_o_direct_of_arm_and_none():
    text = V04.read_text(encoding="utf-8")
    assert sysbench.parse(text.replace("flags: 4000", "flags: 10000"))["runs"][0]["direct"] is True  # Arm
    assert sysbench.parse(text.replace("flags: 4000", "flags: 1000"))["runs"][0]["direct"] is False  # O_DSYNC


def test_v04_rw_run_splits_bytes_over_time():
    text = V04.read_text(encoding="utf-8").replace("Doing random read test", "Doing random r/w test")
    text = text.replace("102400 reads, 0 writes, 0 Other = 102400 Total",
                        "61440 reads, 40960 writes, 410 Other = 102810 Total")
    text = text.replace("Read 1.5625Gb  Written 0b", "Read 960Mb  Written 640Mb")
    run, = sysbench.parse(text)["runs"]
    assert run["read_mib_s"] == pytest.approx(960 / 60.0014) and run["write_mib_s"] == pytest.approx(640 / 60.0014)
    fields = sysbench.to_session(sysbench.parse(text))
    assert [t["test"] for t in fields.measurements["tool_results"]] == ["fileio rndrw", "fileio rndrw"]
    assert any("bytes over the run's total time" in note for note in fields.notes)


def test_early_1_0_prints_its_flag_choice_as_a_number():
    text = (CORPUS / "sysbench--v1-rndrd-rndwr-16k-direct.out").read_text(encoding="utf-8")
    early = text.replace("sysbench 1.0.20", "sysbench 1.0.11")
    assert all(run["direct"] for run in sysbench.parse(early.replace("flags: directio", "flags: 3"))["runs"])
    assert not any(run["direct"] for run in sysbench.parse(early.replace("flags: directio", "flags: 2"))["runs"])
