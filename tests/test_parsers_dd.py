"""dd summary parser: coreutils 9.1 output in several languages (fixtures) and a live run."""

import json
import os
import subprocess
from pathlib import Path

import pytest

from cardbench.errors import ParseError
from cardbench.parsers import NOT_MINE, SHAPED
from cardbench.parsers.dd import tool as dd

FIXTURES = Path(__file__).parent / "fixtures" / "dd"


def read(name):
    # Bytes decoded without newline translation, so status=progress keeps its carriage returns.
    return (FIXTURES / name).read_bytes().decode("utf-8")


@pytest.mark.parametrize("case", sorted(p.stem for p in FIXTURES.glob("dd--*.json")))
def test_fixture_parses_to_expected(case):
    assert dd.parse(read(f"{case}.out")) == json.loads(read(f"{case}.json"))


@pytest.mark.parametrize("name, rates, unit", [
    ("dd--c-write-3-runs.out", [20.5, 19.7, 19.2], "MB/s"),
    ("dd--de-read-3-runs.out", [40.4, 43.1, 37.2], "MB/s"),
    ("dd--fr.out", [41.4], "MB/s"),
    ("dd--ko.out", [42.3], "MB/s"),
    ("dd--zh.out", [42.1], "MB/s"),
    ("dd--uk.out", [37.7], "MB/s"),
    ("dd--de-gb-per-s.out", [1.1], "GB/s"),
    ("dd--kb-per-s.out", [0.5, 0.5], "kB/s"),
    ("dd--coreutils8-tail.out", [76.0, 76.1, 76.0, 75.5, 75.9], "MB/s"),
])
def test_rates_and_units(name, rates, unit):
    runs = dd.parse(read(name))["runs"]
    assert [r["rate"] for r in runs] == rates
    assert {r["rate_unit"] for r in runs} == {unit}


def test_mb_s_is_decimal():
    run, = dd.parse("1 byte copied, 0.000239 s, 4.2 kB/s\n")["runs"]
    assert run["mb_s"] == pytest.approx(0.0042)
    run, = dd.parse("268435456 Bytes (268 MB, 256 MiB) kopiert, 0,0380507 s, 7,1 GB/s\n")["runs"]
    assert run["mb_s"] == pytest.approx(7100) and run["seconds"] == pytest.approx(0.0380507)


def test_progress_updates_are_not_runs():
    text = read("dd--status-progress.out")
    assert "\r" in text
    runs = dd.parse(text)["runs"]
    assert len(runs) == 1 and runs[0]["seconds"] == pytest.approx(4.11853)
    # the same text after universal-newline reading (carriage returns became line ends)
    assert dd.parse(text.replace("\r", "\n"))["runs"] == [dict(runs[0], line=runs[0]["line"] + 4)]


def test_bsd_layout():
    run, = dd.parse("1073741824 bytes transferred in 12.7 secs (84300000 bytes/sec)\n")["runs"]
    assert run["mb_s"] == pytest.approx(84.3) and run["bytes"] == 1073741824


def test_records_only_is_an_error():
    with pytest.raises(ParseError) as err:
        dd.parse("8+0 records in\n8+0 records out\n")
    assert err.value.tool == "dd" and err.value.line == 2


def test_infinite_rate_names_the_line():
    with pytest.raises(ParseError) as err:
        dd.parse("1+0 records in\n1+0 records out\n1 byte copied, 0 s, Infinity B/s\n")
    assert err.value.line == 3


def test_live_dd_run(tmp_path):
    source = tmp_path / "source"
    source.write_bytes(b"\0" * 65536)
    env = dict(os.environ, LC_ALL="C")
    out = subprocess.run(["dd", f"if={source}", f"of={tmp_path / 'copy'}", "bs=4096", "count=16"],
                         capture_output=True, text=True, env=env, check=True).stderr
    run, = dd.parse(out)["runs"]
    assert run["bytes"] == 65536


@pytest.mark.parametrize("line, printed, actual", [
    # c-write-3-runs with its first rate replaced: 33554432 B / 1.63627 s is 20.5 MB/s
    ("33554432 bytes (34 MB, 32 MiB) copied, 1.63627 s, 90.5 MB/s", "90.5 MB/s", "20.5 MB/s"),
    ("33554432 Bytes (34 MB, 32 MiB) kopiert, 0,83025 s, 4,4 MB/s", "4,4 MB/s", "40.4 MB/s"),
    ("268435456 Bytes (268 MB, 256 MiB) kopiert, 0,247099 s, 1,3 GB/s", "1,3 GB/s", "1.09 GB/s"),
    ("1024 bytes (1.0 kB, 1.0 KiB) copied, 2.01371 s, 0.6 kB/s", "0.6 kB/s", "0.509 kB/s"),
    ("1073741824 bytes (1.1 GB) copied, 14.1356 s, 76.5 MB/s", "76.5 MB/s", "76 MB/s"),
    ("1073741824 bytes transferred in 12.700000 secs (94300000 bytes/sec)", "94300000 B/s", "8.45e+07 B/s"),
])
def test_rate_that_bytes_and_seconds_contradict_is_refused(line, printed, actual):
    with pytest.raises(ParseError) as err:
        dd.parse("8+0 records in\n8+0 records out\n" + line + "\n")
    assert err.value.line == 3 and err.value.text == line
    assert printed.split()[0] in err.value.message and actual in err.value.message


@pytest.mark.parametrize("line", [
    # the last digit of the rate and of the seconds are rounded: either way by half a unit is fine
    "33554432 bytes (34 MB, 32 MiB) copied, 1.63627 s, 20.5 MB/s",  # 20.507
    "20550000 bytes (21 MB, 20 MiB) copied, 1.00000 s, 20.6 MB/s",  # 20.55: dd rounds half up
    "20550000 bytes (21 MB, 20 MiB) copied, 1.00000 s, 20.5 MB/s",  # the same in the other direction
    "1 byte copied, 0.000239 s, 4.2 kB/s",
    "1 byte copied, 2.6509e-05 s, 37.7 kB/s",
    "3145728 Bytes (3,1 MB, 3,0 MiB) kopiert, 0,0038 s, 830 MB/s",  # 827.8, seconds to 4 places
    "0 bytes copied, 0.000123 s, 0.0 kB/s",
    "1073741824 bytes transferred in 12.7 secs (84300000 bytes/sec)",  # 12.65..12.75 s: 84.2..84.9 MB/s
])
def test_rate_within_its_printed_rounding_is_accepted(line):
    dd.parse(line + "\n")


def test_record_lines_alone_are_told_as_dd_and_refused_for_holding_no_speed():
    """BusyBox built without its status line prints only the two record lines, in any language."""
    for text in ("64+0 records in\n64+0 records out\n", "64+0 Datensätze ein\n64+0 Datensätze aus\n"):
        assert dd.detect(text) == SHAPED
        with pytest.raises(ParseError, match="only record counts"):
            dd.parse(text)
    assert dd.detect("64+0 records in\n") == NOT_MINE  # one such line alone could be anything
    assert dd.detect("3+4 = 7\nx\n") == NOT_MINE


def test_a_file_read_into_dev_zero_is_a_read_of_the_file():
    from cardbench.parsers.dd.card import card_side
    assert card_side("/root/data", "/dev/zero") == ("read", "file")  # /dev/zero discards what is written, as /dev/null
    assert card_side("/dev/zero", "/root/data") == ("write", "file")


def test_a_decimal_dd_block_size_is_a_size_the_site_reads():
    """bs=8MB is dd's 8 × 10^6 bytes; the card keeps it as written and the ranking reads it (it crashed)."""
    from cardbench.core.units import bytes_from_size_text
    assert bytes_from_size_text("8MB") == 8_000_000 and bytes_from_size_text("1kB") == 1000
    assert bytes_from_size_text("4M") == 4 * 1024 ** 2 and bytes_from_size_text("4MiB") == 4 * 1024 ** 2
