"""The files written for download and for feed readers: every run as CSV (never a formula), the feed's
entries, the files kept in step as cards come and go, and the command's version."""

import csv
import io
import re
import subprocess
import sys
import tomllib

import pytest

import cardbench
from cardbench.card.load import load_card
from cardbench.figures.aggregate import aggregate
from cardbench.pages.feed import card_entries, feed_data
from cardbench.publish.runs_csv import COLUMNS, card_csv, csv_body, subtest_tool, text_cell
from cardbench.publish.site_files import write_outputs

from conftest import ROOT

LEXAR = "lexar-play-pro-1tb-microsd-express"
DD_CARD = "sandisk-ultra-200gb-microsdxc"


@pytest.mark.parametrize("text", ["=1+2", "+1", "-2", "@SUM(A1)", "\tx", "=HYPERLINK(\"http://x\")"])
def test_text_that_a_spreadsheet_would_run_gets_an_apostrophe(text):
    assert text_cell(text) == "'" + text


@pytest.mark.parametrize("text", ["SanDisk", "a=b", "1-2", "", None, "'quoted"])
def test_other_text_stays_as_it_is(text):
    assert text_cell(text) == ("" if text is None else text)


def test_cells_are_read_back_as_written():
    rows = [["a,b", 'say "hi"', "line\nbreak"]]
    assert list(csv.reader(io.StringIO(csv_body(rows)))) == rows


def mini_card(**session):
    base = {"id": "s1", "label": "=cmd", "date": "2025-01-02", "tools": [{"name": "cdm_fio.sh"}, {"name": "nvme-cli"}],
            "subtests": [{"kind": "results", "test": "SEQ1M Q8T1", "op": "read", "unit": "MiB/s", "runs": [100, 101.5],
                          "mb_s": {"runs": [104.858, 106.43]}, "excluded_runs": [1]},
                         {"kind": "dd", "test": "dd bs=4M", "op": "write", "unit": "MB/s", "runs": [20],
                          "mb_s": {"runs": [20]}},
                         {"kind": "results", "test": "RND4K Q1T1", "op": "read", "unit": "IOPS", "runs": [2000],
                          "mb_s": None}]}
    base.update(session)
    return {"slug": "mini", "title": "@Mini 32 GB", "source": {"name": "x"}, "sessions": [base]}


def test_a_card_csv_has_a_row_per_run_with_its_unit_as_stored():
    rows = list(csv.reader(io.StringIO(card_csv(mini_card()))))
    assert rows[0] == COLUMNS
    assert rows[1:] == [
        ["mini", "'@Mini 32 GB", "s1", "2025-01-02", "cdm_fio.sh", "SEQ1M Q8T1", "read", "MiB/s",
         "1", "100", "104.858", ""],
        ["mini", "'@Mini 32 GB", "s1", "2025-01-02", "cdm_fio.sh", "SEQ1M Q8T1", "read", "MiB/s",
         "2", "101.5", "106.43", "yes"],
        ["mini", "'@Mini 32 GB", "s1", "2025-01-02", "dd", "dd bs=4M", "write", "MB/s", "1", "20", "20", ""],
        ["mini", "'@Mini 32 GB", "s1", "2025-01-02", "cdm_fio.sh", "RND4K Q1T1", "read", "IOPS", "1", "2000", "", ""],
    ]


def test_the_tool_of_a_subtest():
    session = {"tools": [{"name": "CrystalDiskMark"}, {"name": "flashbench"}]}
    assert subtest_tool(session, {"kind": "results"}) == "CrystalDiskMark"
    assert subtest_tool({}, {"kind": "results"}) == "fio"
    assert subtest_tool(session, {"kind": "dd"}) == "dd"
    assert subtest_tool(session, {"kind": "tool", "tool": "hdparm"}) == "hdparm"


def test_feed_entries_are_dated_sessions_newest_first():
    card = mini_card()
    card["sessions"].append(dict(card["sessions"][0], id="s2", label="later", date="2025-03-01"))
    card["sessions"].append(dict(card["sessions"][0], id="s3", label="undated", date=None))
    entries = card_entries(card)
    assert [e[4] for e in entries] == ["session-s1", "session-s2"]  # no date of its own nor its source's: left out
    assert entries[0][2].startswith("New card: @Mini 32 GB, =cmd (2025-01-02); 4 runs recorded")
    assert entries[1][2].startswith("New session: ")
    card["source"]["date"] = "2024-12-31"
    assert [e[0] for e in card_entries(card)] == ["2025-01-02", "2025-03-01", "2024-12-31"]
    feed = feed_data(card_entries(card), limit=2)
    assert feed["updated"] == "2025-03-01T00:00:00Z"
    assert [e["anchor"] for e in feed["entries"]] == ["session-s2", "session-s1"]
    assert feed_data([]) == {"updated": "1970-01-01T00:00:00Z", "entries": []}


def test_csv_files_follow_the_cards_written(tmp_path):
    cards = [load_card(ROOT / "data" / "cards" / f"{slug}.yaml").data for slug in (LEXAR, DD_CARD)]
    out = tmp_path / "hugo-data"
    write_outputs(aggregate(cards), out)
    joined = (out / "static" / "runs.csv").read_text(encoding="utf-8")
    for slug in (LEXAR, DD_CARD):
        assert (out / "static" / "cards" / slug / "runs.csv").is_file()
        assert f"\n{slug}," in joined
    write_outputs(aggregate(cards[1:]), out)  # the Lexar card is gone
    assert not (out / "static" / "cards" / LEXAR).exists()
    joined = (out / "static" / "runs.csv").read_text(encoding="utf-8")
    assert f"\n{LEXAR}," not in joined and f"\n{DD_CARD}," in joined
    assert joined == (out / "static" / "cards" / DD_CARD / "runs.csv").read_text(encoding="utf-8")


def test_version_is_written_in_one_place():
    out = subprocess.run([sys.executable, "-m", "cardbench", "--version"], capture_output=True, text=True,
                         env={"PYTHONPATH": str(ROOT / "scripts")})
    assert out.returncode == 0
    assert out.stdout.strip() == f"cardbench {cardbench.__version__}"
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert "version" not in project["project"] and "version" in project["project"]["dynamic"]
    assert project["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "cardbench.__version__"}


def test_a_cell_holding_a_semicolon_is_quoted_so_no_locale_splits_a_formula_out_of_it():
    card = mini_card(label="x")
    card["title"] = "Evilx x;=1+1;@SUM(1)"
    text = card_csv(card)
    assert '"Evilx x;=1+1;@SUM(1)"' in text
    for line in text.splitlines()[1:]:  # as a spreadsheet set to a ';' locale splits it: no cell starts a formula
        cells = [cell for cell in re.split(r';(?=(?:[^"]*"[^"]*")*[^"]*$)', line)]
        assert not any(cell.startswith(("=", "+", "@")) for cell in cells), line
    assert list(csv.reader(io.StringIO(text)))[1][1] == "Evilx x;=1+1;@SUM(1)"


def test_every_other_tools_runs_are_rows_too():
    card = mini_card(subtests=[], tool_results=[
        {"tool": "hdparm", "test": "hdparm -t", "op": "read", "unit": "MiB/s", "runs": [39.26, 39.19],
         "mb_s": {"runs": [41.167, 41.094]}},
        {"tool": "H2testw", "test": "H2testw write", "op": "write", "unit": "MiB/s", "runs": [12.5],
         "mb_s": {"runs": [13.107]}},
        {"tool": "iozone", "test": "iozone 4k random read", "op": "read", "unit": "IOPS", "runs": [1500]}])
    rows = list(csv.reader(io.StringIO(card_csv(card))))[1:]
    assert [(r[4], r[5], r[8], r[9], r[10]) for r in rows] == [
        ("hdparm", "hdparm -t", "1", "39.26", "41.167"), ("hdparm", "hdparm -t", "2", "39.19", "41.094"),
        ("H2testw", "H2testw write", "1", "12.5", "13.107"), ("iozone", "iozone 4k random read", "1", "1500", "")]


@pytest.mark.parametrize("corpus_case", ["hdparm/hdparm--three-runs-pi-prompt", "iozone/iozone--pi-direct-4k",
                                         "sysbench/sysbench--v04-seqwr-1m-buffered", "h2testw/h2testw--english-ok",
                                         "agnostics/agnostics--feb-2020-all-passed",
                                         "f3rw/f3rw--write-read-ok-prompted"])
def test_an_imported_tool_only_card_has_its_runs_in_its_csv(corpus_case, tmp_path, capsys):
    from cardbench import cli

    path = ROOT / "tests" / "fixtures" / "import-corpus" / f"{corpus_case}.out"
    cards = tmp_path / "data" / "cards"
    cards.mkdir(parents=True)
    bus = ["--bus", "UHS-II"] if "f3rw" in corpus_case else []  # its f3read ran at 118 MB/s on a loop device
    assert cli.main(["import", str(path), "--card", "tool-card-64gb", "--name", "Tool Card 64GB", *bus,
                     "--cards-dir", str(cards)]) == 0, capsys.readouterr().err
    [card_json] = aggregate([load_card(cards / "tool-card-64gb.yaml").data])["cards"].values()
    rows = list(csv.reader(io.StringIO(card_csv(card_json))))[1:]
    assert rows, "the card's runs.csv holds only its header"


def test_a_card_without_runs_says_why_its_csv_holds_only_the_column_names():
    from cardbench.pages.cardhtml import card_page_text
    from cardbench.pages.pagemodel import card_page

    cards = [load_card(ROOT / "data" / "cards" / f"{slug}.yaml").data
             for slug in ("silicon-motion-sm2708-reference-design-250gb-sd-express", LEXAR)]
    result = aggregate(cards)
    stated = card_page(result["cards"][cards[0]["slug"]])
    assert stated["has_runs"] is False
    assert "no run of this card is recorded here" in card_page_text(stated, "https://x/commits/main")
    assert card_page(result["cards"][LEXAR])["has_runs"] is True
