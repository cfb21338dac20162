"""f3probe output (F3 7.x/8.x).

parse(text) -> {
    "fake": bool,                  False for "is the real thing", True for a counterfeit or damaged card
    "verdict": "good" | "damaged" | "counterfeit",
    "fake_type": "limbo" | "wraparound" | "chain" | None,
    "announced_bytes": int, "usable_bytes": int,   (block count x physical block size)
    "block_size_bytes": int, "module_bytes": int | None, "cache_bytes": int | None,
    "seconds": float | None,       probe time
    "last_good_sector": int | None (from the suggested f3fix command),
    "speeds": {"sequential_write"|"random_write"|"random_read": {"value", "unit"}}  (F3 8 with
              --destructive; f3 prints binary units as "MB/s" = 2^20 B/s; value in MB/s = 10^6 B/s)
    "version": "8.0" | None,
}
detect(text) -> NAMED (the "F3 probe 8.0" banner), SHAPED (a verdict line) or NOT_MINE.
"""

import re

from ..errors import ParseError
from . import NAMED, NOT_MINE, SHAPED
from .numbers import MAX_DIGITS, refuse_long_numbers

TOOL = "f3probe"

_VERDICT_GOOD = re.compile(r"^Good news: The device `(.*)' is the real thing")
_VERDICT_DAMAGED = re.compile(r"^Bad news: The device `(.*)' is damaged")
_VERDICT_FAKE = re.compile(r"^Bad news: The device `(.*)' is a counterfeit of type (\w+)")
_SIZE_LINE = re.compile(r"^\s*(\*Usable\* size|Announced size|Approximate cache size):\s*([\d.]+) (\w+) \((\d+) blocks?\)")
_ORDER_LINE = re.compile(r"^\s*(Module|Physical block size):\s*([\d.]+) (\w+) \(2\^(\d+) Bytes?\)")
_FIX = re.compile(r"^f3fix --last-sec=(\d+)")
_SPEED = re.compile(r"^\s*(Sequential write|Random write|Random read):\s*([\d.]+) (\w+)/s")
_PROBE_TIME = re.compile(r"^Probe time:(.+)$")  # parse_duration() strips: a lazy (.+?)\s*$ is quadratic
_VERSION = re.compile(r"^F3 probe (\S+)")

BINARY_UNITS = {"Byte": 1, "Bytes": 1, "KB": 1024, "MB": 1024**2, "GB": 1024**3, "TB": 1024**4, "PB": 1024**5}


def detect(text):
    """NAMED when a line starts "F3 probe <version>"; SHAPED when a line is a verdict; else NOT_MINE."""
    lines = text.splitlines()
    if any(_VERSION.match(line) for line in lines):
        return NAMED
    if any(_VERDICT_GOOD.match(line) or _VERDICT_DAMAGED.match(line) or _VERDICT_FAKE.match(line) for line in lines):
        return SHAPED
    return NOT_MINE


def parse_duration(text):
    """Seconds from f3's time strings: '10.35s', "1'02\"", '1:02:03', '2 days 1:00:00', '53.7ms', '11us'."""
    text = text.strip()
    if re.search(rf"(?<!\d)\d{{{MAX_DIGITS + 1}}}", text):
        return None  # no probe takes that long; int() would refuse the digits
    total = 0.0
    # (?<!\d): a search starts only where a number starts, so a long run of digits is linear.
    for amount, unit in re.findall(r"(?<!\d)(\d++) (week|day)s?", text):
        total += int(amount) * (604800 if unit == "week" else 86400)
    text = re.sub(r"(?<!\d)\d++ (week|day)s?", "", text).strip()
    if not text:
        return total
    match = re.fullmatch(r"(\d+):(\d\d)(?::(\d\d))?", text)
    if match:
        return total + int(match.group(1)) * 3600 + int(match.group(2)) * 60 + int(match.group(3) or 0)
    match = re.fullmatch(r"(\d+)'(?:(\d\d)\")?", text)
    if match:
        return total + int(match.group(1)) * 60 + int(match.group(2) or 0)
    match = re.fullmatch(r"(\d+(?:\.\d+)?)(s|ms|us|ns)", text)
    if match:
        return total + float(match.group(1)) * {"s": 1, "ms": 1e-3, "us": 1e-6, "ns": 1e-9}[match.group(2)]
    match = re.fullmatch(r"(\d+)s", text)
    if match:
        return total + int(match.group(1))
    return None


def parse(text):
    out = {"fake": None, "verdict": None, "fake_type": None, "announced_bytes": None, "usable_bytes": None,
           "block_size_bytes": None, "module_bytes": None, "cache_bytes": None, "seconds": None,
           "last_good_sector": None, "speeds": {}, "version": None}
    refuse_long_numbers(text, TOOL)
    blocks = {}
    verdict_line = None
    for number_, line in enumerate(text.splitlines(), start=1):
        if (m := _VERSION.match(line)):
            out["version"] = m.group(1)
        elif _VERDICT_GOOD.match(line):
            out.update(fake=False, verdict="good")
            verdict_line = number_
        elif _VERDICT_DAMAGED.match(line):
            out.update(fake=True, verdict="damaged")
            verdict_line = number_
        elif (m := _VERDICT_FAKE.match(line)):
            out.update(fake=True, verdict="counterfeit", fake_type=m.group(2))
            verdict_line = number_
        elif (m := _SIZE_LINE.match(line)):
            blocks[m.group(1)] = int(m.group(4))
        elif (m := _ORDER_LINE.match(line)):
            key = "module_bytes" if m.group(1) == "Module" else "block_size_bytes"
            if int(m.group(4)) > 64:  # 2 ** n of a huge n would not end
                raise ParseError(TOOL, f"2^{m.group(4)} bytes is beyond any device", line=number_, text=line)
            out[key] = 2 ** int(m.group(4))
        elif (m := _FIX.match(line)):
            out["last_good_sector"] = int(m.group(1))
        elif (m := _SPEED.match(line)):
            name = m.group(1).lower().replace(" ", "_")
            factor = BINARY_UNITS.get(m.group(3))
            if factor is None:
                raise ParseError(TOOL, f"unknown speed unit {m.group(3)}/s", line=number_, text=line)
            out["speeds"][name] = {"value": round(float(m.group(2)) * factor / 1e6, 3), "unit": "MB/s"}
        elif (m := _PROBE_TIME.match(line)):
            seconds = parse_duration(m.group(1))
            if seconds is None:
                raise ParseError(TOOL, "probe time not understood", line=number_, text=line)
            out["seconds"] = seconds
    if verdict_line is None:
        raise ParseError(TOOL, "no verdict line ('Good news: …' or 'Bad news: …'); the probe did not finish",
                         line=len(text.splitlines()) or None)
    block = out["block_size_bytes"]
    if block is None or "*Usable* size" not in blocks or "Announced size" not in blocks:
        raise ParseError(TOOL, "the 'Device geometry' block is missing or cut off", line=verdict_line)
    out["usable_bytes"] = blocks["*Usable* size"] * block
    out["announced_bytes"] = blocks["Announced size"] * block
    if "Approximate cache size" in blocks:
        out["cache_bytes"] = blocks["Approximate cache size"] * block
    return out
