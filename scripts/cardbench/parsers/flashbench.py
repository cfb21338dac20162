"""flashbench output: -a (alignment), --open-au, -f (find-fat).

parse(text) detects which and returns one of
  {"kind": "align", "points": [{"offset_bytes", "delay_ns"}]}                    ("Aligned @ N Delay: Xns")
  {"kind": "align", "points": [{"offset_bytes", "pre_ns", "on_ns", "post_ns", "diff_ns"}]}
                                                              ("align N  pre Xµs  on Yµs  post Zµs  diff Wns")
  {"kind": "open_au", "points": [{"block_size_bytes", "value"}], "interrupted": bool}
  {"kind": "find_fat", "rows": [{"block_size_bytes", "values": [...]}]}
The same functions are parse_align, parse_open_au and parse_find_fat.

Units: times come as ns, µs, ms or s and are stored in ns; throughput "M/s" is 10^6 B/s and is
stored as MB/s ("K/s", "G/s", "B/s" scaled to match); sizes "KiB"/"MiB"/"GiB" are binary.
Every row comes out in the order flashbench printed it (largest block first). Shell prompt and
command lines ("$ ./flashbench …") and a "^C" line are allowed; any other line is an error.

An --open-au sweep is `interrupted` when the text holds "^C" or, if the caller passes
smallest_block_bytes (the -b of the command), when the last row is above that size.

detect(text) -> SHAPED when a line is a row of any of the three, else NOT_MINE.
"""

import re

from ..core.units import bytes_from_size_text
from ..errors import ParseError
from . import NOT_MINE, SHAPED
from .numbers import refuse_long_numbers

TOOL = "flashbench"

TIME_NS = {"ns": 1, "µs": 1e3, "μs": 1e3, "us": 1e3, "Âµs": 1e3, "ms": 1e6, "s": 1e9}
RATE_MB_S = {"B": 1e-6, "K": 1e-3, "M": 1.0, "G": 1e3}

# Possessive quantifiers (*+, ++, ?+) keep what they matched: no quadratic backtracking over long runs.
_TIME = r"(-?\d++(?:\.\d++)?+(?:e[-+]?\d++)?+)\s*+(ns|µs|μs|us|Âµs|ms|s)"
# flashbench formats each time into 7 characters, so a negative diff (always printed in ns) can
# lose its unit: "-14207n" is still -14207 ns, but "-142070" has lost a digit too, so such a
# diff is recomputed from pre, on and post.
_DIFF = r"(-?\d++(?:\.\d++)?+(?:e[-+]?\d++)?+)\s*+(ns|µs|μs|us|Âµs|ms|s|n)?+"
_ALIGN_NEW = re.compile(rf"^align\s++(\d++)\s++pre\s++{_TIME}\s++on\s++{_TIME}\s++post\s++{_TIME}"
                        rf"\s++diff\s++{_DIFF}\s*+$")
_ALIGN_OLD = re.compile(rf"^Aligned\s*+@\s*+(\d++)\s++Delay:?+\s*+{_TIME}\s*+$")
_SIZE = r"\d++(?:\.\d++)?+(?:[KMG]iB|B)"
# flashbench prints rates in 7 characters, so a fast one loses its "s": "1.462G/".
_RATE = re.compile(r"^(\d++(?:\.\d++)?+(?:e[-+]?\d++)?+)([BKMG])/s?$")
_ROW = re.compile(rf"^({_SIZE})\s++(.*)$")


def detect(text):
    """SHAPED when a line is an -a row ("align …", "Aligned @ …") or an --open-au / -f row."""
    for line in text.splitlines():
        if (_ALIGN_NEW.match(line.replace("\t", " ").strip()) or _ALIGN_OLD.match(line.strip())
                or _ROW.match(line.strip())):
            return SHAPED
    return NOT_MINE


def _ns(value, unit):
    return round(float(value) * TIME_NS[unit], 3)


def _is_noise(line):
    """Lines a pasted terminal log may hold around the figures."""
    stripped = line.strip()
    return (not stripped or stripped == "^C" or stripped.startswith(("$", "#", "./flashbench", "flashbench", "sudo "))
            or stripped.endswith("\\") or stripped.startswith("-"))


def _lines(text):
    refuse_long_numbers(text, TOOL)
    for number_, line in enumerate(text.splitlines(), start=1):
        yield number_, line.replace("\t", " ").strip()


def parse_align(text):
    points = []
    layout = None
    for number_, line in _lines(text):
        new, old = _ALIGN_NEW.match(line), _ALIGN_OLD.match(line)
        if new:
            g = new.groups()
            point = {"offset_bytes": int(g[0]), "pre_ns": _ns(g[1], g[2]), "on_ns": _ns(g[3], g[4]),
                     "post_ns": _ns(g[5], g[6])}
            if g[8] is None:
                point["diff_ns"] = round(point["on_ns"] - (point["pre_ns"] + point["post_ns"]) / 2, 3)
            else:
                point["diff_ns"] = _ns(g[7], "ns" if g[8] == "n" else g[8])
            kind = "pre-on-post"
        elif old:
            point = {"offset_bytes": int(old.group(1)), "delay_ns": _ns(old.group(2), old.group(3))}
            kind = "delay"
        elif _is_noise(line):
            continue
        else:
            raise ParseError(TOOL, "not a flashbench -a row ('align N pre … on … post … diff …' or "
                                   "'Aligned @ N Delay: …')", line=number_, text=line)
        if layout and kind != layout:
            raise ParseError(TOOL, "two different -a layouts in one output", line=number_, text=line)
        layout = kind
        points.append(point)
    if not points:
        raise ParseError(TOOL, "no flashbench -a rows found", line=None)
    return {"kind": "align", "points": points}


def _rows(text, what):
    rows = []
    for number_, line in _lines(text):
        match = _ROW.match(line)
        if not match:
            if _is_noise(line):
                continue
            raise ParseError(TOOL, f"not a flashbench {what} row ('<size>  <rate>M/s …')", line=number_, text=line)
        values = []
        for cell in match.group(2).split():
            rate = _RATE.match(cell)
            if not rate:
                raise ParseError(TOOL, f"'{cell}' is not a flashbench rate like 12.3M/s", line=number_, text=line)
            values.append(round(float(rate.group(1)) * RATE_MB_S[rate.group(2)], 6))
        if not values:
            raise ParseError(TOOL, "row has a block size but no figure (cut off?)", line=number_, text=line)
        size = bytes_from_size_text(match.group(1))
        if size is None:
            raise ParseError(TOOL, f"block size {match.group(1)} is beyond any card", line=number_, text=line)
        rows.append((number_, size, values, line))
    if not rows:
        raise ParseError(TOOL, f"no flashbench {what} rows found", line=None)
    return rows


def parse_open_au(text, smallest_block_bytes=None):
    rows = _rows(text, "--open-au")
    points = []
    for number_, size, values, line in rows:
        if len(values) != 1:
            raise ParseError(TOOL, f"--open-au rows have one figure; this one has {len(values)} "
                                   "(find-fat output?)", line=number_, text=line)
        points.append({"block_size_bytes": size, "value": values[0]})
    interrupted = any(line.strip() == "^C" or "^C" in line for line in text.splitlines())
    if smallest_block_bytes is not None and points[-1]["block_size_bytes"] > smallest_block_bytes:
        interrupted = True
    return {"kind": "open_au", "points": points, "interrupted": interrupted}


def parse_find_fat(text):
    rows = _rows(text, "-f")
    return {"kind": "find_fat", "rows": [{"block_size_bytes": size, "values": values} for _, size, values, _ in rows]}


def parse(text):
    lines = [line for _, line in _lines(text)]
    if any(_ALIGN_NEW.match(l) or _ALIGN_OLD.match(l) or l.startswith(("align ", "Aligned")) for l in lines):
        return parse_align(text)
    rows = _rows(text, "--open-au or -f")
    if any(len(values) > 1 for _, _, values, _ in rows):
        return parse_find_fat(text)
    return parse_open_au(text)
