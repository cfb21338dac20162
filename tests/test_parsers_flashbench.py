"""flashbench parser: flashbench 62 output on a loop device (fixtures) and published layouts."""

import json
from pathlib import Path

import pytest

from cardbench.errors import ParseError
from cardbench.parsers import flashbench

FIXTURES = Path(__file__).parent / "fixtures" / "flashbench"


def read(name):
    return (FIXTURES / name).read_bytes().decode("utf-8")


@pytest.mark.parametrize("case", sorted(p.stem for p in FIXTURES.glob("flashbench--*.json")))
def test_fixture_parses_to_expected(case):
    assert flashbench.parse(read(f"{case}.out")) == json.loads(read(f"{case}.json"))


def test_align_units_to_ns():
    points = flashbench.parse(read("flashbench--align.out"))["points"]
    assert len(points) == 22
    first = points[0]
    assert first == {"offset_bytes": 4294967296, "pre_ns": 76300, "on_ns": 66900, "post_ns": 73000, "diff_ns": -7753}
    assert points[-1]["offset_bytes"] == 2048


def test_align_diff_cut_to_seven_characters():
    # flashbench prints into 7 characters: "-14207ns" loses its "s".
    third = flashbench.parse(read("flashbench--align.out"))["points"][2]
    assert third["diff_ns"] == -14207


@pytest.mark.parametrize("row, diff_ns", [
    # Rows of our flashbench 62 runs on a loop device whose reads an IOPS limit held up now and then.
    ("align 16777216\tpre 25.7µs\ton 22.1µs\tpost 585µs\tdiff -283195", -283195),  # "-283195ns" lost "ns"
    ("align 4294967296\tpre 416µs\ton 21.8µs\tpost 19.1µs\tdiff -195937", -195937),
    ("align 8192\tpre 13.7ms\ton 11.9µs\tpost 11.1µs\tdiff -685259", -6852590),  # lost a digit as well
    ("align 262144\tpre 23.7ms\ton 18.9µs\tpost 17.3µs\tdiff -118552", -11855200),  # lost two
    ("align 8388608\tpre 22.2µs\ton 13.1ms\tpost 18.4µs\tdiff 13.1ms", 13.1e6),
    ("align 1073741824\tpre 60.2µs\ton 42.8µs\tpost 53.8µs\tdiff -14207n", -14207),
    ("align 65536\tpre 45.8us\ton 45.3us\tpost 49.5us\tdiff -2391ns", -2391),
    ("align 2048\tpre 999µs\ton 1e+03µ\tpost 998µs\tdiff 1.5µs", 1500),  # "1e+03µs" cut inside its unit
    ("align 2048\tpre 1.2ms\ton 1.3ms\tpost 1.2ms\tdiff -2500", -2500),  # a bare number in ns
])
def test_printed_diff_is_stored_in_every_width(row, diff_ns):
    assert flashbench.parse_align(row)["points"][0]["diff_ns"] == pytest.approx(diff_ns)


def test_throttled_scan_keeps_the_printed_diffs():
    points = flashbench.parse(read("flashbench--align-throttled.out"))["points"]
    worked_out = [p["on_ns"] - (p["pre_ns"] + p["post_ns"]) / 2 for p in points]
    # The printed figure, not one worked out from the rounded times: they differ by that rounding.
    assert points[0]["diff_ns"] == -195937 and worked_out[0] == pytest.approx(-195750)
    for point, estimate in zip(points, worked_out):
        assert abs(point["diff_ns"] - estimate) <= 0.005 * (point["pre_ns"] + point["on_ns"] + point["post_ns"]) + 1


def test_aligned_at_layout():
    parsed = flashbench.parse(read("flashbench--align-aligned-at.out"))
    assert parsed["kind"] == "align"
    assert parsed["points"][0] == {"offset_bytes": 4294967296, "delay_ns": 1714870}
    assert parsed["points"][-1] == {"offset_bytes": 2048, "delay_ns": 47241}


def test_open_au_values_and_sizes():
    parsed = flashbench.parse(read("flashbench--open-au-sequential.out"))
    assert parsed["kind"] == "open_au" and parsed["interrupted"] is False
    assert parsed["points"][0] == {"block_size_bytes": 4 * 1024 * 1024, "value": 19.9}
    assert parsed["points"][-1] == {"block_size_bytes": 16 * 1024, "value": 5.91}


def test_open_au_interrupted():
    assert flashbench.parse(read("flashbench--open-au-ctrl-c.out"))["interrupted"] is True
    stopped = read("flashbench--open-au-stopped.out")
    assert flashbench.parse(stopped)["interrupted"] is False  # nothing in the text says so
    assert flashbench.parse_open_au(stopped, smallest_block_bytes=4096)["interrupted"] is True
    full = read("flashbench--open-au-sequential.out")
    assert flashbench.parse_open_au(full, smallest_block_bytes=16384)["interrupted"] is False


def test_find_fat_rows():
    parsed = flashbench.parse(read("flashbench--find-fat.out"))
    assert parsed["kind"] == "find_fat"
    assert [r["block_size_bytes"] for r in parsed["rows"]] == [4 << 20, 2 << 20, 1 << 20, 512 << 10, 256 << 10,
                                                               128 << 10, 64 << 10]
    assert parsed["rows"][0]["values"] == [19.7, 20.1, 19.8, 20.2, 19.8, 26.6]


def test_rate_units():
    parsed = flashbench.parse_open_au("4MiB    1.2G/s\n2MiB    900K/s\n1MiB    512B/s\n")
    assert [p["value"] for p in parsed["points"]] == [1200, 0.9, 0.000512]


@pytest.mark.parametrize("text, line", [
    ("4MiB    19.9M/s\n2MiB    fast\n", 2),
    ("align 4096\tpre 57.6µs\ton 56.6µs\n", 1),
    ("4MiB    19.9M/s\n2 MiB    19.8 M/s\n", 2),
    ("2MiB\n", 1),
])
def test_bad_rows_name_the_line(text, line):
    with pytest.raises(ParseError) as err:
        flashbench.parse(text)
    assert err.value.tool == "flashbench" and err.value.line == line


def test_lines_that_are_no_row_are_skipped():
    text = ("Making sure the device has no mounted partitions\nsched_setscheduler: Operation not permitted\n"
            "4MiB    19.9M/s\n[2/9] still writing\n2MiB    19.8M/s\n")
    assert [p["value"] for p in flashbench.parse(text)["points"]] == [19.9, 19.8]


def test_runs_pasted_one_after_another_are_cut_apart():
    text = "4MiB    19.9M/s\n2MiB    19.8M/s\nnext\n4MiB    9.9M/s\n2MiB    9.8M/s\n1MiB    9.7M/s\n"
    runs = flashbench.runs(text)
    assert [first for first, _ in runs] == [1, 4]
    assert [len(flashbench.parse(run)["points"]) for _, run in runs] == [2, 3]
    assert runs[1][1].splitlines()[0] == "4MiB    9.9M/s" and runs[0][1].endswith("next")
    assert flashbench.runs(read("flashbench--align.out")) == [(1, read("flashbench--align.out"))]


def test_open_au_with_many_columns_is_refused():
    with pytest.raises(ParseError):
        flashbench.parse_open_au(read("flashbench--find-fat.out"))


def test_open_au_rate_cut_to_seven_characters():
    # flashbench prints rates in 7 characters: a rate of 1 G/s or more loses its "s".
    from cardbench.parsers import flashbench

    parsed = flashbench.parse_open_au("4MiB    1.462G/ \n2MiB    19.6M/s \n")
    assert [p["value"] for p in parsed["points"]] == [1462.0, 19.6]


@pytest.mark.parametrize("text", ["align " + "9" * 5000 + " pre 1ms on 1ms post 1ms diff 1ns\n",
                                  "9" * 400 + "MiB 1M/s\n"])
def test_number_of_hundreds_of_digits_names_its_line(text):
    # int() refused 5000 digits (ValueError); float() made 400 digits infinite (OverflowError in int()).
    with pytest.raises(ParseError, match="more than 100 digits") as err:
        flashbench.parse("$ ./flashbench -a /dev/sdb\n" + text)
    assert err.value.line == 2
