"""Figures held back by the path between card and computer (the reader, the bus or the PCIe link).

A figure near the path's practical ceiling could be the card's own limit as well as the path's. It is
never called the path's limit when the same path (the same session, or another session through the same
host and reader) carried more, in either direction. It is called the path's limit only when the same card
was measured clearly faster through another path; where the only evidence is the card's rating above what
the path carries on paper, the finding says the path likely held it back, not that it did. Without either,
the session gets a note saying what would settle it; a figure above the ceiling is never the path's limit.
"""

import re

from ...core.bus import BUS_CEILING_MB_S, pcie_link_mb_s
from ..headlines import is_sequential_measurement
from ..stats import CardFigures, session_entries
from . import thresholds as t
from .finding import finding, rate_text

_USB2 = re.compile(r"\bUSB[\s-]*2(?:\.0)?\b", re.IGNORECASE)
_USB3_OR_LATER = re.compile(r"\bUSB[\s-]*(?:3|4)\b", re.IGNORECASE)


def path_ceilings(card, session):
    """[(low, high, line rate, words, name, short name)] for every limit known on this session's path, tightest
    first: what the path carries in practice (low–high) and on paper, in MB/s; `words` the ceiling described,
    `name` the part of the path it belongs to ("the UHS-I bus") and `short` how a sentence names it again."""
    out = []
    reader = session.get("reader") or ""
    if _USB2.search(reader) and not _USB3_OR_LATER.search(reader):
        low, high = t.USB2_PRACTICAL_MB_S
        out.append((low, high, t.USB2_LINE_MB_S, f"a USB 2.0 reader ({low:.0f}–{high:.0f} MB/s in practice)",
                    "a USB 2.0 reader", "the reader"))
    link = pcie_link_mb_s((session.get("nvme") or {}).get("pcie_link")) or pcie_link_mb_s(reader)
    if link:
        line_rate, what = link
        practical = line_rate * t.PCIE_PRACTICAL_SHARE
        name = what.replace(" link ceiling", "")
        out.append((practical, practical, line_rate, f"the {name} link ({line_rate:.0f} MB/s line rate, about "
                                                     f"{practical:.0f} MB/s after protocol overhead)",
                    f"the {name} link", "the link"))
    elif card.get("bus") == "UHS-I":
        practical = t.UHS_I_PRACTICAL_MB_S
        line_rate = BUS_CEILING_MB_S["UHS-I"]
        out.append((practical, practical, line_rate, f"the UHS-I bus ({line_rate:.0f} MB/s line rate; most "
                                                     f"readers reach about {practical:.0f} MB/s)",
                    "the UHS-I bus", "the reader or the bus"))
    return sorted(out)


def path_of(session):
    """A session's path: (host, reader), None for what it does not state."""
    return session.get("host") or None, session.get("reader") or None


def _same_path(session, other):
    """Whether two sessions went through the same path: the same session, or the same stated host and reader."""
    return other is session or (path_of(other) == path_of(session) and path_of(session) != (None, None))


def _other_path(session, other):
    """Whether two sessions went through paths known to differ: each states its path, and they are not the same."""
    return path_of(session) != (None, None) and path_of(other) != (None, None) and path_of(other) != path_of(session)


def _sequential_figures(session, s_index, figures, device_only=True):
    """{op: [(mean MB/s, fastest run MB/s, what, entry key)]} of every sequential subtest with runs: those the
    headlines accept (is_sequential_measurement, so the claimed-vs-measured rows and class checks read the same
    figures); with device_only, dd only on the device itself (a file system on the path is no measure of the
    reader). The mean and fastest run are the statistics' own (figures: stats.CardFigures), over the runs the
    source did not exclude."""
    out = {}
    for kind, e_index, entry, test in session_entries(session):
        if not entry.get("runs") or not is_sequential_measurement(kind, entry, test, entry["op"]):
            continue
        if device_only and kind == "dd" and entry.get("target", "device") != "device":
            continue
        row = figures.entry(s_index, kind, e_index)
        if row is None or row["mb_s_count"] == 0:
            continue
        out.setdefault(entry["op"], []).append((row["mb_s_mean"], row["mb_s_max"], f"{test} {entry['op']}",
                                                (s_index, kind, e_index)))
    return out


def _carried_more(card, session, judged, figures):
    """(fastest run MB/s, what, session label) of the fastest run through the same path (this session or
    another through the same host and reader, either direction, a file written through the card's filesystem
    too: its bytes crossed the path) that is faster than every run of the judged subtest; None otherwise."""
    _, fastest, _, key = judged
    best = None
    for o_index, other in enumerate(card.get("sessions") or []):
        if not _same_path(session, other):
            continue
        for measured in _sequential_figures(other, o_index, figures, device_only=False).values():
            for _, o_fastest, what, o_key in measured:
                if o_key != key and o_fastest > fastest and (best is None or o_fastest > best[0]):
                    best = (o_fastest, what, other.get("label", other.get("id")))
    return best


def _faster_elsewhere(card, session, op, above_mb_s, figures):
    """(MB/s, session label) of the fastest figure for `op` through another path (a session whose stated host
    or reader differs), when it is at least `above_mb_s`; None otherwise."""
    best = None
    for o_index, other in enumerate(card.get("sessions") or []):
        if not _other_path(session, other):
            continue
        for value, _, _, _ in _sequential_figures(other, o_index, figures).get(op, []):
            if value >= above_mb_s and (best is None or value > best[0]):
                best = (value, other.get("label", other.get("id")))
    return best


_PAST = {"read": "read", "write": "wrote"}


def _estimate(ceiling):
    """A ceiling's practical estimate and line rate in words: 'about 837 MB/s; 985 MB/s line rate'."""
    low, high, line_rate = ceiling[:3]
    practical = f"{low:.0f}" if low == high else f"{low:.0f}–{high:.0f}"
    return f"about {practical} MB/s; {line_rate:.0f} MB/s line rate"


def _note(session, reason):
    return {"id": "reader_limited", "session": session["id"], "reason": reason}


def _judge(card, session, op, judged, ceiling, figures):
    """(finding, None) when the evidence shows, or makes likely, that the figure is the path's limit; else
    (None, note)."""
    value, _, what, _ = judged
    low, high, line_rate, words, name, short = ceiling
    label = session.get("label", session["id"])
    measured = f"{label}: {what}, mean {rate_text(value)}"
    if value > high:
        return None, _note(session, f"{measured}: the card {_PAST[op]} faster than this site's estimate of what "
                                    f"{name} allows ({_estimate(ceiling)}), so the estimate was wrong for this "
                                    f"path; nothing shows {short} holding the card back.")
    carried = _carried_more(card, session, judged, figures)
    if carried:
        where = "in this session" if carried[2] == label else f"in {carried[2]}, through the same host and reader"
        return None, _note(session, f"{measured}, is near this site's estimate of the ceiling of {words}, but the "
                                    f"same path carried more: {carried[1]} reached {rate_text(carried[0])} in its "
                                    f"fastest run ({where}), so this figure is not the path's limit.")
    claim = (card.get("claimed") or {}).get(f"{op}_mb_s")
    rated = isinstance(claim, (int, float)) and not isinstance(claim, bool)
    elsewhere = _faster_elsewhere(card, session, op, line_rate, figures)
    reader = f" (reader recorded as “{session['reader']}”)" if session.get("reader") else ""
    if elsewhere:
        basis = (f"{what}: mean {rate_text(value)}, at the ceiling of {words}; the same card {op}s "
                 f"{rate_text(elsewhere[0])} through another path ({elsewhere[1]}), more than this path carries "
                 f"even on paper: the figure is the path's limit, not the card's{reader}")
        return finding("reader_limited", round(value, 2), "MB/s", basis, session, f"{op}s: {rate_text(value)}",
                       op=op, likely=False), None
    if rated and claim > line_rate:
        basis = (f"{what}: mean {rate_text(value)}, within {100 * (1 - t.AT_CEILING_SHARE):.0f} % of this site's "
                 f"estimate of the ceiling of {words}; the card is rated {rate_text(claim)} for {op}s, more than "
                 f"the path carries even on paper, so {short} likely held it back{reader}. Likely, not certain: the "
                 f"rating is the maker's, no run through another path confirms it, and the card may have its own "
                 f"limit near this figure")
        return finding("reader_limited", round(value, 2), "MB/s", basis, session, f"{op}s: {rate_text(value)}",
                       op=op, likely=True), None
    rating = (f"the card is rated only {rate_text(claim)} for {op}s" if rated
              else f"the card file gives no rated {op} speed")
    return None, _note(session, f"{measured}, is within {100 * (1 - t.AT_CEILING_SHARE):.0f} % of this site's "
                                f"estimate of the ceiling of {words} (an estimate, not a measurement of this "
                                f"path), but {rating}, so the runs cannot tell the card's limit from the path's. "
                                f"The same card measured faster than {rate_text(line_rate)} (the path's line rate) "
                                f"through another path (a faster reader or link) would settle it; a rated {op} "
                                f"speed above that would make the path's limit likely.")


def reader_findings(card, figures=None):
    """(findings, notes): a finding where a sequential figure sits at the path's ceiling and the card is shown
    (or, by its rating, likely) to be faster while nothing through the same path went faster; a note where it
    sits there and nothing shows which of the two limits it. figures: the card's stats.CardFigures (computed
    here when not given)."""
    figures = figures or CardFigures.of_card(card)
    out, notes = [], []
    for s_index, session in enumerate(card.get("sessions") or []):
        ceilings = path_ceilings(card, session)
        if not ceilings:
            continue
        for op, measured in sorted(_sequential_figures(session, s_index, figures).items()):
            judged = max(measured, key=lambda m: (m[0], m[1], m[2]))
            if judged[0] < t.AT_CEILING_SHARE * ceilings[0][0]:
                continue
            found, note = _judge(card, session, op, judged, ceilings[0], figures)
            out += [found] if found else []
            notes += [note] if note else []
    return out, notes
