"""A card page's charts come from the charts.json beside the page: drawn once it is fetched; when it
cannot be fetched, each chart says so and the page keeps its tables."""

import pytest

from browser import LEXAR_16, drawn_traces

pytestmark = pytest.mark.browser


def _page(browser, url, fail_charts=False):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    fetched = []
    page.on("request", lambda request: fetched.append(request.url))
    if fail_charts:
        page.route("**/charts.json", lambda route: route.abort())
    page.goto(url)
    page.wait_for_load_state("networkidle")
    return page, fetched


def test_the_charts_are_drawn_from_the_file_beside_the_page(site, browser):
    url, public = site
    page, fetched = _page(browser, f"{url}/cards/{LEXAR_16}/")
    assert [u for u in fetched if u.endswith("charts.json")] == [f"{url}/cards/{LEXAR_16}/charts.json"]  # once
    assert all(traces > 0 for traces in drawn_traces(page))
    assert not page.locator("script.chart-figure").count()  # no figure in the page itself


def test_charts_that_cannot_be_fetched_say_so_and_the_tables_stay(site, browser):
    url, _ = site
    page, _ = _page(browser, f"{url}/cards/{LEXAR_16}/", fail_charts=True)
    charts = page.locator(".chart-box[data-figure] .chart")
    assert charts.count() >= 3
    for text in charts.all_inner_texts():
        assert text.startswith("The chart could not be loaded") and "its figures are in the table" in text
    assert page.locator(".chart-box table").count() >= 1
