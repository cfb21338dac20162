"""fio bandwidth log parser, and its fill points (card.sessions): a captured log (fixtures) and a live fio run."""

import json
import subprocess
from pathlib import Path

import pytest

from cardbench.parsers import card_entries
from cardbench.errors import ParseError
from cardbench.parsers import NOT_MINE, SHAPED
from cardbench.parsers.fio import bwlog as fio_bwlog

FIXTURES = Path(__file__).parent / "fixtures" / "fio_bwlog"
DROP_TOTAL_BYTES, DROP_RUNTIME_MS = 1476395008, 44813  # the captured run's fio JSON summary


def read(name):
    return (FIXTURES / name).read_text(encoding="utf-8")


@pytest.mark.parametrize("case", sorted(p.stem for p in FIXTURES.glob("fio_bwlog--*.json")))
def test_fixture_parses_to_expected(case):
    assert fio_bwlog.parse(read(f"{case}.out")) == json.loads(read(f"{case}.json"))


def test_detect():
    assert fio_bwlog.detect(read("fio_bwlog--throttle-drop.out")) == SHAPED
    assert fio_bwlog.detect("1073741824 bytes (1.1 GB, 1.0 GiB) copied, 12.7 s, 84.3 MB/s\n") == NOT_MINE


@pytest.mark.parametrize("text, line", [("500, 100, 1, 0, 0\nnot a sample\n", 2),
                                         ("1000, 100, 1, 0, 0\n500, 100, 1, 0, 0\n", 2),
                                         ("500, 100, 7, 0, 0\n", 1), ("", None)])
def test_errors_name_the_line(text, line):
    with pytest.raises(ParseError) as caught:
        fio_bwlog.parse(text)
    assert caught.value.line == line


def test_fill_points_keep_every_byte_and_the_drop():
    samples = fio_bwlog.parse(read("fio_bwlog--throttle-drop.out"))["samples"]
    points = card_entries.fill_points(card_entries.bwlog_spans(samples, total_bytes=DROP_TOTAL_BYTES,
                                                      total_seconds=DROP_RUNTIME_MS / 1000))
    assert len(points) == len(samples) + 1  # the last partial interval, from the summary
    assert points[-1]["written_gb"] == round(DROP_TOTAL_BYTES / 1e9, 4) and points[-1]["seconds"] == 44.813
    early = [p["value"] for p in points if p["written_gb"] < 1.0]
    late = [p["value"] for p in points if p["written_gb"] > 1.1]
    # The throttle's 60 and 15 MB/s, within two 1 MiB writes per 0.5 s sample (4.2 MB/s): a sample
    # counts whole writes, and one may complete just either side of its edge.
    assert all(abs(v - 60) <= 4.2 for v in early) and all(abs(v - 15) <= 4.2 for v in late)


def test_fill_points_merge_long_logs_exactly():
    samples = [{"ms": 500 * (i + 1), "kib_s": 1000 + i, "op": "write", "line": i + 1} for i in range(2500)]
    points = card_entries.fill_points(card_entries.bwlog_spans(samples), max_points=1000)
    assert len(points) == 834  # runs of three samples
    total = sum(s["kib_s"] * 1024 * 0.5 for s in samples)
    assert points[-1]["written_gb"] == round(total / 1e9, 4) and points[-1]["seconds"] == 1250.0
    assert points[0]["value"] == round((1000 + 1001 + 1002) * 1024 / 3 / 1e6, 3)


def test_reads_and_stalls_at_the_start_are_left_out():
    samples = [{"ms": 500, "kib_s": 0, "op": "write", "line": 1}, {"ms": 500, "kib_s": 9, "op": "read", "line": 2},
               {"ms": 1000, "kib_s": 2048, "op": "write", "line": 3}]
    assert (card_entries.fill_points(card_entries.bwlog_spans(samples))
            == [{"written_gb": 0.001, "value": 2.097, "seconds": 1.0}])


def test_a_live_fio_log(tmp_path):
    target = tmp_path / "file.img"
    target.write_bytes(b"")
    subprocess.run(["fio", "--name=live", f"--filename={target}", "--rw=write", "--bs=1M", "--size=32M",
                    "--rate=16m", "--write_bw_log=live", "--log_avg_msec=500", "--per_job_logs=0",
                    "--output-format=json", "--output=live.json"], cwd=tmp_path, check=True, capture_output=True)
    samples = fio_bwlog.parse((tmp_path / "live_bw.log").read_text())["samples"]
    summary = json.loads((tmp_path / "live.json").read_text())["jobs"][0]["write"]
    points = card_entries.fill_points(card_entries.bwlog_spans(samples, total_bytes=summary["io_bytes"],
                                                      total_seconds=summary["runtime"] / 1000))
    assert points[-1]["written_gb"] == round(32 * 2**20 / 1e9, 4)
    # --rate=16m is 16 MiB/s = 16.8 MB/s: fio holds it within two writes of 1 MiB per sample.
    assert all(abs(p["value"] - 16.777) <= 4.2 for p in points[:-1])
