"""The shape of a finding, and the small statistics several findings share."""

import statistics

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
    """A size in GB (10^9 bytes) as a reader sees it, rounded as every figure is (formatting.format_by_size)."""
    return f"{format_by_size(gb_from_bytes(size_bytes))} GB"


def rate_text(mb_s):
    """A rate in MB/s (10^6 bytes/s) as a reader sees it, with its unit: rounded once, as the page's tables round
    the same figure (formatting.format_by_size), so a finding never shows a figure the table beside it does not."""
    return f"{format_by_size(mb_s)} MB/s"


# A normal distribution's standard deviation over its median absolute deviation (MAD).
MAD_TO_SD = 1.4826


def robust_sd(values, median=None):
    """MAD x 1.4826: the standard deviation of normal data, unmoved by a few wild values; 0 for none.
    `median`: the values' median, when the caller has it already. A list is reckoned in plain Python (a few
    runs cost far less than numpy's set-up per call), an array in numpy (a fill's thousands of samples);
    both give the same float."""
    if isinstance(values, np.ndarray):
        values = values.astype(float, copy=False)
        if values.size == 0:
            return 0.0
        centre = np.median(values) if median is None else median
        return float(MAD_TO_SD * np.median(np.abs(values - centre)))
    values = [float(v) for v in values]
    if not values:
        return 0.0
    centre = statistics.median(values) if median is None else median
    return MAD_TO_SD * statistics.median(abs(v - centre) for v in values)
