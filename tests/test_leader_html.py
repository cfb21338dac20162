"""The home page's leaderboard rows written once as finished HTML (leaderhtml.py): every card string
escaped, numbers as the page printed them, rows in rank order."""

from htmlaudit import HtmlAudit

from cardbench.pages.leaderhtml import BASE, leader_row_html, ranked, value_text

HOSTILE = '"><script>alert(1)</script>'


def _row(**changes):
    row = {"slug": "acme", "title": "Acme 64 GB", "brand": "Acme", "bus": "UHS-I", "form_factor": "microSD",
           "markings": ["U3", "A2"], "hosts": ["Pi"], "readers": [], "source": "Own runs", "per_price": None,
           "cells": [{"value": 90.0, "text": "90.0", "from": "SEQ1M Q8T1"}, None, None, None],
           "stated_cells": [False] * 4, "other_test_cells": [False] * 4, "claimed_read": 100, "claimed_write": None,
           "runs": 5.0, "runs_stated": False, "instead": "", "charted": "", "rank": 90.0, "rank_group": "measured"}
    row.update(changes)
    return row


def test_every_card_string_is_text_never_markup():
    html = leader_row_html(_row(title=HOSTILE, brand=HOSTILE, markings=[HOSTILE], hosts=[HOSTILE], source=HOSTILE,
                                cells=[{"value": 1.0, "text": "1.00", "from": HOSTILE}, None, None, None]))
    audit = HtmlAudit()
    audit.feed(html)
    assert "script" not in [tag for tag, _ in audit.tags]
    assert HOSTILE in "".join(audit.texts)
    row_attrs = audit.tags[0][1]
    assert row_attrs["data-brand"] == HOSTILE and HOSTILE in row_attrs["data-search"]
    assert row_attrs["data-hosts"] == '["\\"><script>alert(1)</script>"]'  # JSON, read back by leaderboard.js


def test_figures_read_as_the_page_printed_them():
    assert value_text(3328.0) == "3328" and value_text(12.5) == "12.5" and value_text(None) == ""
    html = leader_row_html(_row())
    assert f'<a href="{BASE}cards/acme/">Acme 64 GB</a>' in html
    assert '<td class="num bar" data-value="90"><span title="SEQ1M Q8T1">90.0</span></td>' in html
    assert '<td class="num" data-value="100">100 / –</td>' in html and '<td class="num" data-value="5">5</td>' in html


def test_stated_figures_are_marked_and_rows_ranked():
    html = leader_row_html(_row(stated_cells=[True, False, False, False], runs_stated=True, charted="dd sweep"))
    assert 'data-stated="1"' in html and "ranked after measured figures" in html
    assert "no runs of it are recorded here (the card's page charts dd sweep)" in html.replace("&#39;", "'")
    parts = [{"slug": s, "rank": r, "rank_group": g} for s, r, g in
             (("a", 0, "none"), ("b", 50, "stated"), ("c", 10, "measured"), ("d", 90, "measured"),
              ("e", 10, "measured"))]
    assert [p["slug"] for p in ranked(parts)] == ["d", "c", "e", "b", "a"]


def test_the_cards_list_is_escaped_and_by_slug():
    from cardbench.pages.leaderhtml import card_list_html, card_list_item_html

    cards = [{"slug": "b-card", "title": HOSTILE, "bus": "UHS-I"},
             {"slug": "a-card", "title": "A", "bus": "SD Express"}]
    html = card_list_html([{**c, "list_item": card_list_item_html(c)} for c in cards])
    assert html.index("a-card") < html.index("b-card") and "<script" not in html
    assert f'<a href="{BASE}cards/a-card/">A</a> <span class="muted">SD Express</span>' in html
