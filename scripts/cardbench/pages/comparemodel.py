"""The comparison page's charts, built here as the card page's are (chartmodel.py), in two halves:

- compare_piece(card): what one card brings to any comparison it is chosen for: per rate subtest its
  mean as a bar, its slowest-to-fastest run as a whisker, the hover's fields and the table's texts, in
  MB/s and MiB/s; its headline figures (for cards that share no subtest); and, when it was read through
  two or more (host, reader) paths, the same per path. Written per card (/compare/cards/<slug>.json), so
  the page fetches only the chosen cards'.
- chart_frame(): what every comparison chart shares (layout, axis titles, hover templates, whisker style,
  heights), in compare.json.

compare.js joins the chosen cards' pieces into the frame's traces, picking each unit's precomputed
values: it formats and converts nothing. Figures are the aggregate's own statistics (`pooled`,
`headline`, and the sessions' subtests through readers.path_figures), in the MB/s and MiB/s it gave.
Strings Plotly draws (bar labels, hover fields, trace names) are plain text through plottext; the
texts the page writes into its own elements (titles, table cells) stay as written and are set as text.
"""

from .chartmodel import MB_S_AXIS, MIB_S_AXIS, upper_first
from ..figures.formatting import DASH, format_by_size, mib_text
from .plottext import plain_figure, plot_text
from ..figures.hosts_readers import NOT_STATED, path_figures

UNITS = ("mb", "mib")
# Hovers of a bar; customdata: [subtest, mean, slowest, fastest, runs, basis], texts already formatted.
# Card text reaches a hover only through y and customdata, never through the template.
RANGE_HOVER = ("%{y}<br>%{customdata[0]}: mean %{customdata[1]} {unit}<br>slowest %{customdata[2]}, "
               "fastest %{customdata[3]}<br>%{customdata[4]} runs<extra></extra>")
BASIS_HOVER = "%{y}<br>%{customdata[0]}: mean %{customdata[1]} {unit}<br>%{customdata[5]}<extra></extra>"
UNIT_NAMES = {"mb": "MB/s", "mib": "MiB/s"}
# Height of a chart, in CSS pixels: a frame, and per card a gap and a bar per direction.
FRAME_PX, CARD_GAP_PX, BAR_PX = 110, 18, 22
MOST_OPS = 4  # card heights are given for up to this many directions per chart
# Cards measured with different tests: their headline figures side by side, named by the test behind each.
HEADLINES = (("Sequential", "seq_read", "seq_write"), ("Random 4K Q1", "rnd4k_read", "rnd4k_write"))


def _texts(block, printed=None, mib=False):
    """[mean, slowest, fastest] of a {mean, min, max} block as the page writes them; a MiB/s figure the
    tool printed in MiB/s keeps its decimals (13, not 13.0)."""
    if not block:
        return [DASH, DASH, DASH]
    text = (lambda v: mib_text(v, printed)) if mib else format_by_size
    return [text(block.get(key)) for key in ("mean", "min", "max")]


def bar(test, op, mb, mib, runs=None, printed=None, basis=None):
    """One card's bar in one subtest: mb, mib: {mean, min, max} (min and max may be missing: then no
    whisker, and the hover names the `basis` instead of a run range)."""
    ranged = mb.get("min") is not None and mb.get("max") is not None
    blocks = {"mb": mb, "mib": mib}
    cells = {u: _texts(blocks[u], printed, u == "mib") for u in UNITS}
    subtest = f"{test} {op}"
    out = {"test": test, "op": op, "runs": runs, "ranged": ranged,
           "x": {u: (blocks[u] or {}).get("mean") for u in UNITS}, "cells": cells,
           "hover": {u: plain_figure([subtest, *cells[u], "" if runs is None else runs, basis or ""]) for u in UNITS}}
    if ranged:
        out["plus"] = {u: _offset(blocks[u], "max") for u in UNITS}
        out["minus"] = {u: _offset(blocks[u], "min") for u in UNITS}
    if basis:
        out["basis"] = basis
    return out


def _offset(block, end):
    """How far the whisker reaches from the mean to `end` ('min' or 'max'); None when a figure is missing."""
    if not block or block.get("mean") is None or block.get(end) is None:
        return None
    return round(abs(block[end] - block["mean"]), 6)


def _rate_bars(figures):
    """{"test op": bar} of every subtest measured as a rate, from {"test op": statistics}."""
    out = {}
    for key, stats in figures.items():
        if not stats.get("mb_s") or stats["mb_s"].get("mean") is None:
            continue
        test, op = key.rsplit(" ", 1)
        out[key] = bar(test, op, stats["mb_s"], stats.get("mib_s"), stats.get("run_count"), stats.get("printed"))
    return out


def _headline_bars(headline):
    out = {}
    for name, *picks in HEADLINES:
        for op, key in zip(("read", "write"), picks):
            pick = (headline or {}).get(key)
            if not pick or pick.get("mb_s") is None:
                continue
            mib = pick.get("mib_s")
            out[f"{name} {op}"] = bar(name, op, {"mean": pick["mb_s"]}, None if mib is None else {"mean": mib},
                                      printed=pick.get("printed"), basis=pick.get("basis") or pick.get("from") or "")
    return out


def compare_piece(card):
    """What one card contributes to a comparison (see the module's docstring)."""
    bars = _rate_bars(card.get("pooled") or {})
    ops = {b["op"] for b in bars.values()} | {"read", "write"}
    piece = {"slug": card["slug"], "title": card["title"], "label": plot_text(card["title"]),
             "label_slug": plot_text(f"{card['title']} ({card['slug']})"),
             "op_names": {op: plot_text(upper_first(op)) for op in sorted(ops)},
             "bars": bars, "headline": _headline_bars(card.get("headline"))}
    paths = path_figures(card)
    if paths:
        piece["paths"] = [_path_piece(card["title"], p) for p in paths]
    return piece


def _path_piece(title, path):
    """One (host, reader) path of a card: `label` names the card and the path (among other cards),
    `label_path` the path alone (the card's paths side by side)."""
    where = path["label"] if path["host"] or path["reader"] else f"host and reader {NOT_STATED}"
    return {"title": f"{title}: {where}", "label": plot_text(f"{title}: {where}"), "label_path": plot_text(where),
            "path": where, "sessions": path["sessions"], "bars": _rate_bars(path["figures"])}


def path_choices(piece):
    """The picker's names of a card's paths (empty for a card read through one)."""
    return [p["path"] for p in piece.get("paths", ())]


def chart_frame():
    """What every comparison chart shares: compare.js puts the chosen cards' bars into it."""
    return {
        "layout": {"barmode": "group", "bargap": 0.25, "margin": {"t": 40},
                   "xaxis": {"title": {"text": MB_S_AXIS}, "rangemode": "tozero"},
                   "yaxis": {"autorange": "reversed", "automargin": True},
                   "legend": {"orientation": "h", "x": 0, "y": 1.02, "yanchor": "bottom"}},
        "alt_layout": {"mib": {"xaxis": {"title": {"text": MIB_S_AXIS}}}},
        "hover": {kind: {u: template.replace("{unit}", UNIT_NAMES[u]) for u in UNITS}
                  for kind, template in (("range", RANGE_HOVER), ("basis", BASIS_HOVER))},
        "whisker": {"type": "data", "symmetric": False, "thickness": 1.5, "width": 5},
        # Height of a chart: frame_px + card count × card_px[directions drawn].
        "frame_px": FRAME_PX, "card_px": [CARD_GAP_PX + BAR_PX * n for n in range(MOST_OPS + 1)],
        "headlines": {"tests": [name for name, *_ in HEADLINES], "ops": ["read", "write"]},
    }


__all__ = ["compare_piece", "chart_frame", "path_choices", "bar", "HEADLINES", "RANGE_HOVER", "BASIS_HOVER"]
