"""Headless Debian Chromium driven by Playwright, and a local static server for a built site."""

import functools
import shutil
import threading
from contextlib import contextmanager
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--no-first-run", "--disable-sync"]


class _QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


@contextmanager
def serve_dir(directory):
    """Serve a folder on a free localhost port; yields the base URL."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_QuietHandler, directory=str(directory)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


@contextmanager
def chromium():
    """A Playwright browser on Debian's Chromium (never a downloaded one)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


class PageProblems:
    """Console errors, uncaught exceptions and dialogs (alert) seen on a page."""

    def __init__(self, page):
        self.messages = []
        page.on("console", lambda m: self.messages.append(f"console {m.type}: {m.text}") if m.type == "error" else None)
        page.on("pageerror", lambda e: self.messages.append(f"page error: {e}"))
        page.on("dialog", lambda d: (self.messages.append(f"dialog: {d.message}"), d.dismiss()))
