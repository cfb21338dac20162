"""The CrystalDiskMark-style grid at the top of a card page: each subtest of the card's suite, read and
write, with MB/s (and MiB/s), IOPS and latency where recorded; derived figures marked as derived.

Reads the card JSON's `grid` (aggregated: a row per subtest, `read` and `write` cells holding `mb_s`,
`mib_s`, `iops` and `latency_us`, each a number or a statistics object with `mean`; `derived` on a
figure computed from another rather than recorded). Only formats: every figure comes from the grid.
"""

from .figurehtml import rate_html
from ..figures.formatting import DASH, derived_iops_text, in_printed_unit, latency_text, mib_text

OPS = ("read", "write")


def _mean(value):
    """A figure's mean from a number or a statistics object ({mean} or {mean: {mean}} for latency)."""
    while isinstance(value, dict):
        value = value.get("mean")
    return value if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def _derived(cell, key):
    """Whether a cell's figure was computed from another (marked on the figure or beside it)."""
    value = cell.get(key)
    return bool((isinstance(value, dict) and value.get("derived")) or cell.get(f"{key}_derived"))


def _cell(cell, fmt):
    """One read or write cell, formatted: rate in both units, IOPS and latency with their derived marks."""
    if not isinstance(cell, dict):
        return None
    mb, mib = _mean(cell.get("mb_s")), _mean(cell.get("mib_s"))
    printed = cell.get("printed")
    mib_shown = mib_text(mib, printed) if in_printed_unit(printed, "MiB/s") else fmt(mib) if mib is not None else DASH
    out = {"rate": rate_html({"mb": fmt(mb), "mib": mib_shown}) if mb is not None else None,
           "rate_derived": _derived(cell, "mb_s")}
    iops = cell.get("iops")
    if _mean(iops) is not None:
        derived = _derived(cell, "iops")
        # derived from a bandwidth: only as precise as that bandwidth was printed
        text = derived_iops_text(_mean(iops), printed) if derived and printed else fmt(_mean(iops))
        out["iops"] = {"text": text, "derived": derived}
    latency = cell.get("latency_us")
    if _mean(latency) is not None:
        out["latency"] = {"text": latency_text(_mean(latency), fmt), "derived": _derived(cell, "latency_us")}
    if cell["run_count"]:
        out["runs"] = cell["run_count"]
    return out


def grid_model(card, fmt):
    """The grid as the card page shows it, or None when the card has none."""
    grid = card.get("grid")
    if not grid:
        return None
    rows_in = grid.get("rows") if isinstance(grid, dict) else grid
    rows = []
    for row in rows_in or []:
        cells = [_cell(row.get(op), fmt) for op in OPS]
        if any(cells):
            rows.append({"test": row.get("test") or row.get("name") or "", "cells": cells})
    if not rows:
        return None
    shown = [c for r in rows for c in r["cells"] if c]
    info = grid if isinstance(grid, dict) else {}
    return {"rows": rows, "basis": info.get("basis"), "suite": info.get("suite_name") or info.get("suite"),
            "has_iops": any("iops" in c for c in shown), "has_latency": any("latency" in c for c in shown),
            "any_derived": any(c.get("rate_derived") or (c.get("iops") or {}).get("derived")
                               or (c.get("latency") or {}).get("derived") for c in shown)}


__all__ = ["grid_model"]
