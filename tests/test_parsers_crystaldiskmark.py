"""CrystalDiskMark 6/7/8 and KDiskMark text exports."""

import json
from pathlib import Path

import pytest

from cardbench.errors import ParseError
from cardbench.imports.read import decode_text
from cardbench.parsers import crystaldiskmark, kdiskmark

FIXTURES = Path(__file__).parent / "fixtures"


def read(tool, name):
    return decode_text((FIXTURES / tool / name).read_bytes())


@pytest.mark.parametrize("tool, module", [("crystaldiskmark", crystaldiskmark), ("kdiskmark", kdiskmark)])
def test_fixtures_parse_to_expected(tool, module):
    cases = sorted(p.stem for p in (FIXTURES / tool).glob(f"{tool}--*.json"))
    assert cases
    for case in cases:
        assert module.parse(read(tool, f"{case}.out")) == json.loads(read(tool, f"{case}.json")), case


def test_cdm8_default_with_mix():
    parsed = crystaldiskmark.parse(read("crystaldiskmark", "crystaldiskmark--cdm8-default-mix.out"))
    assert (parsed["version"], parsed["profile"], parsed["test_size"], parsed["test_count"], parsed["date"]) == (
        "8.0.4", "Default", "1 GiB", 5, "2024-03-02")
    assert parsed["mix_ratio"] == "Read 70%/Write 30%"
    first = parsed["results"][0]
    assert (first["test"], first["op"], first["mb_s"], first["iops"], first["latency_us"]) == (
        "SEQ1M Q8T1", "read", 174.231, 166.2, 45903.11)
    assert [r["op"] for r in parsed["results"]].count("mix") == 4


def test_cdm7_utf16_file():
    raw = (FIXTURES / "crystaldiskmark" / "crystaldiskmark--cdm7-utf16.out").read_bytes()
    assert raw[:2] == b"\xff\xfe"
    parsed = crystaldiskmark.parse(decode_text(raw))
    assert ("RND4K Q32T16", "write", 2.951) in [(r["test"], r["op"], r["mb_s"]) for r in parsed["results"]]


def test_cdm6_names():
    parsed = crystaldiskmark.parse(read("crystaldiskmark", "crystaldiskmark--cdm6.out"))
    assert [(r["test"], r["op"]) for r in parsed["results"]][:3] == [
        ("SEQ128K Q32T1", "read"), ("SEQ128K Q32T1", "write"), ("RND4K Q8T8", "read")]
    assert parsed["test_size"] == "1024 MiB" and parsed["profile"] is None


def test_cdm3_names():
    text = ("           Sequential Read :   505.825 MB/s\n          Sequential Write :   189.856 MB/s\n"
            "         Random Read 512KB :   381.142 MB/s\n        Random Write 512KB :   190.461 MB/s\n"
            "    Random Read 4KB (QD=1) :    25.206 MB/s [  6153.8 IOPS]\n"
            "   Random Write 4KB (QD=1) :    63.703 MB/s [ 15552.6 IOPS]\n"
            "   Random Read 4KB (QD=32) :   271.859 MB/s [ 66371.9 IOPS]\n"
            "  Random Write 4KB (QD=32) :   174.695 MB/s [ 42650.1 IOPS]\n\n"
            "  Test : 1000 MB [C: 33.0% (39.3/119.1 GB)] (x5)\n")
    parsed = crystaldiskmark.parse(text)
    assert [r["test"] for r in parsed["results"][::2]] == ["SEQ1M Q1T1", "RND512K Q1T1", "RND4K Q1T1", "RND4K Q32T1"]


def test_kdiskmark():
    parsed = kdiskmark.parse(read("kdiskmark", "kdiskmark--default.out"))
    assert (parsed["tool"], parsed["version"], parsed["fio_version"]) == ("KDiskMark", "3.2.0", "fio-3.33")
    assert parsed["results"][2] == {"test": "RND4K Q32T1", "op": "read", "mb_s": 6.403, "iops": 1563.2,
                                    "latency_us": 20453.18, "line": 10}


def test_two_exports_in_one_file():
    text = read("kdiskmark", "kdiskmark--default.out")
    assert len(kdiskmark.parse_all(text + "\n\n" + text)) == 2


def test_cut_off_export():
    text = read("crystaldiskmark", "crystaldiskmark--cdm8-default-mix.out").split("Profile:")[0]
    with pytest.raises(ParseError, match="footer"):
        crystaldiskmark.parse(text)


def test_cut_off_result_line_is_named():
    text = read("crystaldiskmark", "crystaldiskmark--cdm8-default-mix.out").replace(
        "  RND    4KiB (Q=  1, T= 1):     2.204 MB/s [    538.1 IOPS] <  1857.05 us>", "  RND    4KiB (Q=  1, T=")
    with pytest.raises(ParseError) as err:
        crystaldiskmark.parse(text)
    assert err.value.line == 18


def test_subtest_twice_is_a_contradiction():
    lines = read("kdiskmark", "kdiskmark--default.out").splitlines()
    lines[9] = lines[8]
    with pytest.raises(ParseError, match="twice") as err:
        kdiskmark.parse("\n".join(lines))
    assert err.value.line == 10


def test_sections_with_different_subtests():
    lines = read("kdiskmark", "kdiskmark--default.out").splitlines()
    del lines[14]
    with pytest.raises(ParseError, match="subtests"):
        kdiskmark.parse("\n".join(lines))


def test_not_an_export():
    with pytest.raises(ParseError):
        crystaldiskmark.parse("hello\n")


def test_number_of_thousands_of_digits_names_its_line():
    text = ("CrystalDiskMark 8.0.4\n[Read]\n  SEQ    1MiB (Q=  " + "9" * 5000 + ", T= 1):   543.188 MB/s\n"
            "Test: 1 GiB (x5)\n")
    with pytest.raises(ParseError, match="more than 100 digits") as err:
        crystaldiskmark.parse(text)
    assert err.value.line == 3


def test_footer_values_are_stripped():
    text = ("CrystalDiskMark 8.0.4\n[Read]\n  SEQ    1MiB (Q=  8, T= 1):   543.188 MB/s\n"
            "  Profile :   Peak   \n    Test :  1 GiB (x5)   \n      OS :   Windows 10  \n")
    parsed = crystaldiskmark.parse(text)
    footer = (parsed["profile"], parsed["test_size"], parsed["test_count"], parsed["os"])
    assert footer == ("Peak", "1 GiB", 5, "Windows 10")
