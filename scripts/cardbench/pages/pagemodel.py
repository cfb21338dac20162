"""What the site's pages show, worked out once per card: figures formatted for reading (table figures
as finished cells, figurehtml.py), the charts (built by chartmodel.py, the figures grid by
gridmodel.py), the leaderboard's cells and the comparison page's summary.

Hugo parses every data file it is given and runs template loops for every page on every build;
at thousands of cards that costs far more than doing the same work here once per changed card
(the aggregation cache keeps it). A card page's model becomes its finished HTML (cardhtml.py),
which Hugo places into the page as it is.
"""

import re

from ..figures.aggregate import PAGE_FIGURES
from .chartmodel import chart, curve_charts, mib_of, rate_cell, runs_used, session_chart, subtests_figure
from .figurehtml import figure_cells_html, path_cells_html, rate_html, with_table_html
from ..figures.formatting import DASH, derived_iops_text, format_by_size, format_number, raw_link, whole
from ..core.measurement_kinds import CURVE_KINDS, LEADERBOARD_WORDS, SINGLE_BLOCK_KINDS
from .gridmodel import grid_model
from ..figures.headlines import HEADLINE_KEYS, stated_only
from .paths_table import card_paths
from ..figures.shown_rates import claimed_rates
from ..figures.stats import random_4k_iops

# Members of a suite the comparison page embeds; the rest come from the catalogue on demand.
EMBEDDED_MEMBERS = 50
# Members a suite's chart shows on load (one bar row per card; assets/js/compare/suites.js has the same
# number and says on the page when a suite has more).
DEFAULT_MEMBERS = 12


def text_order(text):
    """Sort key close to Hugo's sort of text: letters before case."""
    return (text.casefold(), text)


# A reviewer's table marks a test it did not run with dashes ("----- MB/s").
_PLACEHOLDER = re.compile(r"^\s*-{2,}\s*(?:[A-Za-z/%µ]+\s*)?$")
NOT_MEASURED = "not measured"


def shown_value(text):
    """A reviewer's table value as read: dash placeholders say 'not measured'."""
    return NOT_MEASURED if isinstance(text, str) and _PLACEHOLDER.match(text) else text


# --- tables -------------------------------------------------------------------------------------

def tool_rows(tool_results):
    """The "Other tools" table: each tool figure's runs, mean, worst and best (in MB/s and MiB/s for a
    rate, else as printed) and its mean in the unit the tool printed. Worst is the lowest figure, but
    for a latency (us) the highest."""
    rows = []
    for entry in tool_results or []:
        worst, best = ("max", "min") if entry["unit"] == "us" else ("min", "max")
        if entry.get("mb_s"):
            cells = {name: rate_cell(entry["mb_s"][key], entry["mib_s"][key])
                     for name, key in (("mean", "mean"), ("worst", worst), ("best", best))}
        else:
            cells = {name: {"text": format_by_size(entry["printed"][key])}
                     for name, key in (("mean", "mean"), ("worst", worst), ("best", best))}
        rows.append({"tool": entry["tool"], "figure": f"{entry['test']} ({entry['op']})", "count": entry["run_count"],
                     "rate": bool(entry.get("mb_s")),
                     "printed": f"{format_by_size(entry['printed']['mean'])} {entry['unit']}",
                     "figures": figure_cells_html([cells["mean"], cells["worst"], cells["best"]],
                                                  strong_first=True)})
    return rows


def tool_chart(tool_results, session_dom_id, label):
    """The rates among other tools' figures as the session chart draws subtests: mean bar, min–max whisker,
    a dot per run, each named by its tool and figure; None when none is a rate (IOPS, latencies)."""
    rates = [dict(entry, test=f"{entry['tool']}: {entry['test']}") for entry in tool_results or [] if entry.get("mb_s")]
    if not rates:
        return None
    note = "Bars: the mean of each figure; whiskers: its slowest and fastest run; dots: every run."
    return chart(f"{session_dom_id}-tools", f"Other tools, {label}", subtests_figure(rates), note)


def _recorded(s):
    """The unit a subtest was recorded in, and its mean as recorded when that is not MB/s."""
    if not s.get("mb_s"):
        return s["unit"]
    printed = s.get("printed") or {}
    if s["unit"] != "MB/s" and printed.get("mean") is not None:
        return f"{format_number(printed['mean'], int(printed['decimals']))} {s['unit']}"  # as the tool printed it
    return "MB/s" if s["unit"] == "MB/s" else f"{format_by_size(s['mean'])} {s['unit']}"


def stats_rows(subtests):
    """Per-subtest statistics in MB/s and MiB/s (`figures`: mean, min, max and spread as finished cells),
    with the recorded unit beside."""
    rows = []
    for s in subtests:
        m = s.get("mb_s")
        mib = mib_of(s) if m else None
        cells = ({k: rate_cell(m[k], mib[k], s.get("printed") if k != "std" else None)
                  for k in ("mean", "min", "max", "std")} if m
                 else {k: {"text": format_by_size(s[k])} for k in ("mean", "min", "max", "std")})
        rows.append({"name": f"{s['test']} {s['op']}", "raw": [raw_link(r) for r in s.get("raw") or []],
                     "count": runs_used(s), "excluded": len(s.get("excluded_runs") or []), "rate": bool(m),
                     "unit": s["unit"], "recorded": _recorded(s),
                     "figures": figure_cells_html([cells[k] for k in ("mean", "min", "max", "std")],
                                                  strong_first=True)})
    return rows


def basis_text(pick):
    """What a headline figure is the mean of, for readers."""
    return pick.get("basis") or pick.get("from") or ""


def claimed_rows(card):
    """Vendor claim against the measured mean (and its share of the claim, as aggregate.py worked it out), with
    the subtest that speaks for each."""
    claimed = claimed_rates(card)
    share = card[PAGE_FIGURES]["claimed_share"]
    headline = card.get("headline") or {}
    rows = []
    for name, claim, measured, percent in (
            ("Sequential read", claimed["read"], headline.get("seq_read"), share["read"]),
            ("Sequential write", claimed["write"], headline.get("seq_write"), share["write"]),
            ("Random 4K read", None, headline.get("rnd4k_read"), None),
            ("Random 4K write", None, headline.get("rnd4k_write"), None)):
        if name.startswith("Random") and measured and measured.get("subtest", "").startswith("RND4K Q1T1"):
            name += ", Q1T1"  # a reviewer's own 4K test keeps its own name, in the basis beside it
        row = {"name": name, "claim": rate_html(rate_cell(claim["mb_s"], claim["mib_s"])) if claim else None,
               "measured": (rate_html(rate_cell(measured["mb_s"], measured["mib_s"], measured.get("printed")))
                            if measured else None),
               "share": f"{whole(percent)} %" if percent is not None else DASH}
        if measured:
            unit = measured.get("unit")
            # stated: no runs, the source's own figure
            row["by"], row["stated"] = basis_text(measured), measured.get("kind") == "summary"
            row["raw"] = [raw_link(r) for r in measured.get("raw") or []]
            printed = measured.get("printed") or {}
            if unit and unit != "MB/s" and printed.get("decimals") is not None:
                row["recorded"] = f"recorded in {unit}: {format_number(printed['mean'], int(printed['decimals']))}"
            elif unit and unit != "MB/s" and measured.get("mean") is not None:
                row["recorded"] = f"recorded in {unit}: {format_by_size(measured['mean'])}"
        else:
            row["by"] = NOT_MEASURED
        rows.append(row)
    return rows


def class_check_rows(card):
    out = []
    for check in card.get("class_checks") or []:
        parts = [{"what": p["what"], "need": whole(p["need"]), "unit": p["unit"],
                  "measured": f"{format_by_size(p['measured'])} {p['unit']}" if p["measured"] else DASH,
                  "meets": p["meets"], "from": p.get("basis") or p.get("from"), "derived": p.get("derived"),
                  "unshown": p["meets"] is None and bool(p.get("shortfall_unshown"))}
                 for p in check["parts"]]
        out.append({"marking": check["marking"], "parts": parts, "verdict": check.get("verdict")})
    return out


# --- the page -----------------------------------------------------------------------------------

IDENTITY = ["slug", "title", "brand", "model", "part_number", "capacity_gb", "family", "form_factor", "bus",
            "bus_stated", "markings", "controller", "price", "shops", "notes", "source"]
SESSION_SHOWN = ["id", "label", "complete", "compare", "date", "card_label", "host", "reader", "interface", "clock_mhz",
                 "conditions", "target", "tools", "source", "notes", "reading", *SINGLE_BLOCK_KINDS, "cid"]


# What a session's page part charts besides its subtests' runs.
CHARTED_KEYS = ("tool_results", *CURVE_KINDS)


def _charted(session):
    return any(sub.get("runs") for sub in session.get("subtests") or []) or any(session.get(k) for k in CHARTED_KEYS)


def card_description(card):
    """One sentence for search results and link previews: the headline figures (marked where the source only
    states them) and where they come from."""
    headline = card.get("headline") or {}
    parts, stated = [], []
    for key, name in (("seq_read", "sequential read"), ("seq_write", "write")):
        pick = headline.get(key)
        if pick:
            parts.append(f"{name} {format_by_size(pick['mb_s'])} MB/s")
            stated.append(stated_only(pick))
    if parts and any(stated):
        marks = [f"{part} (stated by the source)" if is_stated else part for part, is_stated in zip(parts, stated)]
        parts = marks if not all(stated) else [", ".join(parts) + (", both" if len(parts) > 1 else "") +
                                               " as the source states " + ("them" if len(parts) > 1 else "it")]
    sessions = len(card["sessions"])
    charted = sum(1 for s in card["sessions"] if _charted(s))
    text = f"{card['title']} benchmarks"
    if parts:
        text += ": " + ", ".join(parts)
    many = "s" if sessions != 1 else ""
    shown = (f"{sessions} session{many} charted" if charted == sessions else
             f"{sessions} session{many}, none charted" if not charted else f"{sessions} sessions, {charted} charted")
    text += f"; {shown}, figures from {card['source']['name']}."
    return text


def card_page(card):
    """Everything a card page shows, from the card's aggregated JSON."""
    page = {k: card[k] for k in IDENTITY if k in card}
    page["description"] = card_description(card)
    page["claimed_note"] = (card.get("claimed") or {}).get("note")
    page["claimed_rows"] = claimed_rows(card)
    page["class_checks"] = class_check_rows(card)
    page["grid"] = grid_model(card, format_by_size)
    paths = card_paths(card)
    if paths:
        paths["rows"] = [dict(row, cells=path_cells_html(row["cells"])) for row in paths["rows"]]
    page["paths"] = paths
    page["findings"] = card.get("findings") or []
    page["findings_notes"] = card.get("findings_notes") or []
    sessions = []
    for s in card["sessions"]:
        shown = {k: s[k] for k in SESSION_SHOWN if k in s}
        dom_id = f"session-{s['id']}"
        shown["dom_id"] = dom_id
        shown["headline"] = [dict(row, value=NOT_MEASURED if row.get("measured") is False
                                  else shown_value(row.get("value")))
                             for row in s.get("headline") or []]
        shown["chart"] = with_table_html(session_chart(s, dom_id))
        shown["stats"] = stats_rows(s["subtests"])
        shown["other_tools"] = tool_rows(s.get("tool_results"))
        shown["other_tools_chart"] = with_table_html(tool_chart(s.get("tool_results"), dom_id, s["label"]))
        shown["raw"] = [raw_link(r) for r in s.get("raw_files") or s.get("raw") or []]
        sessions.append(shown)
    page["sessions"] = sessions
    page["has_runs"] = any(s["subtests"] or s.get("tool_results") for s in card["sessions"])
    page["standing"] = [{"group": standing_group(e), "host": e["host"], "source": e["source"],
                         "form_factor": e["form_factor"], "mb_s": e["mb_s"]} for e in card.get("standing") or []]
    page["curves"] = [with_table_html(c) for c in curve_charts(card)]
    return page


IOPS_KEYS = {"rnd4k_read", "rnd4k_write"}  # random 4K is read in IOPS, as the A1/A2 classes state it
def _iops_text(iops, derived, pick):
    """IOPS as the home page writes them; derived ones marked '*' and only as precise as the bandwidth
    they come from (cdm_fio.sh's whole MiB/s: ≈3,300* from 13 MiB/s)."""
    return derived_iops_text(iops, pick.get("printed")) + "*" if derived else whole(iops)


# What a card measured without repeated runs, as the leaderboard names it in place of a run count.
# (The tools of its tool_results are named one by one.)
MEASURED_INSTEAD = [(key, words) for key, words in LEADERBOARD_WORDS if key != "tool_results"]


def measured_instead(card, charted_only=False):
    """What a card without repeated runs was measured with, as text ('' when it has runs or nothing).
    charted_only: what its page charts, leaving out the figures the source states."""
    sessions = (card or {}).get("sessions") or []
    kinds = [name for key, name in MEASURED_INSTEAD if any(s.get(key) for s in sessions)
             and not (charted_only and key == "headline")]
    kinds[-1:-1] = [entry["tool"] for s in sessions for entry in s.get("tool_results") or [] if entry.get("tool")]
    if not kinds:  # runs no headline rule ranks (dd writes to a file through the page cache): the tools that ran
        kinds = [tool["name"] for s in sessions for tool in s.get("tools") or [] if tool.get("name")]
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
            cells.append({"value": iops, "text": _iops_text(iops, derived, pick), "from": basis})
        else:
            cells.append({"value": pick["mb_s"], "text": format_by_size(pick["mb_s"]), "from": basis_text(pick)})
    claimed = row.get("claimed") or {}
    seq_read = row.get("seq_read")
    runs = row["run_count"]
    return {"slug": row["slug"], "title": row["title"], "brand": row["brand"], "bus": row["bus"],
            "bus_stated": row.get("bus_stated", True),
            "form_factor": row["form_factor"], "markings": row["markings"], "cells": cells,
            "claimed_read": claimed.get("read_mb_s"), "claimed_write": claimed.get("write_mb_s"),
            "claimed_note": claimed.get("note"),
            "rank": seq_read["mb_s"] if seq_read else 0, "runs": runs,
            "instead": measured_instead(card) if not runs else "",
            "charted": measured_instead(card, True) if not runs else "",
            "source": row["source"], "per_price": per_price_cell(card, seq_read), "per_gb": per_gb_cell(card),
            "fake": fake_text(card),
            **row.get("leaderboard", {})}


def fake_text(card):
    """The card's fake-capacity finding in a few words, for its leaderboard row; None for a genuine card."""
    found = [f for f in (card or {}).get("findings") or [] if f.get("id") == "fake_capacity" and f.get("fake")]
    return found[0]["text"] if found else None


def spi_row(card):
    """A card's row in the table of SPI results (its SPI sessions' figures), or None without any."""
    picks = card.get("spi_headline") or {}
    if not any(picks.get(key) for key in ("seq_read", "seq_write")):
        return None
    spi = [s for s in card["sessions"] if s.get("interface") == "SPI" and s.get("compare", True)]
    clocks = sorted({s["clock_mhz"] for s in spi if s.get("clock_mhz")})
    cells = [{"value": picks[key]["mb_s"], "text": format_by_size(picks[key]["mb_s"]), "from": basis_text(picks[key])}
             if picks.get(key) else None for key in ("seq_read", "seq_write")]
    return {"slug": card["slug"], "title": card["title"], "rank": cells[0]["value"] if cells[0] else 0,
            "hosts": ", ".join(dict.fromkeys(s.get("host") or "host not stated" for s in spi)),
            "clocks": ", ".join(f"{c:g} MHz" for c in clocks) or "not stated", "cells": cells}


def _where(price):
    return "".join(part for part in (f" at {price['shop']}" if price.get("shop") else "",
                                     f", {price['date']}" if price.get("date") else ", date not stated"))


def per_price_cell(card, seq_read):
    """The card's sequential read per unit of its price (aggregate.py's figure) as a leaderboard cell ({"value",
    "text", "from"}), or None: what a card's speed costs where its price, with its currency, is known."""
    value = card[PAGE_FIGURES]["per_price"] if card else None
    if value is None:
        return None
    price = card["price"]
    return {"value": round(value, 4), "text": f"{format_by_size(value)} MB/s per {price['currency']}",
            "from": f"sequential read {format_by_size(seq_read['mb_s'])} MB/s ÷ {price['amount']:g} {price['currency']}"
                    f"{_where(price)}"}


def standing_group(entry):
    """The group a card's figure on a host is ranked in: cards of its size the same source read on that host."""
    return f"{entry['form_factor']}|{entry['host']}|{entry['source']}"


def per_gb_cell(card):
    """The card's price per GB of its marketed capacity (aggregate.py's figure) as a leaderboard cell ({"value",
    "text", "from"}), or None."""
    value = card[PAGE_FIGURES]["per_gb"] if card else None
    if value is None:
        return None
    price = card["price"]
    return {"value": round(value, 6), "text": f"{value:.3f} {price['currency']}/GB",
            "from": f"{price['amount']:g} {price['currency']} ÷ {card['capacity_gb']:g} GB{_where(price)}"}


__all__ = ["card_page", "leader_row", "spi_row", "standing_group", "measured_instead", "per_price_cell", "per_gb_cell",
           "shown_value"]
