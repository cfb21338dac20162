"""Page timings in headless Chromium (Debian's, through Playwright) on a local static server.

Times are milliseconds from the start of navigation (the Performance API's time origin). charts.js
sets `data-drawn` on a chart once Plotly has drawn it; an observer installed before any page script
notes when that first happens and when the last chart is done. Charts are drawn as they come near
the screen, so a load is timed until every chart within a screen's height of the first screen is
drawn (what a reader sees without scrolling, and the next screen); the rest wait for scrolling.
"""

import functools
import shutil
import statistics
import threading
from contextlib import contextmanager
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--no-first-run", "--disable-sync"]

OBSERVE = """
(() => {
  const bench = window.__bench = { firstChart: null, lastChart: null, longTasks: [] };
  new MutationObserver(() => {
    const now = performance.now();
    if (!document.querySelector('.chart[data-drawn]')) return;
    if (bench.firstChart === null) bench.firstChart = now;
    bench.lastChart = now;
  }).observe(document, { subtree: true, attributes: true, attributeFilter: ['data-drawn'] });
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) bench.longTasks.push([e.startTime, e.duration]);
    }).observe({ type: 'longtask', buffered: true });
  } catch (e) { /* no long task timing in this browser */ }
})();
"""

# Charts within two screens, or the first chart where a page's summary tables push every chart further down.
NEAR_DRAWN = """() => {
  const charts = [...document.querySelectorAll('.chart')];
  const near = charts.filter(c => c.getBoundingClientRect().top < 2 * innerHeight);
  const wanted = near.length ? near : charts.slice(0, 1);
  return wanted.length > 0 && wanted.every(c => c.dataset.drawn);
}"""

SUMMARY = """() => {
  const nav = performance.getEntriesByType('navigation')[0];
  const tasks = window.__bench.longTasks;
  const lastTaskEnd = tasks.reduce((m, t) => Math.max(m, t[0] + t[1]), 0);
  return {
    firstChart: window.__bench.firstChart, lastChart: window.__bench.lastChart,
    domContentLoaded: nav.domContentLoadedEventEnd, load: nav.loadEventEnd,
    longTasks: tasks.length, longTaskMs: tasks.reduce((s, t) => s + t[1], 0),
    interactive: Math.max(nav.domContentLoadedEventEnd, lastTaskEnd),
    charts: document.querySelectorAll('.chart').length, drawn: document.querySelectorAll('.chart[data-drawn]').length,
    domNodes: document.getElementsByTagName('*').length,
    fetched: performance.getEntriesByType('resource').filter(r => r.initiatorType === 'fetch' ||
      (r.initiatorType === 'link' && r.name.endsWith('.json'))).map(r => r.name),
  };
}"""


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
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


def time_page(browser, url, picker=False, prime=None, timeout_ms=60_000):
    """One load of a page with charts in a fresh browser context (nothing cached); returns the timings.
    With `prime`, that page is loaded first in the same context, so scripts come from the browser's
    caches (a reader's second page). With picker=True also times the comparison page's card picker:
    focus to its options filled."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        if prime:
            first = context.new_page()
            first.goto(prime, wait_until="load", timeout=timeout_ms)
            first.wait_for_load_state("networkidle", timeout=timeout_ms)
            first.close()
        page = context.new_page()
        errors = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.add_init_script(OBSERVE)
        page.goto(url, wait_until="load", timeout=timeout_ms)
        page.wait_for_function("() => window.__bench.firstChart !== null", timeout=timeout_ms)
        page.wait_for_function(NEAR_DRAWN, timeout=timeout_ms)
        page.wait_for_load_state("networkidle", timeout=timeout_ms)
        result = page.evaluate(SUMMARY)
        if picker:
            result["pickerReady"] = page.evaluate("""() => new Promise((resolve) => {
              const input = document.getElementById('pick-input');
              const options = document.getElementById('pick-options');
              const start = performance.now();
              new MutationObserver((_, observer) => {
                observer.disconnect();
                resolve(performance.now() - start);
              }).observe(options, { childList: true });
              input.focus();
            })""")
        result["errors"] = errors
        return result
    finally:
        context.close()


# A reader's filter: one change to the form, timed from the event to the frame that shows its rows (two
# animation frames: the handler's work, then style, layout and paint of the rows it hid or showed).
LEADERBOARD_STEP = """async ([kind, name, value]) => {
  const form = document.getElementById('filters');
  const frame = () => new Promise((resolve) => requestAnimationFrame(() => resolve()));
  await frame();
  const start = performance.now();
  if (kind === 'sort') {
    document.querySelector(`#leaderboard-table th[data-key="${name}"] button`).click();
  } else if (kind === 'reset') {
    form.reset();
  } else {
    form.elements[name].value = value;
    form.dispatchEvent(new Event(kind, { bubbles: true }));
  }
  await frame(); await frame();
  return { ms: performance.now() - start, count: document.getElementById('result-count').textContent };
}"""

# What a reader does on the leaderboard: type a search a letter at a time, choose a bus, sort by write, clear the form.
LEADERBOARD_STEPS = [("search, first letter", "input", "q", "s"), ("search, whole word", "input", "q", "sandisk"),
                     ("bus filter", "change", "bus", "UHS-I"), ("sort by sequential write", "sort", "seq_write", ""),
                     ("every filter cleared", "reset", "", "")]


def time_leaderboard(browser, url, timeout_ms=120_000):
    """The leaderboard at `url`: its load, and each step a reader takes (ms, and the count it announced)."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        page = context.new_page()
        errors = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(url, wait_until="load", timeout=timeout_ms)
        result = page.evaluate("""() => { const nav = performance.getEntriesByType('navigation')[0];
          const table = document.getElementById('leaderboard-table');
          return { load: nav.loadEventEnd, rows: table.tBodies[0].rows.length,
                   pageSize: parseInt(table.dataset.pageSize, 10) || null }; }""")
        result["steps"] = {name: page.evaluate(LEADERBOARD_STEP, [kind, field, value])
                           for name, kind, field, value in LEADERBOARD_STEPS}
        result["errors"] = errors
        return result
    finally:
        context.close()


def time_leaderboard_runs(public, repeat=3):
    """Median of each leaderboard timing over `repeat` loads of the built site's home page."""
    with serve_dir(public) as base, chromium() as browser:
        time_leaderboard(browser, base + "/")  # warm the server and the OS file cache
        runs = [time_leaderboard(browser, base + "/") for _ in range(repeat)]
    out = {"load": statistics.median(r["load"] for r in runs), "rows": runs[-1]["rows"], "runs": repeat,
           "page_size": runs[-1]["pageSize"],
           "errors": runs[-1]["errors"], "steps": {}}
    for name, *_ in LEADERBOARD_STEPS:
        out["steps"][name] = {"ms": statistics.median(r["steps"][name]["ms"] for r in runs),
                              "count": runs[-1]["steps"][name]["count"]}
    return out


def median_timings(runs):
    """Median of every numeric timing over several loads."""
    out = dict(runs[-1])
    for key, value in runs[-1].items():
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            values = [r[key] for r in runs if isinstance(r.get(key), (int, float))]
            out[key] = statistics.median(values)
    out["runs"] = len(runs)
    return out


def time_pages(public, pages, repeat=3):
    """{name: median timings} for pages given as {name: (path, picker, prime path or None)} of a built site."""
    out = {}
    with serve_dir(public) as base, chromium() as browser:
        for name, (path, picker, prime) in pages.items():
            prime_url = base + prime if prime else None
            time_page(browser, base + path, picker, prime_url)  # warm the server and the OS file cache
            out[name] = median_timings([time_page(browser, base + path, picker, prime_url) for _ in range(repeat)])
    return out


__all__ = ["time_pages", "time_page", "time_leaderboard", "time_leaderboard_runs", "serve_dir", "chromium"]
