"""docs/benchmarks.md from a benchmark's results: the figures against their targets (targets.py), what limits
the ones that miss them, the machine, and the details of every measurement."""

import datetime

from ..core.units import MB_BYTES, mb_from_bytes
from .report_text import kb_text, markdown_table, mb_text, mib_text, ms_text, seconds_text
from .targets import limits, summary_rows


def render(r):
    """The report as Markdown."""
    n = r["cards"]
    out = [f"# Benchmarks: build, aggregation and page weight at {n:,} cards", ""]
    out.append(f"Written by `make bench CARDS={n}` (`cardbench bench --cards {n} --report docs/benchmarks.md`) on "
               f"{r['date']}. Synthetic cards (`scripts/cardbench/bench/synth.py`, seed {r['seed']}): each has two "
               "sessions of a CrystalDiskMark-style suite with 10 runs per subtest (the cdm_fio.sh set of 12 "
               "subtests in MiB/s, or the CrystalDiskMark 8 set of 8 in MB/s), and a session on the raw device "
               "with repeated dd runs, a dd block-size sweep and four flashbench --open-au sweeps; every card "
               "passes `cardbench validate`. They are built in a temporary copy of the project, never in `data/`.")
    out.append("")
    if r.get("quick"):
        out += ["**Quick run** (`--quick`): one measurement per figure and the collector skipped; figures at this "
                "size only show that the benchmark works.", ""]
    out += ["## Results against the targets", "", markdown_table(["", "Measured", "Target", "Met"], summary_rows(r)),
            ""]
    out += limits(r)
    out += ["## Machine", "", markdown_table(["", ""], r["machine"] + [
        ("Load average at start (1, 5, 15 min)",
         ", ".join(f"{x:.2f}" for x in r["load_start"]) if r["load_start"] else "–"),
        ("Load average at end", ", ".join(f"{x:.2f}" for x in r["load_end"]) if r["load_end"] else "–"),
    ]), "", "The machine is shared: other work running at the same time (the load average shows how much) "
        "slows every figure here, wall times most.", ""]
    out += _details(r)
    return "\n".join(out).rstrip() + "\n"


def _cpu(measured):
    return seconds_text(measured.cpu_seconds) if measured.cpu_seconds else "–"


def _cpu_ratio(build):
    site, floor = build["site"].cpu_seconds, build["floor"].cpu_seconds
    return f"{site / floor:.2f}×" if site and floor else ""


def _details(r):
    out = ["## Details", ""]
    agg = r["aggregate"]
    out += ["### Aggregation", "",
            "`cardbench aggregate` as `make site` runs it, in a child process; peak memory is the child's "
            "resident set (rusage). Checking and aggregation run in one worker process per core when many cards "
            "changed.", "",
            markdown_table(["Run", "Wall", "Peak memory"], [
                ("Every card (no cache)", seconds_text(agg["cold"].seconds), mib_text(agg["cold"].max_rss_mib)),
                ("Unchanged cards (cache)", seconds_text(agg["warm"].seconds), mib_text(agg["warm"].max_rss_mib)),
                ("One card changed", seconds_text(agg["one_changed"].seconds),
                 mib_text(agg["one_changed"].max_rss_mib)),
            ]), ""]
    if r.get("phases"):
        out += ["Each step of checking a card for the first time, in one process, over the first "
                f"{300 if not r.get('quick') else 50} synthetic cards:", "",
                markdown_table(["Step", "Per card"], [(name, f"{ms:.2f} ms") for name, ms in r["phases"].items()]
                       + [("**Total**", f"**{sum(r['phases'].values()):.2f} ms**")]
                       + [(f"for reference, within the first step: {name}", f"{ms:.2f} ms")
                          for name, ms in (r.get("parser_floor") or {}).items()]), ""]
    build = r["build"]
    ratio = build["site"].seconds / build["floor"].seconds
    where = ("a folder in memory (`/dev/shm`), for both, beside the project copy when it fits there too (so the files "
             "placed after Hugo are hard links, as `make site` makes them): the disk of a shared machine varies too "
             "much from one run to the next to set two builds against each other" if r.get("build_to_memory")
             else "an empty folder")
    rows = [("Site (Hugo, then the files served as they are placed)", seconds_text(build["site"].seconds),
             _cpu(build["site"]), mib_text(build["site"].max_rss_mib)),
            ("of which placing the files served as they are", seconds_text(build["site"].placed_seconds), "", ""),
            (f"Floor ({r['cards']:,} plain pages)", seconds_text(build["floor"].seconds), _cpu(build["floor"]),
             mib_text(build["floor"].max_rss_mib)),
            ("Ratio", f"{ratio:.2f}×", _cpu_ratio(build), "")]
    for key, label in (("site_stub_pages", "Site, card pages only reading their text"),
                       ("site_to_disk", "Site written to disk (`public/` on the machine's disk)")):
        if build.get(key):
            rows.append((label, seconds_text(build[key].seconds), _cpu(build[key]), mib_text(build[key].max_rss_mib)))
    out += ["### Hugo build", "",
            f"`hugo --panicOnWarning --gc --minify` into {where}, as `make site` runs it, and for the site the step "
            "`make site` runs after it, `cardbench publish`, placing the files Hugo does not render (card files, raw "
            "outputs, JSON twins, runs.csv). The floor is Hugo alone on the same "
            f"site frame (config, `baseof.html`, header, footer, scripts) with {r['cards']:,} plain pages under "
            "`/cards/`, listed in a data file and made by a content adapter as the card pages are, and no card data. "
            + ("Best of two runs each, floor and site alternating; the other rows one run each."
               if not r.get("quick") else "One run each."), "",
            markdown_table(["Build", "Wall", "CPU (user + system)", "Peak memory"], rows),
            "CPU time is less affected than wall time by other work on a shared machine.", ""]
    size, files = r["public"]
    out += ["### Site size", "", f"`public/`: {mb_text(size)} in {files:,} files.", ""]
    out += ["### Page weight", "",
            f"Card page `{r['card_url']}` with everything it loads; gzip level 6, as a web server sends it; "
            "kB = 1000 bytes. Charts are drawn from the figure JSON the page fetches beside it (`charts.json`); it "
            "fetches nothing else.", "",
            markdown_table(["Part", "Raw", "gzip"],
                           [(f"{p.kind} `{p.path}`", kb_text(p.raw), kb_text(p.gzip)) for p in r["card_parts"]]
                           + [("**Total**", kb_text(sum(p.raw for p in r["card_parts"])),
                               f"**{kb_text(sum(p.gzip for p in r['card_parts']))}**")]), ""]
    if r.get("compare_parts"):
        parts = r["compare_parts"]
        out += [f"Comparison page `/compare/` with what it loads before anyone picks a card (suites embed "
                f"{r['compare_chosen']} chosen card(s) by name and fetch only those cards' JSON; the catalogue of "
                f"every card for the pickers, {kb_text(r['picker_bytes'][1])} gzip, loads when a picker is first "
                "used):", "",
                markdown_table(["Part", "Raw", "gzip"],
                               [(f"{p.kind} `{p.path}`", kb_text(p.raw), kb_text(p.gzip)) for p in parts]
                               + [("**Total**", kb_text(sum(p.raw for p in parts)),
                                   f"**{kb_text(sum(p.gzip for p in parts))}**")]), ""]
    if r["browser"]:
        rows = []
        for name, t in r["browser"].items():
            rows.append((name, ms_text(t["domContentLoaded"]), ms_text(t["firstChart"]), ms_text(t["lastChart"]),
                         ms_text(t["interactive"]), f"{t['longTasks']:.0f} / {ms_text(t['longTaskMs'])}",
                         f"{t.get('drawn', t['charts']):.0f} of {t['charts']:.0f}", f"{t['domNodes']:,.0f}",
                         ms_text(t.get("pickerReady")) if "pickerReady" in t else "–"))
        out += ["### Browser", "",
                "Headless Debian Chromium through Playwright, pages from a local static server, a fresh browser "
                f"context per load (nothing cached), median of {r['browser_runs']} loads after one warm-up. Times from "
                "the start of navigation; a chart counts as drawn when charts.js sets `data-drawn` after Plotly "
                "has drawn it. Charts are drawn as they come near the screen: a load is timed until every chart "
                "within a screen's height of the first screen (1280 × 900) is drawn (\"Last chart\"; \"Charts\": drawn "
                "of those on the page); the others wait until the reader scrolls. \"Second page of a visit\": another "
                "card page is loaded first in the same context, so "
                "Plotly and the other scripts come from the browser's caches. Interactive: the later of "
                "DOMContentLoaded and the end of the last long task "
                "(> 50 ms) on the main thread. Picker ready: focusing the comparison page's card picker until its "
                "list is filled (this loads the catalogue).", "",
                markdown_table(["Page", "DOMContentLoaded", "First chart", "Last chart", "Interactive", "Long tasks",
                        "Charts", "DOM nodes", "Picker ready"], rows), ""]
    board = r.get("leaderboard")
    if board:
        out += ["### Leaderboard", "",
                f"The home page with every card a row ({board['rows']:,}), {_paged(board)}loaded in "
                f"{ms_text(board['load'])}; then "
                "what a reader does, each step timed from the form's event (or the heading's click) to the second "
                "animation frame after it, which includes hiding and showing the rows, style, layout and paint. "
                f"Median of {board['runs']} loads after one warm-up.", "",
                markdown_table(["Step", "Time", "Announced"], [(name, ms_text(step["ms"]), step["count"])
                                                       for name, step in board["steps"].items()]), ""]
    drawn = r.get("previews")
    if drawn:
        out += ["### Link-preview images", "",
                f"Every card's link-preview image drawn once, as a first `make site` on a new machine does: "
                f"{drawn['images']:,} images in {seconds_text(drawn['seconds'])} (one worker process per core). "
                "A build afterwards draws only the images of changed cards; the builds above reuse them.", ""]
    preview = r["preview"]
    if preview:
        out += ["### Preview", "",
                "The project copy served by `cardbench serve` (the serve loop plus `hugo server`); a new card file "
                "is written (temp file and rename) and its page address polled every 10 ms until it answers with "
                "the card; then existing cards' notes are changed the same way, until their pages show the new "
                "text. The floor: `hugo server` alone on the plain-page project, one plain page added to its list "
                "each time (no cards to check).", ""]
        if preview.failed:
            out += [f"Not measured: {preview.failed}.", "", "```", preview.log_tail, "```", ""]
        else:
            floor = r.get("preview_floor")
            out += [markdown_table(["", ""], [
                ("Server start (aggregation from the cache, Hugo's first build) until a page answers",
                 seconds_text(preview.startup_seconds)),
                ("New card → page served, each of " + str(len(preview.rebuilds)),
                 ", ".join(seconds_text(s) for s in preview.rebuilds)),
                ("Card edited → page shows it, each of " + str(len(preview.edits)),
                 ", ".join(seconds_text(s) for s in preview.edits) or "–"),
                ("… the serve loop's updates, in order (its log; a change can be seen twice)",
                 ", ".join(seconds_text(s) for s in preview.aggregation) or "–"),
                ("… Hugo's rebuilds after each update (its log, ms; none when nothing changed for Hugo)",
                 "; ".join(" + ".join(str(ms) for ms in builds) for builds in preview.hugo_builds) or "–"),
                ("Hugo server peak memory", mib_text(preview.hugo_peak_mib)),
                (f"Floor: plain page added to {r['cards']:,} plain pages → served, each",
                 ", ".join(seconds_text(s) for s in floor[1]) if floor else "not measured"),
            ]), ""]
    collector = r["collector"]
    out += ["### Collector", ""]
    if collector and not collector.not_measured:
        out += ["`cardbench collect --profile quick` on a 16 GiB sparse file on a loop device, limited by a cgroup "
                "v1 blkio throttle to 30 MB/s reads and 15 MB/s writes; the group's byte counters give what the "
                "collector moved.", "",
                markdown_table(["", ""], [
                    ("Wall time", seconds_text(collector.seconds)),
                    ("Read", f"{mb_from_bytes(collector.read_bytes):,.0f} MB ÷ 30 MB/s = "
                             f"{collector.read_bytes / (30 * MB_BYTES):.1f} s"),
                    ("Written", f"{mb_from_bytes(collector.written_bytes):,.0f} MB ÷ 15 MB/s = "
                                f"{collector.written_bytes / (15 * MB_BYTES):.1f} s"),
                    ("Ratio", f"{collector.ratio:.3f}×"),
                ]), ""]
    else:
        out += ["Not measured yet: " + (collector.not_measured if collector else "skipped") + ".", ""]
    out += ["### How long each step of the benchmark took", "",
            markdown_table(["Step", "Wall"], [(k, seconds_text(v)) for k, v in r["steps"].items()]), ""]
    return out


def _paged(board):
    """How many rows the leaderboard shows at a time, as the measured page said (older results: nothing)."""
    size = board.get("page_size")
    return f"{size:,} shown at a time, " if size else ""


def today():
    return datetime.date.today().isoformat()


__all__ = ["render", "summary_rows", "today"]  # summary_rows: `cardbench bench` prints the table it makes
