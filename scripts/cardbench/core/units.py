"""Units and sizes, each conversion named by its direction.

Rates: the site shows MB/s = 10^6 bytes/s; a figure stored in MiB/s (cdm_fio.sh prints MiB/s)
is multiplied by 1.048576 to show it in MB/s, one in kKiB/s (1000 × 1024 bytes/s: KDiskMark's "MB/s",
fio's KiB/s ÷ 1000) by 1.024. Sizes: tools spell block sizes in binary units
('4K' = 4096 bytes in fio, dd and CrystalDiskMark; '4MiB' in flashbench).
"""

import re

from .subtest_names import CDM_TEST

MIB_PER_S_IN_MB_PER_S = 1.048576  # 1 MiB/s = 1.048576 MB/s
KKIB_PER_S_IN_MB_PER_S = 1.024  # 1 kKiB/s = 1000 KiB/s = 1.024 MB/s
KIB_PER_S_IN_MB_PER_S = 0.001024  # 1 KiB/s = 1024 bytes/s (iozone's kB/s, fio 2.x's KB/s, hdparm's kB/s)
KB_PER_S_IN_MB_PER_S = 0.001  # 1 kB/s = 1000 bytes/s (pico_fatfs' "KB/Sec": bytes per millisecond)
RATE_TO_MB_S = {"MB/s": 1.0, "MiB/s": MIB_PER_S_IN_MB_PER_S, "KiB/s": KIB_PER_S_IN_MB_PER_S,
                "kKiB/s": KKIB_PER_S_IN_MB_PER_S, "kB/s": KB_PER_S_IN_MB_PER_S}  # stored rate × factor = MB/s
RATE_UNIT_BYTES = {"MB/s": 1_000_000, "MiB/s": 1_048_576, "KiB/s": 1024,
                   "kKiB/s": 1_024_000, "kB/s": 1000}  # bytes per second in one unit
MB_PER_S_IN_MIB_PER_S = RATE_UNIT_BYTES["MB/s"] / RATE_UNIT_BYTES["MiB/s"]  # 1 MB/s = 0.9537 MiB/s

KIB_BYTES, MIB_BYTES, GIB_BYTES, TIB_BYTES = 1024, 1024**2, 1024**3, 1024**4  # binary sizes in bytes
GB_BYTES = 10**9  # a gigabyte as capacities are marketed
NS_IN_MS = 1_000_000  # nanoseconds in a millisecond

_BINARY_FACTORS = {"": 1, "B": 1, "K": KIB_BYTES, "KIB": KIB_BYTES, "M": MIB_BYTES, "MIB": MIB_BYTES, "G": GIB_BYTES,
                   "GIB": GIB_BYTES, "T": TIB_BYTES, "TIB": TIB_BYTES}
_SIZE_TEXT = re.compile(r"^(\d{1,12}(?:\.\d{1,6})?)\s*([KMGT]i?B|[KMGT]|B)?$", re.IGNORECASE)
_STEPS = ((1 << 30, "G"), (1 << 20, "M"), (1 << 10, "K"))


_DECIMAL_FACTORS = {"KB": 1000, "MB": 1000**2, "GB": 1000**3, "TB": 1000**4}  # dd's bs=1MB: 10^6 bytes


def bytes_from_size_text(text):
    """'4MiB', '512KiB', '1.5GiB', '512B', '4K' (binary units) as bytes, and '8MB', '1kB' (the decimal units dd
    takes, kept in its entries as written) as powers of ten; None when not a size."""
    match = _SIZE_TEXT.match(text.strip())
    if not match:
        return None
    suffix = (match.group(2) or "").upper()
    return int(round(float(match.group(1)) * (_BINARY_FACTORS.get(suffix) or _DECIMAL_FACTORS[suffix])))


def block_size_bytes(test):
    """Block size of a CrystalDiskMark-style subtest name in bytes: 'RND4K Q32T1' -> 4096, a read/write
    mix too ('RND4K Q1T1 mix 35/65' -> 4096); K, M, G are binary. None for any other name or value."""
    match = CDM_TEST.match(test) if isinstance(test, str) else None
    return bytes_from_size_text(match.group(1)) if match else None


def size_label_from_bytes(size_bytes):
    """The tools' short spelling: 4096 -> '4K', 1 MiB -> '1M', 1 GiB -> '1G'; None if not whole KiB."""
    for factor, suffix in _STEPS:
        if size_bytes >= factor and size_bytes % factor == 0:
            return f"{size_bytes // factor}{suffix}"
    return None


def size_arg_from_bytes(size_bytes):
    """A size for fio's and dd's command lines: '4K', '1M', or plain bytes when not whole KiB."""
    return size_label_from_bytes(size_bytes) or str(int(size_bytes))


def size_text_from_bytes(size_bytes):
    """A size for readers: 4096 -> '4 KiB', 4 MiB -> '4 MiB', 512 -> '512 B'."""
    for factor, suffix in _STEPS:
        if size_bytes >= factor and size_bytes % factor == 0:
            return f"{size_bytes // factor} {suffix}iB"
    return f"{int(size_bytes)} B"


def is_rate_unit(unit):
    """True for a unit of bandwidth (MB/s, MiB/s, KiB/s, kKiB/s); False for IOPS, latency and the rest."""
    return unit in RATE_TO_MB_S


def mb_s_from_rate(value, unit):
    """A stored rate in MB/s (10^6 bytes/s); None for a unit that is not a rate."""
    factor = RATE_TO_MB_S.get(unit)
    return None if factor is None else value * factor
