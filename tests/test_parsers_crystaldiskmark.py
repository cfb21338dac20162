"""CrystalDiskMark 6/7/8 and KDiskMark text exports."""

import json
from pathlib import Path

import pytest

from cardbench.errors import ParseError
from cardbench.imports.read import decode_text
from cardbench.parsers.cdm import crystaldiskmark, kdiskmark
from cardbench.parsers.cdm.export_lines import window_test_name

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
    assert (first["test"], first["op"], first["value"], first["iops"], first["latency_us"]) == (
        "SEQ1M Q8T1", "read", 174.231, 166.2, 45903.11)
    assert parsed["unit"] == "MB/s" and parsed["mix_read_percent"] == 70 and parsed["missing"] == []
    assert [r["op"] for r in parsed["results"]].count("mix") == 4


def test_cdm7_utf16_file():
    raw = (FIXTURES / "crystaldiskmark" / "crystaldiskmark--cdm7-utf16.out").read_bytes()
    assert raw[:2] == b"\xff\xfe"
    parsed = crystaldiskmark.parse(decode_text(raw))
    assert ("RND4K Q32T16", "write", 2.951) in [(r["test"], r["op"], r["value"]) for r in parsed["results"]]


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
    assert parsed["unit"] == "kKiB/s"  # fio's KiB/s ÷ 1000, whatever its "MB/s" line says
    assert parsed["results"][2] == {"test": "RND4K Q32T1", "op": "read", "value": 6.403, "iops": 1600.8,
                                    "latency_us": 20453.18, "line": 10}


def test_two_exports_in_one_file():
    text = read("kdiskmark", "kdiskmark--default.out")
    assert len(kdiskmark.parse_all(text + "\n\n" + text)) == 2


def test_export_without_its_footer_gives_what_is_there():
    text = read("crystaldiskmark", "crystaldiskmark--cdm8-default-mix.out").split("Profile:")[0]
    parsed = crystaldiskmark.parse(text)
    assert len(parsed["results"]) == 12 and parsed["date"] is None and parsed["test_size"] is None
    assert parsed["missing"] == ["the footer ('Test:' line): test size, run count, date and system unknown"]


def test_last_section_cut_off_says_which_subtests_are_missing():
    text = read("crystaldiskmark", "crystaldiskmark--cdm8-default-mix.out").split("[Mix]")[0]
    text = text.split("  RND    4KiB (Q= 32, T= 1):     3.071")[0]
    parsed = crystaldiskmark.parse(text)
    assert [(r["test"], r["op"]) for r in parsed["results"]][-1] == ("SEQ1M Q1T1", "write")
    assert parsed["missing"][1] == "RND4K Q32T1, RND4K Q1T1 write (the text stops there)"


def test_section_short_in_the_middle_is_a_contradiction():
    lines = read("crystaldiskmark", "crystaldiskmark--cdm8-default-mix.out").splitlines()
    del lines[16]  # the last [Write] line; [Mix] and the footer follow
    with pytest.raises(ParseError, match=r"\[Write\] has subtests"):
        crystaldiskmark.parse("\n".join(lines))


def test_subtests_not_run_are_left_out_but_count_as_there():
    text = read("crystaldiskmark", "crystaldiskmark--cdm8-default-mix.out")
    text = text.replace("    91.118 MB/s [     86.9 IOPS] < 87698.00 us>",
                        "     0.000 MB/s [      0.0 IOPS] <     0.00 us>")
    parsed = crystaldiskmark.parse(text)
    assert ("SEQ1M Q8T1", "write") not in [(r["test"], r["op"]) for r in parsed["results"]]
    assert parsed["missing"] == []


@pytest.mark.parametrize("printed", ["     0.000 MB/s [    437.0 IOPS] <     0.00 us>",
                                     "     0.000 MB/s [      0.0 IOPS] < 87698.00 us>"])
def test_a_zero_figure_beside_iops_or_latency_is_refused_not_taken_for_not_run(printed):
    text = read("crystaldiskmark", "crystaldiskmark--cdm8-default-mix.out")
    line = "    91.118 MB/s [     86.9 IOPS] < 87698.00 us>"
    number = next(i for i, x in enumerate(text.splitlines(), 1) if line in x)
    with pytest.raises(ParseError, match="SEQ1M Q8T1 write is printed as 0 MB/s but with") as err:
        crystaldiskmark.parse(text.replace(line, printed))
    assert err.value.line == number


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


CORPUS = FIXTURES / "import-corpus" / "crystaldiskmark"


def corpus(name):
    return decode_text((CORPUS / name).read_bytes())


def test_cdm5_names():
    parsed = crystaldiskmark.parse(corpus("crystaldiskmark--cdm5.out"))
    assert [(r["test"], r["op"]) for r in parsed["results"]][::2] == [
        ("SEQ128K Q32T1", "read"), ("RND4K Q32T1", "read"), ("SEQ1M Q1T1", "read"), ("RND4K Q1T1", "read")]
    assert parsed["results"][2]["iops"] == 1492.7


@pytest.mark.parametrize("label, test", [
    ("SEQ1M Q8T1", "SEQ1M Q8T1"), ("RND4K Q32T16", "RND4K Q32T16"), ("SEQ128K Q32T1", "SEQ128K Q32T1"),
    ("Seq Q32T1", "SEQ128K Q32T1"), ("4KiB Q8T8", "RND4K Q8T8"), ("4KiB Q1T1", "RND4K Q1T1"),
    ("4K Q32T1", "RND4K Q32T1"), ("Seq", "SEQ1M Q1T1"), ("512K", "RND512K Q1T1"), ("4K", "RND4K Q1T1"),
    ("4K QD32", "RND4K Q32T1"), ("Sequential", None),
])
def test_window_labels(label, test):
    assert window_test_name(label) == test


def test_window_table_with_translated_headings():
    parsed = crystaldiskmark.parse(corpus("crystaldiskmark--cdm8-window-table-de.out"))
    assert parsed["layout"] == "window" and parsed["version"] == "8.0.4"
    assert [(r["test"], r["op"], r["value"]) for r in parsed["results"]][:2] == [
        ("SEQ1M Q8T1", "read", 89.77), ("SEQ1M Q8T1", "write", 58.12)]
    assert parsed["missing"] == ["test size, run count and date (a copy of the window has none)"]


def test_markdown_table_and_columns_in_either_order():
    parsed = crystaldiskmark.parse(corpus("crystaldiskmark--cdm7-window-markdown-fr.out"))
    assert ("RND4K Q32T16", "write", 8.9) in [(r["test"], r["op"], r["value"]) for r in parsed["results"]]
    swapped = crystaldiskmark.parse("   Write [MB/s]   Read [MB/s]\nSEQ1M Q8T1   60.1   90.2\n")
    assert [(r["op"], r["value"]) for r in swapped["results"]] == [("write", 60.1), ("read", 90.2)]


def test_labelled_lines_in_translation_with_iops_and_latency():
    parsed = crystaldiskmark.parse("SEQ1M Q8T1 Lesen: 90.12 MB/s [86.0 IOPS] <92998.5 us>\n"
                                   "SEQ1M Q8T1 Schreiben: 60.34 MB/s [57.5 IOPS] <139130.4 us>\n")
    assert [(r["op"], r["value"], r["iops"], r["latency_us"]) for r in parsed["results"]] == [
        ("read", 90.12, 86.0, 92998.5), ("write", 60.34, 57.5, 139130.4)]


def test_window_table_in_gb_s_is_refused():
    with pytest.raises(ParseError, match="pick MB/s") as err:
        crystaldiskmark.parse("      Read [GB/s]   Write [GB/s]\nSEQ1M Q8T1   0.090   0.060\n")
    assert err.value.line == 1


def test_window_table_row_with_a_figure_missing():
    with pytest.raises(ParseError, match="1 figure") as err:
        crystaldiskmark.parse("      Read [MB/s]   Write [MB/s]\nSEQ1M Q8T1   90.1\n")
    assert err.value.line == 2


def test_export_stating_binary_megabytes_keeps_mib_s():
    text = ("CrystalDiskMark 2.2 (C) 2007-2008 hiyohiyo\n* MB/s = 1,048,576 byte/s\n\n"
            "           Sequential Read :   20.117 MB/s\n          Sequential Write :    9.003 MB/s\n\n"
            "  Test : 100 MB (x5)\n")
    parsed = crystaldiskmark.parse(text)
    assert parsed["unit"] == "MiB/s" and [r["value"] for r in parsed["results"]] == [20.117, 9.003]


def test_early_kdiskmark_export_is_kdiskmark():
    text = decode_text((FIXTURES / "import-corpus" / "kdiskmark" / "kdiskmark--early-header.out").read_bytes())
    assert kdiskmark.detect(text) == 2
    parsed = kdiskmark.parse(text)
    assert (parsed["tool"], parsed["version"], parsed["unit"], parsed["date"]) == ("KDiskMark", None, "kKiB/s",
                                                                                  "2020-07-04")


def test_detection_reads_the_table_header_only_when_a_table_row_is_there(monkeypatch):
    # 20 MB of lines like '****' took 25 s to detect: the header check read every character of every
    # line. It now runs only once a row of the window's table is found; counted, not timed.
    from cardbench.parsers import NOT_MINE

    calls = []
    real = crystaldiskmark.table_columns
    monkeypatch.setattr(crystaldiskmark, "table_columns", lambda line: calls.append(line) or real(line))
    assert crystaldiskmark.detect("*" * 99 + "\n" * 1 + ("-" * 70 + "\n") * 1000) == NOT_MINE
    assert calls == []
