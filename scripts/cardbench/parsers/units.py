"""Number and size spellings shared by the parsers."""

import re

_NUMBER = re.compile(r"^[+-]?(\d+([.,]\d*)?|[.,]\d+)([eE][+-]?\d+)?$")

BINARY = {"": 1, "B": 1, "K": 1024, "KIB": 1024, "M": 1024**2, "MIB": 1024**2, "G": 1024**3, "GIB": 1024**3,
          "T": 1024**4, "TIB": 1024**4}


def number(text):
    """'84.3', '84,3' (decimal comma) or '2.6509e-05' as float; None when not a number."""
    text = text.strip()
    if not _NUMBER.match(text):
        return None
    return float(text.replace(",", "."))


def binary_size(text):
    """'4MiB', '512KiB', '1.5GiB', '512B' (flashbench: binary units) as bytes; None when not a size."""
    match = re.match(r"^(\d+(?:\.\d+)?)\s*([KMGT]i?B|B)?$", text.strip(), re.IGNORECASE)
    if not match:
        return None
    unit = (match.group(2) or "").upper()
    return int(round(float(match.group(1)) * BINARY[unit]))


def cdm_size_label(size_bytes):
    """CrystalDiskMark's block-size label: 4096 -> '4K', 1 MiB -> '1M', 1 GiB -> '1G'; None if not whole KiB."""
    for suffix, factor in (("G", 1024**3), ("M", 1024**2), ("K", 1024)):
        if size_bytes >= factor and size_bytes % factor == 0:
            return f"{size_bytes // factor}{suffix}"
    return None
