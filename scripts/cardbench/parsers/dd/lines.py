"""dd transfer summaries, line by line: what dd/tool.py (the tool module) and dd/session.py read dd's output with.

parse(text) -> {"runs": [{"bytes": int, "seconds": float, "rate": float,
                          "rate_unit": "B/s"|"kB/s"|"MB/s"|"GB/s"|"TB/s"|"KiB/s"|"MiB/s"|"GiB/s"|"TiB/s",
                          "mb_s": float, "records_out": [full, partial] | None, "line": int}]}

One run per summary line, in order. Understood forms:
  coreutils 9:  1073741824 bytes (1.1 GB, 1.0 GiB) copied, 12.7332 s, 84.3 MB/s
  coreutils 8:  1073741824 bytes (1.1 GB) copied, 14.1356 s, 76.0 MB/s
  one byte:     1 byte copied, 0.000239 s, 4.2 kB/s
  translated:   3145728 Bytes (3,1 MB, 3,0 MiB) kopiert, 0,0038 s, 830 MB/s   (any wording or word
                order, decimal comma, full-width comma; the byte count is the line's first number)
  BSD/macOS:    1073741824 bytes transferred in 12.700000 secs (84546758 bytes/sec)
  old GNU:      10485760 bytes transferred in 0.028418 seconds (368981986 bytes/sec)   (coreutils before 5.3)
  Japanese:     1782579200 バイト (1.8 GB) コピーされました、 333.563 秒、 5.3 MB/秒
  BusyBox:      33554432 bytes (32.0MB) copied, 1.636270 seconds, 19.6MB/s
  toybox:       67108864 bytes (64 M) copied, 1.324659 s, 48 M/s
dd's units are decimal (kB/s = 10^3 B/s, MB/s = 10^6 B/s) and mb_s is the printed rate in MB/s;
BusyBox prints binary units with one decimal ("19.6MB/s" is 19.6 MiB/s) and toybox whole binary units
("48 M/s" is 48 MiB/s), so their mb_s is bytes ÷ seconds (printed to the microsecond), to four significant
digits. records_out is the
"N+M records out" count printed just above the summary (full and partial blocks), None without it.

"N+M records in/out" lines (in any language) and other text are ignored, and so are
status=progress updates: segments ending in a carriage return (dd overwrites them), and, since
text read in universal-newline mode has lost those carriage returns, the summary-shaped lines
summary_roles() tells for updates (whole seconds, as coreutils 8.28 and later print updates; or,
as 8.24 to 8.27 print updates with decimals like summaries, lines leading through record lines to
a summary that copied at least as much in at least as long), and lines holding two rates (the
last update with the final one written after it, as a terminal shows them). A summary whose bytes / seconds cannot
round to the rate it prints (edited or corrupted) is an error naming the line and both figures.
A summary below a dd error message ("dd: error writing '/dev/sdc': No space left on device",
"dd: error reading '/dev/sdb': Input/output error", in any language) is an error naming that
message: the copy stopped early, so its speed is not the card's.

summary_roles(lines) -> {index: (role, run, records)}: which summary-shaped lines are runs ("final")
    and which status=progress updates ("update").
failure(text) -> (line, message) of the first dd error message in text, or None: a logged attempt
    that failed before copying ("dd: failed to open '/dev/sdc': Permission denied") has one and
    no summary.
progress(text) -> [{"points": [{"bytes": int, "seconds": float, "seconds_range": [low, high],
                                "final": bool, "line": int}],
                    "error": (line, message) | None}]
    The status=progress updates of each dd run in text, one series per run, in order: bytes copied
    so far against elapsed time, then the run's summary as its last point ("final") when the text
    has one; "error" is a dd error message among them (a write over a whole card ends with "No
    space left on device", in the system's language). Updates are the segments parse() leaves out,
    in any language it reads: those ending in a carriage return, the two glued on one line, and
    the whole-second lines of text that has lost its carriage returns (`| tr '\\r' '\\n'`). A series
    ends at a summary, or where bytes or seconds go back (another run whose summary is missing).
    dd prints an update's seconds rounded to whole ones and its rate (bytes ÷ the exact time) to
    three digits: seconds_range is the elapsed time both allow, far narrower than ±0.5 s early on.
detect(text) -> SHAPED when a line is a summary line, else NOT_MINE.
"""

import math
import re
from functools import lru_cache

from ...core.units import DECIMAL_RATE_IN_MB_S, GIB_BYTES, KIB_BYTES, MB_BYTES, MIB_BYTES, TIB_BYTES, mb_from_bytes
from ...errors import ParseError, quoted
from .. import NOT_MINE, SHAPED
from ..text.numbers import number, refuse_long_numbers

TOOL = "dd"
TO_MB_S = {**DECIMAL_RATE_IN_MB_S,
           "KiB/s": KIB_BYTES / MB_BYTES, "MiB/s": MIB_BYTES / MB_BYTES, "GiB/s": GIB_BYTES / MB_BYTES,
           "TiB/s": TIB_BYTES / MB_BYTES}
_BINARY_UNIT = {"": "B/s", "K": "KiB/s", "M": "MiB/s", "G": "GiB/s", "T": "TiB/s"}

# Possessive quantifiers (*+, ++, ?+) never give back what they matched, and the searches start only
# where a number starts: a long line of digits, spaces or separators is scanned in linear time.
_NUM = r"\d++(?:[.,]\d++)?+(?:[eE][-+]?\d++)?+"
# Tail shared by every coreutils language: "<seconds> s, <rate> <unit>"; the rate may be a word
# without digits ("Infinity", translated) when the elapsed time was zero.
_GNU_TAIL = re.compile(
    rf"(?<!\d)(?<!\d[.,])(?P<seconds>{_NUM})\s*+(?:s|secs?|seconds|秒)\s*+[,，、]\s*+(?P<rate>{_NUM}|[^\s\d]++)\s++"
    r"(?P<unit>[kKMGT]?B/(?:s|秒))\s*+$")  # Japanese: "333.563 秒、 5.3 MB/秒"
# BSD and macOS, and GNU coreutils before 5.3 (2004): "… bytes transferred in 0.028418 seconds (368981986 bytes/sec)"
_BSD = re.compile(rf"^\s*+(?P<bytes>\d++) bytes transferred in (?P<seconds>{_NUM}) (?:secs|seconds) "
                  r"\((?P<rate>\d++) bytes/sec\)\s*+$")
# toybox (Android): "67108864 bytes (64 M) copied, 1.324659 s, 48 M/s", its units binary and rounded.
_TOYBOX = re.compile(r"^\s*+(?P<bytes>\d++) bytes \(\d++(?:\.\d++)?+ ?+[KMGTPE]?+\) copied, (?P<seconds>\d++\.\d++) s, "
                     r"(?P<rate>\d++(?:\.\d++)?+) ?+(?P<prefix>[KMGT]?+)/s\s*+$")
# BusyBox's third status line: sizes in its own binary shorthand, no space before the unit.
_BUSYBOX = re.compile(r"^\s*+(?P<bytes>\d++) bytes \(\d++(?:\.\d)?+[KMGTPE]?+B\) copied, (?P<seconds>\d++\.\d++) "
                      r"seconds, (?P<rate>\d++(?:\.\d)?+)(?P<prefix>[KMGT]?+)B/s\s*+$")
_RECORDS = re.compile(r"(?<!\S)(?P<full>\d{1,30}+)\+(?P<partial>\d{1,30}+)(?!\S)")


# dd's two record lines ("64+0 records in", "64+0 Datensätze ein", …): all a BusyBox built without
# its status line prints, so such a log is still told to be dd's (and refused as holding no speed).
_RECORDS_LINE = re.compile(r"\d{1,30}+\+\d{1,30}+[ \t]++[^\d\s][^\d]{0,60}+")  # on a stripped line


def detect(text):
    """SHAPED when a line is a dd summary (coreutils in any language, BSD or BusyBox), or two
    record lines follow one another."""
    lines = text.splitlines()
    if any(_GNU_TAIL.search(line) or _BSD.match(line) or _BUSYBOX.match(line) or _TOYBOX.match(line) for line in lines):
        return SHAPED
    records = [len(line) < 200 and bool(_RECORDS_LINE.fullmatch(line.strip())) for line in lines]
    return SHAPED if any(a and b for a, b in zip(records, records[1:])) else NOT_MINE


def dd_message(line):
    """The message of a line dd printed about itself ("dd: …", "/bin/dd: …"), else None."""
    head, sep, message = line.strip().partition(": ")
    return message if sep and head.rpartition("/")[2] == "dd" and message else None


def _is_error(line):
    message = dd_message(line)
    # GNU's only warning above a complete run: "partial read (…); suggest iflag=fullblock", translated
    # in every language but for the option name.
    return message is not None and "fullblock" not in message


def failure(text):
    """(line number, line) of the first dd error message in text, or None."""
    for number_, line in enumerate(text.split("\n"), start=1):
        if _is_error(line):
            return number_, line.strip()
    return None


def summary_roles(lines):
    """{index: (role, run)} of every line of `lines` (text split at newlines) that is summary-shaped
    and has no carriage return inside (those are status=progress updates dd overwrote): role "final"
    for a run's summary, "update" for a status=progress update that a copy of the terminal put on a
    line of its own, with its record lines ("N+M records out") as the previous line when it has them.

    dd prints a run's summary right below its "records out" line; an update never follows one. An
    update is told apart without them by its whole seconds (coreutils 8.28 and later print updates
    with "%.0f s", summaries with "%g s"), or, as coreutils 8.24 to 8.27 print both with "%g s",
    by what follows it: only updates, record lines and dd's messages, then a summary that copied at
    least its bytes in at least its seconds. A summary-shaped line followed by neither (`| tail -1`
    output, one a run) is a run's summary."""
    found = {}
    previous = ""
    for index, raw in enumerate(lines):
        if "\r" in raw.rstrip("\r"):
            continue  # updates overwritten in place: "\r<update>\r<update>…"
        line = raw.rstrip("\r")
        run = _parse_line(line, index + 1)
        if run:
            found[index] = (run, _RECORDS.search(previous))
        if line.strip():
            previous = line
    roles, below = {}, None  # below: the summary a run of updates leads to, reading upwards
    for index in range(len(lines) - 1, -1, -1):
        if index not in found:
            line = lines[index]
            if line.strip() and not (_RECORDS.search(line) or dd_message(line) or "B/s" in line):
                below = None  # other text: a command, a prompt; updates do not reach past it
            continue
        run, records = found[index]
        if records:
            roles[index] = ("final", run, records)
            below = run
        elif run["seconds_text"].isdigit():
            roles[index] = ("update", run, None)
        elif below is not None and run["bytes"] <= below["bytes"] and run["seconds"] <= below["seconds"]:
            roles[index] = ("update", run, None)
            below = run
        else:
            roles[index] = ("final", run, None)
            below = None
    return roles


@lru_cache(maxsize=1)
def _roles_of_text(text):
    """summary_roles of a whole log, worked out once: an import reads the same log with parse() and then
    progress(). Neither changes what it returns."""
    return summary_roles(text.split("\n"))


def parse(text):
    refuse_long_numbers(text, TOOL, newline_only=True)
    lines = text.split("\n")
    roles = _roles_of_text(text)
    runs = []
    error = None  # a dd error message since the last summary: (line number, line)
    for index, raw in enumerate(lines):
        if index in roles:
            role, run, records = roles[index]
            if role != "final":
                continue
            run = dict(run)
            run.pop("seconds_text")
            if error is not None:
                _refuse_failed_run(*error)
            run["records_out"] = [int(records.group("full")), int(records.group("partial"))] if records else None
            runs.append(run)
        elif "\r" not in raw.rstrip("\r") and _is_error(raw.rstrip("\r")):
            error = error or (index + 1, raw.strip())
    if not runs:
        lines = text.splitlines()
        if any(_RECORDS.search(line) for line in lines):
            raise ParseError(TOOL, "only record counts ('N+M records out'), no summary with bytes, seconds and speed: "
                                   "this dd (BusyBox built without its status line, or status=noxfer) printed no speed "
                                   "to import", line=len(lines), text=lines[-1])
        raise ParseError(TOOL, "no dd summary line ('… bytes … copied, … s, … MB/s') found",
                         line=len(lines) or None, text=lines[-1] if lines else None)
    return {"runs": runs}


_GLUED = re.compile(r"(?<=B/s)(?=[ \t]*+\d)")  # "… 62.2 MB/s100663296 bytes …": two updates on one line


def progress(text):
    refuse_long_numbers(text, TOOL, newline_only=True)
    series, current = [], {"points": [], "error": None}
    lines = text.split("\n")
    roles = _roles_of_text(text)
    for number_, raw in enumerate(lines, start=1):
        pieces = [part for piece in raw.split("\r") for part in _GLUED.split(piece)]
        standalone = len([piece for piece in pieces if piece.strip()]) == 1
        for piece in pieces:
            run = _parse_line(piece, number_)
            if run is None:
                if _is_error(piece) and current["error"] is None:
                    current["error"] = (number_, piece.strip())
                continue
            final = standalone and roles.get(number_ - 1, ("update",))[0] == "final"
            point = {"bytes": run["bytes"], "seconds": run["seconds"], "seconds_range": _elapsed(piece, run),
                     "final": final, "line": number_}
            last = current["points"][-1] if current["points"] else None
            if last is not None and not final and (point["bytes"] < last["bytes"]
                                                   or point["seconds"] < last["seconds"]):
                series.append(current)  # a new run: the one before ended without its summary in the text
                current = {"points": [], "error": None}
            current["points"].append(point)
            if final:
                series.append(current)
                current = {"points": [], "error": None}
    if current["points"]:
        series.append(current)
    return series


def _elapsed(piece, run):
    """[low, high]: the elapsed seconds that both the printed seconds and the printed rate allow."""
    seconds = run["seconds"]
    half = _half_step(run["seconds_text"]) or 0.0
    low, high = max(0.0, seconds - half), seconds + half
    tail = _GNU_TAIL.search(piece)
    rate = number(tail.group("rate")) if tail else None
    if rate:
        half_rate = _half_step(tail.group("rate")) or 0.0
        scale = TO_MB_S[run["rate_unit"]] * MB_BYTES
        low = max(low, run["bytes"] / ((rate + half_rate) * scale))
        if rate > half_rate:
            high = min(high, run["bytes"] / ((rate - half_rate) * scale))
    if low > high:  # the two roundings only just meet (parse() allows a hair of float error)
        low = high = seconds
    return [round(low, 6), round(high, 6)]


def _refuse_failed_run(line_no, line):
    reason = dd_message(line).rpartition(": ")[2]
    raise ParseError(TOOL, f"dd stopped with an error ({reason}) before the summary below it: the copy did not "
                           "finish, so its speed is not the card's; import the runs that ended without one",
                     line=line_no, text=line)


def _parse_line(line, line_no):
    bsd = _BSD.match(line)
    if bsd:
        rate = float(bsd.group("rate"))
        _check_rate(int(bsd.group("bytes")), bsd.group("seconds"), bsd.group("rate"), "B/s", line, line_no)
        return {"bytes": int(bsd.group("bytes")), "seconds": number(bsd.group("seconds")), "rate": rate,
                "rate_unit": "B/s", "mb_s": mb_from_bytes(rate), "line": line_no, "seconds_text": bsd.group("seconds")}
    busybox = _BUSYBOX.match(line) or _TOYBOX.match(line)
    if busybox:
        bytes_, seconds = int(busybox.group("bytes")), number(busybox.group("seconds"))
        if not seconds:
            raise ParseError(TOOL, "0 seconds: the copy took no measurable time", line=line_no, text=line)
        unit = _BINARY_UNIT[busybox.group("prefix")]
        _check_rate(bytes_, busybox.group("seconds"), busybox.group("rate"), unit, line, line_no)
        mb_s = float(f"{mb_from_bytes(bytes_ / seconds):.4g}")
        return {"bytes": bytes_, "seconds": seconds, "rate": number(busybox.group("rate")), "rate_unit": unit,
                "mb_s": mb_s, "line": line_no, "seconds_text": busybox.group("seconds")}
    tail = _GNU_TAIL.search(line)
    if not tail:
        return None
    head = line[: tail.start()]
    first = re.search(r"\d+", head)
    if not first or "B/s" in head:
        # "…, 1 s, 62.2 MB/s100663296 bytes …, 1.09719 s, 91.7 MB/s": the last status=progress update
        # with the final one written after it (coreutils ends its progress so when the byte count
        # moved since the last update); the summary proper follows the records lines.
        return None
    unit = tail.group("unit").replace("/秒", "/s")
    unit = "kB/s" if unit.lower() == "kb/s" else unit
    rate = number(tail.group("rate"))
    if rate is None:
        raise ParseError(TOOL, f"rate {quoted(tail.group('rate'))} is not a number (the copy took no measurable time)",
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
    BSD: whole bytes/sec; BusyBox: microseconds, the rate to one decimal of autoscaled binary
    units), so the true time lies within half a unit of the seconds' last digit and the true rate
    within half a unit of the rate's last digit. A line outside both is edited."""
    seconds, rate = number(seconds_text), number(rate_text)
    half_s, half_r = _half_step(seconds_text), _half_step(rate_text)
    if None in (half_s, half_r) or not (math.isfinite(seconds) and math.isfinite(rate)):
        raise ParseError(TOOL, "seconds or rate out of range", line=line_no, text=line)
    scale = TO_MB_S[unit] * MB_BYTES  # printed unit -> B/s
    slowest = bytes_ / (seconds + half_s)
    fastest = bytes_ / (seconds - half_s) if seconds > half_s else math.inf
    low, high = (rate - half_r) * scale, (rate + half_r) * scale
    if fastest < low * (1 - 1e-9) or slowest > high * (1 + 1e-9):
        actual = bytes_ / seconds / scale if seconds else math.inf
        raise ParseError(TOOL, f"{bytes_} bytes in {seconds_text} s is {actual:.3g} {unit}, but the line says "
                               f"{rate_text} {unit} (edited or corrupted?)", line=line_no, text=line)
