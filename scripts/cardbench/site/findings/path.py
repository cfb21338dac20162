"""Figures at the ceiling of the path between card and computer: the reader's limit, not the card's."""

import re

import numpy as np

from ...core.bus import pcie_link_mb_s
from . import thresholds as t
from .common import finding, mb_s, rate_text

_USB2 = re.compile(r"\bUSB[\s-]*2(?:\.0)?\b", re.IGNORECASE)
_USB3_OR_LATER = re.compile(r"\bUSB[\s-]*(?:3|4)\b", re.IGNORECASE)


def path_ceilings(card, session):
    """[(practical MB/s, words)] for every limit known on this session's path, tightest first."""
    out = []
    reader = session.get("reader") or ""
    if _USB2.search(reader) and not _USB3_OR_LATER.search(reader):
        low, high = t.USB2_PRACTICAL_MB_S
        out.append((low, f"a USB 2.0 reader, which reaches {low:.0f}–{high:.0f} MB/s in practice"))
    link = pcie_link_mb_s((session.get("nvme") or {}).get("pcie_link")) or pcie_link_mb_s(reader)
    if link:
        ceiling, what = link
        out.append((ceiling * t.PCIE_PRACTICAL_SHARE,
                    f"the {what.replace(' link ceiling', '')} link ({ceiling:.0f} MB/s line rate, about "
                    f"{ceiling * t.PCIE_PRACTICAL_SHARE:.0f} MB/s after protocol overhead)"))
    elif card.get("bus") == "UHS-I":
        out.append((t.UHS_I_PRACTICAL_MB_S, f"the UHS-I bus (104 MB/s; most readers reach about "
                                            f"{t.UHS_I_PRACTICAL_MB_S:.0f} MB/s)"))
    return sorted(out)


def _sequential_figures(session):
    """(mean MB/s, what) of every sequential subtest with runs, per op."""
    out = {}
    for entry in session.get("results") or []:
        value = mb_s(np.mean(entry["runs"]), entry["unit"]) if entry.get("runs") else None
        if value is not None and entry["test"].startswith("SEQ"):
            out.setdefault(entry["op"], []).append((value, f"{entry['test']} {entry['op']}"))
    for entry in session.get("dd") or []:
        value = mb_s(np.mean(entry["runs"]), entry["unit"]) if entry.get("runs") else None
        if value is not None and entry.get("target", "device") == "device":
            out.setdefault(entry["op"], []).append((value, f"dd bs={entry['block_size']} {entry['op']}"))
    return out


def reader_findings(card):
    out = []
    claimed = card.get("claimed") or {}
    for session in card.get("sessions") or []:
        ceilings = path_ceilings(card, session)
        if not ceilings:
            continue
        practical, words = ceilings[0]
        for op, figures in sorted(_sequential_figures(session).items()):
            value, what = max(figures)
            if value < t.AT_CEILING_SHARE * practical:
                continue
            claim = claimed.get(f"{op}_mb_s")
            sold = (f"; the card is sold as {rate_text(claim)}" if isinstance(claim, (int, float))
                    and claim > value * 1.1 else "")
            basis = (f"{what}: mean {rate_text(value)}, at the ceiling of {words}: the reader's limit, not the "
                     f"card's{sold}")
            out.append(finding("reader_limited", round(value, 2), "MB/s", basis, session,
                               f"{op}s: {rate_text(value)}", op=op))
    return out, []
