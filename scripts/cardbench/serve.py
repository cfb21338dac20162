"""Local preview: Hugo's server plus re-aggregation whenever a card file changes.

Hugo watches the aggregated data folder and reloads the browser; this loop watches data/cards.
"""

import subprocess
import time
from .incremental import SiteDataBuilder, cache_path_for
from .validate import card_paths

POLL_SECONDS = 0.5


def _snapshot(cards_dir):
    return {p: p.stat().st_mtime_ns for p in card_paths(cards_dir)}


def rebuild(cards_dir, out_dir, builder=None, save=True):
    """Aggregate again; unchanged cards come from the cache. Returns the findings; on errors the last
    good data stays in place."""
    builder = builder or SiteDataBuilder(cards_dir, out_dir, cache_path_for(out_dir))
    return builder.build(card_paths(cards_dir), save=save).findings


def serve(cards_dir, out_dir, hugo, root, report, port=1313, bind="127.0.0.1"):
    """Run until interrupted. `report(message)` shows what happens (the CLI prints it)."""
    builder = SiteDataBuilder(cards_dir, out_dir, cache_path_for(out_dir))
    for finding in rebuild(cards_dir, out_dir, builder):
        report(str(finding))
    argv = [str(hugo), "server", "--panicOnWarning", "--port", str(port), "--bind", bind, "--source", str(root)]
    server = subprocess.Popen(argv)
    seen = _snapshot(cards_dir)
    try:
        while server.poll() is None:
            time.sleep(POLL_SECONDS)
            now = _snapshot(cards_dir)
            if now != seen:
                seen = now
                findings = rebuild(cards_dir, out_dir, builder, save=False)  # the cache is kept in memory
                for finding in findings:
                    report(str(finding))
                errors = sum(f.severity == "error" for f in findings)
                report("card files changed: " + (f"{errors} error(s); the preview keeps the last good data"
                                                  if errors else "statistics updated"))
    finally:
        if server.poll() is None:
            server.terminate()
            server.wait(timeout=10)
    return server.returncode


__all__ = ["serve", "rebuild"]
