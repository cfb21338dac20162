"""The comparison page's charts as Python writes them: each card's bars (means, whiskers, hover fields and
table texts in MB/s and MiB/s, from the aggregate's own statistics), per (host, reader) path for a card
read through several, the picker's path choices, and the page models checked against their schemas."""

import json
import pickle
from pathlib import Path

import pytest

from cardbench import cli
from cardbench.publish import sitedata
from cardbench.figures.aggregate import aggregate
from cardbench.pages.comparemodel import chart_frame, compare_piece
from cardbench.pages.modelcheck import PageModelError, check_model
from cardbench.pages.pagemodel import leader_row
from cardbench.publish.site_files import write_outputs
from cardbench.publish.sitedata import parts_from_result, site_texts
from readercards import HOSTILE_READER, PI, UHS, USB2, hostile_reader, one_reader, two_readers, write_cards

LEXAR = "lexar-play-pro-1tb-microsd-express"


@pytest.fixture(scope="module")
def shipped(shipped_result):
    return shipped_result


@pytest.fixture(scope="module")
def readers():
    return aggregate([two_readers(), one_reader(), hostile_reader()])


def test_a_cards_bars_carry_both_units_as_aggregated_and_their_texts(shipped):
    card = shipped["cards"][LEXAR]
    bar = compare_piece(card)["bars"]["RND4K Q1T1 read"]
    pooled = card["pooled"]["RND4K Q1T1 read"]
    assert bar["x"] == {"mb": pooled["mb_s"]["mean"], "mib": pooled["mib_s"]["mean"]}
    assert bar["minus"]["mib"] == pooled["mib_s"]["mean"] - pooled["mib_s"]["min"]
    assert bar["plus"]["mb"] == pytest.approx(pooled["mb_s"]["max"] - pooled["mb_s"]["mean"])
    # cdm_fio.sh printed whole MiB/s: the table and the hover keep its figures; MB/s as the page rounds them
    assert bar["cells"]["mib"] == ["27", "20", "37"]
    assert bar["cells"]["mb"] == ["28.3", "21.0", "38.8"]
    assert bar["hover"]["mib"] == ["RND4K Q1T1 read", "27", "20", "37", 10, ""]
    assert bar["runs"] == 10 and bar["ranged"]


def test_headline_bars_name_the_figure_behind_them_and_have_no_whisker(shipped):
    headline = compare_piece(shipped["cards"][LEXAR])["headline"]
    seq = headline["Sequential read"]
    assert not seq["ranged"] and "plus" not in seq
    assert seq["x"]["mb"] == shipped["cards"][LEXAR]["headline"]["seq_read"]["mb_s"]
    assert seq["basis"] == "SEQ1G Q1T1 read, mean of 10 runs" and seq["hover"]["mb"][5] == seq["basis"]


def test_card_text_reaches_the_chart_as_plotly_plain_text_only():
    card = {"slug": "x-card", "title": "A & <b>B</b> %{x}", "pooled": {
        "SEQ1M Q8T1 read": {"mb_s": {"mean": 10.0, "min": 9.0, "max": 11.0},
                            "mib_s": {"mean": 9.5, "min": 8.6, "max": 10.5},
                            "run_count": 2}}, "headline": {}}
    piece = compare_piece(card)
    assert piece["label"] == "A &amp; &lt;b&gt;B&lt;/b&gt; %{x}"
    assert piece["title"] == card["title"]  # the page sets it as text
    check_model("compare-card", piece, "x")
    frame = chart_frame()
    assert all("%{y}" in t for kind in frame["hover"].values() for t in kind.values())


def test_a_card_through_several_readers_brings_each_path(readers):
    piece = compare_piece(readers["cards"]["acme-two-readers"])
    paths = piece["paths"]
    assert [p["path"] for p in paths] == [f"{USB2} on {PI}", f"{UHS} on {PI}", "host and reader not stated"]
    uhs = paths[1]["bars"]["SEQ1M Q8T1 read"]
    # 90 and 92 in one session, 94 in another: the mean of the three runs, the path's slowest and fastest run
    assert uhs["x"]["mb"] == pytest.approx(92.0) and uhs["runs"] == 3
    assert uhs["cells"]["mb"] == ["92.0", "90.0", "94.0"]
    assert paths[1]["sessions"] == ["Session uhs-a", "Session uhs-b"]
    assert "RND4K Q1T1 read" in paths[1]["bars"] and "RND4K Q1T1 read" not in paths[0]["bars"]
    assert "paths" not in compare_piece(readers["cards"]["acme-usb2-only"])
    hostile = compare_piece(readers["cards"]["acme-hostile-reader"])["paths"][0]
    assert hostile["path"].startswith(HOSTILE_READER) and "<" not in hostile["label"] + hostile["label_path"]


def test_the_picker_offers_a_cards_paths_and_each_card_has_its_file(readers, tmp_path):
    texts = site_texts([parts for parts, _ in parts_from_result(readers)])
    cards = {c[0]: c for c in json.loads(texts["api/picker.json"])["cards"]}
    assert cards["acme-two-readers"][3] == [f"{USB2} on {PI}", f"{UHS} on {PI}", "host and reader not stated"]
    assert len(cards["acme-usb2-only"]) == 3
    write_outputs(readers, tmp_path)
    written = json.loads((tmp_path / "static/compare/cards/acme-two-readers.json").read_text(encoding="utf-8"))
    assert written["slug"] == "acme-two-readers" and len(written["paths"]) == 3


def test_a_wrong_field_in_the_comparison_model_stops_the_build_naming_it(readers, tmp_path, monkeypatch):
    frame = chart_frame()
    frame["card_px"] = "62"
    monkeypatch.setattr(sitedata, "chart_frame", lambda: frame)
    with pytest.raises(PageModelError) as caught:
        write_outputs(readers, tmp_path)
    assert str(caught.value).startswith("site/compare.json: chart.card_px: '62' is not of type 'array'")
    assert not list(tmp_path.rglob("*.json"))  # nothing half-written


def test_the_command_line_names_the_wrong_field_and_writes_nothing(tmp_path, monkeypatch, capsys):
    cards = write_cards(tmp_path / "cards", [two_readers(), one_reader()])
    frame = chart_frame()
    del frame["hover"]["range"]
    monkeypatch.setattr(sitedata, "chart_frame", lambda: frame)
    assert cli.main(["aggregate", "--cards-dir", str(cards), "--out", str(tmp_path / "out"), "--no-cache"]) == 2
    assert "site/compare.json: chart.hover: 'range' is a required property" in capsys.readouterr().err
    assert not list((tmp_path / "out").rglob("*.json"))
    # from a worker process, the error comes back whole
    error = PageModelError("site/compare.json", "chart.hover", "'range' is a required property")
    assert str(pickle.loads(pickle.dumps(error))) == str(error)


def test_a_wrong_field_in_a_cards_bars_stops_the_build_naming_card_and_field(readers, tmp_path, monkeypatch):
    def broken(card):
        piece = compare_piece(card)
        piece["bars"]["SEQ1M Q8T1 read"]["cells"]["mib"] = ["1", "2"]
        return piece
    monkeypatch.setattr(sitedata, "compare_piece", broken)
    with pytest.raises(PageModelError) as caught:
        write_outputs(readers, tmp_path)
    assert caught.value.where.startswith("static/compare/cards/acme-")
    assert caught.value.field == "bars.SEQ1M Q8T1 read.cells.mib"
    assert "is too short" in caught.value.message


def test_a_wrong_field_in_a_leaderboard_row_stops_the_build_naming_card_and_field(readers, tmp_path, monkeypatch):
    def broken(row, card=None):
        shown = leader_row(row, card)
        shown["cells"][0] = {"value": "39", "text": "39.0", "from": "SEQ1M Q8T1 read"}
        return shown
    monkeypatch.setattr(sitedata, "leader_row", broken)
    with pytest.raises(PageModelError) as caught:
        write_outputs(readers, tmp_path)
    assert caught.value.where.startswith("site/leaderboard.html (the row of acme-")
    assert caught.value.field == "cells[0].value" and "'39' is not of type 'number'" in caught.value.message


def test_the_shipped_cards_home_and_comparison_models_match_their_schemas(shipped, tmp_path):
    write_outputs(shipped, tmp_path)  # every model is checked as it is written
    compare = json.loads((tmp_path / "site" / "compare.json").read_text(encoding="utf-8"))
    assert compare["chart"] == chart_frame()
    assert len(list((tmp_path / "static/compare/cards").glob("*.json"))) == len(shipped["cards"])


def test_a_removed_cards_comparison_file_goes_with_it(readers, tmp_path):
    write_outputs(readers, tmp_path)
    fewer = aggregate([two_readers(), one_reader()])
    write_outputs(fewer, tmp_path)
    assert sorted(p.name for p in (tmp_path / "static/compare/cards").iterdir()) == ["acme-two-readers.json",
                                                                                    "acme-usb2-only.json"]


def test_the_site_data_is_the_same_whatever_order_python_keeps_its_sets_in(tmp_path):
    """Two aggregations of the same cards under other hash seeds write the same comparison files: a
    reason naming what a card has instead ("its read: SEQ1M Q8T1, …") follows the card's own order."""
    import os
    import subprocess
    import sys

    from readercards import card, session, write_cards

    root = Path(__file__).resolve().parents[1]
    tests = ("SEQ1M Q8T1", "SEQ1M Q1T1", "RND4K Q32T1", "SEQ128K Q32T1", "SEQ512K Q1T1", "RND4K Q8T8")
    full = ("SEQ1M Q8T1", "SEQ1M Q1T1", "RND4K Q32T1", "RND4K Q1T1")
    cards = write_cards(tmp_path / "data" / "cards", [card("acme-no-q1t1", [session("s1", [40.0, 41.0], tests=tests)]),
                                                      card("acme-all-four", [session("s1", [40.0, 41.0], tests=full)])])
    texts = []
    for seed in ("1", "2", "3"):
        out = tmp_path / f"out-{seed}"
        env = {**os.environ, "PYTHONPATH": str(root / "scripts"), "PYTHONHASHSEED": seed}
        subprocess.run([sys.executable, "-m", "cardbench", "aggregate", "--no-cache", "--cards-dir", str(cards),
                        "--out", str(out)], cwd=root, env=env, check=True, capture_output=True)
        texts.append({name: (out / name).read_text(encoding="utf-8")
                      for name in ("site/compare.json", "static/compare/index.json")})
    assert ("its read: SEQ1M Q8T1, SEQ1M Q1T1, SEQ512K Q1T1, SEQ128K Q32T1, RND4K Q32T1, RND4K Q8T8;"
            in texts[0]["site/compare.json"])
    assert texts[0] == texts[1] == texts[2]


def test_a_long_list_of_cards_left_out_is_named_whole_on_its_own_page():
    from cardbench.bench.synth import card_data
    from cardbench.publish.sitedata import LEFT_OUT_SHOWN

    cards = [card_data(i) for i in range(40)]  # two suites' worth: each leaves out the other's cards
    texts = site_texts([p for p, _ in parts_from_result(aggregate(cards, data_dir="/nonexistent"))])
    compare, every = json.loads(texts["site/compare.json"]), json.loads(texts["site/left-out.json"])
    whole = {s["id"]: s["left_out"] for s in every["suites"]}
    long = [s for s in compare["suites"] if s["left_out_count"] > LEFT_OUT_SHOWN]
    assert long, "some suite leaves out more cards than the page names"
    for suite in compare["suites"]:
        listed = whole.get(suite["id"], [])
        assert suite["left_out_count"] == len(listed) and suite["left_out"] == listed[:LEFT_OUT_SHOWN]
    check_model("left-out", every, "site/left-out.json")
    with pytest.raises(PageModelError, match="left_out"):
        check_model("left-out", {"suites": [{"id": "x", "name": "X", "left_out": []}], "in_no_suite": []},
                    "site/left-out.json")
