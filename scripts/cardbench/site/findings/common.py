"""The shape of a finding, and the small statistics several findings share."""

import math

import numpy as np

from ...core.units import RATE_TO_MB_S

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
    "reader_limited": "Limited by the reader",
    "stability": "Run-to-run stability",
    "slows_over_runs": "Slows over repeated runs",
    "fake_capacity": "Real capacity (f3probe)",
    "manufacturer_id": "Manufacturer ID",
}


def finding(fid, value, unit, basis, session, text, at_least=False, **extra):
    """One finding: what it is, its value and unit, whether it is a lower bound, what it rests on
    (in words), the session it comes from, and its value as a reader sees it."""
    out = {"id": fid, "label": LABELS[fid], "value": value, "unit": unit, "at_least": bool(at_least),
           "text": text, "basis": basis, "session": session["id"], "session_label": session.get("label", session["id"])}
    out.update(extra)
    return out


def size_text(size_bytes):
    """4194304 -> '4 MiB'; 5.5e9 -> '5.5 GB' when not a whole binary size."""
    for factor, suffix in ((1 << 30, "GiB"), (1 << 20, "MiB"), (1 << 10, "KiB")):
        if size_bytes >= factor and size_bytes % factor == 0:
            return f"{size_bytes // factor} {suffix}"
    return gb_text(size_bytes)


def gb_text(size_bytes):
    gb = size_bytes / 1e9
    return f"{gb:.2f} GB" if gb < 10 else f"{gb:.1f} GB" if gb < 100 else f"{gb:.0f} GB"


def rate_text(mb_s):
    return f"{mb_s:.0f} MB/s" if mb_s >= 100 else f"{mb_s:.1f} MB/s" if mb_s >= 10 else f"{mb_s:.2f} MB/s"


def mb_s(value, unit):
    factor = RATE_TO_MB_S.get(unit)
    return None if factor is None else float(value) * factor


def robust_sd(values):
    """MAD x 1.4826: the standard deviation of normal data, unmoved by a few wild values."""
    values = np.asarray(values, dtype=float)
    if values.size == 0:
        return 0.0
    return float(1.4826 * np.median(np.abs(values - np.median(values))))


def rounded(value, digits=4):
    """A JSON-friendly number: integers stay integers."""
    if value is None or (isinstance(value, float) and not math.isfinite(value)):
        return None
    value = float(value)
    return int(value) if value.is_integer() else round(value, digits)


def sessions_of(card):
    return [s for s in card.get("sessions") or [] if isinstance(s, dict)]
