"""Incremental preview: a card file added while `cardbench serve` runs, until its page is served.

The clock starts just before the file is written and stops when the new page's address answers
200 with the card in it (polled every 10 ms), so it covers the serve loop noticing the file,
aggregation of the changed card, writing the data and Hugo's server rebuilding.
"""

import json
import os
import re
import signal
import socket
import subprocess
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

from ..core.units import mib_from_kib

from .measure import PYTHON, code_env


@dataclass
class PreviewResult:
    startup_seconds: float = 0.0          # server start to the first page answering
    rebuilds: list = field(default_factory=list)  # seconds per added card
    edits: list = field(default_factory=list)     # seconds per edited card (its notes changed)
    aggregation: list = field(default_factory=list)  # the serve loop's own time per change (its log)
    hugo_builds: list = field(default_factory=list)  # Hugo's rebuild times after each card (its log), ms
    hugo_peak_mib: float | None = None    # the Hugo server's peak memory
    failed: str | None = None
    log_tail: str = ""


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _get(url, timeout=5):
    try:
        with urllib.request.urlopen(url, timeout=timeout) as response:
            return response.status, response.read().decode("utf-8", "replace")
    except urllib.error.HTTPError as exc:
        return exc.code, ""
    except (urllib.error.URLError, ConnectionError, TimeoutError, socket.timeout):
        return None, ""


def _descendants(pid):
    out, todo = [], [pid]
    while todo:
        current = todo.pop()
        for task in Path(f"/proc/{current}/task").glob("*"):
            try:
                children = [int(c) for c in (task / "children").read_text().split()]
            except OSError:
                continue
            out += children
            todo += children
    return out


def _peak_mib(pid, name):
    """Peak resident memory (VmHWM) of the first descendant process called `name`."""
    for child in _descendants(pid):
        try:
            status = Path(f"/proc/{child}/status").read_text()
        except OSError:
            continue
        fields = dict(line.split(":", 1) for line in status.splitlines() if ":" in line)
        if fields.get("Name", "").strip() == name and "VmHWM" in fields:
            return mib_from_kib(int(fields["VmHWM"].split()[0]))
    return None


def _write_card(path, text):
    tmp = path.with_name(f".{path.name}.tmp")  # names starting with '.' are not card files
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)


READY_PAGE = "/methodology/"


def _log_figures(text):
    """Per added card: the serve loop's aggregation seconds and Hugo's rebuild milliseconds."""
    aggregation, hugo, current = [], [], None
    for line in text.splitlines():
        match = re.search(r"statistics updated in ([0-9.]+) s", line)
        if match:
            aggregation.append(float(match.group(1)))
            current = []
            hugo.append(current)
        match = re.match(r"Total in ([0-9]+) ms", line.strip())
        if match and current is not None:
            current.append(int(match.group(1)))
    return aggregation, hugo


def _stop(proc):
    """Interrupt a server started in its own session (serve stops its Hugo server on the way out);
    kill the session if it does not end."""
    if proc.poll() is not None:
        return
    proc.send_signal(signal.SIGINT)
    try:
        proc.wait(timeout=30)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)  # its own session: only what it started
        proc.wait()


def _edited(text, marker):
    """The card text with its notes replaced by `marker`."""
    return re.sub(r'^notes: .*$', f'notes: "{marker}"', text, count=1, flags=re.M)


def _wait_for(url, needle, begin, timeout):
    """Poll url every 10 ms until it answers 200 with `needle` in it; seconds since `begin`, or None."""
    while True:
        status, body = _get(url)
        if status == 200 and needle in body:
            return time.perf_counter() - begin
        if time.perf_counter() - begin > timeout:
            return None
        time.sleep(0.01)


def measure_preview(project, new_cards, log_path, edit_slugs=(), startup_timeout=3600, rebuild_timeout=600,
                    settle=3.0):
    """Start the preview on a project copy, then add each (slug, title, text) of new_cards in turn, then
    change the notes of each card in edit_slugs."""
    result = PreviewResult()
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    with open(log_path, "w", encoding="utf-8") as log:
        proc = subprocess.Popen([PYTHON, "-m", "cardbench.bench.serve_project", str(project), str(port)],
                                cwd=project, env=code_env(project), stdout=log, stderr=subprocess.STDOUT,
                                stdin=subprocess.DEVNULL, start_new_session=True)
        try:
            start = time.perf_counter()
            # Waits on a page no card changes: an open home page (every card in one table) would be
            # rendered again after each card, which the report gives separately.
            while _get(base + READY_PAGE)[0] != 200:
                if proc.poll() is not None:
                    result.failed = f"the preview server exited with {proc.returncode}"
                    return result
                if time.perf_counter() - start > startup_timeout:
                    result.failed = "the preview server did not answer in time"
                    return result
                time.sleep(0.2)
            result.startup_seconds = time.perf_counter() - start
            time.sleep(settle)
            changes = [(slug, text, title, result.rebuilds) for slug, title, text in new_cards]
            for number, slug in enumerate(edit_slugs):
                path = Path(project) / "data" / "cards" / f"{slug}.yaml"
                marker = f"Notes edited during the preview benchmark, change {number + 1}."
                changes.append((slug, _edited(path.read_text(encoding="utf-8"), marker), marker, result.edits))
            for slug, text, needle, seconds in changes:
                url = f"{base}/cards/{slug}/"
                begin = time.perf_counter()
                _write_card(Path(project) / "data" / "cards" / f"{slug}.yaml", text)
                took = _wait_for(url, needle, begin, rebuild_timeout)
                if took is None:
                    result.failed = f"{url} was not served within {rebuild_timeout} s"
                    return result
                seconds.append(took)
                time.sleep(settle)  # let the server finish before the next card
            result.hugo_peak_mib = _peak_mib(proc.pid, "hugo")
        finally:
            _stop(proc)
    log = Path(log_path).read_text(encoding="utf-8", errors="replace")
    result.log_tail = "\n".join(log.splitlines()[-15:])
    result.aggregation, result.hugo_builds = _log_figures(log)
    return result


def measure_floor_preview(floor_project, log_path, count=3, startup_timeout=600, rebuild_timeout=120, settle=3.0):
    """The same for the floor: `hugo server` alone on the plain-page project, one plain page added to its
    list each time. Returns (startup seconds, [seconds per page]) or None if it did not work."""
    from .measure import HUGO

    port = free_port()
    base = f"http://127.0.0.1:{port}"
    listing = Path(floor_project) / "build" / "hugo-data" / "data" / "cards.json"
    with open(log_path, "w", encoding="utf-8") as log:
        proc = subprocess.Popen([HUGO, "server", "--panicOnWarning", "--port", str(port), "--bind", "127.0.0.1"],
                                cwd=floor_project, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                start_new_session=True)
        try:
            start = time.perf_counter()
            if _wait_for(base + "/cards/", "<h1>", start, startup_timeout) is None:
                return None
            startup = time.perf_counter() - start
            time.sleep(settle)
            times = []
            for number in range(count):
                name = f"added-{number}"
                title = f"Added plain page {number}"
                begin = time.perf_counter()
                pages = json.loads(listing.read_text(encoding="utf-8"))
                pages[name] = {"title": title}
                _write_card(listing, json.dumps(pages))
                took = _wait_for(f"{base}/cards/{name}/", title, begin, rebuild_timeout)
                if took is None:
                    return None
                times.append(took)
                time.sleep(settle)
            return startup, times
        finally:
            _stop(proc)


__all__ = ["measure_preview", "measure_floor_preview", "PreviewResult"]
