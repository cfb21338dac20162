"""The built site in real headless Chromium: charts draw with the expected traces and keep their place,
the units switch, leaderboard and comparison keep their state in the address, no console errors,
readable at phone width, hostile strings stay text."""

import json
import os
import re
import shutil
from urllib.parse import parse_qs, urlparse

import pytest

import sitebuild
from browser import PageProblems, serve_dir
from test_site_build import HOSTILE, build_hostile

pytestmark = pytest.mark.skipif(not (shutil.which("chromium") or os.path.exists("/usr/bin/chromium")),
                                reason="Debian chromium is not installed (make system-deps installs it as root)")

LEXAR = "lexar-play-pro-1tb-microsd-express"
LEXAR_16 = "lexar-class-10-16gb-microsdhc"  # flashbench sweeps, alignment scan, find-fat, a reviewer's table
DD_CARD = "sandisk-ultra-200gb-microsdxc"   # dd runs, a raw file per subtest


def open_page(browser, url, width=1280, dark=False, height=900):
    context = browser.new_context(viewport={"width": width, "height": height},
                                  color_scheme="dark" if dark else "light")
    page = context.new_page()
    problems = PageProblems(page)
    page.goto(url)
    page.wait_for_load_state("networkidle")
    return page, problems


def twin(public, slug):
    return json.loads((public / "cards" / slug / "index.json").read_text(encoding="utf-8"))


def scroll_charts_into_view(page, selector=".chart"):
    """Charts are drawn as they come near the screen: bring each into view until it is drawn."""
    page.locator(selector).first.wait_for()
    for index in range(page.locator(selector).count()):
        chart = page.locator(selector).nth(index)
        chart.scroll_into_view_if_needed()
        page.wait_for_function("c => c.dataset.drawn", arg=chart.element_handle())


def drawn_traces(page, selector=".chart"):
    """Trace count of every chart, drawn in turn, in page order (Plotly keeps the figure on the element)."""
    scroll_charts_into_view(page, selector)
    return page.evaluate("s => [...document.querySelectorAll(s)].map(c => c.querySelector('svg.main-svg') ? c.data.length : -1)",
                         selector)


def sideways(page):
    return page.evaluate("() => document.documentElement.scrollWidth - document.documentElement.clientWidth")


# --- home: the leaderboard ------------------------------------------------------------------------

def visible_titles(page):
    return page.locator("#leaderboard-table tbody tr:not([hidden]) th a").all_inner_texts()


def test_home_is_ranked_fastest_first_and_sorts_by_a_column(site, browser):
    url, public = site
    cards = json.loads((public / "index.json").read_text(encoding="utf-8"))["cards"]
    page, problems = open_page(browser, url + "/")
    assert page.locator("#leaderboard-table tbody tr").count() == len(cards)
    reads = sorted((c for c in cards if c["seq_read"]), key=lambda c: (c["run_count"] is None, -c["seq_read"]["mb_s"]))  # stated after measured
    assert visible_titles(page)[: len(reads)] == [c["title"] for c in reads]  # ranked by sequential read
    assert page.locator("th[data-key=seq_read]").get_attribute("aria-sort") == "descending"
    # bars on a log scale: a 20 MB/s card's bar still reads beside an 878 MB/s one (linear: 0.02)
    shares = page.evaluate("""() => [...document.querySelectorAll('#leaderboard-table tbody tr')].map(r =>
        [r.cells[2].dataset.value, parseFloat(r.cells[2].style.getPropertyValue('--share'))])""")
    slowest = min((float(v), share) for v, share in shares if v)
    assert slowest[0] < 25 and 0.4 < slowest[1] < 0.6
    page.locator("th[data-key=seq_write] button").click()  # figures: fastest first on the first click
    writes = sorted((c for c in cards if c["seq_write"]), key=lambda c: -c["seq_write"]["mb_s"])
    assert visible_titles(page)[0] == writes[0]["title"]
    assert parse_qs(urlparse(page.url).query) == {"sort": ["seq_write"], "dir": ["desc"]}
    page.locator("th[data-key=seq_write] button").click()
    assert page.locator("th[data-key=seq_write]").get_attribute("aria-sort") == "ascending"
    assert problems.messages == []


def test_home_filters_count_and_keep_their_state_in_the_address(site, browser):
    url, public = site
    cards = json.loads((public / "index.json").read_text(encoding="utf-8"))["cards"]
    page, problems = open_page(browser, url + "/")
    page.select_option("select[name=bus]", "SD Express")
    express = sum(c["bus"] == "SD Express" for c in cards)
    assert len(visible_titles(page)) == express
    assert page.locator("#result-count").inner_text() == f"Showing {express} of {len(cards)} cards, fastest sequential read first."
    assert parse_qs(urlparse(page.url).query) == {"bus": ["SD Express"]}
    page.fill("input[name=q]", "1TB")  # spaces and case do not matter: finds "1 TB"
    assert visible_titles(page) == ["Lexar PLAY PRO 1 TB microSDXC"]
    # The address brings the same view back.
    again, _ = open_page(browser, page.url)
    assert visible_titles(again) == ["Lexar PLAY PRO 1 TB microSDXC"]
    assert again.locator("input[name=q]").input_value() == "1TB"
    page.fill("input[name=q]", "no such card at all")
    assert visible_titles(page) == []
    assert page.locator("#no-matches").is_visible()
    assert page.locator("#result-count").inner_text() == "No card matches."
    page.locator("#filters button[type=reset]").click()
    page.wait_for_function("() => !location.search")
    assert len(visible_titles(page)) == len(cards) and not page.locator("#no-matches").is_visible()
    assert problems.messages == []


def test_cards_without_runs_say_what_was_measured(site, browser):
    url, public = site
    cards = json.loads((public / "index.json").read_text(encoding="utf-8"))["cards"]
    page, problems = open_page(browser, url + "/")
    for card in (c for c in cards if c["run_count"] == 0):
        row = page.locator("#leaderboard-table tbody tr", has=page.locator(f"a[href$='/cards/{card['slug']}/']"))
        assert "measured with" in row.locator("td[data-value='0']").inner_text()
    assert problems.messages == []


# --- card pages -----------------------------------------------------------------------------------

def test_card_page_charts_mean_whiskers_and_every_run(site, browser):
    url, public = site
    data = twin(public, LEXAR)
    page, problems = open_page(browser, f"{url}/cards/{LEXAR}/")
    session = data["sessions"][0]
    chart = page.locator(f"#session-{session['id']}-runs .chart")
    drawn_traces(page, f"#session-{session['id']}-runs .chart")
    traces = chart.evaluate("c => c.data.map(t => [t.type, t.name, t.x.length, !!t.error_x])")
    rate_subtests = [s for s in session["subtests"] if s["mb_s"]]
    runs = sum(len(s["runs"]) - len(s.get("excluded_runs") or []) for s in rate_subtests if s["op"] == "read")
    assert traces[:2] == [["bar", "Read, mean", 6, True], ["bar", "Write, mean", 6, True]]
    assert traces[2][0] == "scatter" and traces[2][2] == runs  # a dot per run
    means = chart.evaluate("c => c.data[0].x")
    assert means == [s["mb_s"]["mean"] for s in rate_subtests if s["op"] == "read"]
    # No mode bar: nothing over the bars, no tab stops inside a chart.
    assert page.locator(".chart .modebar-btn, .chart a, .chart button, .chart [tabindex]").count() == 0
    # The numbers behind the chart: a table per chart, with every run.
    box = page.locator(f"#session-{session['id']}-runs")
    box.locator("details summary").click()
    first_row = box.locator("details tbody tr").first
    assert first_row.locator("td").count() == session["max_runs"]
    assert problems.messages == []


def test_charts_keep_their_place_while_they_draw(site, browser):
    url, _ = site
    page, problems = open_page(browser, f"{url}/cards/{LEXAR_16}/")
    boxes = page.locator(".chart")
    before = [boxes.nth(i).bounding_box()["height"] for i in range(boxes.count())]
    drawn_traces(page)
    after = [boxes.nth(i).bounding_box()["height"] for i in range(boxes.count())]
    assert before == after and all(h >= 200 for h in before)
    assert problems.messages == []


def test_block_size_curves_are_split_so_each_chart_reads(site, browser):
    url, public = site
    page, problems = open_page(browser, f"{url}/cards/{LEXAR_16}/")
    traces = drawn_traces(page, "#curves .chart")
    assert len(traces) >= 3 and all(0 < t <= 8 for t in traces)
    ids = page.evaluate("() => [...document.querySelectorAll('#curves .chart-box')].map(b => b.id)")
    assert ids[:3] == ["chart-sweeps", "chart-sweeps-random", "chart-find-fat"]
    # Every raw file the card names for its curves is linked beside the chart it backs.
    data = twin(public, LEXAR_16)
    named = {ref for s in data["sessions"] for key in ("flashbench_open_au", "flashbench_align", "flashbench_find_fat")
             for entry in s.get(key) or [] for ref in entry.get("raw") or []}
    linked = set(page.evaluate("() => [...document.querySelectorAll('#curves .raw-list a')].map(a => new URL(a.href).pathname)"))
    assert {"/data/" + ref for ref in named} <= linked
    # The reviewer's dashes read as words.
    assert "-----" not in page.locator("main").inner_text()
    assert "not measured" in page.locator("table.headline").inner_text()
    assert problems.messages == []


def test_charts_below_the_screen_wait_until_scrolled_near(site, browser):
    url, _ = site
    page, problems = open_page(browser, f"{url}/cards/{LEXAR_16}/", width=1280, height=900)
    page.wait_for_function("() => document.querySelector('.chart[data-drawn]')")
    page.wait_for_timeout(500)
    # Drawn on load: charts starting within three screens of the top (the view and two below it).
    tops = page.evaluate("() => [...document.querySelectorAll('.chart')].map(c => [c.getBoundingClientRect().top, !!c.dataset.drawn])")
    assert all(drawn == (top < 3 * 900) for top, drawn in tops), tops
    last = page.locator(".chart").last
    assert last.get_attribute("data-drawn") is None  # several screens down: not drawn yet
    last.scroll_into_view_if_needed()
    page.wait_for_function("c => c.dataset.drawn", arg=last.element_handle())
    assert problems.messages == []


def test_printing_draws_every_chart(site, browser):
    url, _ = site
    page, problems = open_page(browser, f"{url}/cards/{LEXAR_16}/", width=1280)
    page.wait_for_timeout(300)
    assert page.locator(".chart[data-drawn]").count() < page.locator(".chart").count()
    page.evaluate("() => window.dispatchEvent(new Event('beforeprint'))")
    page.wait_for_function("() => [...document.querySelectorAll('.chart')].every(c => c.dataset.drawn)")
    assert problems.messages == []


def test_units_switch_shows_mib_figures_and_keeps_the_choice_in_the_address(site, browser):
    url, public = site
    data = twin(public, LEXAR)
    sub = data["sessions"][0]["subtests"][0]
    page, problems = open_page(browser, f"{url}/cards/{LEXAR}/")
    mean_cell = page.locator("table.stats").first.locator("tbody tr").first.locator("td").nth(1)
    assert mean_cell.inner_text() == f"{sub['mb_s']['mean']:.0f}"
    drawn_traces(page, ".session .chart")
    page.locator("[data-unit-switch] input[value=mib]").first.check()
    assert parse_qs(urlparse(page.url).query) == {"unit": ["mib"]}
    assert mean_cell.inner_text() == f"{sub['mib_s']['mean']:.0f}"
    chart = page.locator(".session .chart").first
    page.wait_for_function("c => c.layout.xaxis.title.text.startsWith('MiB/s')", arg=chart.element_handle())
    assert chart.evaluate("c => c.data[0].x[0]") == pytest.approx(sub["mib_s"]["mean"])
    # Opened from the address: MiB/s at once.
    again, _ = open_page(browser, page.url)
    cell = again.locator("table.stats").first.locator("tbody tr").first.locator("td").nth(1)
    assert cell.inner_text() == f"{sub['mib_s']['mean']:.0f}"
    assert again.locator("[data-unit-switch] input[value=mib]").first.is_checked()
    assert problems.messages == []


def test_grid_at_the_top_shows_every_subtest_read_and_write(site, browser):
    url, public = site
    grid = twin(public, LEXAR)["grid"]
    page, problems = open_page(browser, f"{url}/cards/{LEXAR}/")
    rows = page.locator("#grid tbody tr")
    assert rows.count() == len(grid["rows"])
    assert rows.first.locator("th").inner_text() == grid["rows"][0]["test"]
    assert rows.first.locator("td.read .rate").inner_text().startswith(f"{grid['rows'][0]['read']['mb_s']:.0f}")
    top = page.evaluate("() => document.querySelector('#grid').getBoundingClientRect().top")
    assert top < 400  # above the fold on a desktop screen
    assert problems.messages == []


def test_card_pages_have_a_description_and_a_skip_link(site, browser):
    url, _ = site
    page, problems = open_page(browser, f"{url}/cards/{LEXAR}/")
    description = page.locator("meta[name=description]").get_attribute("content")
    assert description.startswith("Lexar PLAY PRO 1 TB") and "MB/s" in description
    page.keyboard.press("Tab")
    assert page.evaluate("() => document.activeElement.className") == "skip-link"
    page.keyboard.press("Enter")
    assert page.evaluate("() => document.activeElement.id") == "main"
    assert problems.messages == []


def test_dark_mode_darkens_page_and_charts(site, browser):
    url, _ = site
    page, problems = open_page(browser, f"{url}/cards/{LEXAR}/", dark=True)
    background = page.evaluate("() => getComputedStyle(document.body).backgroundColor")
    assert sum(int(v) for v in re.findall(r"\d+", background)[:3]) < 150
    chart = page.locator(".session .chart").first
    drawn_traces(page, ".session .chart")
    font = chart.evaluate("c => c._fullLayout.font.color")
    assert font.lower() in ("#e5e7eb", "rgb(229, 231, 235)")
    page.emulate_media(color_scheme="light")  # follows a change of the system's scheme
    page.wait_for_function("c => c._fullLayout.font.color.toLowerCase() === '#1f2937'", arg=chart.element_handle())
    assert problems.messages == []


# --- every page: phones, accessibility ------------------------------------------------------------

def all_card_paths(public):
    return sorted(f"/cards/{p.parent.name}/" for p in (public / "cards").glob("*/index.html"))


def test_phone_width_has_no_sideways_scroll(site, browser):
    url, public = site
    paths = ["/", "/compare/", "/methodology/", "/cards/", "/compare/?cards=" + LEXAR] + all_card_paths(public)
    for batch in (paths[i:i + 6] for i in range(0, len(paths), 6)):
        # A few pages load side by side, so their waits for the network to go quiet overlap.
        opened = []
        for path in batch:
            context = browser.new_context(viewport={"width": 390, "height": 900}, color_scheme="light")
            page = context.new_page()
            opened.append((path, page, PageProblems(page)))
            page.goto(url + path, wait_until="commit")
        for path, page, problems in opened:
            page.wait_for_load_state("networkidle")
            if page.locator(".chart").count():
                page.evaluate("() => window.dispatchEvent(new Event('beforeprint'))")
                page.wait_for_function("() => [...document.querySelectorAll('.chart')].every(c => c.dataset.drawn)")
            page.evaluate("() => document.querySelectorAll('details').forEach(d => d.open = true)")
            assert sideways(page) <= 1, path
            assert problems.messages == [], path
            page.context.close()


def test_claimed_and_measured_rows_stay_compact_on_a_phone(site, browser):
    url, _ = site
    page, problems = open_page(browser, f"{url}/cards/{LEXAR}/", width=390)
    heights = page.evaluate("() => [...document.querySelectorAll('#claimed-measured tbody tr')].map(r => r.getBoundingClientRect().height)")
    assert heights and max(heights) < 110  # name, the test behind it and the figures: a few lines, not a column of words
    assert problems.messages == []


AXE = sitebuild.ROOT / "node_modules" / "axe-core" / "axe.min.js"


def axe_violations(browser, url, dark, width=1280):
    """Serious and critical axe-core findings on a page with every chart drawn and every table open."""
    context = browser.new_context(viewport={"width": width, "height": 900}, bypass_csp=True,
                                  color_scheme="dark" if dark else "light")
    try:
        page = context.new_page()
        page.goto(url)
        page.wait_for_load_state("networkidle")
        if page.locator(".chart").count():
            page.evaluate("() => window.dispatchEvent(new Event('beforeprint'))")
            scroll_charts_into_view(page)
        page.evaluate("() => document.querySelectorAll('details').forEach(d => d.open = true)")
        page.add_script_tag(path=str(AXE))
        result = page.evaluate("() => axe.run(document, { resultTypes: ['violations'] })")
        return [(v["id"], v["impact"], [n["target"] for n in v["nodes"]][:3]) for v in result["violations"]
                if v["impact"] in ("serious", "critical")]
    finally:
        context.close()


@pytest.mark.skipif(not AXE.exists(), reason="axe-core is not installed (npm ci installs it)")
@pytest.mark.parametrize("dark", [False, True], ids=["light", "dark"])
@pytest.mark.parametrize("path", ["/", f"/cards/{LEXAR}/", f"/cards/{LEXAR_16}/", f"/cards/{DD_CARD}/", "/compare/",
                                  f"/compare/?cards={LEXAR},sandisk-extreme-256gb-microsdxc"])
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
        legend_and_labels = page.evaluate("() => [...document.querySelectorAll('.chart svg text')].map(t => t.textContent).join(' ')")
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


# --- picking cards on the leaderboard, printing ----------------------------------------------------

def test_leaderboard_picks_cards_to_compare_by_keyboard(site, browser):
    url, public = site
    cards = json.loads((public / "index.json").read_text(encoding="utf-8"))["cards"]
    page, problems = open_page(browser, url + "/")
    boxes = page.locator("#leaderboard-table tbody input.pick")
    assert boxes.count() == len(cards)
    titles = visible_titles(page)
    assert [boxes.nth(i).get_attribute("aria-label") for i in range(2)] == [f"Compare {t}" for t in titles[:2]]
    button = page.get_by_role("button", name="Compare selected")
    assert button.is_disabled()
    by_title = {c["title"]: c["slug"] for c in cards}
    second, first = by_title[titles[1]], by_title[titles[0]]
    page.get_by_role("checkbox", name=f"Compare {titles[1]}").focus()
    page.keyboard.press("Space")
    assert button.is_disabled()
    assert page.locator("#compare-pick-status").inner_text() == "1 card picked: tick one more to compare."
    page.keyboard.press("Shift+Tab")  # back to the first row's card link, then to its checkbox
    page.keyboard.press("Shift+Tab")
    page.keyboard.press("Space")
    assert page.locator("#compare-pick-status").inner_text() == "2 cards picked."
    assert button.is_enabled()
    button.focus()
    page.keyboard.press("Enter")
    page.wait_for_url("**/compare/?cards=*")
    assert parse_qs(urlparse(page.url).query) == {"cards": [f"{second},{first}"]}  # in the order ticked
    assert problems.messages == []


def test_unticking_disables_compare_again(site, browser):
    url, _ = site
    page, problems = open_page(browser, url + "/")
    boxes = page.locator("#leaderboard-table tbody input.pick")
    boxes.nth(0).check()
    boxes.nth(1).check()
    assert page.get_by_role("button", name="Compare selected").is_enabled()
    boxes.nth(0).uncheck()
    assert page.get_by_role("button", name="Compare selected").is_disabled()
    assert problems.messages == []


def test_print_leaves_out_controls_and_shows_link_addresses(site, browser):
    url, _ = site
    page, problems = open_page(browser, f"{url}/cards/{LEXAR}/", width=700)
    page.emulate_media(media="print")
    page.evaluate("() => window.dispatchEvent(new Event('beforeprint'))")
    page.wait_for_function("() => [...document.querySelectorAll('.chart')].every(c => c.dataset.drawn)")
    for selector in (".site-header nav", "[data-unit-switch]", ".skip-link"):
        assert all(not el.is_visible() for el in page.locator(selector).all()), selector
    after = page.evaluate("() => getComputedStyle(document.querySelector('#sources a[href$=\"runs.csv\"]'), '::after').content")
    assert f"/cards/{LEXAR}/runs.csv" in after
    widths = page.evaluate("() => [...document.querySelectorAll('.chart')].map(c => c.getBoundingClientRect().right)")
    assert widths and max(widths) <= page.evaluate("() => document.documentElement.clientWidth")
    home, _ = open_page(browser, url + "/")
    home.emulate_media(media="print")
    for selector in ("#filters", "#compare-pick", "#leaderboard-table input.pick"):
        assert all(not el.is_visible() for el in home.locator(selector).all()), selector
    assert problems.messages == []


def test_not_found_page_leads_back_to_the_leaderboard(site, browser):
    url, _ = site
    page, problems = open_page(browser, url + "/404.html")
    icon = page.evaluate("() => fetch(document.querySelector('link[rel=icon]').href).then(r => [r.status, r.headers.get('content-type')])")
    assert icon[0] == 200 and icon[1].startswith("image/svg+xml")  # served by the site itself
    page.get_by_role("link", name="Back to the leaderboard of every card").click()
    page.wait_for_load_state("networkidle")
    assert page.locator("#leaderboard-table").is_visible()
    assert problems.messages == []
    if AXE.exists():
        assert axe_violations(browser, url + "/404.html", dark=True) == []
