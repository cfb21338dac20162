"""The paths a card was measured through: its page's "By host and reader" table, the leaderboard's host
and reader filters, and the /readers/ page's model."""

import html
import json

import pytest

from conftest import ROOT

from cardbench.figures.aggregate import aggregate
from cardbench.pages.pagemodel import text_order
from cardbench.figures.hosts_readers import card_filters, card_reach, path_label
from cardbench.pages.card_readers_page import card_groups, readers_page
from cardbench.pages.paths_table import card_paths
from cardbench.publish.sitedata import parts_from_result, site_texts
from readercards import PI, UHS, USB2, card, one_reader, session, two_readers


@pytest.fixture(scope="module")
def result():
    return aggregate([two_readers(), one_reader()])


def test_a_card_through_two_readers_shows_them_side_by_side(result):
    table = card_paths(result["cards"]["acme-two-readers"])
    assert [(c["host"], c["reader"], c["not_stated"]) for c in table["columns"]] == [
        (PI, USB2, False), (PI, UHS, False), (None, None, True)]
    assert table["columns"][1]["sessions"] == ["Session uhs-a", "Session uhs-b"]
    assert table["columns"][2]["label"] == "not stated"
    # Only the subtests two or more paths share; RND4K Q1T1 was read through the UHS-I reader alone.
    assert [row["name"] for row in table["rows"]] == ["SEQ1M Q8T1 read", "SEQ1M Q8T1 write"]
    read = table["rows"][0]["cells"]
    assert [(c["mb"], c["runs"]) for c in read] == [("39.0", 3), ("92.0", 3), ("30.0", 1)]
    assert read[1]["mib"] == "87.7"  # 92 MB/s in MiB/s, from the aggregate's own mib_s
    assert table["compare"] == "compare/?cards=acme-two-readers"


def test_a_card_through_one_path_has_no_table(result):
    assert card_paths(result["cards"]["acme-usb2-only"]) is None


def test_paths_that_share_no_subtest_get_no_side_by_side_table():
    """An empty "By host and reader" section only said that nothing could be set side by side."""
    lone = card("acme-apart", [session("a", [40.0], PI, USB2), session("b", [90.0], None, UHS, tests=("SEQ1M Q1T1",))])
    assert card_paths(aggregate([lone])["cards"]["acme-apart"]) is None


def test_a_path_in_words():
    assert path_label((PI, None)) == f"{PI} (reader not stated)"
    assert path_label((None, None)) == "not stated"


def test_the_card_page_model_carries_the_table(result):
    from cardbench.pages.pagemodel import card_page

    assert card_page(result["cards"]["acme-two-readers"])["paths"]["rows"]
    assert card_page(result["cards"]["acme-usb2-only"])["paths"] is None


def test_filters_and_reach_name_every_stated_host_and_reader(result):
    card_json = result["cards"]["acme-two-readers"]
    assert card_filters(card_json) == {"hosts": [PI], "readers": [UHS, USB2]}
    reach = card_reach(card_json)
    assert [(p["host"], p["reader"]) for p in reach] == [(PI, USB2), (PI, UHS)]  # the unstated path is no reader
    assert reach[1]["read"]["mb_s"] == pytest.approx(92) and reach[1]["read"]["subtest"] == "SEQ1M Q8T1 read"
    assert reach[1]["write"]["mb_s"] == pytest.approx(46)


def test_readers_page_names_the_fastest_card_and_subtest_through_each_reader(result):
    cards = [(slug, c["title"], card_groups(card_reach(c))) for slug, c in result["cards"].items()]
    page = readers_page(cards, text_order)
    usb2 = next(r for r in page["readers"] if r["name"] == USB2)
    assert usb2["card_count"] == 2
    assert [c["slug"] for c in usb2["cards"]] == ["acme-two-readers", "acme-usb2-only"]  # fastest read first
    assert usb2["fastest_read"] == {"text": "39.0", "runs": 3, "subtest": "SEQ1M Q8T1 read",
                                    "basis": "SEQ1M Q8T1 read, mean of 3 runs", "stated": False, "spi": False,
                                    "slug": "acme-two-readers", "title": result["cards"]["acme-two-readers"]["title"]}
    assert usb2["fastest_write"]["text"] == "19.5"
    assert [h["name"] for h in page["hosts"]] == ["Laptop, Linux", PI]


def test_site_data_carries_the_filters_the_rows_and_the_readers_page(result):
    texts = site_texts([parts for parts, _ in parts_from_result(result)])
    board = json.loads(texts["site/leaderboard.json"])
    assert board["filters"]["host"] == ["Laptop, Linux", PI]
    assert board["filters"]["reader"] == [UHS, USB2]
    row = next(r for r in texts["site/leaderboard.html"].split("\n") if 'href="<base>cards/acme-two-readers/"' in r)
    assert f'data-hosts="{html.escape(json.dumps([PI], separators=(",", ":")))}"' in row
    assert f'data-readers="{html.escape(json.dumps([UHS, USB2], separators=(",", ":")))}"' in row
    readers = json.loads(texts["site/readers.json"])
    assert [r["name"] for r in readers["readers"]] == [UHS, USB2]


def test_a_paths_figures_are_pooled_by_the_statistics_module_as_the_mean_of_all_its_runs():
    from cardbench.figures.stats import pooled_over_sessions

    runs_a, runs_b = [90.0, 92.0], [80.0, 86.0, 83.0]
    subtests = [{"run_count": len(r), "mb_s": {"mean": sum(r) / len(r), "min": min(r), "max": max(r)},
                 "mib_s": {"mean": sum(r) / len(r) / 1.048576, "min": min(r) / 1.048576, "max": max(r) / 1.048576}}
                for r in (runs_a, runs_b)]
    pool = pooled_over_sessions(subtests)
    every_run = runs_a + runs_b
    assert pool["run_count"] == 5
    assert abs(pool["mb_s"]["mean"] - sum(every_run) / 5) < 1e-9
    assert (pool["mb_s"]["min"], pool["mb_s"]["max"]) == (80.0, 92.0)
    assert abs(pool["mib_s"]["mean"] * 1.048576 - sum(every_run) / 5) < 1e-9
    assert pool["first"] is subtests[0]
    without_mib = [dict(subtests[0]), dict(subtests[1], mib_s=None)]
    assert pooled_over_sessions(without_mib)["mib_s"] is None


def test_the_readers_page_draws_each_cards_figure_as_a_bar_beside_the_fastest_through_it():
    from cardbench.pages.card_readers_page import bar_share, readers_page

    fast = {"mb_s": 90.0, "runs": 3, "subtest": "SEQ1M Q8T1 read", "basis": "b", "rule": "r"}
    slow = {"mb_s": 9.0, "runs": 3, "subtest": "SEQ1M Q8T1 read", "basis": "b", "rule": "r"}
    reach = lambda figure: [{"host": "Pi", "reader": "USB 3 reader", "read": figure, "write": None, "measured": ""}]  # noqa: E731
    page = readers_page([("a", "A", card_groups(reach(fast))), ("b", "B", card_groups(reach(slow)))], str)
    shares = {c["slug"]: c["read"]["share"] for c in page["readers"][0]["cards"]}
    assert shares == {"a": 1.0, "b": round(1 - 1 / 3, 3)}  # a tenth of the fastest: a third of the bar less
    assert bar_share(0.001, 90) == 0.02 and bar_share(None, 90) == 0
    html = (ROOT / "layouts" / "readers.html").read_text(encoding="utf-8")
    assert 'class="num bar"{{ with .read }} style="--share: {{ .share }}"' in html


def _figure(mb_s, stated=False):
    figure = {"mb_s": mb_s, "runs": 3, "subtest": "SEQ1M Q8T1 read", "basis": "b", "rule": "r"}
    return {**figure, "stated": True} if stated else figure


def _path(read, write=None, measured="", reader="R", host="Pi"):
    return {"host": host, "reader": reader, "read": read, "write": write, "measured": measured}


def test_the_readers_page_breaks_ties_by_title_then_by_the_order_cards_come_in():
    """Equal figures are listed by title (then as the cards came); a measured figure comes before a faster one the
    source only stated, a card with no read through the reader after both; the fastest is the first such card."""
    cards = [("d", "Delta", [_path(None, measured="RND4K Q1T1 read")]),
             ("b", "Bravo", [_path(_figure(50.0)), _path(_figure(20.0), measured="SEQ1M Q8T1 read, dd write")]),
             ("a", "Alpha", [_path(_figure(50.0), write=_figure(9.0), measured="dd write")]),
             ("s", "Sierra", [_path(_figure(90.0, stated=True))]),
             ("a2", "Alpha", [_path(_figure(50.0))])]
    (reader,) = readers_page([(slug, title, card_groups(reach)) for slug, title, reach in cards], str)["readers"]
    assert [c["slug"] for c in reader["cards"]] == ["a", "a2", "b", "s", "d"]
    assert (reader["fastest_read"]["slug"], reader["fastest_write"]["slug"]) == ("b", "a")
    assert [c["measured"] for c in reader["cards"]] == ["dd write", "", "SEQ1M Q8T1 read, dd write", "",
                                                        "RND4K Q1T1 read"]
    assert reader["measured"] == "RND4K Q1T1 read, SEQ1M Q8T1 read, dd write"


def test_a_cards_part_of_the_readers_page_makes_the_same_page_read_back_from_the_cache():
    cards = [("a", "A", [_path(_figure(50.0), measured="dd write"), _path(_figure(50.0, stated=True), reader="Q")]),
             ("b", "B", [_path(None, _figure(7.0), host="Mac"), _path(_figure(12.5), reader="Q")])]
    parts = [(slug, title, card_groups(reach)) for slug, title, reach in cards]
    read_back = [(slug, title, json.loads(json.dumps(groups))) for slug, title, groups in parts]
    assert readers_page(read_back, str) == readers_page(parts, str)
