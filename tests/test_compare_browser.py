"""The comparison page in Chromium, on the shipped cards: one ranked chart per suite, the cards it draws
first preloaded, cards picked by address or by the picker, names that are no card named and the rest drawn."""

import json
import re

from browser import LEXAR, NEEDS_CHROMIUM, drawn_traces, open_page, twin

pytestmark = NEEDS_CHROMIUM


def picked_bars(page):
    """The picked cards' chart: its trace counts once drawn, and the bars (cards) its first trace has."""
    traces = drawn_traces(page, "#picked-charts .chart")
    return traces, page.locator("#picked-charts .chart").evaluate("c => c.data[0].y.length")

def test_comparison_draws_one_ranked_chart_per_suite_with_every_member(site, browser):
    url, public = site
    compare = json.loads((public / "compare" / "index.json").read_text(encoding="utf-8"))
    page, problems = open_page(browser, f"{url}/compare/")
    for suite in compare["suites"]:
        selector = f"#suite-{suite['id']} .chart"
        assert drawn_traces(page, selector) == [2]  # read and write
        drawn = page.locator(selector).evaluate("c => c.data[0].y.length")
        assert drawn == min(len(suite["cards"]), 12)
        means = page.locator(selector).evaluate("c => c.data[0].x")
        assert means == sorted(means, reverse=True)  # fastest first
        assert page.locator(selector).evaluate("c => !!c.data[0].error_x")
        note = page.locator(f"#suite-{suite['id']} .members-note").inner_text()
        all_drawn = f"All {len(suite['cards'])} cards of this suite are drawn."
        assert note == all_drawn if len(suite["cards"]) <= 12 else "tick" in note
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
    assert preloaded and all(re.search(r"/compare/cards/[a-z0-9-]+\.json$", href) for href in preloaded)
    for href in preloaded:  # fetched once, by the preload, and that response used
        assert [kind for name, kind in loaded if name == href] == ["link"]
    assert warnings == []


def test_reader_picks_cards_by_address(site, browser):
    url, public = site
    page, problems = open_page(browser, f"{url}/compare/?cards={LEXAR},adata-premier-extreme-256gb-microsd-express")
    assert picked_bars(page) == ([2], 2)
    assert page.locator("#picked li").count() == 2
    page.select_option("#picked-charts select", "RND4K Q1T1")  # one subtest at a time, picked from a menu
    page.wait_for_function("() => document.querySelector('#picked-charts figcaption')"
                           ".textContent.startsWith('RND4K Q1T1')")
    # MiB/s from the cards' own MiB/s figures, in the chart and its table.
    lexar = twin(public, LEXAR)["pooled"]["RND4K Q1T1 read"]
    page.locator("[data-unit-switch] input[value=mib]").check()
    chart = page.locator("#picked-charts .chart")
    page.wait_for_function("c => c.dataset.drawn && c.layout.xaxis.title.text.startsWith('MiB/s')",
                           arg=chart.element_handle())
    assert lexar["mib_s"]["mean"] in chart.evaluate("c => c.data[0].x")
    assert "unit=mib" in page.url and f"cards={LEXAR}" in page.url
    # the figures as cdm_fio.sh printed them, in its whole MiB/s: mean, slowest–fastest
    shown = lexar["printed"]
    assert lexar["mib_s"]["mean"] == shown["mean"] and shown["unit"] == "MiB/s"
    table_text = page.locator("#picked-charts details table").text_content()
    assert f"{shown['mean']} {shown['min']}–{shown['max']}" in table_text
    assert problems.messages == []


def test_one_bad_card_name_leaves_the_others_drawn(site, browser):
    url, _ = site
    page, problems = open_page(browser,
                               f"{url}/compare/?cards={LEXAR},no-such-card,adata-premier-extreme-256gb-microsd-express")
    assert picked_bars(page) == ([2], 2)
    assert "no-such-card" in page.locator("#pick-status").inner_text()
    assert "not found" in page.locator("#picked li", has_text="no-such-card").inner_text()
    assert [m for m in problems.messages if "404" not in m] == []  # the missing card's own request fails


def test_address_names_that_are_no_card_slugs_are_named_and_the_rest_drawn(site, browser):
    """Names an object lookup or a path would misread (constructor, __proto__, ..) are only names: listed as
    not found, never fetched, and the real cards beside them drawn."""
    url, _ = site
    adata = "adata-premier-extreme-256gb-microsd-express"
    page, problems = open_page(browser, f"{url}/compare/?cards={LEXAR},constructor,__proto__,..,{adata}")
    assert picked_bars(page) == ([2], 2)
    status = page.locator("#pick-status").inner_text()
    for name in ("constructor", "__proto__", ".."):
        assert f"“{name}”" in status
        picked = page.locator("#picked li").filter(has_text=re.compile(rf"^{re.escape(name)} "))
        assert "(not found)" in picked.inner_text()
    assert "native code" not in page.locator("main").inner_text()
    fetched = page.evaluate("() => performance.getEntriesByType('resource').map(r => new URL(r.name).pathname)")
    assert "/index.json" not in fetched and not [p for p in fetched if "constructor" in p or "proto" in p]
    assert problems.messages == []


def test_picker_matches_loosely(site, browser):
    url, _ = site
    page, problems = open_page(browser, f"{url}/compare/")
    picker = page.locator("#pick-input")
    for typed in ("sandisk extreme pro 256", "SANDISK  extrem pro 256", "256 extreme pro sandisk"):
        picker.fill(typed)
        page.locator("#pick-options [role=option]").first.wait_for()
        assert page.locator("#pick-options [role=option]").first.inner_text() == "SanDisk Extreme PRO 256 GB SDXC"
    picker.press("Enter")  # the best match
    page.wait_for_function("() => location.search.includes('sandisk-extreme-pro-256gb-sdxc')")
    picker.fill("lexar 1tb")
    page.locator("#pick-options [role=option]").first.wait_for()
    picker.press("ArrowDown")
    assert picker.get_attribute("aria-activedescendant") == "pick-options-0"
    picker.press("Enter")
    page.wait_for_function(f"() => location.search.includes('{LEXAR}')")
    assert page.locator("#picked li").count() == 2
    assert problems.messages == []


def test_cards_without_shared_subtests_compare_on_headlines(site, browser):
    url, _ = site
    page, problems = open_page(browser, f"{url}/compare/?cards={LEXAR},sandisk-extreme-256gb-microsdxc")
    assert picked_bars(page) == ([2], 2)
    assert "different tests" in page.locator("#picked-charts").inner_text()
    assert problems.messages == []
