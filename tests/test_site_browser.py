"""The built site in real headless Chromium: charts draw with the expected traces, no console errors,
readable at phone width, hostile strings stay text."""

import json
import os
import shutil

import pytest

import sitebuild
from browser import PageProblems, chromium, serve_dir
from test_site_build import HOSTILE, build_hostile

pytestmark = pytest.mark.skipif(not (shutil.which("chromium") or os.path.exists("/usr/bin/chromium")),
                                reason="Debian chromium is not installed (make system-deps installs it as root)")

LEXAR = "lexar-play-pro-1tb-microsd-express"


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    project, agg, hugo = sitebuild.build(tmp_path_factory.mktemp("site"))
    assert agg.returncode == 0 and hugo.returncode == 0, agg.stderr + (hugo.stderr if hugo else "")
    with serve_dir(project / "public") as url:
        yield url, project / "public"


@pytest.fixture(scope="module")
def browser():
    with chromium() as b:
        yield b


def open_page(browser, url, width=1280):
    page = browser.new_page(viewport={"width": width, "height": 900})
    problems = PageProblems(page)
    page.goto(url)
    page.wait_for_load_state("networkidle")
    return page, problems


def scroll_charts_into_view(page, selector=".chart"):
    """Charts are drawn as they come near the screen: bring each into view until it is drawn."""
    page.locator(selector).first.wait_for()
    for index in range(page.locator(selector).count()):
        chart = page.locator(selector).nth(index)
        chart.scroll_into_view_if_needed()
        page.wait_for_function("c => c.dataset.drawn", arg=chart.element_handle())


def drawn_traces(page):
    """Trace count of every chart, drawn in turn, in page order (Plotly keeps the figure on the element)."""
    scroll_charts_into_view(page)
    return page.evaluate("() => [...document.querySelectorAll('.chart')].map(c => c.querySelector('svg.main-svg') ? c.data.length : -1)")


def test_home_leaderboard_sorts_and_filters(site, browser):
    url, public = site
    cards = json.loads((public / "index.json").read_text(encoding="utf-8"))["cards"]
    page, problems = open_page(browser, url + "/")
    rows = page.locator("#leaderboard-table tbody tr")
    assert rows.count() == len(cards)
    page.locator("#leaderboard-table th", has_text="Seq. read").click()  # descending first
    first = page.locator("#leaderboard-table tbody tr").first.locator("th a").inner_text()
    best = max((c for c in cards if c["seq_read"]), key=lambda c: c["seq_read"]["mb_s"])
    assert first == best["title"]
    page.select_option("select[name=bus]", "SD Express")
    visible = page.locator("#leaderboard-table tbody tr:not([hidden])")
    assert visible.count() == sum(c["bus"] == "SD Express" for c in cards)
    assert problems.messages == []


def test_card_page_charts_every_run(site, browser):
    url, public = site
    twin = json.loads((public / "cards" / LEXAR / "index.json").read_text(encoding="utf-8"))
    page, problems = open_page(browser, f"{url}/cards/{LEXAR}/")
    traces = drawn_traces(page)
    runs_per_session = [s["run_count"] for s in twin["sessions"]]
    assert traces[: len(runs_per_session)] == runs_per_session  # one bar trace per run
    assert page.locator(".chart svg.main-svg").count() >= len(runs_per_session)
    assert problems.messages == []


def test_charts_below_the_screen_wait_until_scrolled_near(site, browser):
    url, _ = site
    page, problems = open_page(browser, f"{url}/cards/lexar-class-10-16gb-microsdhc/", width=1280)
    page.locator(".chart[data-drawn]").first.wait_for()
    page.wait_for_timeout(300)
    last = page.locator(".chart").last
    assert last.get_attribute("data-drawn") is None  # several screens down: not drawn yet
    last.scroll_into_view_if_needed()
    page.wait_for_function("c => c.dataset.drawn", arg=last.element_handle())
    assert problems.messages == []


def test_printing_draws_every_chart(site, browser):
    url, _ = site
    page, problems = open_page(browser, f"{url}/cards/lexar-class-10-16gb-microsdhc/", width=1280)
    page.locator(".chart[data-drawn]").first.wait_for()
    page.evaluate("() => window.dispatchEvent(new Event('beforeprint'))")
    page.wait_for_function("() => [...document.querySelectorAll('.chart')].every(c => c.dataset.drawn)")
    assert problems.messages == []


def test_sweeps_and_alignment_charts_draw(site, browser):
    url, _ = site
    page, problems = open_page(browser, f"{url}/cards/lexar-class-10-16gb-microsdhc/")
    traces = drawn_traces(page)
    assert page.locator("#chart-sweeps .chart[data-drawn] svg.main-svg").count() >= 1
    assert page.locator("#chart-align .chart[data-drawn] svg.main-svg").count() >= 1
    assert all(t > 0 for t in traces)
    assert problems.messages == []


def test_comparison_draws_averages_worsts_bests(site, browser):
    url, public = site
    compare = json.loads((public / "compare" / "index.json").read_text(encoding="utf-8"))
    page, problems = open_page(browser, f"{url}/compare/")
    for suite in compare["suites"]:
        section = page.locator(f"#suite-{suite['id']}")
        section.locator(".chart[data-drawn]").first.wait_for()
        scroll_charts_into_view(page, f"#suite-{suite['id']} .chart")
        counts = page.evaluate(f"() => [...document.querySelectorAll('#suite-{suite['id']} .chart')].map(c => c.data.length)")
        assert counts == [min(len(suite["cards"]), 8)] * 3
    assert problems.messages == []


def test_comparison_preloads_the_cards_it_draws_first(site, browser):
    url, public = site
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    warnings = []
    page.on("console", lambda m: warnings.append(m.text) if m.type in ("warning", "error") else None)
    page.goto(url + "/compare/")
    page.locator(".chart[data-drawn]").first.wait_for()
    page.wait_for_timeout(3500)  # Chromium warns of an unused preload after about three seconds
    preloaded = page.evaluate("() => [...document.querySelectorAll('link[rel=preload]')].map(l => l.href)")
    loaded = page.evaluate("() => performance.getEntriesByType('resource').map(r => [r.name, r.initiatorType])")
    assert preloaded and all(href.endswith("/index.json") for href in preloaded)
    for href in preloaded:  # fetched once, by the preload, and that response used
        assert [kind for name, kind in loaded if name == href] == ["link"]
    assert warnings == []


def test_reader_picks_cards_by_address(site, browser):
    url, _ = site
    page, problems = open_page(browser, f"{url}/compare/?cards={LEXAR},adata-premier-extreme-256gb-microsd-express")
    page.wait_for_function("() => document.querySelectorAll('#picked-charts .chart').length === 3")
    scroll_charts_into_view(page, "#picked-charts .chart")
    counts = page.evaluate("() => [...document.querySelectorAll('#picked-charts .chart')].map(c => c.data.length)")
    assert counts == [2, 2, 2]
    assert page.locator("#picked li").count() == 2
    assert problems.messages == []


def test_cards_without_shared_subtests_compare_on_headlines(site, browser):
    url, _ = site
    page, problems = open_page(browser, f"{url}/compare/?cards={LEXAR},sandisk-extreme-256gb-microsdxc")
    page.wait_for_function("() => document.querySelectorAll('#picked-charts .chart[data-drawn]').length === 1")
    assert page.evaluate("() => document.querySelector('#picked-charts .chart').data.length") == 2
    assert "different tests" in page.locator("#picked-charts").inner_text()
    assert problems.messages == []


@pytest.mark.parametrize("path", ["/", f"/cards/{LEXAR}/", "/compare/", "/methodology/"])
def test_phone_width_has_no_sideways_scroll(site, browser, path):
    url, _ = site
    page, problems = open_page(browser, url + path, width=390)
    if page.locator(".chart").count():
        drawn_traces(page)
    overflow = page.evaluate("() => document.documentElement.scrollWidth - document.documentElement.clientWidth")
    assert overflow <= 1
    assert problems.messages == []


def test_hostile_card_renders_as_text(tmp_path, browser):
    public = build_hostile(tmp_path)
    with serve_dir(public) as url:
        page, problems = open_page(browser, f"{url}/cards/hostile-card/")
        drawn_traces(page)
        assert HOSTILE in page.locator("h1").inner_text()
        # Only chart data blocks (type application/json, never run) may stand in the page's main part.
        assert page.locator("main script:not([type=\"application/json\"]), main img").count() == 0
        legend_and_labels = page.evaluate("() => [...document.querySelectorAll('.chart svg text')].map(t => t.textContent).join(' ')")
        assert "<script>" not in legend_and_labels or HOSTILE in legend_and_labels
        page.goto(url + "/")
        page.wait_for_load_state("networkidle")
        assert HOSTILE in page.locator("#leaderboard-table").inner_text()
        assert problems.messages == []


def test_pasted_plotly_chart_draws(tmp_path, browser):
    from test_site_build import PASTED, build_with_page

    project, result = build_with_page(tmp_path, "pasted.md", PASTED.read_text(encoding="utf-8"))
    assert result.returncode == 0, result.stderr
    with serve_dir(project / "public") as url:
        page, problems = open_page(browser, f"{url}/pasted/", width=390)
        assert drawn_traces(page) == [10, 3]
        overflow = page.evaluate("() => document.documentElement.scrollWidth - document.documentElement.clientWidth")
        assert overflow <= 1, "a fixed chart width gives way on a phone"
        assert problems.messages == []
