"""What the site's templates show, worked out once per card: figures as finished Plotly JSON,
figures formatted for reading, the leaderboard's cells and the comparison page's summary.

Hugo parses every data file it is given and runs template loops for every page on every build;
at thousands of cards that costs far more than doing the same work here once per changed card
(the aggregation cache keeps it). Templates then place ready values into the page.
"""

import json
import math

from ..core.units import RATE_TO_MB_S, size_arg_from_bytes

DASH = "–"
MB_S_AXIS = "MB/s (10⁶ bytes/s)"
# Members of a suite the comparison page embeds; the rest come from the catalogue on demand.
EMBEDDED_MEMBERS = 50
DEFAULT_MEMBERS = 8


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


def _upper_first(text):
    return text[:1].upper() + text[1:]


# --- figures ------------------------------------------------------------------------------------

def session_runs_figure(session):
    """Every run of a session's bandwidth subtests, one bar trace per run."""
    subs = [s for s in session["subtests"] if s["kind"] == "fio" and s.get("mb_s")]
    if not subs:
        return None
    labels = [f"{s['test']} {_upper_first(s['op'])}" for s in subs]
    runs = max(len(s["runs"]) for s in subs)
    traces = [{"type": "bar", "orientation": "h", "name": f"Run {i + 1}",
               "x": [s["mb_s"]["runs"][i] if i < len(s["mb_s"]["runs"]) else "" for s in subs], "y": labels,
               "hovertemplate": "%{y}: %{x:.1f} MB/s<extra>%{fullData.name}</extra>"} for i in range(runs)]
    layout = {"barmode": "group", "height": 110 + len(labels) * (14 + 4 * runs),
              "xaxis": {"title": {"text": MB_S_AXIS}, "rangemode": "tozero"},
              "yaxis": {"autorange": "reversed", "automargin": True}, "legend": {"title": {"text": "Run"}}}
    return {"data": traces, "layout": layout}


def dd_runs_figure(session):
    """Every dd run of a session, read and write, one bar per run."""
    subs = [s for s in session["subtests"] if s["kind"] == "dd" and s.get("mb_s")]
    if not subs:
        return None
    traces = [{"type": "bar", "name": f"{s['test']} {s['op']}", "x": [f"Run {i + 1}" for i in range(len(s["runs"]))],
               "y": s["mb_s"]["runs"], "hovertemplate": "%{x}: %{y:.1f} MB/s<extra>%{fullData.name}</extra>"}
              for s in subs]
    return {"data": traces, "layout": {"barmode": "group", "height": 340,
                                       "yaxis": {"title": {"text": MB_S_AXIS}, "rangemode": "tozero"}}}


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
                           "y": [p["value"] * factor for p in sweep["points"]]})
        for au in s.get("flashbench_open_au") or []:
            count = int(au["open_au"])
            name = f"{prefix}flashbench {au['mode']}, {count} open AU{'s' if count > 1 else ''}"
            if au.get("erase_size_bytes"):
                name += f", {size_arg_from_bytes(au['erase_size_bytes'])} AU"
            if au.get("interrupted"):
                name += " (stopped early)"
            traces.append({"type": "scatter", "mode": "lines+markers", "name": name,
                           "x": [p["block_size_bytes"] for p in au["points"]], "y": [p["value"] for p in au["points"]],
                           "line": {"dash": "dot" if au["mode"] == "random" else "solid"}})
        for table in s.get("flashbench_find_fat") or []:
            rows = table["rows"]
            for c in range(max((len(r["values"]) for r in rows), default=0)):
                picked = [r for r in rows if c < len(r["values"])]
                traces.append({"type": "scatter", "mode": "lines", "name": f"{prefix}find-fat, erase block {c + 1}",
                               "x": [r["block_size_bytes"] for r in picked], "y": [r["values"][c] for r in picked],
                               "line": {"width": 1}})
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
                               "y": delay})
            if diff:
                traces.append({"type": "scatter", "mode": "lines+markers",
                               "name": f"{label}: diff (on − mean of pre, post)", "x": x, "y": diff})
    if not traces:
        return None
    ticks, labels = _log_ticks(range(10, 37, 2))
    layout = {"height": 380, "xaxis": {"type": "log", "title": {"text": "Alignment (bytes)"}, "tickvals": ticks,
                                       "ticktext": labels},
              "yaxis": {"title": {"text": "µs"}, "rangemode": "tozero"}}
    return {"data": traces, "layout": layout}


def fill_figure(card):
    """Sustained fills: throughput against data written."""
    traces = []
    for s in card["sessions"]:
        for fill in s.get("fill") or []:
            factor = RATE_TO_MB_S[fill["unit"]]
            traces.append({"type": "scatter", "mode": "lines", "name": f"{plot_text(s['label'])}: {fill['op']}",
                           "x": [p["written_gb"] for p in fill["points"]],
                           "y": [p["value"] * factor for p in fill["points"]]})
    if not traces:
        return None
    return {"data": traces, "layout": {"height": 380, "xaxis": {"title": {"text": "GB written (10⁹ bytes)"}},
                                       "yaxis": {"title": {"text": MB_S_AXIS}, "rangemode": "tozero"}}}


# --- tables -------------------------------------------------------------------------------------

def stats_rows(subtests):
    """Per-subtest statistics in MB/s, with the recorded unit beside."""
    rows = []
    for s in subtests:
        m = s.get("mb_s")
        shown = m if m else s
        recorded = ("MB/s" + (f"; as recorded: {num(s['mean'])} {s['unit']}" if s["unit"] != "MB/s" else "")
                    if m else s["unit"])
        rows.append({"name": f"{s['test']} {s['op']}", "raw": s.get("raw") or [], "count": s["count"],
                     "excluded": len(s.get("excluded_runs") or []), "mean": num(shown["mean"]),
                     "min": num(shown["min"]), "max": num(shown["max"]), "std": num(shown["std"]),
                     "recorded": recorded})
    return rows


def claimed_rows(card):
    """Vendor claim against the measured mean, with the subtest that speaks for each."""
    claimed = card.get("claimed") or {}
    headline = card.get("headline") or {}
    rows = []
    for name, claim, measured in (("Sequential read", claimed.get("read_mb_s"), headline.get("seq_read")),
                                  ("Sequential write", claimed.get("write_mb_s"), headline.get("seq_write")),
                                  ("Random 4K read, Q1T1", None, headline.get("rnd4k_read")),
                                  ("Random 4K write, Q1T1", None, headline.get("rnd4k_write"))):
        row = {"name": name, "claim": f"{num(claim)} MB/s" if claim else DASH,
               "measured": num(measured["mb_s"]) if measured else None,
               "share": f"{whole(100 * measured['mb_s'] / claim)} %" if claim and measured else DASH}
        if measured:
            row["by"] = measured["from"] + (f" (recorded in {measured['unit']}: {num(measured['mean'])})"
                                            if measured["unit"] != "MB/s" else "")
        else:
            row["by"] = "not measured"
        rows.append(row)
    return rows


def class_check_rows(card):
    out = []
    for check in card.get("class_checks") or []:
        parts = [{"what": p["what"], "need": whole(p["need"]), "unit": p["unit"],
                  "measured": f"{num(p['measured'])} {p['unit']}" if p["measured"] else DASH,
                  "meets": p["meets"], "from": p["from"]} for p in check["parts"]]
        out.append({"marking": check["marking"], "parts": parts})
    return out


# --- the page -----------------------------------------------------------------------------------

IDENTITY = ["slug", "title", "brand", "model", "part_number", "capacity_gb", "family", "form_factor", "bus",
            "markings", "controller", "price", "shops", "notes", "source"]
SESSION_SHOWN = ["id", "label", "complete", "compare", "date", "host", "reader", "conditions", "target", "tools",
                 "source", "notes", "headline", "nvme", "f3probe", "raw"]


def card_page(card):
    """Everything a card page shows, from the card's aggregated JSON."""
    page = {k: card[k] for k in IDENTITY if k in card}
    page["claimed_note"] = (card.get("claimed") or {}).get("note")
    page["claimed_rows"] = claimed_rows(card)
    page["class_checks"] = class_check_rows(card)
    sessions = []
    for s in card["sessions"]:
        shown = {k: s[k] for k in SESSION_SHOWN if k in s}
        shown["runs_figure"] = figure_json(session_runs_figure(s))
        shown["dd_figure"] = figure_json(dd_runs_figure(s))
        shown["stats"] = stats_rows(s["subtests"])
        sessions.append(shown)
    page["sessions"] = sessions
    page["figures"] = {"sweeps": figure_json(sweeps_figure(card)), "align": figure_json(align_figure(card)),
                       "fill": figure_json(fill_figure(card))}
    return page


HEADLINE_KEYS = ["seq_read", "seq_write", "rnd4k_read", "rnd4k_write"]


def leader_row(row):
    """A leaderboard row as the home page shows it."""
    cells = []
    for key in HEADLINE_KEYS:
        pick = row.get(key)
        cells.append({"value": pick["mb_s"], "text": num(pick["mb_s"]), "from": pick["from"]} if pick else None)
    claimed = row.get("claimed") or {}
    return {"slug": row["slug"], "title": row["title"], "brand": row["brand"], "bus": row["bus"],
            "form_factor": row["form_factor"], "markings": row["markings"], "cells": cells,
            "claimed_read": claimed.get("read_mb_s"), "claimed_write": claimed.get("write_mb_s"),
            "runs": row["runs"], "source": row["source"]}


__all__ = ["card_page", "leader_row", "num", "figure_json"]
