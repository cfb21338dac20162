"""Headless Debian Chromium driven by Playwright, a local static server for a built site, a collector of
what went wrong on a page, and the page helpers the browser tests share (opening a page, drawing its
charts, reading the leaderboard, axe-core's findings). The browser and server come from the benchmark's
module."""

import json
import os
import shutil
from pathlib import Path

import pytest

from cardbench.bench.browser import CHROMIUM, CHROMIUM_ARGS, chromium, serve_dir

__all__ = ["AXE", "CHROMIUM", "CHROMIUM_ARGS", "DD_CARD", "LEXAR", "LEXAR_16", "NEEDS_CHROMIUM", "PageProblems",
           "axe_violations", "chromium", "drawn_traces", "open_page", "scroll_charts_into_view", "serve_dir",
           "sideways", "twin", "visible_titles"]

# Every browser test module's skip rule (its `pytestmark`).
NEEDS_CHROMIUM = pytest.mark.skipif(not (shutil.which("chromium") or os.path.exists("/usr/bin/chromium")),
                                    reason="Debian chromium is not installed (make system-deps installs it as root)")

# Shipped cards the tests open.
LEXAR = "lexar-play-pro-1tb-microsd-express"
LEXAR_16 = "lexar-class-10-16gb-microsdhc"  # flashbench sweeps, alignment scan, find-fat, a reviewer's table
DD_CARD = "sandisk-ultra-200gb-microsdxc"   # dd runs, a raw file per subtest

AXE = Path(__file__).resolve().parents[1] / "node_modules" / "axe-core" / "axe.min.js"


class PageProblems:
    """Console errors, uncaught exceptions and dialogs (alert) seen on a page."""

    def __init__(self, page):
        self.messages = []
        page.on("console", lambda m: self.messages.append(f"console {m.type}: {m.text}") if m.type == "error" else None)
        page.on("pageerror", lambda e: self.messages.append(f"page error: {e}"))
        page.on("dialog", lambda d: (self.messages.append(f"dialog: {d.message}"), d.dismiss()))


def open_page(browser, url, width=1280, dark=False, height=900):
    """A page opened in a fresh context once the network is quiet, and the problems seen on it."""
    context = browser.new_context(viewport={"width": width, "height": height},
                                  color_scheme="dark" if dark else "light")
    page = context.new_page()
    problems = PageProblems(page)
    page.goto(url)
    page.wait_for_load_state("networkidle")
    return page, problems


def twin(public, slug):
    """A card's JSON twin as the built site serves it."""
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
    return page.evaluate("s => [...document.querySelectorAll(s)]"
                         ".map(c => c.querySelector('svg.main-svg') ? c.data.length : -1)",
                         selector)


def sideways(page):
    """How far the page scrolls sideways, in CSS pixels (0: it fits)."""
    return page.evaluate("() => document.documentElement.scrollWidth - document.documentElement.clientWidth")


def visible_titles(page):
    """Titles of the leaderboard's rows shown (matching the filters, within the pages shown), in their order."""
    return page.locator("#leaderboard-table tbody tr:not([hidden]) th a").all_inner_texts()


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
