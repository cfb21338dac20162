"""KDiskMark text export ("Save" / "Copy" in KDiskMark), same layout as CrystalDiskMark's.

parse(text) / parse_all(text): as crystaldiskmark.parse, with "tool": "KDiskMark" and
"fio_version" ("fio-3.39") from the header. Lines look like
  "Sequential   1 MiB (Q=  8, T= 1):    50.851 MB/s [     49.7 IOPS] < 158255.28 us>"
(right-aligned to 80 columns), the footer "Profile: Default", "Test: 1 GiB (x2) [Measure: 5 sec /
Interval: 5 sec]", "Date: 2026-02-26 16:29:06", "OS: …". Figures are MB/s = 10^6 B/s.
detect(text) -> NAMED when KDiskMark's header is there, else NOT_MINE.
"""

import re

from . import NAMED, NOT_MINE, crystaldiskmark

TOOL = "KDiskMark"

_HEADER = re.compile(r"^\s*KDiskMark \(")


def detect(text):
    """NAMED when a line starts with KDiskMark's header ("KDiskMark (3.1.4): https://…")."""
    return NAMED if any(_HEADER.match(line) for line in text.splitlines()) else NOT_MINE


def parse_all(text):
    return crystaldiskmark.parse_all(text, tool=TOOL)


def parse(text):
    return parse_all(text)[0]
