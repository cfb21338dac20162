"""The leaderboard's host and reader filters in headless Chromium (kept in the address, a card matching
when any of its sessions used that host or reader), and /readers/ read by axe-core."""

from urllib.parse import parse_qs, urlparse

import pytest

from browser import AXE, NEEDS_CHROMIUM, axe_violations, open_page, serve_dir, visible_titles
from readercards import reader_site, HOSTILE_READER, PI, USB2

pytestmark = [pytest.mark.browser, NEEDS_CHROMIUM]


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    work = tmp_path_factory.mktemp("readers")
    with serve_dir(reader_site(work)) as url:
        yield url


def slugs_shown(page):
    links = page.locator("#leaderboard-table tbody tr:not([hidden]) th a")
    return sorted(href.strip("/").split("/")[-1]
                  for href in links.evaluate_all("as => as.map(a => a.getAttribute('href'))"))


def test_host_and_reader_filters_keep_cards_measured_through_them(site, browser):
    page, problems = open_page(browser, site + "/")
    assert len(visible_titles(page)) == 3
    page.select_option("select[name=reader]", USB2)  # every card had a session through it
    assert slugs_shown(page) == ["acme-hostile-reader", "acme-two-readers", "acme-usb2-only"]
    page.select_option("select[name=host]", PI)
    assert slugs_shown(page) == ["acme-hostile-reader", "acme-two-readers"]
    assert parse_qs(urlparse(page.url).query) == {"reader": [USB2], "host": [PI]}
    page.select_option("select[name=reader]", HOSTILE_READER)  # a name that is markup matches as text
    assert slugs_shown(page) == ["acme-hostile-reader"]
    page.select_option("select[name=host]", "Laptop, Linux")
    assert slugs_shown(page) == [] and page.locator("#no-matches").is_visible()
    assert problems.messages == []


def test_filters_are_read_back_from_the_address(site, browser):
    page, problems = open_page(browser, site + "/?host=Laptop%2C+Linux")
    assert page.locator("select[name=host]").input_value() == "Laptop, Linux"
    assert slugs_shown(page) == ["acme-usb2-only"]
    assert problems.messages == []


@pytest.mark.skipif(not AXE.exists(), reason="axe-core is not installed (npm ci installs it)")
@pytest.mark.parametrize("dark", [False, True], ids=["light", "dark"])
@pytest.mark.parametrize("path", ["/readers/", "/cards/acme-two-readers/"])
def test_axe_finds_nothing_serious_on_the_readers_page_and_the_paths_table(site, browser, path, dark):
    assert axe_violations(browser, site + path, dark=dark) == []
