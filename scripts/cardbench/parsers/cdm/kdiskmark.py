"""KDiskMark text export ("Save" / "Copy" in KDiskMark), same layout as CrystalDiskMark's.

parse(text) / parse_all(text): as crystaldiskmark.parse, with "tool": "KDiskMark", "unit": "kKiB/s"
and "fio_version" ("fio-3.39") from the header. Lines look like
  "Sequential   1 MiB (Q=  8, T= 1):    50.851 MB/s [     49.7 IOPS] < 158255.28 us>"
(right-aligned to 80 columns), the footer "Profile: Default", "Test: 1 GiB (x2) [Measure: 5 sec /
Interval: 5 sec]", "Date: 2026-02-26 16:29:06", "OS: …".

KDiskMark's "MB/s" is not 10^6 B/s: it adds up fio's `bw` (KiB/s) and divides by 1000, so its figure
is in units of 1000 KiB/s = 1,024,000 B/s ("kKiB/s", 1.024 MB/s), 2.34 % below the MB/s figure,
while its IOPS column is fio's own. So "508.897 MB/s [497.0 IOPS]" at 1 MiB is 497.0 × 1024 KiB/s
÷ 1000, i.e. 521.1 MB/s. The figures are kept as printed, in kKiB/s.
detect(text) -> NAMED when KDiskMark's header is there; SHAPED when a result line has KDiskMark's own
    shape, the block size's number and unit apart ("Sequential   1 MiB (Q=", "Random   4 KiB (Q=",
    its source writes "%1 %2 %3 (Q=%4, T=%5)"), which CrystalDiskMark never prints ("SEQ    1MiB (Q=",
    "Sequential 1MiB (Q="); else NOT_MINE.
"""

import re

from .. import NAMED, NOT_MINE, SHAPED
from . import crystaldiskmark
from .session import exports_session
from ..tool import ToolInfo

TOOL = "KDiskMark"
INFO = ToolInfo(name="kdiskmark", programs=(), family="suite", description="KDiskMark text export, one or more",
                units={"MB/s": "kKiB/s (fio's KiB/s ÷ 1000: 1,024,000 bytes a second)"})
UNIT = "kKiB/s"

_HEADER = re.compile(r"^\s*+KDiskMark(?: \(|: )")
_OWN_RESULT = re.compile(r"^\s*+(?:Sequential|Random)\s++\d++ (?:KiB|MiB) \(Q=\s*+\d++,\s*+T=\s*+\d++\)\s*+:")


def detect(text):
    """NAMED when a line starts with KDiskMark's header ("KDiskMark (3.1.4): https://…", early
    versions "KDiskMark: https://…"); SHAPED when a result line has its own shape."""
    lines = text.splitlines()
    if any(_HEADER.match(line) for line in lines):
        return NAMED
    return SHAPED if any(_OWN_RESULT.match(line) for line in lines) else NOT_MINE


def parse_all(text):
    return crystaldiskmark.parse_all(text, tool=TOOL)


def parse(text):
    return parse_all(text)[0]


def parse_file(text):
    return {"exports": parse_all(text)}


def to_session(parsed, **hints):
    return exports_session(parsed["exports"], TOOL)
