"""dd transfer summaries.

parse(text) -> {"runs": [{"bytes": int, "seconds": float, "rate": float,
                          "rate_unit": "B/s"|"kB/s"|"MB/s"|"GB/s"|"TB/s", "mb_s": float, "line": int}]}

One run per summary line, in order. Understood forms:
  coreutils 9:  1073741824 bytes (1.1 GB, 1.0 GiB) copied, 12.7332 s, 84.3 MB/s
  coreutils 8:  1073741824 bytes (1.1 GB) copied, 14.1356 s, 76.0 MB/s
  one byte:     1 byte copied, 0.000239 s, 4.2 kB/s
  translated:   3145728 Bytes (3,1 MB, 3,0 MiB) kopiert, 0,0038 s, 830 MB/s   (any wording or word
                order, decimal comma, full-width comma; the byte count is the line's first number)
  BSD/macOS:    1073741824 bytes transferred in 12.7 secs (84300000 bytes/sec)
"N+M records in/out" lines (in any language) and other text are ignored, and so are
status=progress updates: segments ending in a carriage return (dd overwrites them), and, since
text read in universal-newline mode has lost those carriage returns, summary-shaped lines with
whole seconds ("…, 2 s, 20.7 MB/s": progress prints whole seconds, the final summary prints
decimals) that do not directly follow a "records out" line. dd's units are decimal:
kB/s = 10^3 B/s, MB/s = 10^6 B/s. A summary whose bytes / seconds cannot round to the rate it
prints (edited or corrupted) is an error naming the line and both figures.

detect(text) -> SHAPED when a line is a summary line, else NOT_MINE.
"""

import math
import re

from ..errors import ParseError
from . import NOT_MINE, SHAPED
from .numbers import number, refuse_long_numbers

TOOL = "dd"

TO_MB_S = {"B/s": 1e-6, "kB/s": 1e-3, "MB/s": 1.0, "GB/s": 1e3, "TB/s": 1e6}

# Possessive quantifiers (*+, ++, ?+) never give back what they matched, and the searches start only
# where a number starts: a long line of digits, spaces or separators is scanned in linear time.
_NUM = r"\d++(?:[.,]\d++)?+(?:[eE][-+]?\d++)?+"
# Tail shared by every coreutils language: "<seconds> s, <rate> <unit>"; the rate may be a word
# without digits ("Infinity", translated) when the elapsed time was zero.
_GNU_TAIL = re.compile(
    rf"(?<!\d)(?<!\d[.,])(?P<seconds>{_NUM})\s*+(?:s|secs?|seconds)\s*+[,，、]\s*+(?P<rate>{_NUM}|[^\s\d]++)\s++"
    r"(?P<unit>[kKMGT]?B/s)\s*+$")
_BSD = re.compile(rf"^\s*(?P<bytes>\d+) bytes transferred in (?P<seconds>{_NUM}) secs \((?P<rate>\d+) bytes/sec\)\s*$")
_RECORDS = re.compile(r"(^|\s)\d+\+\d+(\s|$)")


def detect(text):
    """SHAPED when a line is a dd summary (coreutils in any language, or BSD)."""
    return SHAPED if any(_GNU_TAIL.search(line) or _BSD.match(line) for line in text.splitlines()) else NOT_MINE


def parse(text):
    refuse_long_numbers(text, TOOL, newline_only=True)
    lines = text.split("\n")
    runs = []
    previous = ""
    for number_, raw in enumerate(lines, start=1):
        if "\r" in raw.rstrip("\r"):
            # status=progress: each update starts with a carriage return and is overwritten.
            continue
        line = raw.rstrip("\r")
        run = _parse_line(line, number_)
        if run:
            whole_seconds = run.pop("seconds_text").isdigit()
            if not whole_seconds or _RECORDS.search(previous):
                runs.append(run)
        if line.strip():
            previous = line
    if not runs:
        lines = text.splitlines()
        raise ParseError(TOOL, "no dd summary line ('… bytes … copied, … s, … MB/s') found",
                         line=len(lines) or None, text=lines[-1] if lines else None)
    return {"runs": runs}


def _parse_line(line, line_no):
    bsd = _BSD.match(line)
    if bsd:
        rate = float(bsd.group("rate"))
        _check_rate(int(bsd.group("bytes")), bsd.group("seconds"), bsd.group("rate"), "B/s", line, line_no)
        return {"bytes": int(bsd.group("bytes")), "seconds": number(bsd.group("seconds")), "rate": rate,
                "rate_unit": "B/s", "mb_s": rate / 1e6, "line": line_no, "seconds_text": bsd.group("seconds")}
    tail = _GNU_TAIL.search(line)
    if not tail:
        return None
    head = line[: tail.start()]
    first = re.search(r"\d+", head)
    if not first:
        return None
    unit = tail.group("unit")
    unit = "kB/s" if unit.lower() == "kb/s" else unit
    rate = number(tail.group("rate"))
    if rate is None:
        raise ParseError(TOOL, f"rate '{tail.group('rate')}' is not a number (the copy took no measurable time)",
                         line=line_no, text=line)
    seconds = number(tail.group("seconds"))
    bytes_ = int(first.group(0))
    _check_rate(bytes_, tail.group("seconds"), tail.group("rate"), unit, line, line_no)
    return {"bytes": bytes_, "seconds": seconds, "rate": rate, "rate_unit": unit,
            "mb_s": rate * TO_MB_S[unit], "line": line_no, "seconds_text": tail.group("seconds")}


def _half_step(text):
    """Half a unit of the last digit printed: '1.63627' -> 0.000005, '830' -> 0.5, '2.6e-05' -> 0.05e-05;
    None for an exponent no float can take."""
    mantissa, _, exponent = text.lower().partition("e")
    power = int(exponent or 0) - len(mantissa.replace(",", ".").partition(".")[2])
    return 0.5 * 10.0 ** power if abs(power) <= 300 else None


def _check_rate(bytes_, seconds_text, rate_text, unit, line, line_no):
    """ParseError when bytes / seconds cannot round to the printed rate.

    dd computes the rate and the printed seconds from one elapsed time, then rounds each for
    printing (coreutils: seconds to 6 significant digits, the rate to 3 with autoscaled units;
    BSD: whole bytes/sec), so the true time lies within half a unit of the seconds' last digit and
    the true rate within half a unit of the rate's last digit. A line outside both is edited."""
    seconds, rate = number(seconds_text), number(rate_text)
    half_s, half_r = _half_step(seconds_text), _half_step(rate_text)
    if None in (half_s, half_r) or not (math.isfinite(seconds) and math.isfinite(rate)):
        raise ParseError(TOOL, "seconds or rate out of range", line=line_no, text=line)
    scale = TO_MB_S[unit] * 1e6  # printed unit -> B/s
    slowest = bytes_ / (seconds + half_s)
    fastest = bytes_ / (seconds - half_s) if seconds > half_s else math.inf
    low, high = (rate - half_r) * scale, (rate + half_r) * scale
    if fastest < low * (1 - 1e-9) or slowest > high * (1 + 1e-9):
        actual = bytes_ / seconds / scale if seconds else math.inf
        raise ParseError(TOOL, f"{bytes_} bytes in {seconds_text} s is {actual:.3g} {unit}, but the line says "
                               f"{rate_text} {unit} (edited or corrupted?)", line=line_no, text=line)
