"""fio's JSON repeats keys where a short --percentile_list rounds to one: that real output imports, and a
repeated key is refused only where it holds a figure, name or option the import reads."""

import re
from pathlib import Path

import pytest

from cardbench.errors import ParseError
from cardbench.parsers.fio import json_output as fio_json
from cardbench.parsers import nvme

FIXTURE = Path(__file__).parent / "fixtures" / "fio" / "fio--percentile-list-duplicate-keys.out"
TEXT = FIXTURE.read_text(encoding="utf-8")


def test_the_real_output_repeats_a_key_in_one_object():
    block = re.search(r'"percentile" : \{([^}]*)\}', TEXT).group(1)
    assert block.count('"0.000000" : 410') == 3


def test_the_real_output_parses_with_the_figures_fio_printed():
    [entry] = fio_json.parse(TEXT)["jobs"]
    assert entry["test"] == "RND4K Q1T1" and entry["op"] == "read"
    assert entry["bw_bytes"] == 65159544 and entry["iops"] == pytest.approx(15908.091908)
    assert entry["lat_us"]["p50"] == 8.256 and entry["lat_us"]["p99"] == 1712.128


@pytest.mark.parametrize("line, twice", [
    ('"bw" : 63632,', '"bw" : 63632, "bw" : 99999,'),
    ('"iops" : 15908.091908,', '"iops" : 15908.091908, "iops" : 1.0,'),
    ('"bw_bytes" : 65159544,', '"bw_bytes" : 65159544, "bw_bytes" : 1,'),
    ('"io_bytes" : 130449408,', '"io_bytes" : 130449408, "io_bytes" : 1,'),
    ('"runtime" : 2002,', '"runtime" : 2002, "runtime" : 1,'),
    ('"bs" : "4k",', '"bs" : "4k", "bs" : "1m",'),
    ('"jobname" : "RND4K_Q1T1_read",', '"jobname" : "RND4K_Q1T1_read", "jobname" : "other",'),
    ('"99.000000" : 1712128', '"99.000000" : 1712128, "99.000000" : 5'),
])
def test_a_repeated_key_the_import_reads_is_refused_naming_its_line(line, twice):
    assert TEXT.count(line) == 1
    number = TEXT[:TEXT.index(line)].count("\n") + 1
    key = line.split('"')[1]
    with pytest.raises(ParseError, match=f"the key '{re.escape(key)}' comes twice") as err:
        fio_json.parse(TEXT.replace(line, twice))
    assert err.value.line == number


@pytest.mark.parametrize("line, twice", [
    ('"usr_cpu" : 1.049475,', '"usr_cpu" : 1.049475, "usr_cpu" : 7.0,'),
    ('"99.000000" : 1712128', '"99.000000" : 1712128, "99.000000" : 1712128'),  # the same figure twice
    ('"50.000000" : 8256,', '"50.000000" : 8256, "50.000000" : 8256,'),
])
def test_a_repeated_key_the_import_does_not_read_is_accepted(line, twice):
    assert TEXT.count(line) == 1
    [entry] = fio_json.parse(TEXT.replace(line, twice))["jobs"]
    assert entry["bw_bytes"] == 65159544


def test_nvme_json_still_refuses_every_repeated_key():
    text = '{\n  "critical_warning" : 0,\n  "temperature" : 303,\n  "temperature" : 350,\n  "avail_spare" : 100\n}\n'
    with pytest.raises(ParseError, match="comes twice"):
        nvme.parse(text)
