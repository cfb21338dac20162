"""docs/benchmarks.md from a benchmark's results: every figure with its target, and what limits
the ones that miss it."""

import datetime

from ..core.units import KB_BYTES, MB_BYTES, mb_from_bytes, ms_from_s

TARGETS = {
    "ratio": 3.0,            # full build ÷ plain-page floor (the aim: 2×)
    "aggregate_s": 5.0,      # cached, or one card changed
    "cold_aggregate_s": 10.0,  # every card checked again
    "incremental_s": 1.0,
    "card_page_kb": 450.0,
    "first_chart_ms": 1000.0,
    "collector_ratio": 1.1,
    "leaderboard_step_ms": 200.0,  # a filter, search letter or sort shown: a "good" interaction to next paint
}


def _s(seconds):
    return "–" if seconds is None else (f"{seconds:.2f} s" if seconds < 10 else f"{seconds:.1f} s")


def _ms(ms):
    return "–" if ms is None else f"{ms:,.0f} ms"


def _mib(mib):
    return "–" if mib is None else f"{mib:,.0f} MiB"


def _kb(n):
    return f"{n / KB_BYTES:,.1f} kB"  # page weights in kB, as browsers' network panels show them


def _mb(n):
    return f"{mb_from_bytes(n):,.1f} MB"


def _met(ok):
    return "–" if ok is None else ("yes" if ok else "**no**")


def _row(cells):
    return "| " + " | ".join(str(c) for c in cells) + " |"


def _table(header, rows):
    return "\n".join([_row(header), _row(["---"] * len(header))] + [_row(r) for r in rows])


def summary_rows(r):
    """(what, measured, target, met) for every targeted figure."""
    t = TARGETS
    rows = []
    agg = r["aggregate"]
    rows.append(("Aggregation, unchanged cards (cached)", _s(agg["warm"].seconds), f"≤ {t['aggregate_s']:g} s",
                 _met(agg["warm"].seconds <= t["aggregate_s"])))
    rows.append(("Aggregation, one card changed", _s(agg["one_changed"].seconds), f"≤ {t['aggregate_s']:g} s",
                 _met(agg["one_changed"].seconds <= t["aggregate_s"])))
    rows.append(("Aggregation, every card (no cache)", _s(agg["cold"].seconds), f"≤ {t['cold_aggregate_s']:g} s",
                 _met(agg["cold"].seconds <= t["cold_aggregate_s"])))
    build = r["build"]
    ratio = build["site"].seconds / build["floor"].seconds
    rows.append(("Full build (Hugo, then the files placed after it) ÷ plain-page floor", f"{ratio:.2f}× ({_s(build['site'].seconds)} ÷ "
                 f"{_s(build['floor'].seconds)})", f"≤ {t['ratio']:g}×", _met(ratio <= t["ratio"])))
    preview = r["preview"]
    if preview and not preview.failed:
        worst = max(preview.rebuilds)
        rows.append(("Preview: new card file → its page served", f"{_s(worst)} (worst of {len(preview.rebuilds)})",
                     f"≤ {t['incremental_s']:g} s", _met(worst <= t["incremental_s"])))
        if preview.edits:
            worst_edit = max(preview.edits)
            rows.append(("Preview: card file edited → its page updated",
                         f"{_s(worst_edit)} (worst of {len(preview.edits)})", f"≤ {t['incremental_s']:g} s",
                         _met(worst_edit <= t["incremental_s"])))
    else:
        rows.append(("Preview: new card file → its page served",
                     "not measured: " + (preview.failed if preview else "skipped"), f"≤ {t['incremental_s']:g} s", "–"))
    card_total = sum(p.gzip for p in r["card_parts"])
    rows.append(("Card page, everything it loads (gzip)", _kb(card_total), f"≤ {t['card_page_kb']:g} kB",
                 _met(card_total <= t["card_page_kb"] * KB_BYTES)))
    for name, label in (("card", "First chart drawn, card page"),
                        ("card, second page of a visit", "First chart drawn, card page, scripts cached"),
                        ("compare", "First chart drawn, comparison page")):
        timing = (r["browser"] or {}).get(name)
        if timing:
            rows.append((label, _ms(timing["firstChart"]), f"≤ {t['first_chart_ms']:,.0f} ms",
                         _met(timing["firstChart"] <= t["first_chart_ms"])))
        elif name != "card, second page of a visit":
            rows.append((label, "not measured: " + (r.get("browser_skipped") or "no browser"), "≤ 1,000 ms", "–"))
    board = r.get("leaderboard")
    if board:
        name, worst = max(board["steps"].items(), key=lambda item: item[1]["ms"])
        rows.append((f"Leaderboard: a filter, search or sort shown ({board['rows']:,} rows)",
                     f"{_ms(worst['ms'])} (slowest: {name})", f"≤ {t['leaderboard_step_ms']:,.0f} ms",
                     _met(worst["ms"] <= t["leaderboard_step_ms"])))
    elif r["browser"] is not None or r.get("browser_skipped"):
        rows.append(("Leaderboard: a filter, search or sort shown", "not measured: " + (r.get("browser_skipped")
                     or "no browser"), f"≤ {t['leaderboard_step_ms']:,.0f} ms", "–"))
    compare = (r["browser"] or {}).get("compare")
    if compare:
        chosen = r["compare_chosen"]
        fetched = len(compare["fetched"])
        rows.append(("Comparison page: card data fetched on load", f"{fetched} card file(s) for {chosen} chosen",
                     "only the chosen cards", _met(fetched <= chosen)))
        rows.append(("Comparison page: main thread quiet after load (a bar of this report's own)",
                     _ms(compare["interactive"]), f"≤ {t['first_chart_ms']:,.0f} ms",
                     _met(compare["interactive"] <= t["first_chart_ms"])))
    collector = r["collector"]
    if collector and not collector.not_measured:
        rows.append(("Collector wall ÷ (bytes moved ÷ throttle)", f"{collector.ratio:.3f}×",
                     f"≤ {t['collector_ratio']:g}×", _met(collector.ratio <= t["collector_ratio"])))
    else:
        rows.append(("Collector wall ÷ (bytes moved ÷ throttle)",
                     "not measured yet: " + (collector.not_measured if collector else "skipped"),
                     f"≤ {t['collector_ratio']:g}×", "–"))
    return rows


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
    out += ["## Results against the targets", "", _table(["", "Measured", "Target", "Met"], summary_rows(r)), ""]
    out += _limits(r)
    out += ["## Machine", "", _table(["", ""], r["machine"] + [
        ("Load average at start (1, 5, 15 min)", ", ".join(f"{x:.2f}" for x in r["load_start"]) if r["load_start"] else "–"),
        ("Load average at end", ", ".join(f"{x:.2f}" for x in r["load_end"]) if r["load_end"] else "–"),
    ]), "", "The machine is shared: other work running at the same time (the load average shows how much) "
        "slows every figure here, wall times most.", ""]
    out += _details(r)
    return "\n".join(out).rstrip() + "\n"


def _limits(r):
    """What limits each missed target, with the numbers."""
    t = TARGETS
    notes = []
    agg = r["aggregate"]
    if agg["cold"].seconds > t["cold_aggregate_s"]:
        per_card = ms_from_s(agg["cold"].seconds / r["cards"])
        phases = r.get("phases") or {}
        split = "; ".join(f"{name} {ms:.1f} ms" for name, ms in phases.items())
        largest = max(phases, key=phases.get) if phases else None
        budget = ms_from_s(t["cold_aggregate_s"] * r["workers"] / r["cards"])
        notes.append(
            f"- **Aggregation without the cache** takes {_s(agg['cold'].seconds)} ({per_card:.1f} ms per card on "
            f"{r['workers']} worker processes), {agg['cold'].seconds / t['cold_aggregate_s']:.0f}× the target. One "
            f"card's check, step by step in one process: {split}."
            + (f" The largest part is {largest}." if largest else "")
            + " Reading the YAML builds plain values straight from libyaml's nodes and finds a field's line only "
            "when a message needs it; the JSON Schema checks (the card's, and each page model's) are compiled to "
            "plain Python once (`schemacheck.py`; jsonschema runs only for a model that fails it); the page data "
            "includes each card page written whole as HTML from its Jinja2 templates. "
            f"The target leaves {budget:.1f} ms per card and core for all of this. "
            + _parser_floor_text(r.get("parser_floor"), budget) +
            "The cache (`build/hugo-data.cache.json`) keeps every card's result until its file, the raw outputs "
            "it names or the code change — across days too: only a card the future-date rule refused is checked "
            "again on a later day — so every build after the first checks only what changed, and that is where "
            "the aggregation's own target is met.")
    build = r["build"]
    ratio = build["site"].seconds / build["floor"].seconds
    if ratio > t["ratio"]:
        site, floor = build["site"].seconds, build["floor"].seconds
        parts = ""
        stub = build.get("site_stub_pages")
        if stub:
            parts = (f" Of the {_s(site - floor)} difference, placing each card page's body (written as finished "
                     f"HTML by `cardbench aggregate`: every session's tables and charts, facts, class checks, sources) "
                     f"takes {_s(site - stub.seconds)}: the same site with card pages that only read "
                     f"their text and print the title builds in {_s(stub.seconds)}, {stub.seconds / floor:.2f}× the "
                     f"floor. That {_s(stub.seconds - floor)} is reading each card page's text, the lists of every "
                     "card (home, cards, comparison, catalogue) and "
                     f"placing the files served as they are ({_s(build['site'].placed_seconds)}: card files, raw "
                     "outputs, JSON twins, comparison pieces and runs.csv, linked into the site after Hugo).")
        notes.append(
            f"- **Full build** {_s(site)} against {_s(floor)} for {r['cards']:,} plain pages: {ratio:.2f}×, "
            f"{ratio / t['ratio']:.2f}× the target.{parts} A card page is {_kb(r['card_parts'][0].raw)} of HTML "
            "(a statistics table per session, charts as Plotly JSON), all of it written once by `cardbench "
            "aggregate` (escaped there) and read by Hugo as text, not decoded; Hugo places it in the site's frame "
            "(header, footer and scripts rendered once, `partialCached`) and writes it, not minified again: the size of "
            "the pages is most of what remains. Each card's JSON twin is written whole by `cardbench aggregate`, "
            "not rendered by Hugo. Meeting 2× would leave "
            f"{ms_from_s((t['ratio'] - 1) * floor / r['cards']):.2f} ms per card beyond a plain page for all of it."
            + _stub_verdict(stub, floor, t["ratio"]))
    preview = r["preview"]
    if preview and not preview.failed and max(preview.rebuilds) > t["incremental_s"]:
        agg = max(preview.aggregation) if preview.aggregation else None
        hugo = max((sum(b) for b in preview.hugo_builds), default=None) if preview.hugo_builds else None
        floor = r.get("preview_floor")
        floor_text = (f" Hugo alone takes {_s(max(floor[1]))} at worst to add one plain page to the {r['cards']:,}-page "
                      "floor in the same way, so a new page at this size costs most of the target before any card is "
                      "read." if floor else "")
        notes.append(
            f"- **Preview** shows a new card after {_s(max(preview.rebuilds))} at worst. The card file's save wakes "
            "the serve loop (inotify), which writes the new card's own files and the card index first; the shared "
            "files (home and comparison lists, catalogue and comparison API, tens of MB at this size) follow, the "
            f"whole update taking {_s(agg)} at most. Hugo's server gathers file changes for half a second before it "
            f"rebuilds (a fixed tick), then rebuilt for {_ms(hugo)} at most (its own 'Total in' figures; a change "
            "can be rebuilt in two steps, the card's page and then the lists). A new card's page exists only "
            "after that rebuild, since the page is made from the card index; an edited card's page is rendered "
            "from its new text when it is next visited." + floor_text)
    card_total = sum(p.gzip for p in r["card_parts"])
    if card_total > t["card_page_kb"] * KB_BYTES:
        notes.append(f"- **Card page weight** {_kb(card_total)}: Plotly alone is "
                     f"{_kb(max(p.gzip for p in r['card_parts'] if p.kind == 'script'))}.")
    for name, label in (("card", "card page"), ("compare", "comparison page")):
        timing = (r["browser"] or {}).get(name)
        if timing and timing["firstChart"] > t["first_chart_ms"]:
            notes.append(
                f"- **First chart on the {label}** at {_ms(timing['firstChart'])}: DOMContentLoaded comes at "
                f"{_ms(timing['domContentLoaded'])}; long tasks take {_ms(timing['longTaskMs'])} in all, most of it "
                "parsing and starting Plotly (1.2 MB of script) and drawing. On an idle machine this is a fraction; "
                "the load average above shows how busy this one was.")
    compare = (r["browser"] or {}).get("compare")
    if compare and compare["interactive"] > t["first_chart_ms"]:
        notes.append(
            f"- **Comparison page main thread** quiet at {_ms(compare['interactive'])}: long tasks take "
            f"{_ms(compare['longTaskMs'])} in all ({compare['longTasks']:.0f}), most of it parsing and starting Plotly "
            f"(1.2 MB of script) and drawing the {compare.get('drawn', compare['charts']):.0f} charts within a screen "
            "of the view, one per task so a click or a key is handled between them; the other charts wait for "
            "scrolling. The target set for this page, loading only the chosen cards' data, is met.")
    collector = r["collector"]
    if collector and not collector.not_measured and collector.ratio > t["collector_ratio"]:
        notes.append(f"- **Collector** {collector.ratio:.3f}×: {_s(collector.seconds)} against "
                     f"{_s(collector.io_seconds)} of throttled I/O, {_s(collector.seconds - collector.io_seconds)} "
                     "beyond it: starting each tool, fio laying out its test file, the queue-depth-1 random "
                     "subtests (bound by the loop device's latency rather than by the byte throttle), flashbench's "
                     "alignment scan, and the checks and syncs between steps. A single run on a shared machine: "
                     "the bound is within a few seconds either way.")
    if not notes:
        return ["Every target is met.", ""]
    return ["## What limits the figures that miss their target", ""] + notes + [""]


def _cpu(measured):
    return _s(measured.cpu_seconds) if measured.cpu_seconds else "–"


def _cpu_ratio(build):
    site, floor = build["site"].cpu_seconds, build["floor"].cpu_seconds
    return f"{site / floor:.2f}×" if site and floor else ""


def _parser_floor_text(floor, budget):
    """What PyYAML's C parser alone takes of the per-card budget, as a sentence (or nothing)."""
    events = (floor or {}).get("libyaml's parse events")
    return "" if events is None else (
        f"PyYAML's C parser alone takes {events:.2f} ms per card to emit a card file's parse events, before any "
        f"value is built ({events / budget:.0%} of that budget); the reading as a whole, values built, is the first "
        "step above. ")


def _stub_verdict(stub, floor, target):
    """What the build with card pages reduced to their title says about meeting the ratio."""
    if not stub:
        return ""
    if stub.seconds / floor > target:
        return (f" Card pages that only read their text already take {stub.seconds / floor:.2f}× the floor: what "
                "every card adds besides its body (its text read, its files placed, its line in the lists) is past "
                "the target before any of the page is placed.")
    return (f" Card pages that only read their text take {stub.seconds / floor:.2f}× the floor: placing "
            "and writing each page's body, tens of kB of tables and chart JSON, is what is over the "
            "target; smaller pages (charts' figures fetched rather than embedded) would be the way to meet it.")


def _details(r):
    out = ["## Details", ""]
    agg = r["aggregate"]
    out += ["### Aggregation", "",
            "`cardbench aggregate` as `make site` runs it, in a child process; peak memory is the child's "
            "resident set (rusage). Checking and aggregation run in one worker process per core when many cards "
            "changed.", "",
            _table(["Run", "Wall", "Peak memory"], [
                ("Every card (no cache)", _s(agg["cold"].seconds), _mib(agg["cold"].max_rss_mib)),
                ("Unchanged cards (cache)", _s(agg["warm"].seconds), _mib(agg["warm"].max_rss_mib)),
                ("One card changed", _s(agg["one_changed"].seconds), _mib(agg["one_changed"].max_rss_mib)),
            ]), ""]
    if r.get("phases"):
        out += ["Each step of checking a card for the first time, in one process, over the first "
                f"{300 if not r.get('quick') else 50} synthetic cards:", "",
                _table(["Step", "Per card"], [(name, f"{ms:.2f} ms") for name, ms in r["phases"].items()]
                       + [("**Total**", f"**{sum(r['phases'].values()):.2f} ms**")]
                       + [(f"for reference, within the first step: {name}", f"{ms:.2f} ms")
                          for name, ms in (r.get("parser_floor") or {}).items()]), ""]
    build = r["build"]
    ratio = build["site"].seconds / build["floor"].seconds
    where = ("a folder in memory (`/dev/shm`), for both, beside the project copy when it fits there too (so the files "
             "placed after Hugo are hard links, as `make site` makes them): the disk of a shared machine varies too "
             "much from one run to the next to set two builds against each other" if r.get("build_to_memory")
             else "an empty folder")
    rows = [("Site (Hugo, then the files served as they are placed)", _s(build["site"].seconds), _cpu(build["site"]),
             _mib(build["site"].max_rss_mib)),
            ("of which placing the files served as they are", _s(build["site"].placed_seconds), "", ""),
            (f"Floor ({r['cards']:,} plain pages)", _s(build["floor"].seconds), _cpu(build["floor"]),
             _mib(build["floor"].max_rss_mib)),
            ("Ratio", f"{ratio:.2f}×", _cpu_ratio(build), "")]
    for key, label in (("site_stub_pages", "Site, card pages only reading their text"),
                       ("site_to_disk", "Site written to disk (`public/` on the machine's disk)")):
        if build.get(key):
            rows.append((label, _s(build[key].seconds), _cpu(build[key]), _mib(build[key].max_rss_mib)))
    out += ["### Hugo build", "",
            f"`hugo --panicOnWarning --gc --minify` into {where}, as `make site` runs it, and for the site the step "
            "`make site` runs after it, `cardbench publish`, placing the files Hugo does not render (card files, raw "
            "outputs, JSON twins, runs.csv). The floor is Hugo alone on the same "
            f"site frame (config, `baseof.html`, header, footer, scripts) with {r['cards']:,} plain pages under "
            "`/cards/`, listed in a data file and made by a content adapter as the card pages are, and no card data. "
            + ("Best of two runs each, floor and site alternating; the other rows one run each."
               if not r.get("quick") else "One run each."), "",
            _table(["Build", "Wall", "CPU (user + system)", "Peak memory"], rows),
            "CPU time is less affected than wall time by other work on a shared machine.", ""]
    size, files = r["public"]
    out += ["### Site size", "", f"`public/`: {_mb(size)} in {files:,} files.", ""]
    out += ["### Page weight", "",
            f"Card page `{r['card_url']}` with everything it loads; gzip level 6, as a web server sends it; "
            "kB = 1000 bytes. Charts are drawn from the figure JSON the page fetches beside it (`charts.json`); it "
            "fetches nothing else.", "",
            _table(["Part", "Raw", "gzip"], [(f"{p.kind} `{p.path}`", _kb(p.raw), _kb(p.gzip)) for p in r["card_parts"]]
                   + [("**Total**", _kb(sum(p.raw for p in r["card_parts"])),
                       f"**{_kb(sum(p.gzip for p in r['card_parts']))}**")]), ""]
    if r.get("compare_parts"):
        parts = r["compare_parts"]
        out += [f"Comparison page `/compare/` with what it loads before anyone picks a card (suites embed "
                f"{r['compare_chosen']} chosen card(s) by name and fetch only those cards' JSON; the catalogue of "
                f"every card for the pickers, {_kb(r['picker_bytes'][1])} gzip, loads when a picker is first used):", "",
                _table(["Part", "Raw", "gzip"], [(f"{p.kind} `{p.path}`", _kb(p.raw), _kb(p.gzip)) for p in parts]
                       + [("**Total**", _kb(sum(p.raw for p in parts)), f"**{_kb(sum(p.gzip for p in parts))}**")]), ""]
    if r["browser"]:
        rows = []
        for name, t in r["browser"].items():
            rows.append((name, _ms(t["domContentLoaded"]), _ms(t["firstChart"]), _ms(t["lastChart"]),
                         _ms(t["interactive"]), f"{t['longTasks']:.0f} / {_ms(t['longTaskMs'])}",
                         f"{t.get('drawn', t['charts']):.0f} of {t['charts']:.0f}", f"{t['domNodes']:,.0f}",
                         _ms(t.get("pickerReady")) if "pickerReady" in t else "–"))
        out += ["### Browser", "",
                "Headless Debian Chromium through Playwright, pages from a local static server, a fresh browser "
                f"context per load (nothing cached), median of {r['browser_runs']} loads after one warm-up. Times from "
                "the start of navigation; a chart counts as drawn when charts.js sets `data-drawn` after Plotly "
                "has drawn it. Charts are drawn as they come near the screen: a load is timed until every chart "
                "within a screen's height of the first screen (1280 × 900) is drawn (\"Last chart\"; \"Charts\": drawn "
                "of those on the page); the others wait until the reader scrolls. \"Second page of a visit\": another card page is loaded first in the same context, so "
                "Plotly and the other scripts come from the browser's caches. Interactive: the later of "
                "DOMContentLoaded and the end of the last long task "
                "(> 50 ms) on the main thread. Picker ready: focusing the comparison page's card picker until its "
                "list is filled (this loads the catalogue).", "",
                _table(["Page", "DOMContentLoaded", "First chart", "Last chart", "Interactive", "Long tasks",
                        "Charts", "DOM nodes", "Picker ready"], rows), ""]
    board = r.get("leaderboard")
    if board:
        out += ["### Leaderboard", "",
                f"The home page with every card a row ({board['rows']:,}), loaded in {_ms(board['load'])}; then what "
                "a reader does, each step timed from the form's event (or the heading's click) to the second "
                "animation frame after it, which includes hiding and showing the rows, style, layout and paint. "
                f"Median of {board['runs']} loads after one warm-up.", "",
                _table(["Step", "Time", "Announced"], [(name, _ms(step["ms"]), step["count"])
                                                       for name, step in board["steps"].items()]), ""]
    drawn = r.get("previews")
    if drawn:
        out += ["### Link-preview images", "",
                f"Every card's link-preview image drawn once, as a first `make site` on a new machine does: "
                f"{drawn['images']:,} images in {_s(drawn['seconds'])} (one worker process per core). A build "
                "afterwards draws only the images of changed cards; the builds above reuse them.", ""]
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
            out += [_table(["", ""], [
                ("Server start (aggregation from the cache, Hugo's first build) until a page answers",
                 _s(preview.startup_seconds)),
                ("New card → page served, each of " + str(len(preview.rebuilds)), ", ".join(_s(s) for s in preview.rebuilds)),
                ("Card edited → page shows it, each of " + str(len(preview.edits)),
                 ", ".join(_s(s) for s in preview.edits) or "–"),
                ("… the serve loop's updates, in order (its log; a change can be seen twice)",
                 ", ".join(_s(s) for s in preview.aggregation) or "–"),
                ("… Hugo's rebuilds after each update (its log, ms; none when nothing changed for Hugo)",
                 "; ".join(" + ".join(str(ms) for ms in builds) for builds in preview.hugo_builds) or "–"),
                ("Hugo server peak memory", _mib(preview.hugo_peak_mib)),
                (f"Floor: plain page added to {r['cards']:,} plain pages → served, each",
                 ", ".join(_s(s) for s in floor[1]) if floor else "not measured"),
            ]), ""]
    collector = r["collector"]
    out += ["### Collector", ""]
    if collector and not collector.not_measured:
        out += ["`cardbench collect --profile quick` on a 16 GiB sparse file on a loop device, limited by a cgroup "
                "v1 blkio throttle to 30 MB/s reads and 15 MB/s writes; the group's byte counters give what the "
                "collector moved.", "",
                _table(["", ""], [
                    ("Wall time", _s(collector.seconds)),
                    ("Read", f"{mb_from_bytes(collector.read_bytes):,.0f} MB ÷ 30 MB/s = "
                             f"{collector.read_bytes / (30 * MB_BYTES):.1f} s"),
                    ("Written", f"{mb_from_bytes(collector.written_bytes):,.0f} MB ÷ 15 MB/s = "
                                f"{collector.written_bytes / (15 * MB_BYTES):.1f} s"),
                    ("Ratio", f"{collector.ratio:.3f}×"),
                ]), ""]
    else:
        out += ["Not measured yet: " + (collector.not_measured if collector else "skipped") + ".", ""]
    out += ["### How long each step of the benchmark took", "",
            _table(["Step", "Wall"], [(k, _s(v)) for k, v in r["steps"].items()]), ""]
    return out


def today():
    return datetime.date.today().isoformat()


__all__ = ["render", "summary_rows", "TARGETS", "today"]
