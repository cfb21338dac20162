"""Charts of a card page as finished Plotly JSON, each with the numbers behind it as a table.

A chart here is a dict the templates place as they are: the figure (JSON text, safe inside a data
block), the height its box reserves before it is drawn (so the page does not jump), and a table of
the same figures for readers who cannot or would rather not read a chart. Rates are given in MB/s
(10^6 B/s) and MiB/s (2^20 B/s): the figure carries its MiB/s variant as `alt.mib` (per-trace
patches charts.js applies when the reader picks MiB/s), table cells carry both texts.
"""

import json

from ..core.units import RATE_UNIT_BYTES, size_arg_from_bytes

DASH = "–"
MB_S_AXIS = "MB/s (10⁶ bytes/s)"
MIB_S_AXIS = "MiB/s (2²⁰ bytes/s)"
MB_PER_MIB = RATE_UNIT_BYTES["MB/s"] / RATE_UNIT_BYTES["MiB/s"]  # MB/s figure × this = MiB/s figure
OPS = ("read", "write")
# Height of a chart box, in CSS pixels, as the figure's layout gives it to Plotly: reserved up front.
SUBTEST_ROW_PX = 46
CHART_FRAME_PX = 110


def _js(value):
    from .pagemodel import figure_json  # one escaping rule for every data block

    return figure_json(value)


def upper_first(text):
    return text[:1].upper() + text[1:]


def mib_of(stats):
    """The MiB/s statistics beside a stats object's MB/s ones: as aggregated (`mib_s`), else converted here."""
    if stats.get("mib_s"):
        return stats["mib_s"]
    mb = stats.get("mb_s")
    if not mb:
        return None
    return {key: ([None if v is None else v * MB_PER_MIB for v in value] if isinstance(value, list)
                  else None if value is None else value * MB_PER_MIB) for key, value in mb.items()}


def rate_cell(mb_value, mib_value, fmt):
    """A table cell with the figure in both units (texts, formatted)."""
    if mb_value is None:
        return {"text": DASH}
    return {"mb": fmt(mb_value), "mib": fmt(mib_value) if mib_value is not None else fmt(mb_value * MB_PER_MIB)}


def runs_used(sub):
    """Runs a subtest's statistics are over: all recorded runs less those the source excluded."""
    if isinstance(sub.get("run_count"), int):
        return sub["run_count"]
    return len(sub.get("runs") or []) - len(sub.get("excluded_runs") or [])


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
    return {"id": chart_id, "title": title, "note": note, "figure": _js(figure),
            "height": int(figure["layout"]["height"]), "table": table, "sources": sources or []}


# --- every subtest of a session: mean bar, min–max whisker, a dot per run -------------------------

def subtests_figure(subtests, plot_text):
    """Mean of each subtest as a bar with its min–max as a whisker and each run as a dot; read and write
    side by side per test, as CrystalDiskMark lays them out. Subtests: those with MB/s statistics."""
    tests = list(dict.fromkeys(s["test"] for s in subtests))
    labels = [plot_text(t) for t in tests]
    by_key = {(s["test"], s["op"]): s for s in subtests}
    ops = [op for op in OPS if any(s["op"] == op for s in subtests)]
    ops += sorted({s["op"] for s in subtests} - set(ops))
    traces, alt, dot_traces, dot_alt = [], [], [], []
    for op in ops:
        subs = [by_key.get((t, op)) for t in tests]
        units = {"mb": [s["mb_s"] if s else None for s in subs], "mib": [mib_of(s) if s else None for s in subs]}
        columns = {u: {k: [v[k] if v else None for v in stats] for k in ("mean", "min", "max")}
                   for u, stats in units.items()}
        name = upper_first(plot_text(op))
        hover = "%{y} " + plot_text(op) + ": mean %{x:.1f} {unit}<br>min %{customdata[0]:.1f}, max %{customdata[1]:.1f}" \
                "<br>%{customdata[2]} runs<extra></extra>"
        counts = [runs_used(s) if s else 0 for s in subs]
        traces.append({"type": "bar", "orientation": "h", "name": f"{name}, mean", "y": labels,
                       "x": columns["mb"]["mean"], "offsetgroup": op, "error_x": _whisker(columns["mb"]),
                       "customdata": [[a, b, c] for a, b, c in zip(columns["mb"]["min"], columns["mb"]["max"], counts)],
                       "hovertemplate": hover.replace("{unit}", "MB/s"), "meta": {"role": op}})
        alt.append({"x": columns["mib"]["mean"], "error_x": _whisker(columns["mib"]),
                    "customdata": [[a, b, c] for a, b, c in zip(columns["mib"]["min"], columns["mib"]["max"], counts)],
                    "hovertemplate": hover.replace("{unit}", "MiB/s")})
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
                numbers.append(i + 1)
        dot_hover = "%{y} " + plot_text(op) + ", run %{customdata}: %{x:.1f} {unit}<extra></extra>"
        dot_traces.append({"type": "scatter", "mode": "markers", "orientation": "h", "name": "Each run",
                           "legendgroup": "runs", "showlegend": not dot_traces, "y": ys, "x": xs,
                           "customdata": numbers, "offsetgroup": op, "marker": {"size": 6, "opacity": 0.8},
                           "hovertemplate": dot_hover.replace("{unit}", "MB/s"), "meta": {"role": "runs"}})
        dot_alt.append({"x": xs_mib, "hovertemplate": dot_hover.replace("{unit}", "MiB/s")})
    height = CHART_FRAME_PX + SUBTEST_ROW_PX * len(tests) * max(1, len(ops)) // 2 + (20 if len(ops) > 2 else 0)
    layout = {"barmode": "group", "scattermode": "group", "bargap": 0.25, "height": max(height, 220),
              "xaxis": {"title": {"text": MB_S_AXIS}, "rangemode": "tozero"},
              "yaxis": {"autorange": "reversed", "automargin": True},
              "legend": {"orientation": "h", "x": 0, "y": 1.02, "yanchor": "bottom"}, "margin": {"t": 40}}
    return {"data": traces + dot_traces, "layout": layout,
            "alt": {"mib": {"data": alt + dot_alt, "layout": {"xaxis": {"title": {"text": MIB_S_AXIS}}}}}}


def runs_table(subtests, fmt, raw_link):
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
            cell = rate_cell(s["mb_s"]["runs"][i], mib[i], fmt)
            if i in excluded:
                cell["note"] = "excluded"
            cells.append(cell)
        rows.append({"head": f"{s['test']} {s['op']}", "cells": cells, "raw": [raw_link(r) for r in s.get("raw") or []]})
    return {"caption": "Every run", "head": head, "rows": rows}


# --- curves: one table for the traces of a line chart --------------------------------------------

def curve_table(traces, x_head, x_text, fmt, y_head=None, rate=True, raws=None):
    """Rows by x value, a column per trace (its name), cells formatted in both units when the y axis is a rate."""
    xs = sorted({x for t in traces for x in t["x"]})
    head = [{"text": x_head}] + [{"text": t["name"], "rate": rate, "unit": y_head} for t in traces]
    lookup = [dict(zip(t["x"], t["y"])) for t in traces]
    rows = []
    for x in xs:
        cells = []
        for values in lookup:
            value = values.get(x)
            if value is None:
                cells.append({"text": ""})
            elif rate:
                cells.append(rate_cell(value, value * MB_PER_MIB, fmt))
            else:
                cells.append({"text": fmt(value)})
        rows.append({"head": x_text(x), "cells": cells})
    return {"caption": "The figures", "head": head, "rows": rows}


def with_mib_curves(figure, axis="y"):
    """A line figure in MB/s with its MiB/s variant: every trace tagged as a rate gets converted values."""
    patches = []
    for trace in figure["data"]:
        if (trace.get("meta") or {}).get("rate"):
            patches.append({axis: [None if v is None else v * MB_PER_MIB for v in trace[axis]]})
        else:
            patches.append(None)
    title = {"title": {"text": MIB_S_AXIS}}
    figure["alt"] = {"mib": {"data": patches, "layout": {f"{axis}axis": title}}}
    return figure


def split_by_group(figure, groups):
    """Figures of one trace group each (trace meta 'group'), in the order of `groups`; traces without a
    group stay with the first figure that is drawn. Returns {group: figure} of the groups that have traces."""
    out = {}
    loose = [t for t in figure["data"] if not (t.get("meta") or {}).get("group")]
    for group in groups:
        traces = [t for t in figure["data"] if (t.get("meta") or {}).get("group") == group]
        if not traces:
            continue
        if not out:
            traces = traces + loose
        out[group] = {"data": traces, "layout": json.loads(json.dumps(figure["layout"]))}
    return out


def size_text(value):
    return size_arg_from_bytes(value)


__all__ = ["chart", "subtests_figure", "runs_table", "curve_table", "with_mib_curves", "split_by_group", "mib_of",
           "rate_cell", "runs_used", "MB_S_AXIS", "MIB_S_AXIS", "MB_PER_MIB"]
