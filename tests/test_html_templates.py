"""The site's finished HTML templates (pages/templates/): a card string holding markup, quotes and "&"
comes out escaped, as html.escape writes it, from every template; only code's fragments pass as HTML."""

import json
from html import escape

from cardbench.pages.cardhtml import card_charts_text
from cardbench.pages.htmltemplates import TEMPLATES_DIR, compile_all, environment, page_text

CARD_TEXT = "<script>alert('x')</script> \"Acme\" & Co"
ESCAPED = escape(CARD_TEXT)  # &lt;script&gt;alert(&#x27;x&#x27;)&lt;/script&gt; &quot;Acme&quot; &amp; Co
RATE = '<span data-mb="1.0" data-mib="0.95">1.0</span>'  # a figure cell written by code (figurehtml)
# the site's fixed words only
NO_CARD_TEXT = {"shared/words.html.j2", "shared/figures-table-template.html.j2", "shared/chart-box-template.html.j2"}


def _raw():
    return [{"name": CARD_TEXT, "path": CARD_TEXT}]


def _chart():
    table = {"caption": CARD_TEXT,
             "head": [{"text": CARD_TEXT}, {"text": CARD_TEXT, "unit": CARD_TEXT}, {"text": "x", "rate": True}],
             "rows": [{"head": CARD_TEXT, "cells": f'<td class="num">{RATE}</td>', "raw": _raw()}]}
    return {"id": CARD_TEXT, "title": CARD_TEXT, "height": 300, "note": CARD_TEXT, "table": table,
            "figure": '{"data":[{"name":"\\u003cscript\\u003e"}]}', "sources": [{"name": CARD_TEXT, "raw": _raw()}]}


def _session():
    stats = {"name": CARD_TEXT, "raw": _raw(), "count": 3, "excluded": 1, "figures": f'<td class="num">{RATE}</td>',
             "recorded": CARD_TEXT, "rate": False}
    tool = {"tool": CARD_TEXT, "figure": CARD_TEXT, "count": 2, "figures": "", "printed": CARD_TEXT, "rate": False}
    return {"dom_id": CARD_TEXT, "label": CARD_TEXT, "complete": False, "compare": False, "date": CARD_TEXT,
            "host": CARD_TEXT, "reader": CARD_TEXT, "conditions": CARD_TEXT, "target": CARD_TEXT,
            "tools": [{"name": CARD_TEXT, "version": CARD_TEXT}],
            "source": {"name": CARD_TEXT, "url": "https://example.org/?a=<b>&c='d'"},
            "notes": CARD_TEXT, "reading": [CARD_TEXT], "headline": [{"name": CARD_TEXT, "value": CARD_TEXT}],
            "chart": _chart(), "stats": [stats], "other_tools_chart": None, "other_tools": [tool],
            "nvme": {"model": CARD_TEXT, "firmware": CARD_TEXT, "pcie_link": CARD_TEXT,
                     "thresholds_c": {"wctemp": CARD_TEXT}, "temperature_c": {"idle": CARD_TEXT}},
            "f3probe": {"verdict": "damaged", "usable_bytes": 10, "announced_bytes": 20},
            "capacity_check": {"tool": CARD_TEXT, "verdict": "lost", "verdict_text": CARD_TEXT}, "raw": _raw()}


def _page():
    grid = {"suite": CARD_TEXT, "basis": CARD_TEXT, "rows": [{"test": CARD_TEXT, "cells": [
        {"rate": RATE, "iops": {"text": CARD_TEXT}, "latency": {"text": CARD_TEXT, "derived": True}}, None]}]}
    paths = {"compare": CARD_TEXT,
             "columns": [{"reader": CARD_TEXT, "host": CARD_TEXT, "sessions": [CARD_TEXT], "label": CARD_TEXT}],
             "rows": [{"name": CARD_TEXT, "cells": f'<td class="num">{RATE}</td>'}]}
    return {"slug": CARD_TEXT, "title": CARD_TEXT, "description": CARD_TEXT, "brand": CARD_TEXT, "model": CARD_TEXT,
            "part_number": CARD_TEXT, "family": CARD_TEXT, "capacity_gb": 64, "form_factor": CARD_TEXT,
            "bus": CARD_TEXT,
            "markings": [CARD_TEXT], "controller": CARD_TEXT, "notes": CARD_TEXT, "claimed_note": CARD_TEXT,
            "price": {"amount": CARD_TEXT, "currency": CARD_TEXT, "shop": CARD_TEXT, "date": CARD_TEXT},
            "shops": [{"name": CARD_TEXT, "url": "https://example.org/"}],
            "source": {"name": CARD_TEXT, "author": CARD_TEXT, "date": CARD_TEXT, "license_note": CARD_TEXT},
            "grid": grid, "paths": paths, "sessions": [_session()], "curves": [_chart()],
            "findings": [{"id": CARD_TEXT, "session": CARD_TEXT, "label": CARD_TEXT, "text": CARD_TEXT,
                          "basis": CARD_TEXT, "session_label": CARD_TEXT, "fake": True}],
            "findings_notes": [{"reason": CARD_TEXT}],
            "claimed_rows": [{"name": CARD_TEXT, "by": CARD_TEXT, "recorded": CARD_TEXT, "raw": _raw(), "claim": RATE,
                              "measured": RATE, "stated": True, "share": CARD_TEXT}],
            "class_checks": [{"marking": CARD_TEXT,
                              "verdict": {"tone": CARD_TEXT, "text": CARD_TEXT, "note": CARD_TEXT},
                              "parts": [{"what": CARD_TEXT, "need": CARD_TEXT, "unit": CARD_TEXT, "from": CARD_TEXT,
                                         "measured": CARD_TEXT, "meets": False}]}]}


def _row():
    cell = {"value": 1.0, "text": CARD_TEXT, "from": CARD_TEXT}
    return {"slug": CARD_TEXT, "title": CARD_TEXT, "brand": CARD_TEXT, "bus": CARD_TEXT, "form_factor": CARD_TEXT,
            "markings": [CARD_TEXT], "hosts": [CARD_TEXT], "readers": [CARD_TEXT], "source": CARD_TEXT,
            "per_price": {"value": 1.5, "text": CARD_TEXT, "from": CARD_TEXT}, "per_gb": cell, "fake": CARD_TEXT,
            "cells": [cell, cell, None],
            "stated_cells": [True, False, False], "other_test_cells": [False, True, False], "claimed_read": 1,
            "claimed_write": None, "runs": 2, "runs_stated": False, "instead": CARD_TEXT, "charted": ""}


def _values():
    page = _page()
    session = page["sessions"][0]
    return {"page": page, "s": session, "chart": session["chart"], "table": session["chart"]["table"],
            "grid": page["grid"], "paths": page["paths"], "nvme": session["nvme"], "source": page["source"],
            "row": _row(),
            "p": {"slug": CARD_TEXT, "title": CARD_TEXT, "bus": CARD_TEXT},
            "spi": {"slug": CARD_TEXT, "title": CARD_TEXT, "hosts": CARD_TEXT, "clocks": CARD_TEXT,
                    "cells": [{"value": 1.0, "text": CARD_TEXT, "from": CARD_TEXT}, None]},
            "repo": "https://git.example.org/cards/commits/main",  # a card page's (cardhtml.card_page_text)
            "switch_name": CARD_TEXT}


def test_a_card_string_comes_out_escaped_from_every_template():
    env, values = environment(), _values()
    names = compile_all()
    assert len(names) > 10 and "card/session.html.j2" in names
    for name in names:
        html = env.get_template(name).render(**values)
        assert "<script>" not in html and "alert('x')" not in html and '"Acme"' not in html and "& Co" not in html, name
        if name not in NO_CARD_TEXT:
            assert ESCAPED in html, name


def test_only_code_fragments_pass_as_html():
    html = environment().get_template("card.html.j2").render(page=_page(),
                                                             repo="https://git.example.org/c/commits/main")
    assert RATE in html  # figure cells and rates: written and escaped by figurehtml
    assert "chart-figure" not in html and 'data-charts="charts.json"' in html and "data-figure" in html
    charts = json.loads(card_charts_text(_page()))  # the figures, in the file the page fetches
    assert charts and all(f == {"data": [{"name": "<script>"}]} for f in charts.values())
    assert "<" not in card_charts_text(_page())  # written escaped (\\u003c): no markup even where read as text
    assert 'href="https://example.org/?a=%3Cb%3E&amp;c=%27d%27"' in html
    assert page_text(None) == "" and page_text(3.0) == "3" and page_text(2.5) == "2.5"
    assert page_text(CARD_TEXT) == ESCAPED


def test_templates_are_compiled_once_for_the_forked_workers():
    names = compile_all()
    assert all(environment().get_template(name) is environment().get_template(name) for name in names)
    assert {p.relative_to(TEMPLATES_DIR).as_posix() for p in TEMPLATES_DIR.rglob("*.j2")} == set(names)


def test_compiled_templates_are_kept_between_processes(tmp_path):
    """A build that checks one card starts a new process: its templates come compiled from Jinja2's bytecode cache
    (the system's temp folder, named by each template's source), not compiled again."""
    import jinja2

    from cardbench.pages.htmltemplates import environment

    assert isinstance(environment().bytecode_cache, jinja2.FileSystemBytecodeCache)
    fresh = environment().overlay(bytecode_cache=jinja2.FileSystemBytecodeCache(str(tmp_path)), cache_size=0)
    fresh._loaded_by_name = {}  # as a new process has it: nothing loaded yet
    fresh.get_template("card.html.j2")
    assert list(tmp_path.glob("__jinja2_*.cache"))  # what the next process reads instead of compiling
    assert "__cardbench_" in environment().bytecode_cache.pattern  # named by the options that compiled it too
