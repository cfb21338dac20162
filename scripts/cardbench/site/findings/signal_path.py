"""Figures held back by the path between card and computer (the reader, the bus or the PCIe link).

A figure near the path's practical ceiling could be the card's own limit as well as the path's. It is
called the path's limit only with evidence that the card goes faster: its rated speed clearly above the
ceiling, or the same card measured clearly faster through another path. Without that the session gets
a note saying what would settle it; a figure above the ceiling is never the path's limit.
"""

import re

from ...core.bus import BUS_CEILING_MB_S, pcie_link_mb_s
from ..headlines import is_sequential_measurement
from ..stats import CardFigures, dd_block_name, session_entries
from . import thresholds as t
from .common import finding, rate_text

_USB2 = re.compile(r"\bUSB[\s-]*2(?:\.0)?\b", re.IGNORECASE)
_USB3_OR_LATER = re.compile(r"\bUSB[\s-]*(?:3|4)\b", re.IGNORECASE)


def path_ceilings(card, session):
    """[(low, high, line rate, words)] for every limit known on this session's path, tightest first: what
    the path carries in practice (low–high) and on paper, in MB/s."""
    out = []
    reader = session.get("reader") or ""
    if _USB2.search(reader) and not _USB3_OR_LATER.search(reader):
        low, high = t.USB2_PRACTICAL_MB_S
        out.append((low, high, t.USB2_LINE_MB_S, f"a USB 2.0 reader ({low:.0f}–{high:.0f} MB/s in practice)"))
    link = pcie_link_mb_s((session.get("nvme") or {}).get("pcie_link")) or pcie_link_mb_s(reader)
    if link:
        line_rate, what = link
        practical = line_rate * t.PCIE_PRACTICAL_SHARE
        name = what.replace(" link ceiling", "")
        out.append((practical, practical, line_rate, f"the {name} link ({line_rate:.0f} MB/s line rate, about "
                                                     f"{practical:.0f} MB/s after protocol overhead)"))
    elif card.get("bus") == "UHS-I":
        practical = t.UHS_I_PRACTICAL_MB_S
        line_rate = BUS_CEILING_MB_S["UHS-I"]
        out.append((practical, practical, line_rate, f"the UHS-I bus ({line_rate:.0f} MB/s line rate; most "
                                                     f"readers reach about {practical:.0f} MB/s)"))
    return sorted(out)


def _sequential_figures(session, s_index, figures):
    """{op: [(mean MB/s, what)]} of every sequential subtest with runs: those the headlines accept
    (is_sequential_measurement, so the claimed-vs-measured rows and class checks read the same figures),
    dd only on the device itself (a file system on the path is no measure of the reader). The mean is
    the statistics' own (figures: stats.CardFigures), over the runs the source did not exclude."""
    out = {}
    for kind, e_index, entry, test in session_entries(session):
        if not entry.get("runs") or not is_sequential_measurement(kind, entry, test, entry["op"]):
            continue
        if kind == "dd" and entry.get("target", "device") != "device":
            continue
        row = figures.entry(s_index, kind, e_index)
        value = None if row is None or row["mb_s_count"] == 0 else row["mb_s_mean"]
        if value is not None:
            what = f"{test} {entry['op']}" if kind == "fio" else f"{dd_block_name(entry)} {entry['op']}"
            out.setdefault(entry["op"], []).append((value, what))
    return out


def _faster_elsewhere(card, session, op, above_mb_s, figures):
    """(MB/s, session label) of the fastest figure for `op` in another session of the card, when it is
    at least `above_mb_s`; None otherwise."""
    best = None
    for o_index, other in enumerate(card.get("sessions") or []):
        if other is session:
            continue
        for value, _ in _sequential_figures(other, o_index, figures).get(op, []):
            if value >= above_mb_s and (best is None or value > best[0]):
                best = (value, other.get("label", other.get("id")))
    return best


def _note(session, reason):
    return {"id": "reader_limited", "session": session["id"], "reason": reason}


def _judge(card, session, op, value, what, ceiling, figures):
    """(finding, None) when the evidence shows the figure is the path's limit, else (None, note)."""
    low, high, line_rate, words = ceiling
    label = session.get("label", session["id"])
    measured = f"{label}: {what}, mean {rate_text(value)}"
    if value > high:
        return None, _note(session, f"{measured}, is above this site's estimate of the ceiling of {words}: the "
                                    f"estimate is too low for this path, so nothing here shows the path holding the "
                                    f"card back.")
    claim = (card.get("claimed") or {}).get(f"{op}_mb_s")
    rated = isinstance(claim, (int, float)) and not isinstance(claim, bool)
    elsewhere = _faster_elsewhere(card, session, op, line_rate, figures)
    reader = f" (reader recorded as “{session['reader']}”)" if session.get("reader") else ""
    if rated and claim > line_rate:
        evidence = f"the card is rated {rate_text(claim)} for {op}s, more than the path carries even on paper"
    elif elsewhere:
        evidence = (f"the same card {op}s {rate_text(elsewhere[0])} through another path ({elsewhere[1]}), "
                    f"more than this path carries even on paper")
    else:
        rating = (f"the card is rated only {rate_text(claim)} for {op}s" if rated
                  else f"the card file gives no rated {op} speed")
        return None, _note(session, f"{measured}, is within {100 * (1 - t.AT_CEILING_SHARE):.0f} % of this site's "
                                    f"estimate of the ceiling of {words} (an estimate, not a measurement of this "
                                    f"path), but {rating}, so the runs cannot "
                                    f"tell the card's limit from the path's. A rated {op} speed above "
                                    f"{rate_text(line_rate)} (the path's line rate), or the same card measured "
                                    f"faster than that through another path (a faster reader or link), would "
                                    f"settle it.")
    basis = (f"{what}: mean {rate_text(value)}, at the ceiling of {words}; {evidence}: the figure is the path's "
             f"limit, not the card's{reader}")
    return finding("reader_limited", round(value, 2), "MB/s", basis, session, f"{op}s: {rate_text(value)}",
                   op=op), None


def reader_findings(card, figures=None):
    """(findings, notes): a finding where a sequential figure sits at the path's ceiling and the card is
    shown to be faster; a note where it sits there and nothing shows which of the two limits it.
    figures: the card's stats.CardFigures (computed here when not given)."""
    figures = figures or CardFigures.of_card(card)
    out, notes = [], []
    for s_index, session in enumerate(card.get("sessions") or []):
        ceilings = path_ceilings(card, session)
        if not ceilings:
            continue
        for op, measured in sorted(_sequential_figures(session, s_index, figures).items()):
            value, what = max(measured)
            if value < t.AT_CEILING_SHARE * ceilings[0][0]:
                continue
            found, note = _judge(card, session, op, value, what, ceilings[0], figures)
            out += [found] if found else []
            notes += [note] if note else []
    return out, notes
