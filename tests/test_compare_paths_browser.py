"""The comparison page in headless Chromium for cards read through several hosts and readers: a card picked
alone is drawn path by path, one path can be picked beside other cards (in the address and in the picker),
and a reader's name that is markup stays text in every hover."""

from urllib.parse import unquote

import pytest

from browser import NEEDS_CHROMIUM, chromium, drawn_traces, open_page, serve_dir
from readercards import reader_site, HOSTILE_READER, PI, UHS, USB2
from test_chart_text_browser import assert_chart_text_only, hover_labels

pytestmark = NEEDS_CHROMIUM


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    work = tmp_path_factory.mktemp("compare-paths")
    with serve_dir(reader_site(work)) as url, chromium() as browser:
        yield url, browser


def test_a_card_picked_alone_is_drawn_path_by_path(site):
    url, browser = site
    page, problems = open_page(browser, f"{url}/compare/?cards=acme-two-readers")
    assert drawn_traces(page, "#picked-charts .chart") == [2]
    chart = page.locator("#picked-charts .chart")
    assert chart.evaluate("c => c.data[0].y") == [f"{UHS} on {PI} (n=3)", f"{USB2} on {PI} (n=3)",
                                                  "host and reader not stated (n=1)"]
    assert chart.evaluate("c => c.data[0].x") == pytest.approx([92.0, 39.0, 30.0])
    assert "read through 3 host and reader paths" in page.locator("#picked-charts").inner_text()
    page.locator("[data-unit-switch] input[value=mib]").check()
    page.wait_for_function("c => c.dataset.drawn && c.layout.xaxis.title.text.startsWith('MiB/s')",
                           arg=chart.element_handle())
    assert chart.evaluate("c => c.data[0].x")[0] == pytest.approx(92.0 / 1.048576, abs=0.01)
    assert problems.messages == []


def test_one_path_is_picked_beside_another_card(site):
    url, browser = site
    page, problems = open_page(browser, f"{url}/compare/?cards=acme-usb2-only")
    picker = page.locator("#pick-input")
    picker.fill("two readers uhs")
    option = page.locator("#pick-options [role=option]").first
    option.wait_for()
    assert option.inner_text() == f"Acme acme-two-readers 64 GB microSDXC — {UHS} on {PI}"
    picker.press("Enter")
    page.wait_for_function("() => document.querySelectorAll('#picked li').length === 2")
    assert "cards=acme-usb2-only,acme-two-readers@2" in unquote(page.url)
    drawn_traces(page, "#picked-charts .chart")
    labels = page.locator("#picked-charts .chart").evaluate("c => c.data[0].y")
    assert labels == [f"Acme acme-two-readers 64 GB microSDXC: {UHS} on {PI} (n=3)",
                      "Acme acme-usb2-only 64 GB microSDXC (n=2)"]
    assert problems.messages == []


def test_a_path_number_the_card_has_not_is_named_and_the_rest_drawn(site):
    url, browser = site
    page, problems = open_page(browser, f"{url}/compare/?cards=acme-two-readers@9,acme-usb2-only@1,acme-two-readers@1")
    assert drawn_traces(page, "#picked-charts .chart") == [2]
    assert page.locator("#picked-charts .chart").evaluate("c => c.data[0].y.length") == 1
    status = page.locator("#pick-status").inner_text()
    assert "“acme-two-readers@9”" in status and "“acme-usb2-only@1”" in status
    assert problems.messages == []


def test_a_reader_named_in_markup_shows_as_text_in_every_hover(site):
    url, browser = site
    page, problems = open_page(browser, f"{url}/compare/?cards=acme-hostile-reader")
    drawn_traces(page, "#picked-charts .chart")
    chart = page.locator("#picked-charts .chart")
    labels = hover_labels(page, chart, "g.trace.bars g.point path")
    assert any(HOSTILE_READER in label for label in labels), labels
    assert_chart_text_only(chart)
    assert HOSTILE_READER in page.locator("#picked-charts .pooled-from").inner_text()
    assert page.locator("main img, main script:not([type=\"application/json\"])").count() == 0
    assert problems.messages == []
