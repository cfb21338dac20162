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

# The one home of every unit factor (tests/test_one_home.py): other modules name these, never the numbers.
KIB_BYTES, MIB_BYTES, GIB_BYTES, TIB_BYTES, PIB_BYTES = 1024, 1024**2, 1024**3, 1024**4, 1024**5  # binary sizes
KB_BYTES, MB_BYTES, GB_BYTES, TB_BYTES, PB_BYTES = 10**3, 10**6, 10**9, 10**12, 10**15  # decimal sizes (GB as marketed)
NS_IN_US = US_IN_MS = MS_IN_S = 1000  # one time unit to the next: ns → µs → ms → s
NS_IN_MS = NS_IN_US * US_IN_MS
HZ_IN_MHZ = 10**6  # a card's bus clock
SECTOR_BYTES = 512  # a sector as Linux's block sizes, dd's "b" suffix and H2testw's and F3's sector counts count it
NS_IN_S = NS_IN_MS * MS_IN_S
# Factors the tools' tables of units multiply a figure by, written as floats: value × 1e-3 and value / 1000 can
# differ in the last bit, and a parsed figure keeps the bits it has always had.
US_IN_NS = 1e-3  # µs in one ns (fio's clat_ns, its "nsec")
S_IN_MS, S_IN_US, S_IN_NS = 1e-3, 1e-6, 1e-9  # seconds in one ms, µs, ns
# MB/s in one of each decimal rate unit (dd's "kB/s", "GB/s"; flashbench's "K/s", "G/s").
DECIMAL_RATE_IN_MB_S = {"B/s": 1e-6, "kB/s": KB_PER_S_IN_MB_PER_S, "MB/s": 1.0, "GB/s": 1e3, "TB/s": 1e6}

_BINARY_FACTORS = {"": 1, "B": 1, "K": KIB_BYTES, "KIB": KIB_BYTES, "M": MIB_BYTES, "MIB": MIB_BYTES, "G": GIB_BYTES,
                   "GIB": GIB_BYTES, "T": TIB_BYTES, "TIB": TIB_BYTES}
_SIZE_TEXT = re.compile(r"^(\d{1,12}(?:\.\d{1,6})?)\s*([KMGT]i?B|[KMGT]|B)?$", re.IGNORECASE)
_STEPS = ((GIB_BYTES, "G"), (MIB_BYTES, "M"), (KIB_BYTES, "K"))


_DECIMAL_FACTORS = {"KB": KB_BYTES, "MB": MB_BYTES, "GB": GB_BYTES, "TB": TB_BYTES}  # dd's bs=1MB: 10^6 bytes


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


def binary_prefix(index):
    """The factor of the `index`-th binary prefix: 0 → 1, 1 → Ki (1024), 2 → Mi ... (a tool's 'KMGT')."""
    return KIB_BYTES**index


def decimal_prefix(index):
    """The factor of the `index`-th decimal prefix: 0 → 1, 1 → k (1000), 2 → M ... (of bytes or of counts)."""
    return KB_BYTES**index


def mb_from_bytes(size_bytes):
    """Bytes (or bytes per second) in MB (MB/s), 10^6 bytes."""
    return size_bytes / MB_BYTES


MB_IN_GB, GB_IN_TB = GB_BYTES // MB_BYTES, TB_BYTES // GB_BYTES
KIB_IN_MIB = MIB_BYTES // KIB_BYTES


def tb_from_gb(size_gb):
    """A capacity in GB in TB (1 TB = 1000 GB, as marketed)."""
    return size_gb / GB_IN_TB



def mb_from_gb(size_gb):
    """GB in MB (GB written per second in MB/s)."""
    return size_gb * MB_IN_GB


def gb_from_bytes(size_bytes):
    """Bytes in GB, 10^9 bytes (a card's capacity as marketed, data written in a fill)."""
    return size_bytes / GB_BYTES


def bytes_from_gb(size_gb):
    return size_gb * GB_BYTES


def mib_from_bytes(size_bytes):
    """Bytes (or bytes per second) in MiB (MiB/s), 2^20 bytes."""
    return size_bytes / MIB_BYTES


def gib_from_bytes(size_bytes):
    return size_bytes / GIB_BYTES


def kib_from_bytes(size_bytes):
    """Bytes (or bytes per second) in KiB (KiB/s)."""
    return size_bytes / KIB_BYTES


def bytes_from_kib(size_kib):
    """KiB (or KiB/s, fio's `bw`) in bytes (bytes per second)."""
    return size_kib * KIB_BYTES


def mib_from_kib(size_kib):
    """KiB (a process's peak memory as Linux reports it, 'kB') in MiB."""
    return size_kib / KIB_BYTES


def gib_from_kib(size_kib):
    """KiB (/proc/meminfo's 'kB') in GiB."""
    return size_kib / MIB_BYTES


def us_from_ns(ns):
    return ns / NS_IN_US


def ms_from_us(us):
    return us / US_IN_MS


def s_from_ms(ms):
    return ms / MS_IN_S


def ms_from_s(seconds):
    return seconds * MS_IN_S


def iops_from_mb_s(mb_s, block_bytes):
    """I/O operations per second of a bandwidth in MB/s whose every I/O is `block_bytes` long."""
    return mb_s * MB_BYTES / block_bytes
