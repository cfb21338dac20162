"""A card page in real headless Chromium: charts draw with the expected traces, keep their place and wait
until scrolled near, the units switch, the figures grid, dark mode, printing, a phone's width."""

import re
from urllib.parse import parse_qs, urlparse

import pytest

from browser import LEXAR, LEXAR_16, NEEDS_CHROMIUM, drawn_traces, open_page, twin

pytestmark = NEEDS_CHROMIUM


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
    linked = set(page.evaluate("() => [...document.querySelectorAll('#curves .raw-list a')]"
                               ".map(a => new URL(a.href).pathname)"))
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
    tops = page.evaluate("() => [...document.querySelectorAll('.chart')]"
                         ".map(c => [c.getBoundingClientRect().top, !!c.dataset.drawn])")
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


def test_claimed_and_measured_rows_stay_compact_on_a_phone(site, browser):
    url, _ = site
    page, problems = open_page(browser, f"{url}/cards/{LEXAR}/", width=390)
    heights = page.evaluate("() => [...document.querySelectorAll('#claimed-measured tbody tr')]"
                            ".map(r => r.getBoundingClientRect().height)")
    # name, the test behind it and the figures: a few lines, not a column of words
    assert heights and max(heights) < 110
    assert problems.messages == []


def test_print_leaves_out_controls_and_shows_link_addresses(site, browser):
    url, _ = site
    page, problems = open_page(browser, f"{url}/cards/{LEXAR}/", width=700)
    page.emulate_media(media="print")
    page.evaluate("() => window.dispatchEvent(new Event('beforeprint'))")
    page.wait_for_function("() => [...document.querySelectorAll('.chart')].every(c => c.dataset.drawn)")
    for selector in (".site-header nav", "[data-unit-switch]", ".skip-link"):
        assert all(not el.is_visible() for el in page.locator(selector).all()), selector
    after = page.evaluate("() => getComputedStyle(document.querySelector('#sources a[href$=\"runs.csv\"]'), '::after')"
                          ".content")
    assert f"/cards/{LEXAR}/runs.csv" in after
    widths = page.evaluate("() => [...document.querySelectorAll('.chart')].map(c => c.getBoundingClientRect().right)")
    assert widths and max(widths) <= page.evaluate("() => document.documentElement.clientWidth")
    home, _ = open_page(browser, url + "/")
    home.emulate_media(media="print")
    for selector in ("#filters", "#compare-pick", "#leaderboard-table input.pick"):
        assert all(not el.is_visible() for el in home.locator(selector).all()), selector
    assert problems.messages == []




def test_a_card_page_says_where_it_stands_among_cards_the_same_source_read_on_the_same_host(site, browser):
    import json as json_module

    url, public = site
    groups = json_module.loads((public / "standing.json").read_text(encoding="utf-8"))
    slug = "sandisk-extreme-256gb-microsdxc"
    twin = json_module.loads((public / "cards" / slug / "index.json").read_text(encoding="utf-8"))
    [entry] = twin["standing"]
    group = groups[f"{entry['form_factor']}|{entry['host']}|{entry['source']}"]
    others = list(group)
    others.remove(entry["mb_s"])
    share = round(100 * sum(v < entry["mb_s"] for v in others) / len(others))
    page, problems = open_page(browser, f"{url}/cards/{slug}/")
    page.wait_for_selector("#standing:not([hidden])")
    text = page.locator("#standing").inner_text()
    assert (f"sequential read faster than {share} % of the {len(others)} other microSD cards {entry['source']} read on "
            f"{entry['host']}") in text
    assert problems.messages == []
