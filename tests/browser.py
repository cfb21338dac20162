"""Headless Debian Chromium driven by Playwright, a local static server for a built site, and a
collector of what went wrong on a page. The browser and server come from the benchmark's module."""

from cardbench.bench.browser import CHROMIUM, CHROMIUM_ARGS, chromium, serve_dir

__all__ = ["CHROMIUM", "CHROMIUM_ARGS", "PageProblems", "chromium", "serve_dir"]


class PageProblems:
    """Console errors, uncaught exceptions and dialogs (alert) seen on a page."""

    def __init__(self, page):
        self.messages = []
        page.on("console", lambda m: self.messages.append(f"console {m.type}: {m.text}") if m.type == "error" else None)
        page.on("pageerror", lambda e: self.messages.append(f"page error: {e}"))
        page.on("dialog", lambda d: (self.messages.append(f"dialog: {d.message}"), d.dismiss()))
