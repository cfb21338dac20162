"""fio job options as fio reads them: sizes ("4k", "1m", "512KiB", kb_base) and a job's read and write
block sizes (bs=, blocksize=; none for bsrange/bssplit), from the options fio's JSON output lists."""

import math
import re

from ...errors import ParseError, quoted

TOOL = "fio"


def fio_size(text, kb_base=1024):
    """Bytes of a fio size option: '4k', '1m', '512KiB', '4096'. fio's default kb_base=1024 makes
    k/KB powers of two and KiB powers of ten (its documented compatibility mode)."""
    # possessive (*+, ++, ?+): no quadratic backtracking over a run of spaces
    match = re.match(r"^\s*+(\d++(?:\.\d++)?+)\s*+([a-zA-Z]*+)\s*+$", str(text))
    if not match or not math.isfinite(float(match.group(1))):
        return None
    value, suffix = float(match.group(1)), match.group(2).lower()
    if suffix in ("", "b"):
        return int(value)
    letter = suffix[0]
    if letter not in "kmgtp" or suffix[1:] not in ("", "b", "ib"):
        return None
    power = "kmgtp".index(letter) + 1
    binary = (suffix[1:] == "ib") != (kb_base == 1024)
    return int(value * (1024 if binary else 1000) ** power)


def block_sizes(options, line):
    """(read bs, write bs) in bytes, or None for a direction whose size has no single value."""
    if options.get("bsrange") or options.get("bssplit") or options.get("blocksize_range"):
        return None, None
    kb_base = 1000 if str(options.get("kb_base", "1024")).strip() == "1000" else 1024
    raw = options.get("bs") or options.get("blocksize") or "4k"
    parts = [p for p in str(raw).split(",")]
    sizes = []
    for part in parts[:2]:
        if part.strip() == "":
            sizes.append(None)
            continue
        if "-" in part or ":" in part:
            sizes.append(None)
            continue
        size = fio_size(part, kb_base)
        if size is None:
            raise ParseError(TOOL, f"block size {quoted(str(raw))} not understood", line=line)
        sizes.append(size)
    read_bs = sizes[0]
    write_bs = sizes[1] if len(sizes) > 1 and sizes[1] is not None else read_bs
    if len(sizes) > 1 and sizes[0] is None:
        read_bs = 4096
    return read_bs, write_bs
