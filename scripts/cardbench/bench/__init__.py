"""Build, aggregation and page-weight benchmark on synthetic cards (`cardbench bench`).

run_bench(cards, report_path, progress=callback) generates `cards` synthetic card files in a
temporary copy of the project, measures aggregation, the Hugo build against a floor of plain
pages, page weight, browser timings, the preview's incremental rebuild and the collector's
overhead, and writes the report (docs/benchmarks.md). Nothing in the work tree changes but the
report.
"""

import datetime
import json
import os
import shutil
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import urlsplit

from ..core.units import GIB_BYTES, MIB_BYTES
from . import measure
from .machine import describe, load_average
from .phases import parser_floor, time_phases
from .project import make_floor_project, make_project, stubbed_card_page
from .report_page import render
from .synth import DEFAULT_SEED, card_data, card_text, slug_for, write_cards
from .weight import gzip_size, page_parts, tree_size


MEMORY_DIR = "/dev/shm"
# Seconds the preview is left alone after it starts and after each change, so the next change finds its
# server idle; a quick run (the tests) only checks that every step works, not its figures.
SETTLE_S, QUICK_SETTLE_S = 3.0, 0.5


def _best(runs):
    return min(runs, key=lambda m: m.seconds)


def _check(measured, what):
    if not measured.ok:
        raise RuntimeError(f"{what} failed ({measured.returncode}):\n{measured.tail()}")
    return measured


def _change_one_card(project, index, seed):
    """Edit one card the way a contributor would: one more run in its first subtest."""
    path = project / "data" / "cards" / f"{slug_for(index)}.yaml"
    data = card_data(index, seed)
    first = data["sessions"][0]["results"][0]
    first["runs"] = first["runs"] + [first["runs"][-1]]
    path.write_text(card_text(data), encoding="utf-8")


def run_bench(cards, report_path, progress=lambda message: None, work_dir=None, quick=False, keep=False,
              seed=DEFAULT_SEED, browser=True, preview=True, collector=True):
    """Run every measurement and write the report. Returns the results dict."""
    from ..core.titles import card_title
    from ..publish.incremental import default_workers
    from ..pages.pagemodel import DEFAULT_MEMBERS

    steps = {}
    if work_dir is None and _memory_room(cards * MIB_BYTES + 8 * GIB_BYTES):
        work_dir = MEMORY_DIR  # the project, its build and the site on one file system, as `make site` has them
    base = Path(tempfile.mkdtemp(prefix="cardbench-bench-", dir=work_dir))
    results = {"cards": cards, "seed": seed, "quick": quick, "date": datetime.date.today().isoformat(),
               "machine": describe(measure.HUGO), "load_start": load_average(), "workers": default_workers(),
               "steps": steps, "browser": None, "leaderboard": None, "previews": None, "preview": None,
               "collector": None}

    def step(name, fn, *args, **kwargs):
        progress(f"bench: {name} …")
        start = time.perf_counter()
        value = fn(*args, **kwargs)
        steps[name] = time.perf_counter() - start
        progress(f"bench: {name}: {steps[name]:.1f} s")
        return value

    try:
        project = step("copy the project", make_project, base / "site")
        step(f"generate {cards:,} synthetic cards", write_cards, project / "data" / "cards", cards, seed)

        cold = step("aggregate every card (no cache)", lambda: _check(measure.aggregate(project), "aggregate"))
        results["aggregate_output"] = tree_size(project / "build" / "hugo-data")  # what it wrote: (bytes, files)
        warm = step("aggregate, unchanged (cache)", lambda: _check(measure.aggregate(project), "aggregate"))
        _change_one_card(project, 0, seed)
        one = step("aggregate, one card changed", lambda: _check(measure.aggregate(project), "aggregate"))
        results["aggregate"] = {"cold": cold, "warm": warm, "one_changed": one}
        results["phases"] = step("time each step of checking a card", time_phases, project / "data" / "cards",
                                 project / "data", 50 if quick else 300)
        results["parser_floor"] = step("time PyYAML's C parser alone", parser_floor, project / "data" / "cards",
                                       50 if quick else 300)

        # Every card's link-preview image, drawn once (as a first `make site` does); the builds below reuse them.
        from ..pages.preview_image import draw_previews

        drawn = step("draw every card's link-preview image", draw_previews, project / "build" / "hugo-data")
        results["previews"] = {"images": len(drawn), "seconds": steps["draw every card's link-preview image"]}

        floor_project = step("make the floor project", make_floor_project, base / "floor", cards)
        with _build_folder(base) as out:
            results["build_to_memory"] = _in_memory(out)
            site_runs, floor_runs = [], []
            for attempt in range(1 if quick else 2):
                for runs, proj, dest, name in ((floor_runs, floor_project, out / "floor-public", "floor"),
                                               (site_runs, project, out / "public", "site")):
                    shutil.rmtree(dest, ignore_errors=True)
                    # The floor is Hugo alone; the site is what `make site` runs: Hugo, then the files placed.
                    runs.append(step(f"hugo build, {name} #{attempt + 1}",
                                     lambda proj=proj, dest=dest, name=name: _check(
                                         measure.hugo(proj, dest, publish=name == "site"), f"hugo ({name})")))
            results["build"] = {"site": _best(site_runs), "floor": _best(floor_runs)}
            shutil.rmtree(out / "floor-public", ignore_errors=True)
            if not quick:  # how the difference to the floor divides, for the report
                results["build"].update(_build_parts(project, out, base, step))
            public = out / "public"

            results["public"] = tree_size(public)
            card_url = f"/cards/{slug_for(0)}/"
            results["card_url"] = card_url
            charts = [card_url + "charts.json"] if (public / card_url.strip("/") / "charts.json").is_file() else []
            results["card_parts"] = page_parts(public, card_url, charts)  # the page fetches its charts' figures
            picker = next(iter(public.glob("generated/api/picker.*.json")), None)
            picker_bytes = picker.read_bytes() if picker else b""
            results["picker_bytes"] = (len(picker_bytes), gzip_size(picker_bytes))
            if browser:
                from .browser import time_pages

                pages = {"card": (card_url, False, None), "compare": ("/compare/", True, None),
                         "card, second page of a visit": (card_url, False, f"/cards/{slug_for(1)}/")}
                try:
                    results["browser"] = step("browser timings", time_pages, public, pages, 1 if quick else 3)
                    results["browser_runs"] = 1 if quick else 3
                except Exception as exc:  # no Chromium or Playwright here: say so in the report
                    results["browser_skipped"] = f"{type(exc).__name__}: {exc}".splitlines()[0]
                try:
                    from .browser import time_leaderboard_runs

                    results["leaderboard"] = step("leaderboard timings", time_leaderboard_runs, public,
                                                  1 if quick else 3)
                except Exception as exc:
                    results["browser_skipped"] = f"{type(exc).__name__}: {exc}".splitlines()[0]
            if results["browser"]:
                fetched = [urlsplit(u).path for u in results["browser"]["compare"]["fetched"]]
                results["compare_parts"] = page_parts(public, "/compare/", fetched)
        summary = json.loads((project / "build" / "hugo-data" / "site" / "compare.json").read_text(encoding="utf-8"))
        results["compare_chosen"] = len({m["slug"] for s in summary["suites"] for m in s["members"][:DEFAULT_MEMBERS]})

        if preview:
            from .preview import measure_floor_preview, measure_preview

            new = []
            for index in range(cards, cards + (1 if quick else 3)):
                data = card_data(index, seed)
                new.append((data["slug"], card_title(data), card_text(data)))
            edits = [slug_for(i) for i in (1, 2, 3)[:1 if quick else 3]]
            settle = QUICK_SETTLE_S if quick else SETTLE_S
            results["preview"] = step("preview: add cards to a running server, then edit cards", measure_preview,
                                      project, new, base / "preview.log", edits, settle=settle)
            results["preview_floor"] = step("preview of the floor: add plain pages to hugo server",
                                            measure_floor_preview, floor_project, base / "preview-floor.log",
                                            1 if quick else 3, settle=settle)
        if collector and not quick:
            from .collector_overhead import measure_collector

            results["collector"] = step("collector, quick profile on a throttled loop card", measure_collector, base)
        elif collector:
            from .collector_overhead import CollectorResult

            results["collector"] = CollectorResult(not_measured="skipped in a quick run (it takes minutes)")
        results["load_end"] = load_average()
        text = render(results)
        Path(report_path).parent.mkdir(parents=True, exist_ok=True)
        Path(report_path).write_text(text, encoding="utf-8")
        progress(f"bench: wrote {report_path}")
        return results
    finally:
        if keep:
            progress(f"bench: kept {base}")
        else:
            shutil.rmtree(base, ignore_errors=True)


def _memory_room(needed):
    """Whether the folder in memory is there, writable and has `needed` bytes free."""
    return (os.path.isdir(MEMORY_DIR) and os.access(MEMORY_DIR, os.W_OK)
            and shutil.disk_usage(MEMORY_DIR).free > needed)


def _in_memory(path):
    return os.path.isdir(MEMORY_DIR) and os.stat(path).st_dev == os.stat(MEMORY_DIR).st_dev


@contextmanager
def _build_folder(base):
    """Where the Hugo builds write: `base` when it is in memory already, else a folder in memory where
    the machine has room for one, else `base`. The disk of a shared machine varies too much from one run
    to the next (the same build took 2 to 15 s here) to set two builds against each other."""
    if _in_memory(base):
        yield base  # the project is in memory: its build output and the site share one file system
        return
    if not _memory_room(4 * GIB_BYTES):
        yield base
        return
    out = Path(tempfile.mkdtemp(prefix="cardbench-bench-", dir=MEMORY_DIR))
    try:
        yield out
    finally:
        shutil.rmtree(out, ignore_errors=True)


def _build_parts(project, out, base, step):
    """Builds that show how the site's difference to the floor divides."""
    parts, dest = {}, out / "public-part"
    with stubbed_card_page(project):
        parts["site_stub_pages"] = step("hugo build, card pages reduced to their title",
                                        lambda: _check(measure.hugo(project, dest), "hugo"))
    shutil.rmtree(dest, ignore_errors=True)
    if out != base:
        parts["site_to_disk"] = step("hugo build, site written to disk",
                                     lambda: _check(measure.hugo(project, base / "public-disk"), "hugo"))
        shutil.rmtree(base / "public-disk", ignore_errors=True)
    return parts


__all__ = ["run_bench"]
