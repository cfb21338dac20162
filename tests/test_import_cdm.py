"""Importing CrystalDiskMark, KDiskMark and cdm_fio.sh output: figures kept as the tool printed them, in
the tool's own unit (KDiskMark's "MB/s" is 1000 KiB/s), bandwidth checked against IOPS × block size
before anything is written, and what the text lacks (a footer, a Configuration line) said or asked for."""

from pathlib import Path

import pytest

from cardbench.card.load import load_card
from cardbench.errors import ParseError
from cardbench.imports.figure_check import check_bandwidth_iops
from cardbench.imports.importer import import_file
from cardbench.figures.aggregate import aggregate

from cliimport import run_import

FIXTURES = Path(__file__).parent / "fixtures"
CORPUS = FIXTURES / "import-corpus"
KDISKMARK = FIXTURES / "kdiskmark" / "kdiskmark--default.out"


def session_of(cards, slug="test-card"):
    return load_card(cards / f"{slug}.yaml").data["sessions"][-1]


def kdiskmark_text(read_value, read_iops):
    """The KDiskMark fixture with its first line (SEQ1M Q8T1 read) replaced."""
    lines = KDISKMARK.read_text(encoding="utf-8").splitlines()
    body = f"Sequential 1 MiB (Q= 8, T= 1): {read_value:9.3f} MB/s [ {read_iops:8.1f} IOPS] < 16097.56 us>"
    lines[7] = body.rjust(80)
    return "\n".join(lines) + "\n"


def test_kdiskmark_figure_is_kept_in_its_unit_and_shown_in_mb_s(cards, tmp_path):
    # KDiskMark adds fio's KiB/s and divides by 1000: 497.0 IOPS x 1 MiB = 521.1 MB/s prints as 508.897.
    path = tmp_path / "kdiskmark.txt"
    path.write_text(kdiskmark_text(508.897, 497.0), encoding="utf-8")
    result = import_file(path, cards, "test-card", name="Lexar PLAY PRO microSD Express 1TB")
    assert result.format == "kdiskmark"
    entry = session_of(cards)["results"][0]
    assert (entry["test"], entry["op"], entry["unit"], entry["runs"], entry["iops"]) == (
        "SEQ1M Q8T1", "read", "kKiB/s", [508.897], [497.0])
    card = load_card(cards / "test-card.yaml").data
    shown = aggregate([card])["cards"]["test-card"]["sessions"][0]["subtests"]
    seq = next(s for s in shown if (s["test"], s["op"]) == ("SEQ1M Q8T1", "read"))
    assert seq["mb_s"]["mean"] == pytest.approx(497.0 * 2**20 / 1e6, rel=1e-4)  # 521.1 MB/s, not 508.9
    assert seq["printed"]["unit"] == "kKiB/s" and seq["printed"]["mean"] == 508.897


def test_kdiskmark_figure_read_as_mb_s_is_refused_naming_the_unit():
    # What the import did before: the printed figure stored as MB/s. Its IOPS say otherwise.
    results = [{"test": "SEQ1M Q8T1", "op": "read", "unit": "MB/s", "runs": [508.897], "iops": [497.0]}]
    with pytest.raises(ParseError) as err:
        check_bandwidth_iops("KDiskMark", {"results": results})
    message = err.value.message
    assert "SEQ1M Q8T1 read" in message and "508.897 MB/s but 497 IOPS × 1 MiB = 521.142 MB/s" in message
    assert "its figures read as MB/s = 10^6 bytes/s" in message


def test_crystaldiskmark_whose_iops_disagree_is_refused_and_nothing_written(cards, tmp_path, capsys):
    text = (CORPUS / "crystaldiskmark" / "crystaldiskmark--cdm8-default.out").read_text(encoding="utf-8")
    path = tmp_path / "cdm.txt"
    path.write_text(text.replace("[     89.9 IOPS]", "[     92.1 IOPS]"), encoding="utf-8")
    code, err, card = run_import(path, cards, capsys)
    assert code == 2 and not card.exists()
    assert "SEQ1M Q8T1 read: bandwidth and IOPS disagree: 94.312 MB/s but 92.1 IOPS × 1 MiB" in err
    assert "its figures read as MB/s = 10^6 bytes/s, the block size 1 MiB from the name" in err


def test_crystaldiskmark_without_its_footer_lands_and_says_what_is_missing(cards):
    path = CORPUS / "crystaldiskmark" / "crystaldiskmark--cdm8-no-footer.out"
    result = import_file(path, cards, "test-card", name="Acme Fast 64GB")
    assert result.entries == 8
    assert ("Missing from the text: the footer ('Test:' line): test size, run count, date and system unknown."
            in result.notes)
    assert "Missing from the text" in session_of(cards)["notes"]


def test_older_versions_keep_their_own_tests(cards):
    import_file(CORPUS / "crystaldiskmark" / "crystaldiskmark--cdm3.out", cards, "test-card", name="Acme Fast 8GB")
    tests = [(r["test"], r["op"]) for r in session_of(cards)["results"]]
    # Sequential (1 MiB, Q1) and 4K QD32 are CrystalDiskMark 8's SEQ1M Q1T1 and RND4K Q32T1; 512K random is its own.
    assert tests[::2] == [("SEQ1M Q1T1", "read"), ("RND512K Q1T1", "read"), ("RND4K Q1T1", "read"),
                          ("RND4K Q32T1", "read")]


def test_mix_section_records_its_read_share(cards):
    import_file(CORPUS / "crystaldiskmark" / "crystaldiskmark--cdm8-peak-mix.out", cards, "test-card",
                name="Acme Fast 64GB")
    mixed = [r for r in session_of(cards)["results"] if r["op"] == "mix"]
    assert [r["mix_read_percent"] for r in mixed] == [70, 70]
    assert all("mix_read_percent" not in r for r in session_of(cards)["results"] if r["op"] != "mix")


def test_cdm_fio_without_configuration_takes_the_size_its_iops_fit(cards):
    # Our own run with Size 256m, pasted without its Configuration line: "Sequential Q32T1 Read:
    # 38MB/s IOPS=4" fits 8 MiB blocks, i.e. Size 256m, where the default 1024m gave SEQ32M names.
    result = import_file(CORPUS / "cdm_fio" / "cdm_fio--size256-no-configuration.out", cards, "test-card",
                         name="Acme Fast 64GB")
    tests = [r["test"] for r in session_of(cards)["results"]][::2]
    assert tests == ["SEQ256M Q1T1", "SEQ512K Q1T1", "SEQ8M Q32T1", "RND4K Q1T1", "RND4K Q32T1", "RND4K Q8T8"]
    assert "not in the log; from bandwidth ÷ IOPS of Sequential Q32T1 Read: 38MB/s IOPS=4" in result.notes[0]


def test_cdm_fio_size_that_fits_nothing_is_asked_for(cards, capsys):
    path = CORPUS / "cdm_fio" / "cdm_fio--size100-no-configuration.out"
    code, err, _ = run_import(path, cards, capsys)
    assert code == 2 and "default Size 1024m cannot be right" in err and "Add the script's Configuration line" in err


def test_a_size_assumption_is_named_when_the_figures_disagree():
    results = [{"test": "SEQ32M Q32T1", "op": "read", "unit": "MiB/s", "runs": [38], "iops": [4]}]
    assumption = "Size 1024m, the script's default, for the Sequential block sizes"
    with pytest.raises(ParseError) as err:
        check_bandwidth_iops("cdm_fio.sh", {"results": results}, assumption)
    assert "38 MiB/s but 4 IOPS × 32 MiB = 128 MiB/s" in err.value.message
    assert err.value.message.endswith(f"the block size 32 MiB from the name; {assumption}. One of these is wrong for "
                                      "this file")


def test_floored_figures_agree_within_their_precision():
    # cdm_fio.sh floors both: 5 MiB/s with 1328 IOPS at 4 KiB is 5.19 MiB/s.
    results = [{"test": "RND4K Q1T1", "op": "read", "unit": "MiB/s", "runs": [5], "iops": [1328]}]
    check_bandwidth_iops("cdm_fio.sh", {"results": results})


def test_a_test_printed_as_zero_is_left_out_and_named_in_the_notes(cards, tmp_path):
    """CrystalDiskMark prints 0.000 for a test it did not run: no figure, and the notes say which."""
    source = (FIXTURES / "crystaldiskmark" / "crystaldiskmark--cdm6.out").read_text(encoding="utf-8")
    line = next(x for x in source.splitlines() if "Random Read 4KiB (Q=  8,T= 8)" in x)
    path = tmp_path / "cdm-not-run.txt"
    path.write_text(source.replace(line, "  Random Read 4KiB (Q=  8,T= 8) :     0.000 MB/s [      0.0 IOPS]"),
                    encoding="utf-8")
    import_file(path, cards, "test-card", name="Acme Zero 64GB")
    session = session_of(cards)
    assert ("RND4K Q8T8", "read") not in {(r["test"], r["op"]) for r in session["results"]}
    assert "Printed as 0.000 in the text, so not run and left out: RND4K Q8T8 read." in session["notes"]


def test_a_zero_figure_with_iops_is_refused_naming_its_line(cards, tmp_path):
    """0.000 MB/s beside 437 IOPS is no test left unrun: the import refuses it and names the line."""
    source = (FIXTURES / "crystaldiskmark" / "crystaldiskmark--cdm6.out").read_text(encoding="utf-8")
    lines = source.splitlines()
    number = next(i for i, x in enumerate(lines, 1) if "Random Read 4KiB (Q=  8,T= 8)" in x)
    path = tmp_path / "cdm-zero-with-iops.txt"
    zero_with_iops = "  Random Read 4KiB (Q=  8,T= 8) :     0.000 MB/s [    437.0 IOPS]"
    path.write_text(source.replace(lines[number - 1], zero_with_iops), encoding="utf-8")
    with pytest.raises(ParseError, match="RND4K Q8T8 read is printed as 0 MB/s but with 437 IOPS") as err:
        import_file(path, cards, "test-card", name="Acme Zero 64GB")
    assert err.value.line == number


# --- telling CrystalDiskMark 3, cdm_fio.sh and KDiskMark apart by their lines ---------------------------

CDM3_BODY = """\
           Sequential Read :    19.874 MB/s
          Sequential Write :    11.236 MB/s
         Random Read 512KB :    18.765 MB/s
        Random Write 512KB :     1.987 MB/s
    Random Read 4KB (QD=1) :     4.321 MB/s [   1054.9 IOPS]
   Random Write 4KB (QD=1) :     0.012 MB/s [      2.9 IOPS]
   Random Read 4KB (QD=32) :     4.654 MB/s [   1136.2 IOPS]
  Random Write 4KB (QD=32) :     0.013 MB/s [      3.2 IOPS]
"""


def import_text(cards, tmp_path, capsys, text, *options):
    path = tmp_path / "pasted.txt"
    path.write_text(text, encoding="utf-8")
    code, err, _ = run_import(path, cards, capsys, options=options)
    return code, err


def test_crystaldiskmark_3_lines_without_header_are_crystaldiskmark_not_cdm_fio(cards, tmp_path, capsys):
    code, err = import_text(cards, tmp_path, capsys, CDM3_BODY)
    assert code == 0, err
    assert "import: crystaldiskmark: " in err
    results = session_of(cards)["results"]
    assert len(results) == 8 and {r["unit"] for r in results} == {"MB/s"}
    assert (results[0]["test"], results[0]["runs"]) == ("SEQ1M Q1T1", [19.874])


def test_crystaldiskmark_line_in_a_cdm_fio_log_is_refused_naming_it(cards, tmp_path, capsys):
    code, err = import_text(cards, tmp_path, capsys, CDM3_BODY, "--format=cdm-fio")
    assert code == 2
    assert "line 1" in err and "a CrystalDiskMark result line, not cdm_fio.sh's" in err
    assert "--format=crystaldiskmark" in err and not (cards / "test-card.yaml").exists()


def test_lines_either_tool_prints_are_refused_asking_for_the_format(cards, tmp_path, capsys):
    text = "my card:\nSequential Read: 19 MB/s\nSequential Write: 11 MB/s\n"
    code, err = import_text(cards, tmp_path, capsys, text)
    assert code == 2 and "line 2" in err and "'Sequential Read: 19 MB/s'" in err
    assert "--format=cdm-fio or --format=crystaldiskmark" in err and not (cards / "test-card.yaml").exists()
    code, err = import_text(cards, tmp_path, capsys, text, "--format=crystaldiskmark")
    assert code == 0 and session_of(cards)["results"][0]["unit"] == "MB/s"


def test_cdm_fio_lines_stay_cdm_fio(cards, tmp_path, capsys):
    text = "Sequential Read: 38MB/s IOPS=0\nSequential Write: 19MB/s IOPS=0\n"
    code, err = import_text(cards, tmp_path, capsys, text)
    assert code == 0 and "import: cdm-fio: " in err
    assert session_of(cards)["results"][0]["unit"] == "MiB/s"


def kdiskmark_body():
    lines = KDISKMARK.read_text(encoding="utf-8").splitlines()
    return "\n".join(line for line in lines[6:] if "Profile:" in line or not line.strip().startswith(
        ("Profile", "Test:", "Date:", "OS:"))).split("Profile:")[0]


def test_kdiskmark_body_without_its_header_is_kdiskmark(cards, tmp_path, capsys):
    code, err = import_text(cards, tmp_path, capsys, kdiskmark_body())
    assert code == 0, err
    assert "import: kdiskmark: " in err
    assert {r["unit"] for r in session_of(cards)["results"]} == {"kKiB/s"}


def test_kdiskmark_body_read_as_crystaldiskmark_is_refused_naming_kdiskmark(cards, tmp_path, capsys):
    code, err = import_text(cards, tmp_path, capsys, kdiskmark_body(), "--format=crystaldiskmark")
    assert code == 2 and "bandwidth and IOPS disagree" in err
    assert "Read in KDiskMark's unit (kKiB/s) they agree" in err and "--format=kdiskmark" in err
