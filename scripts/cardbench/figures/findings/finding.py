"""The shape of a finding, and the small statistics several findings share."""

import numpy as np

from ...core.units import gb_from_bytes
from ..formatting import format_by_size

LABELS = {
    "page_size": "Page size",
    "erase_block": "Erase block (allocation unit)",
    "open_aus_sequential": "Open AUs, sequential",
    "open_aus_random": "Open AUs, random",
    "write_in_cache": "Write speed in the SLC cache",
    "slc_cache": "SLC cache",
    "write_after_cache": "Write speed after the cache",
    "write_later": "Write speed further on",
    "sustained_write": "Sustained write",
    "reader_limited": "Limited by the reader or bus",
    "reader_limited_likely": "Likely limited by the reader or bus",
    "stability": "Run-to-run stability",
    "slows_over_runs": "Slows over repeated runs",
    "fake_capacity": "Real capacity",
    "manufacturer_id": "Manufacturer ID",
}


# Each finding in one line a reader takes in at a glance ({text}: its value as shown); the basis follows
# on request. A finding without a line of its own reads "<label>: <text>".
VERDICTS = {
    "page_size": "Writes in pages of {text}",
    "erase_block": "Erases in blocks of {text}",
    "open_aus_sequential": "Keeps {text} allocation units open at once for sequential writes",
    "open_aus_random": "Keeps {text} allocation units open at once for random writes",
    "write_in_cache": "Writes {text} while its SLC cache lasts",
    "slc_cache": "Has an SLC cache of {text}",
    "write_after_cache": "Drops to {text} once the SLC cache is full",
    "write_later": "Writes {text} further on",
    "sustained_write": "Holds {text} through a long write",
    "reader_limited": "The reader or bus held these back, not the card — {text}",
    "reader_limited_likely": "The reader or bus likely held these back — {text}",
    "stability": "From run to run: {text}",
    "slows_over_runs": "Slows over repeated runs: {text}",
}


def verdict_text(fid, text):
    """A finding's one-line verdict."""
    if fid in VERDICTS:
        return VERDICTS[fid].format(text=text.replace("≥ ", "at least "))
    return f"{LABELS[fid]}: {text}"


def finding(fid, value, unit, basis, session, text, at_least=False, **extra):
    """One finding: what it is, its value and unit, whether it is a lower bound, what it rests on
    (in words), the session it comes from, its value as a reader sees it and its one-line verdict. A finding
    given `likely=True` is named and worded as likely, not certain (its `_likely` label and verdict)."""
    worded = f"{fid}_likely" if extra.get("likely") else fid
    out = {"id": fid, "label": LABELS[worded], "value": value, "unit": unit, "at_least": bool(at_least),
           "text": text, "verdict": verdict_text(worded, text), "basis": basis, "session": session["id"],
           "session_label": session.get("label", session["id"])}
    out.update(extra)
    return out


def gb_text(size_bytes):
    gb = gb_from_bytes(size_bytes)
    return f"{gb:.2f} GB" if gb < 10 else f"{gb:.1f} GB" if gb < 100 else f"{gb:.0f} GB"


def rate_text(mb_s):
    """A rate in MB/s (10^6 bytes/s) as a reader sees it, with its unit: rounded once, as the page's tables round
    the same figure (formatting.format_by_size), so a finding never shows a figure the table beside it does not."""
    return f"{format_by_size(mb_s)} MB/s"


def robust_sd(values):
    """MAD x 1.4826: the standard deviation of normal data, unmoved by a few wild values."""
    values = np.asarray(values, dtype=float)
    if values.size == 0:
        return 0.0
    return float(1.4826 * np.median(np.abs(values - np.median(values))))
