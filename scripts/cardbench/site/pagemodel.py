"""What the site's templates show, worked out once per card: figures as finished Plotly JSON,
figures formatted for reading, the leaderboard's cells and the comparison page's summary.

Hugo parses every data file it is given and runs template loops for every page on every build;
at thousands of cards that costs far more than doing the same work here once per changed card
(the aggregation cache keeps it). Templates then place ready values into the page.
"""

import html
import json
import math
import re

from ..core.units import RATE_TO_MB_S, size_arg_from_bytes
from .chartmodel import (MB_PER_MIB, chart, curve_table, mib_of, rate_cell, runs_table, runs_used,
                         split_by_group, subtests_figure, with_mib_curves)
from .gridmodel import grid_model

DASH = "–"
MB_S_AXIS = "MB/s (10⁶ bytes/s)"
# Members of a suite the comparison page embeds; the rest come from the catalogue on demand.
EMBEDDED_MEMBERS = 50
# Members a suite's chart shows on load (one bar row per card; compare.js has the same number and says
# on the page when a suite has more).
DEFAULT_MEMBERS = 12


# --- formatting ---------------------------------------------------------------------------------

def format_number(value, digits):
    """Hugo's lang.FormatNumber for English: rounded half away from zero, thousands separated."""
    value = float(value)
    scaled = abs(value) * 10.0 ** digits
    rounded = math.floor(scaled)
    if scaled - rounded >= 0.5:
        rounded += 1
    return ("-" if value < 0 else "") + f"{rounded / 10.0 ** digits:,.{digits}f}"


def num(value):
    """A figure for reading: no decimals from 100 on, one from 10, two below; '–' when missing."""
    if value is None:
        return DASH
    size = abs(float(value))
    return format_number(value, 0 if size >= 100 else 1 if size >= 10 else 2)


def whole(value):
    """A count with thousands separators, rounded."""
    return format_number(value, 0)


def text_order(text):
    """Sort key close to Hugo's sort of text: letters before case."""
    return (text.casefold(), text)


def plot_text(text):
    """Chart label text: Plotly reads a few HTML-like tags in labels, so entities keep it plain text."""
    return (str(text).replace("&", "&amp;").replace("'", "&#39;").replace("<", "&lt;").replace(">", "&gt;")
            .replace('"', "&#34;"))


_SCRIPT_SAFE = str.maketrans({"<": "\\u003c", ">": "\\u003e", "&": "\\u0026"})


def figure_json(figure):
    """Compact JSON of a figure that is safe inside a <script type="application/json"> data block:
    <, > and & are written as \\u escapes (the same JSON value), so no text can close the element."""
    if not figure:
        return ""
    return json.dumps(figure, ensure_ascii=False, separators=(",", ":"), allow_nan=False).translate(_SCRIPT_SAFE)


def raw_link(ref):
    """A raw file a figure comes from: its name and its path under data/ (the site serves it there)."""
    return {"name": ref.rsplit("/", 1)[-1], "path": ref}


# A reviewer's table marks a test it did not run with dashes ("----- MB/s").
_PLACEHOLDER = re.compile(r"^\s*-{2,}\s*(?:[A-Za-z/%µ]+\s*)?$")
NOT_MEASURED = "not measured"


def shown_value(text):
    """A reviewer's table value as read: dash placeholders say 'not measured'."""
    return NOT_MEASURED if isinstance(text, str) and _PLACEHOLDER.match(text) else text


# --- figures ------------------------------------------------------------------------------------

def session_chart(session, session_dom_id):
    """Every subtest of a session measured as a rate: mean, min–max and each run; the runs as a table."""
    subs = [s for s in session["subtests"] if s.get("mb_s")]
    if not subs:
        return None
    figure = subtests_figure(subs, plot_text)
    runs = max(len(s["mb_s"]["runs"]) for s in subs)
    note = ("Bars: the mean of each subtest; whiskers: its slowest and fastest run; dots: every run"
            + (f" ({runs} per subtest)" if runs > 1 else "") + ".")
    return chart(f"{session_dom_id}-runs", f"Every subtest, {session['label']}", figure, note,
                 runs_table(subs, num, raw_link))


def _log_ticks(powers):
    values = [float(2 ** p) for p in powers]
    return values, [size_arg_from_bytes(v) for v in values]


def sweeps_figure(card):
    """Throughput against block size: dd sweeps, flashbench open-AU sweeps and find-fat columns."""
    traces = []
    multi = len(card["sessions"]) > 1
    for s in card["sessions"]:
        prefix = f"{plot_text(s['label'])}: " if multi else ""
        for sweep in s.get("dd_sweeps") or []:
            factor = RATE_TO_MB_S[sweep["unit"]]
            direct = ", direct" if "direct" in (sweep.get("flags") or []) else ""
            traces.append({"type": "scatter", "mode": "lines+markers", "name": f"{prefix}dd {sweep['op']}{direct}",
                           "x": [p["block_size_bytes"] for p in sweep["points"]],
                           "y": [p["value"] * factor for p in sweep["points"]],
                           "meta": {"group": "sequential", "rate": True, "raw": sweep.get("raw") or []}})
        for au in s.get("flashbench_open_au") or []:
            count = int(au["open_au"])
            name = f"{prefix}flashbench {au['mode']}, {count} open AU{'s' if count > 1 else ''}"
            if au.get("erase_size_bytes"):
                name += f", {size_arg_from_bytes(au['erase_size_bytes'])} AU"
            if au.get("interrupted"):
                name += " (stopped early)"
            # Evidence of an open-AU finding: the count that holds and the one that collapses.
            line = {"dash": "dot" if au["mode"] == "random" else "solid"}
            for f in card.get("findings") or []:
                if (f["id"] == f"open_aus_{au['mode']}" and f["session"] == s.get("id")
                        and f.get("erase_size_bytes") in (None, au.get("erase_size_bytes"))):
                    if count == f["value"]:
                        name, line["width"] = name + " (holds)", 3
                    elif count == f.get("collapses_at"):
                        name, line["width"] = name + " (collapses)", 3
            traces.append({"type": "scatter", "mode": "lines+markers", "name": name,
                           "x": [p["block_size_bytes"] for p in au["points"]], "y": [p["value"] for p in au["points"]],
                           "line": line,
                           "meta": {"group": "random" if au["mode"] == "random" else "sequential", "rate": True,
                                    "raw": au.get("raw") or []}})
        for table in s.get("flashbench_find_fat") or []:
            rows = table["rows"]
            for c in range(max((len(r["values"]) for r in rows), default=0)):
                picked = [r for r in rows if c < len(r["values"])]
                traces.append({"type": "scatter", "mode": "lines", "name": f"{prefix}find-fat, erase block {c + 1}",
                               "x": [r["block_size_bytes"] for r in picked], "y": [r["values"][c] for r in picked],
                               "line": {"width": 1},
                               "meta": {"group": "find-fat", "rate": True, "raw": table.get("raw") or []}})
    if not traces:
        return None
    ticks, labels = _log_ticks(range(9, 33))
    layout = {"height": 420, "xaxis": {"type": "log", "title": {"text": "Block size (bytes, binary prefixes)"},
                                       "tickvals": ticks, "ticktext": labels},
              "yaxis": {"title": {"text": MB_S_AXIS}, "rangemode": "tozero"}}
    return {"data": traces, "layout": layout}


def align_figure(card):
    """flashbench -a scans: access time against alignment."""
    traces = []
    for s in card["sessions"]:
        for scan in s.get("flashbench_align") or []:
            x, delay, diff = [], [], []
            for p in scan["points"]:
                x.append(p["offset_bytes"])
                if p.get("delay_ns"):
                    delay.append(p["delay_ns"] / 1000.0)
                if p.get("on_ns"):
                    delay.append(p["on_ns"] / 1000.0)
                if "diff_ns" in p:
                    diff.append(p["diff_ns"] / 1000.0)
            label = plot_text(s["label"])
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
                                  "text": plot_text(f"{f['label'].split(' (')[0]}: {f['text']}")} for f in marks]
    return {"data": traces, "layout": layout}


def fill_figure(card):
    """Sustained fills: throughput against data written."""
    traces = []
    for s in card["sessions"]:
        for fill in s.get("fill") or []:
            factor = RATE_TO_MB_S[fill["unit"]]
            traces.append({"type": "scatter", "mode": "lines", "name": f"{plot_text(s['label'])}: {fill['op']}",
                           "x": [p["written_gb"] for p in fill["points"]],
                           "y": [p["value"] * factor for p in fill["points"]],
                           "meta": {"rate": True, "raw": fill.get("raw") or []}})
    if not traces:
        return None
    layout = {"height": 380, "xaxis": {"title": {"text": "GB written (10⁹ bytes)"}},
              "yaxis": {"title": {"text": MB_S_AXIS}, "rangemode": "tozero"}}
    # Evidence of the SLC-cache finding: where the change point puts the cache's end.
    ends = [f for f in card.get("findings") or [] if f["id"] == "slc_cache"]
    if ends:
        layout["shapes"] = [{"type": "line", "xref": "x", "yref": "paper", "x0": f["value"] / 1e9,
                             "x1": f["value"] / 1e9, "y0": 0, "y1": 1, "line": {"dash": "dot", "width": 1}}
                            for f in ends]
        layout["annotations"] = [{"xref": "x", "yref": "paper", "x": f["value"] / 1e9, "y": 1, "yanchor": "top",
                                  "xanchor": "left", "xshift": 3, "showarrow": False,
                                  "text": plot_text(f"SLC cache ends: {f['text']}")} for f in ends]
    return {"data": traces, "layout": layout}


# --- tables -------------------------------------------------------------------------------------

def _recorded(s):
    """The unit a subtest was recorded in, and its mean as recorded when that is not MB/s."""
    if not s.get("mb_s"):
        return s["unit"]
    return "MB/s" if s["unit"] == "MB/s" else f"{num(s['mean'])} {s['unit']}"


def stats_rows(subtests):
    """Per-subtest statistics in MB/s and MiB/s, with the recorded unit beside."""
    rows = []
    for s in subtests:
        m = s.get("mb_s")
        mib = mib_of(s) if m else None
        cells = ({k: rate_cell(m[k], mib[k], num) for k in ("mean", "min", "max", "std")} if m
                 else {k: {"text": num(s[k])} for k in ("mean", "min", "max", "std")})
        rows.append({"name": f"{s['test']} {s['op']}", "raw": [raw_link(r) for r in s.get("raw") or []],
                     "count": runs_used(s), "excluded": len(s.get("excluded_runs") or []), "rate": bool(m),
                     "unit": s["unit"], "recorded": _recorded(s), **cells})
    return rows


def basis_text(pick):
    """What a headline figure is the mean of, for readers."""
    return pick.get("basis") or pick.get("from") or ""


def _headline_mib(pick):
    return pick.get("mib_s") if pick.get("mib_s") is not None else pick["mb_s"] * MB_PER_MIB


def claimed_rows(card):
    """Vendor claim against the measured mean, with the subtest that speaks for each."""
    claimed = card.get("claimed") or {}
    headline = card.get("headline") or {}
    rows = []
    for name, claim, measured in (("Sequential read", claimed.get("read_mb_s"), headline.get("seq_read")),
                                  ("Sequential write", claimed.get("write_mb_s"), headline.get("seq_write")),
                                  ("Random 4K read, Q1T1", None, headline.get("rnd4k_read")),
                                  ("Random 4K write, Q1T1", None, headline.get("rnd4k_write"))):
        row = {"name": name, "claim": rate_cell(claim, claim * MB_PER_MIB, num) if claim else None,
               "measured": rate_cell(measured["mb_s"], _headline_mib(measured), num) if measured else None,
               "share": f"{whole(100 * measured['mb_s'] / claim)} %" if claim and measured else DASH}
        if measured:
            unit = measured.get("unit")
            row["by"] = basis_text(measured)
            row["raw"] = [raw_link(r) for r in measured.get("raw") or []]
            if unit and unit != "MB/s" and measured.get("mean") is not None:
                row["recorded"] = f"recorded in {unit}: {num(measured['mean'])}"
        else:
            row["by"] = NOT_MEASURED
        rows.append(row)
    return rows


def class_check_rows(card):
    out = []
    for check in card.get("class_checks") or []:
        parts = [{"what": p["what"], "need": whole(p["need"]), "unit": p["unit"],
                  "measured": f"{num(p['measured'])} {p['unit']}" if p["measured"] else DASH,
                  "meets": p["meets"], "from": p.get("basis") or p.get("from"), "derived": p.get("derived")}
                 for p in check["parts"]]
        out.append({"marking": check["marking"], "parts": parts})
    return out


# --- curves: the card's line charts, split so each reads on its own -------------------------------

SWEEP_GROUPS = [
    ("sequential", "chart-sweeps", "Sequential writes by block size",
     "dd's direct writes and flashbench --open-au, one line per run. flashbench M/s and dd MB/s are both "
     "10⁶ bytes/s; block sizes are binary (K = 1024 bytes)."),
    ("random", "chart-sweeps-random", "Random writes by block size (flashbench --open-au --random)",
     "Dotted: writes at random places inside the open allocation units. When the number of open units passes "
     "what the card keeps open, speed collapses."),
    ("find-fat", "chart-find-fat", "flashbench -f: write speed in consecutive erase blocks",
     "One line per erase block; a slower first block hints at a region the card treats specially."),
]


def _sources(traces):
    """Raw files behind a chart's traces, one entry per file, named with the lines it backs."""
    backs = {}
    for trace in traces:
        for ref in (trace.get("meta") or {}).get("raw") or []:
            backs.setdefault(ref, []).append(html.unescape(trace["name"]))
    return [{"name": "every line" if len(names) == len(traces) > 1 else "; ".join(names), "raw": [raw_link(ref)]}
            for ref, names in backs.items()]


def _curve_chart(chart_id, title, figure, note, x_head, x_text, y_head=None, rate=True):
    traces = [t for t in figure["data"] if isinstance(t.get("x"), list) and isinstance(t.get("y"), list)
              and "meta" in t]
    named = [dict(t, name=html.unescape(t["name"])) for t in traces]
    table = curve_table(named, x_head, x_text, num, y_head, rate)
    if rate:
        with_mib_curves(figure)
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
                                   "Alignment", size_arg_from_bytes, "µs", rate=False))
    fill = fill_figure(card)
    if fill:
        charts.append(_curve_chart("chart-fill", "Throughput while filling the card", fill, None, "GB written", num))
    return charts


# --- the page -----------------------------------------------------------------------------------

IDENTITY = ["slug", "title", "brand", "model", "part_number", "capacity_gb", "family", "form_factor", "bus",
            "markings", "controller", "price", "shops", "notes", "source"]
SESSION_SHOWN = ["id", "label", "complete", "compare", "date", "host", "reader", "conditions", "target", "tools",
                 "source", "notes", "nvme", "f3probe"]


def card_description(card):
    """One sentence for search results and link previews: the headline figures and where they come from."""
    headline = card.get("headline") or {}
    parts = []
    for key, name in (("seq_read", "sequential read"), ("seq_write", "write")):
        pick = headline.get(key)
        if pick:
            parts.append(f"{name} {num(pick['mb_s'])} MB/s")
    sessions = len(card["sessions"])
    text = f"{card['title']} benchmarks"
    if parts:
        text += ": " + ", ".join(parts)
    text += f"; {sessions} session{'s' if sessions != 1 else ''} charted, figures from {card['source']['name']}."
    return text


def card_page(card):
    """Everything a card page shows, from the card's aggregated JSON."""
    page = {k: card[k] for k in IDENTITY if k in card}
    page["description"] = card_description(card)
    page["claimed_note"] = (card.get("claimed") or {}).get("note")
    page["claimed_rows"] = claimed_rows(card)
    page["class_checks"] = class_check_rows(card)
    page["grid"] = grid_model(card, num)
    sessions = []
    for s in card["sessions"]:
        shown = {k: s[k] for k in SESSION_SHOWN if k in s}
        dom_id = f"session-{s['id']}"
        shown["dom_id"] = dom_id
        shown["headline"] = [dict(row, value=NOT_MEASURED if row.get("measured") is False else shown_value(row.get("value")))
                             for row in s.get("headline") or []]
        shown["chart"] = session_chart(s, dom_id)
        shown["stats"] = stats_rows(s["subtests"])
        shown["raw"] = [raw_link(r) for r in s.get("raw_files") or s.get("raw") or []]
        sessions.append(shown)
    page["sessions"] = sessions
    page["curves"] = curve_charts(card)
    return page


HEADLINE_KEYS = ["seq_read", "seq_write", "rnd4k_read", "rnd4k_write"]
IOPS_KEYS = {"rnd4k_read", "rnd4k_write"}  # random 4K is read in IOPS, as the A1/A2 classes state it
RANDOM_BLOCK_BYTES = 4096


def random_4k_iops(pick):
    """(IOPS, derived) of a random 4 KiB headline: as recorded, else its bandwidth ÷ 4 KiB."""
    recorded = (pick.get("iops") or {}).get("mean")
    if recorded is not None:
        return recorded, bool(pick["iops"].get("derived"))
    return pick["mb_s"] * 1e6 / RANDOM_BLOCK_BYTES, True
# What a card measured without repeated runs, as the leaderboard names it in place of a run count.
MEASURED_INSTEAD = [("dd_sweeps", "dd sweep"), ("flashbench_open_au", "flashbench"), ("flashbench_find_fat", "flashbench"),
                    ("flashbench_align", "flashbench"), ("fill", "sustained fill"), ("f3probe", "f3probe"),
                    ("headline", "reviewer's table")]


def measured_instead(card):
    """What a card without repeated runs was measured with, as text ('' when it has runs or nothing)."""
    kinds = [name for key, name in MEASURED_INSTEAD if any(s.get(key) for s in (card or {}).get("sessions") or [])]
    return ", ".join(dict.fromkeys(kinds))


def leader_row(row, card=None):
    """A leaderboard row as the home page shows it. `card`: the card's aggregated JSON, for what a card
    measured with no repeated runs."""
    cells = []
    for key in HEADLINE_KEYS:
        pick = row.get(key)
        if not pick:
            cells.append(None)
        elif key in IOPS_KEYS:
            iops, derived = random_4k_iops(pick)
            basis = basis_text(pick) + ("; IOPS = bandwidth ÷ 4 KiB" if derived else "")
            cells.append({"value": iops, "text": whole(iops) + ("*" if derived else ""), "from": basis})
        else:
            cells.append({"value": pick["mb_s"], "text": num(pick["mb_s"]), "from": basis_text(pick)})
    claimed = row.get("claimed") or {}
    seq_read = row.get("seq_read")
    runs = row.get("run_count", row.get("runs"))
    return {"slug": row["slug"], "title": row["title"], "brand": row["brand"], "bus": row["bus"],
            "form_factor": row["form_factor"], "markings": row["markings"], "cells": cells,
            "claimed_read": claimed.get("read_mb_s"), "claimed_write": claimed.get("write_mb_s"),
            "rank": seq_read["mb_s"] if seq_read else 0, "runs": runs,
            "instead": measured_instead(card) if not runs else "", "source": row["source"]}


__all__ = ["card_page", "leader_row", "num", "figure_json", "measured_instead", "shown_value"]
