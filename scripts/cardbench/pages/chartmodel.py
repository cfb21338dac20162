"""Charts of a card page as finished Plotly JSON, each with the numbers behind it as a table: the one
place per chart kind (every subtest of a session as bars with whiskers, throughput by block size,
the alignment scan, sustained fills).

Figures are built from the card's own text, unescaped; `chart` makes every string in them Plotly plain
text in one pass (plottext.py). Hover templates are fixed strings of this module: card text reaches a
hover only through `y`, `customdata` or a name, never through the template itself.

A chart here is a dict the templates place as they are: the figure (JSON text, safe inside a data
block), the height its box reserves before it is drawn (so the page does not jump), and a table of
the same figures for readers who cannot or would rather not read a chart. Rates are given in MB/s
(10^6 B/s) and MiB/s (2^20 B/s): the figure carries its MiB/s variant as `alt.mib` (per-trace
patches charts.js applies when the reader picks MiB/s), table cells carry both texts.
"""

import json
import math

from ..core.units import size_arg_from_bytes
from ..figures.formatting import DASH, format_by_size, mib_text, raw_link
from .plottext import figure_json, plain_figure
from ..figures.shown_rates import dd_sweep_curve, fill_curve, find_fat_curves, open_au_curve
from ..figures.stats import align_access_us, written_gb

MB_S_AXIS = "MB/s (10⁶ bytes/s)"
MIB_S_AXIS = "MiB/s (2²⁰ bytes/s)"
OPS = ("read", "write")
# Height of a chart box, in CSS pixels, as the figure's layout gives it to Plotly: reserved up front.
SUBTEST_ROW_PX = 46
CHART_FRAME_PX = 110


def upper_first(text):
    return text[:1].upper() + text[1:]


def mib_of(stats):
    """The MiB/s statistics beside a stats object's MB/s ones, as aggregation wrote them."""
    return stats["mib_s"]


def rate_cell(mb_value, mib_value, printed=None):
    """A table cell with the figure in both units (texts, formatted); `printed`: how the tool wrote it,
    so a figure it printed in MiB/s keeps its decimals there. The figures stage gives every rate in both units."""
    if mb_value is None:
        return {"text": DASH}
    if mib_value is None:
        raise ValueError(f"a rate of {mb_value} MB/s has no MiB/s figure beside it")
    # without `printed` (every run of a table), mib_text is format_by_size
    return {"mb": format_by_size(mb_value), "mib": format_by_size(mib_value) if printed is None
            else mib_text(mib_value, printed)}


def runs_used(sub):
    """Runs a subtest's statistics are over (all recorded runs less those the source excluded), as aggregated."""
    return sub["run_count"]


def _whisker(stats):
    return {"type": "data", "symmetric": False, "thickness": 1.5, "width": 5,
            "array": [None if m is None else mx - m for m, mx in zip(stats["mean"], stats["max"])],
            "arrayminus": [None if m is None else m - mn for m, mn in zip(stats["mean"], stats["min"])]}


def chart(chart_id, title, figure, note=None, table=None, sources=None):
    """A chart as the templates place it; None when there is no figure."""
    if not figure:
        return None
    if table:  # named after its chart: a page has several, each a region of its own
        table = dict(table, caption=f"{table['caption']}: {title}")
    return {"id": chart_id, "title": title, "note": note, "figure": figure_json(plain_figure(figure)),
            "height": int(figure["layout"]["height"]), "table": table, "sources": sources or []}


# --- every subtest of a session: mean bar, min–max whisker, a dot per run -------------------------

# Hovers of a bar (customdata: min, max, runs, direction) and of a run's dot (customdata: run, direction).
BAR_HOVER = ("%{y} %{customdata[3]}: mean %{x:.1f} {unit}<br>min %{customdata[0]:.1f}, max %{customdata[1]:.1f}"
             "<br>%{customdata[2]} runs<extra></extra>")
DOT_HOVER = "%{y} %{customdata[1]}, run %{customdata[0]}: %{x:.1f} {unit}<extra></extra>"

def subtests_figure(subtests):
    """Mean of each subtest as a bar with its min–max as a whisker and each run as a dot; read and write
    side by side per test, as CrystalDiskMark lays them out. Subtests: those with MB/s statistics."""
    labels = list(dict.fromkeys(s["test"] for s in subtests))
    by_key = {(s["test"], s["op"]): s for s in subtests}
    ops = [op for op in OPS if any(s["op"] == op for s in subtests)]
    ops += sorted({s["op"] for s in subtests} - set(ops))
    traces, alt, dot_traces, dot_alt = [], [], [], []
    for op in ops:
        subs = [by_key.get((t, op)) for t in labels]
        units = {"mb": [s["mb_s"] if s else None for s in subs], "mib": [mib_of(s) if s else None for s in subs]}
        columns = {u: {k: [v[k] if v else None for v in stats] for k in ("mean", "min", "max")}
                   for u, stats in units.items()}
        counts = [runs_used(s) if s else 0 for s in subs]
        traces.append({"type": "bar", "orientation": "h", "name": f"{upper_first(op)}, mean", "y": labels,
                       "x": columns["mb"]["mean"], "offsetgroup": op, "error_x": _whisker(columns["mb"]),
                       "customdata": [[a, b, c, op]
                                      for a, b, c in zip(columns["mb"]["min"], columns["mb"]["max"], counts)],
                       "hovertemplate": BAR_HOVER.replace("{unit}", "MB/s"), "meta": {"role": op}})
        alt.append({"x": columns["mib"]["mean"], "error_x": _whisker(columns["mib"]),
                    "customdata": [[a, b, c, op]
                                   for a, b, c in zip(columns["mib"]["min"], columns["mib"]["max"], counts)],
                    "hovertemplate": BAR_HOVER.replace("{unit}", "MiB/s")})
        xs, xs_mib, ys, numbers = [], [], [], []
        for label, s in zip(labels, subs):
            if not s:
                continue
            for i, (value, value_mib) in enumerate(zip(s["mb_s"]["runs"], mib_of(s)["runs"])):
                if value is None or i in (s.get("excluded_runs") or []):
                    continue
                xs.append(value)
                xs_mib.append(value_mib)
                ys.append(label)
                numbers.append([i + 1, op])
        dot_traces.append({"type": "scatter", "mode": "markers", "orientation": "h", "name": "Each run",
                           "legendgroup": "runs", "showlegend": not dot_traces, "y": ys, "x": xs,
                           "customdata": numbers, "offsetgroup": op, "marker": {"size": 6, "opacity": 0.8},
                           "hovertemplate": DOT_HOVER.replace("{unit}", "MB/s"), "meta": {"role": "runs"}})
        dot_alt.append({"x": xs_mib, "hovertemplate": DOT_HOVER.replace("{unit}", "MiB/s")})
    height = CHART_FRAME_PX + SUBTEST_ROW_PX * len(labels) * max(1, len(ops)) // 2 + (20 if len(ops) > 2 else 0)
    layout = {"barmode": "group", "scattermode": "group", "bargap": 0.25, "height": max(height, 220),
              "xaxis": {"title": {"text": MB_S_AXIS}, "rangemode": "tozero"},
              "yaxis": {"autorange": "reversed", "automargin": True},
              "legend": {"orientation": "h", "x": 0, "y": 1.02, "yanchor": "bottom"}, "margin": {"t": 40}}
    return {"data": traces + dot_traces, "layout": layout,
            "alt": {"mib": {"data": alt + dot_alt, "layout": {"xaxis": {"title": {"text": MIB_S_AXIS}}}}}}


def runs_table(subtests):
    """Every run of every subtest: the numbers the dots stand for."""
    width = max(len(s["mb_s"]["runs"]) for s in subtests)
    head = [{"text": "Subtest"}] + [{"text": f"Run {i + 1}", "rate": True} for i in range(width)]
    rows = []
    for s in subtests:
        excluded = set(s.get("excluded_runs") or [])
        mib = mib_of(s)["runs"]
        cells = []
        for i in range(width):
            if i >= len(s["mb_s"]["runs"]):
                cells.append({"text": ""})
                continue
            cell = rate_cell(s["mb_s"]["runs"][i], mib[i])
            if i in excluded:
                cell["note"] = "excluded"
            cells.append(cell)
        rows.append({"head": f"{s['test']} {s['op']}", "cells": cells,
                     "raw": [raw_link(r) for r in s.get("raw") or []]})
    return {"caption": "Every run", "head": head, "rows": rows}


def session_chart(session, session_dom_id):
    """Every subtest of a session measured as a rate: mean, min–max and each run; the runs as a table."""
    subs = [s for s in session["subtests"] if s.get("mb_s")]
    if not subs:
        return None
    figure = subtests_figure(subs)
    counts = sorted({len(s["mb_s"]["runs"]) for s in subs})
    per = f"{counts[0]}" if len(counts) == 1 else f"{counts[0]}–{counts[-1]}"
    note = ("Bars: the mean of each subtest; whiskers: its slowest and fastest run; dots: every run"
            + (f" ({per} per subtest)" if counts[-1] > 1 else "") + ".")
    return chart(f"{session_dom_id}-runs", f"Every subtest, {session['label']}", figure, note,
                 runs_table(subs))


def _log_ticks(powers):
    values = [float(2 ** p) for p in powers]
    return values, [size_arg_from_bytes(v) for v in values]


def sweeps_figure(card):
    """Throughput against block size: dd sweeps, flashbench open-AU sweeps and find-fat columns."""
    traces, mib_curves = [], []
    multi = len(card["sessions"]) > 1
    for s in card["sessions"]:
        prefix = f"{s['label']}: " if multi else ""
        for sweep in s.get("dd_sweeps") or []:
            direct = ", direct" if "direct" in (sweep.get("flags") or []) else ""
            curve = dd_sweep_curve(sweep)
            traces.append({"type": "scatter", "mode": "lines+markers", "name": f"{prefix}dd {sweep['op']}{direct}",
                           "x": curve["x"], "y": curve["mb_s"],
                           "meta": {"group": "sequential", "rate": True, "raw": sweep.get("raw") or []}})
            mib_curves.append(curve["mib_s"])
        sweep_keys = [(au["mode"], int(au["open_au"]), au.get("erase_size_bytes"))
                      for au in s.get("flashbench_open_au") or []]
        for nth, au in enumerate(s.get("flashbench_open_au") or []):
            count = int(au["open_au"])
            name = f"{prefix}flashbench {au['mode']}, {count} open AU{'s' if count > 1 else ''}"
            if au.get("erase_size_bytes"):
                name += f", {size_arg_from_bytes(au['erase_size_bytes'])} AU"
            repeats = sweep_keys.count(sweep_keys[nth])  # the same sweep run again: number them apart
            if repeats > 1:
                name += f", run {sweep_keys[:nth + 1].count(sweep_keys[nth])} of {repeats}"
            tags = ["stopped early"] if au.get("interrupted") else []
            # Evidence of an open-AU finding: the count that holds and the one that collapses.
            line = {"dash": "dot" if au["mode"] == "random" else "solid"}
            for f in card.get("findings") or []:
                if (f["id"] == f"open_aus_{au['mode']}" and f["session"] == s.get("id")
                        and f.get("erase_size_bytes") in (None, au.get("erase_size_bytes"))):
                    if count == f["value"]:
                        tags, line["width"] = tags + ["holds"], 3
                    elif count == f.get("collapses_at"):
                        tags, line["width"] = tags + ["collapses"], 3
            name += f" ({'; '.join(tags)})" if tags else ""
            curve = open_au_curve(au)
            traces.append({"type": "scatter", "mode": "lines+markers", "name": name,
                           "x": curve["x"], "y": curve["mb_s"], "line": line,
                           "meta": {"group": "random" if au["mode"] == "random" else "sequential", "rate": True,
                                    "raw": au.get("raw") or []}})
            mib_curves.append(curve["mib_s"])
        for table in s.get("flashbench_find_fat") or []:
            for c, curve in enumerate(find_fat_curves(table)):
                traces.append({"type": "scatter", "mode": "lines", "name": f"{prefix}find-fat, erase block {c + 1}",
                               "x": curve["x"], "y": curve["mb_s"], "line": {"width": 1},
                               "meta": {"group": "find-fat", "rate": True, "raw": table.get("raw") or []}})
                mib_curves.append(curve["mib_s"])
    if not traces:
        return None
    ticks, labels = _log_ticks(range(9, 33))
    layout = {"height": 420, "xaxis": {"type": "log", "title": {"text": "Block size (bytes, binary prefixes)"},
                                       "tickvals": ticks, "ticktext": labels},
              "yaxis": {"title": {"text": MB_S_AXIS}, "rangemode": "tozero"}}
    return {"data": traces, "layout": layout, "alt": mib_variant(mib_curves)}


def align_figure(card):
    """flashbench -a scans: access time against alignment."""
    traces = []
    for s in card["sessions"]:
        for scan in s.get("flashbench_align") or []:
            x, delay, diff = align_access_us(scan)
            label = s["label"]
            if delay:
                traces.append({"type": "scatter", "mode": "lines+markers", "name": f"{label}: access time", "x": x,
                               "y": delay, "meta": {"raw": scan.get("raw") or []}})
            if diff:
                traces.append({"type": "scatter", "mode": "lines+markers",
                               "name": f"{label}: diff (on − mean of pre, post)", "x": x, "y": diff,
                               "meta": {"raw": scan.get("raw") or []}})
    if not traces:
        return None
    ticks, labels = _log_ticks(range(10, 37, 2))
    layout = {"height": 380, "xaxis": {"type": "log", "title": {"text": "Alignment (bytes)"}, "tickvals": ticks,
                                       "ticktext": labels},
              "yaxis": {"title": {"text": "µs"}, "rangemode": "tozero"}}
    # Evidence of the page-size and erase-block findings: a line at each boundary (shapes take data
    # values on a log axis, annotations its log10).
    marks = [f for f in card.get("findings") or [] if f["id"] in ("page_size", "erase_block")]
    if marks:
        layout["shapes"] = [{"type": "line", "xref": "x", "yref": "paper", "x0": f["value"], "x1": f["value"],
                             "y0": 0, "y1": 1, "line": {"dash": "dot", "width": 1}} for f in marks]
        layout["annotations"] = [{"xref": "x", "yref": "paper", "x": math.log10(f["value"]), "y": 1, "yanchor": "top",
                                  "xanchor": "left", "xshift": 3, "showarrow": False,
                                  "text": f"{f['label'].split(' (')[0]}: {f['text']}"} for f in marks]
    return {"data": traces, "layout": layout}


def fill_figure(card):
    """Sustained fills: throughput against data written."""
    traces, mib_curves = [], []
    for s in card["sessions"]:
        for fill in s.get("fill") or []:
            curve = fill_curve(fill)
            traces.append({"type": "scatter", "mode": "lines", "name": f"{s['label']}: {fill['op']}",
                           "x": curve["x"], "y": curve["mb_s"], "meta": {"rate": True, "raw": fill.get("raw") or []}})
            mib_curves.append(curve["mib_s"])
    if not traces:
        return None
    layout = {"height": 380, "xaxis": {"title": {"text": "GB written (10⁹ bytes)"}},
              "yaxis": {"title": {"text": MB_S_AXIS}, "rangemode": "tozero"}}
    # Evidence of the SLC-cache finding: where the change point puts the cache's end.
    ends = [f for f in card.get("findings") or [] if f["id"] == "slc_cache"]
    if ends:
        layout["shapes"] = [{"type": "line", "xref": "x", "yref": "paper", "x0": written_gb(f),
                             "x1": written_gb(f), "y0": 0, "y1": 1, "line": {"dash": "dot", "width": 1}}
                            for f in ends]
        layout["annotations"] = [{"xref": "x", "yref": "paper", "x": written_gb(f), "y": 1, "yanchor": "top",
                                  "xanchor": "left", "xshift": 3, "showarrow": False,
                                  "text": f"SLC cache ends: {f['text']}"} for f in ends]
    return {"data": traces, "layout": layout, "alt": mib_variant(mib_curves)}


# --- curves: the card's line charts, split so each reads on its own -------------------------------

def curve_table(traces, x_head, x_text, y_head=None, mib_curves=None):
    """Rows by x value, a column per trace (its name); cells in both units when `mib_curves` gives each trace's
    y values in MiB/s (the y axis is a rate), else as the number they are."""
    rate = mib_curves is not None
    xs = sorted({x for t in traces for x in t["x"]})
    head = [{"text": x_head}] + [{"text": t["name"], "rate": rate, "unit": y_head} for t in traces]
    second = mib_curves if rate else [t["y"] for t in traces]  # a figure that is no rate has one unit
    lookup = [dict(zip(t["x"], zip(t["y"], values))) for t, values in zip(traces, second)]  # x → (y, y in MiB/s)
    rows = []
    for x in xs:
        cells = []
        for values in lookup:
            value, value_mib = values.get(x, (None, None))
            if value is None:
                cells.append({"text": ""})
            elif rate:
                cells.append(rate_cell(value, value_mib))
            else:
                cells.append({"text": format_by_size(value)})
        rows.append({"head": x_text(x), "cells": cells})
    return {"caption": "The figures", "head": head, "rows": rows}


def mib_variant(mib_curves, axis="y"):
    """The MiB/s variant of a line figure in MB/s whose every trace is a rate: each trace's values in MiB/s."""
    return {"mib": {"data": [{axis: values} for values in mib_curves],
                    "layout": {f"{axis}axis": {"title": {"text": MIB_S_AXIS}}}}}


def split_by_group(figure, groups):
    """Figures of one trace group each (trace meta 'group'), in the order of `groups`; traces without a
    group stay with the first figure that is drawn. A MiB/s variant is split with its traces.
    Returns {group: figure} of the groups that have traces."""
    out = {}
    traces = figure["data"]
    group_of = [(t.get("meta") or {}).get("group") for t in traces]
    loose = [i for i, group in enumerate(group_of) if not group]
    for group in groups:
        picked = [i for i, of in enumerate(group_of) if of == group]
        if not picked:
            continue
        if not out:
            picked += loose
        part = {"data": [traces[i] for i in picked], "layout": json.loads(json.dumps(figure["layout"]))}
        if "alt" in figure:
            mib = figure["alt"]["mib"]
            part["alt"] = {"mib": {"data": [mib["data"][i] for i in picked],
                                   "layout": json.loads(json.dumps(mib["layout"]))}}
        out[group] = part
    return out


SWEEP_GROUPS = [
    ("sequential", "chart-sweeps", "Sequential writes by block size",
     "dd's direct writes and flashbench --open-au, one line per run. flashbench M/s and dd MB/s are both "
     "10⁶ bytes/s; block sizes are binary (K = 1024 bytes)."),
    ("random", "chart-sweeps-random", "Random writes by block size (flashbench --open-au --random)",
     "Dotted: writes at random places inside the open allocation units. When the number of open units passes "
     "what the card keeps open, speed collapses."),
    ("find-fat", "chart-find-fat", "flashbench -f: write speed in consecutive erase blocks",
     "One line per erase block. A slower first block alone does not show a region the card treats specially: "
     "runs at other offsets tell, and the review's own reading says what its author found."),
]


def _sources(traces):
    """Raw files behind a chart's traces, one entry per file, named with the lines it backs."""
    backs = {}
    for trace in traces:
        for ref in (trace.get("meta") or {}).get("raw") or []:
            backs.setdefault(ref, []).append(trace["name"])
    return [{"name": "every line" if len(names) == len(traces) > 1 else "; ".join(names), "raw": [raw_link(ref)]}
            for ref, names in backs.items()]


def _curve_chart(chart_id, title, figure, note, x_head, x_text, y_head=None):
    """A line chart with its table; a figure with a MiB/s variant (`alt`) is a rate, its table in both units."""
    mib = [patch["y"] for patch in figure["alt"]["mib"]["data"]] if "alt" in figure else [None] * len(figure["data"])
    tabled = [(t, values) for t, values in zip(figure["data"], mib)
              if isinstance(t.get("x"), list) and isinstance(t.get("y"), list) and "meta" in t]
    traces = [t for t, _ in tabled]
    table = curve_table(traces, x_head, x_text, y_head, [values for _, values in tabled] if "alt" in figure else None)
    return chart(chart_id, title, figure, note, table, _sources(traces))


def curve_charts(card):
    """Throughput by block size (split by kind), the alignment scan and sustained fills."""
    charts = []
    sweeps = sweeps_figure(card)
    if sweeps:
        parts = split_by_group(sweeps, [g for g, *_ in SWEEP_GROUPS])
        for group, chart_id, title, note in SWEEP_GROUPS:
            if group in parts:
                charts.append(_curve_chart(chart_id, title, parts[group], note, "Block size",
                                           size_arg_from_bytes))
    align = align_figure(card)
    if align:
        charts.append(_curve_chart("chart-align", "flashbench -a: access time by alignment", align,
                                   "A step in access time at an alignment hints at the page or erase block size.",
                                   "Alignment", size_arg_from_bytes, "µs"))
    fill = fill_figure(card)
    if fill:
        charts.append(_curve_chart("chart-fill", "Throughput while filling the card", fill, None, "GB written",
                                   format_by_size))
    return charts


__all__ = ["chart", "session_chart", "sweeps_figure", "align_figure", "fill_figure", "curve_charts", "mib_of",
           "rate_cell", "runs_used", "MB_S_AXIS", "MIB_S_AXIS"]
