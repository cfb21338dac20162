"""Every page of the built site in real headless Chromium: readable at phone width with no sideways
scroll, nothing serious for axe-core, hostile strings stay text, a pasted Plotly chart draws, the
not-found page leads back."""

import pytest

from browser import (AXE, DD_CARD, LEXAR, LEXAR_16, NEEDS_CHROMIUM, PageProblems, axe_violations, drawn_traces,
                     open_page, serve_dir, sideways)
from test_site_build import HOSTILE, build_hostile

pytestmark = NEEDS_CHROMIUM


def all_card_paths(public):
    return sorted(f"/cards/{p.parent.name}/" for p in (public / "cards").glob("*/index.html"))


def _charted_kinds(public, path):
    """The source of a card page and the kinds of session it charts (a CrystalDiskMark-style set, dd, a sweep,
    flashbench, a fill, another tool's figures)."""
    import json

    twin = json.loads((public / path.strip("/") / "index.json").read_text(encoding="utf-8"))
    source = twin.get("source") or {}
    kinds = {key for session in twin["sessions"] for key, value in session.items()
             if value and isinstance(value, list) and isinstance(value[0], dict)}
    return source.get("repository") or source.get("url") or source.get("name"), kinds


def chart_kinds_once(public, paths, by_source=True):
    """The card pages to draw charts on: the first card with each kind of session the site charts (by_source:
    of each source, so each source's names and labels are drawn once). The other cards' charts are the same
    kinds, in the same responsive boxes."""
    chosen, seen = [], set()
    for path in paths:
        source, kinds = _charted_kinds(public, path)
        new = {(source if by_source else None, kind) for kind in kinds} - seen
        if new:
            chosen.append(path)
            seen |= new
    return chosen


def test_phone_width_has_no_sideways_scroll(site, browser):
    url, public = site
    cards = all_card_paths(public)
    # every chart of the first page of each kind drawn; on the first page of each kind from each source, the
    # charts near its first one (charts.js draws those near the view; the others keep the same boxes)
    drawn = set(chart_kinds_once(public, cards, by_source=False)) | {"/compare/", "/compare/?cards=" + LEXAR}
    first_drawn = set(chart_kinds_once(public, cards)) - drawn
    context = browser.new_context(viewport={"width": 390, "height": 900}, color_scheme="light")
    page = context.new_page()
    problems = PageProblems(page)
    for path in ["/", "/compare/", "/methodology/", "/cards/", "/readers/", "/compare/?cards=" + LEXAR] + cards:
        page.goto(url + path, wait_until="load")
        if path in drawn and page.locator(".chart").count():
            page.wait_for_load_state("networkidle")
            page.evaluate("() => window.dispatchEvent(new Event('beforeprint'))")
            page.wait_for_function("() => [...document.querySelectorAll('.chart')].every(c => c.dataset.drawn)")
        elif path in first_drawn and page.locator(".chart").count():
            page.locator(".chart").first.scroll_into_view_if_needed()
            page.wait_for_function("() => document.querySelector('.chart[data-drawn]')")
        page.evaluate("() => document.querySelectorAll('details').forEach(d => d.open = true)")
        assert sideways(page) <= 1, path
        assert problems.messages == [], path
    context.close()


# Every page kind in the light theme, and in the dark one the pages whose colours differ most (the leaderboard's
# bars, a card's charts and tables, the comparison's bars): the themes share every other colour.
AXE_PAGES = [("/", False), ("/", True), (f"/cards/{LEXAR}/", False), (f"/cards/{LEXAR}/", True),
             (f"/cards/{LEXAR_16}/", False), (f"/cards/{DD_CARD}/", False), ("/compare/", False),
             (f"/compare/?cards={LEXAR},sandisk-extreme-256gb-microsdxc", True)]


@pytest.mark.skipif(not AXE.exists(), reason="axe-core is not installed (npm ci installs it)")
@pytest.mark.parametrize("path, dark", AXE_PAGES, ids=[f"{p}-{'dark' if d else 'light'}" for p, d in AXE_PAGES])
def test_axe_finds_nothing_serious(site, browser, path, dark):
    url, _ = site
    assert axe_violations(browser, url + path, dark) == []


@pytest.mark.skipif(not AXE.exists(), reason="axe-core is not installed (npm ci installs it)")
def test_axe_finds_nothing_serious_on_a_phone(site, browser):
    url, _ = site
    for path in ("/", f"/cards/{LEXAR}/", "/compare/"):
        assert axe_violations(browser, url + path, dark=False, width=390) == [], path


# --- hostile and hand-written content -------------------------------------------------------------

def test_hostile_card_renders_as_text(tmp_path, browser):
    public = build_hostile(tmp_path)
    with serve_dir(public) as url:
        page, problems = open_page(browser, f"{url}/cards/hostile-card/")
        drawn_traces(page)
        assert HOSTILE in page.locator("h1").inner_text()
        # Only chart data blocks (type application/json, never run) may stand in the page's main part.
        assert page.locator("main script:not([type=\"application/json\"]), main img").count() == 0
        legend_and_labels = page.evaluate("() => [...document.querySelectorAll('.chart svg text')]"
                                          ".map(t => t.textContent).join(' ')")
        assert "<script>" not in legend_and_labels or HOSTILE in legend_and_labels
        page.goto(url + "/")
        page.wait_for_load_state("networkidle")
        assert HOSTILE in page.locator("#leaderboard-table").inner_text()
        page.goto(url + "/compare/?cards=hostile-card")
        page.wait_for_load_state("networkidle")
        drawn_traces(page, "#picked-charts .chart")
        assert HOSTILE in page.locator("#picked").inner_text()
        assert page.locator("main img").count() == 0
        assert problems.messages == []


def test_pasted_plotly_chart_draws(tmp_path, browser):
    from test_site_build import PASTED, build_with_page

    project, result = build_with_page(tmp_path, "pasted.md", PASTED.read_text(encoding="utf-8"))
    assert result.returncode == 0, result.stderr
    with serve_dir(project / "public") as url:
        page, problems = open_page(browser, f"{url}/pasted/", width=390)
        assert drawn_traces(page) == [10, 3]
        assert sideways(page) <= 1, "a fixed chart width gives way on a phone"
        # Its figures as a table too: a row per subtest, a column per run.
        table = page.locator("#plotly-1 details table")
        assert table.locator("tbody tr").count() == 12 and table.locator("thead th").count() == 10
        assert problems.messages == []
        if AXE.exists():
            assert axe_violations(browser, f"{url}/pasted/", dark=True, width=390) == []


def test_not_found_page_leads_back_to_the_leaderboard(site, browser):
    url, _ = site
    page, problems = open_page(browser, url + "/404.html")
    icon = page.evaluate("() => fetch(document.querySelector('link[rel=icon]').href)"
                         ".then(r => [r.status, r.headers.get('content-type')])")
    assert icon[0] == 200 and icon[1].startswith("image/svg+xml")  # served by the site itself
    page.get_by_role("link", name="Back to the leaderboard of every card").click()
    page.wait_for_load_state("networkidle")
    assert page.locator("#leaderboard-table").is_visible()
    assert problems.messages == []
    if AXE.exists():
        assert axe_violations(browser, url + "/404.html", dark=True) == []
