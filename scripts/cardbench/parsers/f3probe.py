"""f3probe output (F3 7.x/8.x).

parse(text) -> {
    "fake": bool,                  True for a counterfeit only: a damaged card is not a fake one (it
                                   fails to keep data, whatever size it announces)
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
detect(text) -> NAMED (the "F3 probe 8.0" banner, or a logged f3probe command above a verdict),
SHAPED (a verdict line) or NOT_MINE.

to_session(parsed) -> SessionFields: the session's f3probe block (real against announced capacity),
    the verdict (and the counterfeit's type) in the notes.

Lines may be indented, quoted with "> " or follow a prompt; the verdict is found anywhere in its
line, with the device name in `…', '…', ‘…’ or "…" quotes. The last verdict in the text counts.
"""

import re

from ..core.units import (GIB_BYTES, KIB_BYTES, MIB_BYTES, PIB_BYTES, S_IN_MS, S_IN_NS, S_IN_US, TIB_BYTES,
                          mb_from_bytes)
from ..errors import ParseError
from . import NAMED, NOT_MINE, SHAPED
from .card_entries import f3probe_entry
from .fields import SessionFields
from .text.numbers import MAX_DIGITS, refuse_long_numbers
from .tool import ToolInfo

TOOL = "f3probe"
INFO = ToolInfo(name="f3probe", programs=("f3probe",), family="capacity",
                description="f3probe output: real against announced capacity",
                units={"MB/s": "MiB/s (F3 divides by 1024)", "GB, MB, KB": "GiB, MiB, KiB",
                       "blocks": "of the block size"})

# Lines may come indented, quoted ("> ") or behind a prompt ("$ ", "user@host:~$ ", a list
# item's "1. "): the verdict is found where it is in the line; the device name's quotes may have
# been turned into typographic ones or Markdown backticks by the page it was pasted into.
_LEAD = r"^[ \t]*+(?:>[ \t]*+){0,3}+"
_DEVICE = r"[`'‘’\"]([^`'‘’\"\r\n]{0,4096}+)[`'‘’\"]"
_VERDICT_GOOD = re.compile(rf"Good news: The device {_DEVICE} is the real thing")
_VERDICT_DAMAGED = re.compile(rf"Bad news: The device {_DEVICE} is damaged")
_VERDICT_FAKE = re.compile(rf"Bad news: The device {_DEVICE} is a counterfeit of type (\w++)")
_SIZE_LINE = re.compile(_LEAD + r"(\*Usable\* size|Announced size|Approximate cache size):\s*+([\d.]++) (\w++) "
                        r"\((\d++) blocks?+\)")
_ORDER_LINE = re.compile(_LEAD + r"(Module|Physical block size):\s*+([\d.]++) (\w++) \(2\^(\d++) Bytes?+\)")
_FIX = re.compile(_LEAD + r"(?:\$[ \t]++)?+(?:sudo[ \t]++)?+f3fix --last-sec=(\d++)")
_SPEED = re.compile(_LEAD + r"(Sequential write|Random write|Random read):\s*+([\d.]++) (\w++)/s")
_PROBE_TIME = re.compile(_LEAD + r"Probe time:(.+)$")  # parse_duration() strips: a lazy (.+?)\s*$ is quadratic
_SECONDS_IN_UNIT = {"s": 1, "ms": S_IN_MS, "us": S_IN_US, "ns": S_IN_NS}  # a time's unit as f3 prints it
_VERSION = re.compile(_LEAD + r"F3 probe (\S++)")
_COMMAND = re.compile(r"^[ \t]*+\$[ \t]++(?:\S*+[ \t]++){0,6}?(?:\S*/)?+f3probe(?:[ \t]|$)")

BINARY_UNITS = {"Byte": 1, "Bytes": 1, "KB": KIB_BYTES, "MB": MIB_BYTES, "GB": GIB_BYTES, "TB": TIB_BYTES,
                "PB": PIB_BYTES}


def _verdict(line):
    if "news: The device" not in line:  # most lines: no regex at all
        return None
    return _VERDICT_GOOD.search(line) or _VERDICT_DAMAGED.search(line) or _VERDICT_FAKE.search(line)


def detect(text):
    """NAMED when a line starts "F3 probe <version>", or a verdict follows a logged f3probe command
    ("$ f3probe …"); SHAPED when a line is a verdict; else NOT_MINE."""
    lines = text.splitlines()
    if any(_VERSION.match(line) for line in lines):
        return NAMED
    if not any(_verdict(line) for line in lines):
        return NOT_MINE
    commanded = any("f3probe" in line and len(line) < 4096 and _COMMAND.match(line) for line in lines)
    return NAMED if commanded else SHAPED


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
        return total + float(match.group(1)) * _SECONDS_IN_UNIT[match.group(2)]
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
        elif (m := _verdict(line)):
            if m.re is _VERDICT_GOOD:
                out.update(fake=False, verdict="good", fake_type=None)
            elif m.re is _VERDICT_DAMAGED:
                out.update(fake=False, verdict="damaged", fake_type=None)
            else:
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
            out["speeds"][name] = {"value": round(mb_from_bytes(float(m.group(2)) * factor), 3), "unit": "MB/s"}
        elif (m := _PROBE_TIME.match(line)):
            seconds = parse_duration(m.group(1))
            if seconds is None:
                raise ParseError(TOOL, "probe time not understood", line=number_, text=line)
            out["seconds"] = round(seconds, 6)  # 2.6ms: 0.0026, not 0.0026000000000000003
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


def to_session(parsed, raw=None, **hints):
    """The session's f3probe block; raw: the paths of the raw files it was read from (the collector's)."""
    tool = {"name": TOOL, "version": parsed["version"]} if parsed["version"] else {"name": TOOL}
    verdict = parsed["verdict"] + (f" ({parsed['fake_type']})" if parsed["fake_type"] else "")
    gib = GIB_BYTES
    note = (f"f3probe verdict: {verdict}; {parsed['usable_bytes'] / gib:.2f} GiB usable of "
            f"{parsed['announced_bytes'] / gib:.2f} GiB announced.")
    return SessionFields(tools=[tool], measurements={"f3probe": f3probe_entry(parsed, raw=raw)}, runs=1, notes=[note])
