"""The home page's leaderboard in real headless Chromium: ranked fastest first, sorted by a column,
filtered with its state kept in the address, cards picked to compare by keyboard."""

import json
import re
import math
from urllib.parse import parse_qs, urlparse

import pytest

from browser import AXE, NEEDS_CHROMIUM, PageProblems, open_page, visible_titles

pytestmark = NEEDS_CHROMIUM


def test_home_is_ranked_fastest_first_and_sorts_by_a_column(site, browser):
    url, public = site
    cards = json.loads((public / "index.json").read_text(encoding="utf-8"))["cards"]
    page, problems = open_whole(browser, url + "/")
    assert page.locator("#leaderboard-table tbody tr").count() == len(cards)
    # stated after measured
    reads = sorted((c for c in cards if c["seq_read"]), key=lambda c: (c["run_count"] is None, -c["seq_read"]["mb_s"]))
    assert visible_titles(page)[: len(reads)] == [c["title"] for c in reads]  # ranked by sequential read
    assert page.locator("th[data-key=seq_read]").get_attribute("aria-sort") == "descending"
    # bars on a log scale: a 20 MB/s card's bar still reads beside an 878 MB/s one (linear: 0.02)
    shares = page.evaluate("""() => [...document.querySelectorAll('#leaderboard-table tbody tr')].map(r =>
        [r.cells[2].dataset.value, parseFloat(r.cells[2].style.getPropertyValue('--share'))])""")
    top = max(float(v) for v, _ in shares if v)
    slowest = min((float(v), share) for v, share in shares if v)
    assert slowest[1] == pytest.approx(max(0.02, 1 + math.log10(slowest[0] / top) / 3), abs=1e-3)
    assert slowest[0] / top < 0.03 and slowest[1] > 0.3  # linear, the bar would be under 3 % of the column
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
    page, problems = open_whole(browser, url + "/")
    page.select_option("select[name=bus]", "SD Express")
    express = sum(c["bus"] == "SD Express" for c in cards)
    assert len(visible_titles(page)) == express
    assert (page.locator("#result-count").inner_text()
            == f"Showing {express} of {len(cards)} cards, fastest sequential read first.")
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
    page, problems = open_whole(browser, url + "/")
    for card in (c for c in cards if c["run_count"] == 0):
        row = page.locator("#leaderboard-table tbody tr", has=page.locator(f"a[href$='/cards/{card['slug']}/']"))
        assert "measured with" in row.locator("td[data-value='0']").inner_text()
    assert problems.messages == []



def test_leaderboard_picks_cards_to_compare_by_keyboard(site, browser):
    url, public = site
    cards = json.loads((public / "index.json").read_text(encoding="utf-8"))["cards"]
    page, problems = open_whole(browser, url + "/")
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



def test_on_a_phone_the_card_and_both_sequential_figures_fit_without_scrolling_sideways(site, browser):
    url, _ = site
    page, problems = open_page(browser, url + "/", width=390)
    fits = page.evaluate("""() => { const box = document.querySelector('#leaderboard .table-scroll');
        return [box.scrollWidth, box.clientWidth]; }""")
    assert fits[0] <= fits[1], fits
    for key in ("seq_read", "seq_write"):
        right = page.evaluate(f"() => document.querySelector('th[data-key={key}]').getBoundingClientRect().right")
        assert 0 < right <= 390, (key, right)
    # The bus the hidden column held stands under the card's name.
    first = page.locator("#leaderboard-table tbody tr").first
    assert first.locator(".bus-inline").is_visible()
    assert problems.messages == []


def test_rows_stay_short_and_each_bar_sits_under_its_figure(site, browser):
    url, _ = site
    page, _ = open_page(browser, url + "/")
    gaps = page.evaluate("""() => [...document.querySelectorAll('#leaderboard-table tbody td.bar')]
        .filter(td => td.dataset.value).map(td => {
            const text = td.querySelector('span').getBoundingClientRect();
            const cell = td.getBoundingClientRect();
            const bar = parseFloat(getComputedStyle(td, '::after').marginTop);
            return [text.bottom - cell.top, cell.height, bar];
        })""")
    assert gaps and all(bar <= 4 for _, _, bar in gaps)
    # A long source name stays on one line (cut, whole in the title) instead of making the row 4-5 lines high.
    wraps = page.evaluate("""() => [...document.querySelectorAll('#leaderboard-table td.source')]
        .map(td => getComputedStyle(td).whiteSpace)""")
    assert set(wraps) == {"nowrap"}
    assert all(td.get_attribute("title") for td in page.locator("td.source").all()[:5])


def test_printed_the_leaderboard_keeps_its_column_headings(site, browser):
    url, _ = site
    page, _ = open_page(browser, url + "/")
    page.emulate_media(media="print")
    headings = page.evaluate("""() => [...document.querySelectorAll('#leaderboard-table thead th')].map(th =>
        [th.innerText.trim(), getComputedStyle(th.querySelector('button') || th).display])""")
    assert [text.split("\n")[0] for text, _ in headings][:4] == ["Card", "Bus", "Seq. read", "Seq. write"]
    assert all(display != "none" for _, display in headings)


# Paging: these tests serve the home page with pages of their own size, a smaller one than the real page's to see
# several pages of the shipped cards, or one page holding every card to see the whole ranking.
PAGE_SIZE = 20
REAL_PAGE_SIZE = 100


def open_paged(browser, url, size=PAGE_SIZE, scripts=True):
    """The home page at `url` (its address may carry a view) served with pages of `size` rows, and its problems."""
    context = browser.new_context(viewport={"width": 1280, "height": 900}, java_script_enabled=scripts,
                                  bypass_csp=True)
    page = context.new_page()
    problems = PageProblems(page)

    def smaller_pages(route):
        response = route.fetch()
        route.fulfill(response=response,
                      body=re.sub(r'data-page-size="\d+"', f'data-page-size="{size}"', response.text(), count=1))

    page.route(lambda address: urlparse(address).path == "/", smaller_pages)
    page.goto(url)
    page.wait_for_load_state("networkidle")
    assert page.locator("#leaderboard-table").get_attribute("data-page-size") == str(size)
    return page, problems


def open_whole(browser, url):
    """The home page with every card on its first page, and its problems."""
    return open_paged(browser, url, size=1_000_000)


def test_the_real_page_shows_the_first_hundred_then_the_rest_on_request(site, browser):
    url, public = site
    total = len(json.loads((public / "index.json").read_text(encoding="utf-8"))["cards"])
    page, problems = open_page(browser, url + "/")
    assert page.locator("#leaderboard-table").get_attribute("data-page-size") == str(REAL_PAGE_SIZE)
    shown = min(total, REAL_PAGE_SIZE)
    assert len(visible_titles(page)) == shown
    if total > REAL_PAGE_SIZE:
        page.get_by_role("button", name=f"Show the remaining {total - shown}"
                         if total - shown <= REAL_PAGE_SIZE else f"Show {REAL_PAGE_SIZE} more").click()
        assert len(visible_titles(page)) == min(total, 2 * REAL_PAGE_SIZE)
    assert problems.messages == []


def test_rows_show_a_page_at_a_time_and_the_button_reveals_the_next(site, browser):
    url, public = site
    total = len(json.loads((public / "index.json").read_text(encoding="utf-8"))["cards"])
    ranked = visible_titles(open_whole(browser, url + "/")[0])
    page, problems = open_paged(browser, url + "/")
    assert visible_titles(page) == ranked[:PAGE_SIZE]
    assert (page.locator("#result-count").inner_text()
            == f"Showing {PAGE_SIZE} of all {total} cards, fastest sequential read first.")
    more = page.get_by_role("button", name=f"Show {PAGE_SIZE} more")
    more.click()
    assert visible_titles(page) == ranked[: 2 * PAGE_SIZE]
    # The keyboard carries on at the first card revealed.
    assert page.evaluate("() => document.activeElement.textContent") == ranked[PAGE_SIZE]
    assert (page.locator("#result-count").inner_text()
            == f"Showing {2 * PAGE_SIZE} of all {total} cards, fastest sequential read first.")
    remaining = total % PAGE_SIZE or PAGE_SIZE
    while len(visible_titles(page)) < total - remaining:
        more.click()
    page.get_by_role("button", name=f"Show the remaining {remaining}").click()
    assert visible_titles(page) == ranked
    assert page.locator("#result-count").inner_text() == f"Showing all {total} cards, fastest sequential read first."
    assert not page.locator("#show-more").is_visible()
    assert problems.messages == []


def test_sorting_and_filtering_rank_every_row_then_show_the_first_page(site, browser):
    url, public = site
    total = len(json.loads((public / "index.json").read_text(encoding="utf-8"))["cards"])
    whole, _ = open_whole(browser, url + "/")
    page, problems = open_paged(browser, url + "/")
    for view in (whole, page):
        view.locator("th[data-key=seq_write] button").click()
        view.locator("th[data-key=seq_write] button").click()  # slowest write first: rows the first page left out
    slowest_writes = visible_titles(whole)
    assert visible_titles(page) == slowest_writes[:PAGE_SIZE]
    assert page.locator("#result-count").inner_text() == f"Showing {PAGE_SIZE} of all {total} cards."
    page.get_by_role("button", name=f"Show {PAGE_SIZE} more").click()
    assert visible_titles(page) == slowest_writes[: 2 * PAGE_SIZE]
    # A filter starts again at the first page of its matches, in the same order.
    bus = page.evaluate("""() => { const counts = {};
        document.querySelectorAll('#leaderboard-table tbody tr').forEach(r => {
            counts[r.dataset.bus] = (counts[r.dataset.bus] || 0) + 1; });
        return Object.keys(counts).sort((a, b) => counts[b] - counts[a])[0]; }""")
    for view in (whole, page):
        view.select_option("select[name=bus]", bus)
    matching = visible_titles(whole)
    assert PAGE_SIZE < len(matching) < total
    assert visible_titles(page) == matching[:PAGE_SIZE]
    assert (page.locator("#result-count").inner_text()
            == f"Showing {PAGE_SIZE} of {len(matching)} matching cards ({total} in all).")
    # A search that leaves fewer than a page shows them all, in today's words.
    page.fill("input[name=q]", "lexar")
    found = visible_titles(page)
    assert 0 < len(found) < PAGE_SIZE and all("lexar" in t.lower() for t in found)
    assert page.locator("#result-count").inner_text() == f"Showing {len(found)} of {total} cards."
    assert not page.locator("#show-more").is_visible()
    # Every filter cleared: the first page of every card, still in the chosen order.
    page.locator("#filters button[type=reset]").click()
    page.wait_for_function("() => new URLSearchParams(location.search).get('bus') === null")
    assert visible_titles(page) == slowest_writes[:PAGE_SIZE]
    assert problems.messages == []


def test_an_address_brings_back_the_first_page_of_its_view(site, browser):
    url, _ = site
    view = url + "/?bus=UHS-I&sort=card&dir=desc"
    whole, _ = open_whole(browser, view)
    page, problems = open_paged(browser, view)
    assert len(visible_titles(whole)) > PAGE_SIZE
    assert visible_titles(page) == visible_titles(whole)[:PAGE_SIZE]
    assert page.locator("th[data-key=card]").get_attribute("aria-sort") == "descending"
    assert problems.messages == []


def test_cards_on_a_later_page_are_picked_to_compare(site, browser):
    url, _ = site
    page, problems = open_paged(browser, url + "/")
    page.get_by_role("button", name=f"Show {PAGE_SIZE} more").click()
    boxes = page.locator("#leaderboard-table tbody tr:not([hidden]) input.pick")
    boxes.nth(0).check()
    boxes.nth(PAGE_SIZE + 1).check()
    assert page.locator("#compare-pick-status").inner_text() == "2 cards picked."
    assert page.get_by_role("button", name="Compare selected").is_enabled()
    assert problems.messages == []


def test_without_scripts_every_row_shows(site, browser):
    url, public = site
    total = len(json.loads((public / "index.json").read_text(encoding="utf-8"))["cards"])
    page, _ = open_paged(browser, url + "/", scripts=False)
    assert len(visible_titles(page)) == total
    assert page.locator("#leaderboard-table tbody tr:visible").count() == total
    assert not page.locator("#show-more").is_visible()


@pytest.mark.parametrize("dark", [False, True], ids=["light", "dark"])
def test_the_show_more_button_passes_axe(site, browser, dark):
    url, _ = site
    page, _ = open_paged(browser, url + "/")
    if dark:
        page.emulate_media(color_scheme="dark")
    assert page.locator("#show-more").is_visible()
    page.add_script_tag(path=str(AXE))
    result = page.evaluate("() => axe.run(document, { resultTypes: ['violations'] })")
    assert [(v["id"], [n["target"] for n in v["nodes"]][:3]) for v in result["violations"]
            if v["impact"] in ("serious", "critical")] == []


def test_a_change_touches_only_the_rows_entering_or_leaving_the_page(site, browser):
    url, public = site
    total = len(json.loads((public / "index.json").read_text(encoding="utf-8"))["cards"])
    page, problems = open_paged(browser, url + "/")
    # The rows whose hidden attribute changed or that were moved, or in which a node was added (a compare box).
    page.evaluate("""() => { window.touched = new Set();
        new MutationObserver(records => records.forEach(r => {
            if (r.type === 'attributes') window.touched.add(r.target);
            r.addedNodes.forEach(n => window.touched.add(n.closest('tr')));
        })).observe(document.querySelector('#leaderboard-table tbody'),
                    { attributes: true, attributeFilter: ['hidden'], childList: true, subtree: true }); }""")
    touched = "() => new Promise(done => setTimeout(() => { const n = window.touched.size; window.touched.clear(); " \
              "done(n); }, 0))"
    page.get_by_role("button", name=f"Show {PAGE_SIZE} more").click()
    assert page.evaluate(touched) == PAGE_SIZE  # the next page, already in place: shown, not moved
    page.locator("th[data-key=card] button").click()  # 2 pages shown, then the first page of another order
    assert 0 < page.evaluate(touched) <= 3 * PAGE_SIZE < total
    page.fill("input[name=q]", "")  # nothing changed
    assert page.evaluate(touched) == 0
    assert problems.messages == []
