"""The card page's figures written once as finished HTML (figurehtml.py): the same markup the templates
wrote per figure, and nothing in them can carry markup."""

from cardbench.pages.figurehtml import figure_cells_html, path_cells_html, rate_html, run_cells_html, with_table_html


def test_a_rate_carries_both_units_and_a_text_cell_its_text():
    assert rate_html({"mb": "1,234", "mib": "1,177"}) == '<span data-mb="1,234" data-mib="1,177">1,234</span>'
    assert rate_html({"text": "–"}) == "–"
    assert rate_html({"text": ""}) == ""


def test_every_value_is_escaped_whatever_it_holds():
    hostile = '"><script>alert(1)</script>'
    for html in (rate_html({"mb": hostile, "mib": hostile}), rate_html({"text": hostile}),
                 run_cells_html([{"mb": "1", "mib": "1", "note": hostile}]),
                 path_cells_html([{"text": hostile, "runs": 0}])):
        assert "<script" not in html and "&quot;&gt;&lt;script&gt;" in html


def test_cells_follow_the_tables_markup():
    cells = [{"mb": "10.0", "mib": "9.54"}, {"text": "–"}]
    assert figure_cells_html(cells, strong_first=True) == (
        '<td class="num"><strong><span data-mb="10.0" data-mib="9.54">10.0</span></strong></td><td class="num">–</td>')
    assert run_cells_html([dict(cells[0], note="excluded")]) == (
        '<td class="num"><span data-mb="10.0" data-mib="9.54">10.0</span> <span class="muted">(excluded)</span></td>')
    assert path_cells_html([dict(cells[0], runs=3), {"text": "–", "runs": 0}]) == (
        '<td class="num"><span data-mb="10.0" data-mib="9.54">10.0</span> <span class="muted">(n = 3)</span></td>'
        '<td class="num"><span class="muted" title="not measured through this path">–</span></td>')


def test_a_charts_table_rows_hold_finished_cells_and_keep_their_heads():
    chart = {"id": "c", "table": {"caption": "Every run", "head": [],
                                  "rows": [{"head": "SEQ <1M>", "cells": [{"text": "1"}], "raw": []}]}}
    row = with_table_html(chart)["table"]["rows"][0]
    assert row["head"] == "SEQ <1M>"  # a card's name: the template escapes it
    assert row["cells"] == '<td class="num">1</td>'
    assert with_table_html(None) is None
