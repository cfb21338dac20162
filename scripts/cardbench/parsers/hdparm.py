"""hdparm read timings: `hdparm -t`, `hdparm -t --direct`, `hdparm -T` (also `-Tt`, several runs).

Lines read (hdparm 9.x; the device line "/dev/sdc:" above them names the device):
  " Timing buffered disk reads: 124 MB in  3.02 seconds =  41.03 MB/sec"     hdparm -t
  " Timing O_DIRECT disk reads: 122 MB in  3.02 seconds =  40.33 MB/sec"     hdparm -t --direct
  " Timing buffered disk reads (offset 1 GB): …"                              hdparm -t --offset 1
  " Timing cached reads:   56476 MB in  1.99 seconds = 28380.00 MB/sec"      hdparm -T
  " Timing O_DIRECT cached reads: …"                                          hdparm -T --direct
Units: hdparm reads in buffers of TIMING_BUF_MB × 1024 × 1024 bytes and prints their count as "MB",
so its "MB" is MiB and "MB/sec" is MiB/s (2^20 bytes a second); below 1 MiB/s it prints
"kB/sec", total_MB / elapsed × 1024: KiB/s. The figures are kept as printed, in MiB/s or KiB/s.

parse(text) -> {"runs": [{"test": "hdparm -t" | "hdparm -t --direct" | "hdparm -T" | "hdparm -T --direct"
                          (+ " --offset N"), "cached": bool, "direct": bool, "device": str | None,
                          "mib": int, "seconds": float, "value": float, "unit": "MiB/s" | "KiB/s",
                          "command": str | None, "line": int}]}
    in order; "command" is the logged `$ hdparm …` line above the run. A timing line cut off before
    its figure, or whose MB ÷ seconds cannot give the rate it prints, is an error naming the line.
to_session(parsed) -> SessionFields: the disk reads (-t) as tool_results, one entry per test with
    every run; the cached reads (-T) time the host's memory, not the card: they are told in the
    session's notes only (the raw file keeps them). Only -T runs: an error.
detect(text) -> NAMED with a timing line below a logged hdparm command, SHAPED with a timing line.
"""

import re

from ..errors import ParseError
from . import NAMED, NOT_MINE, SHAPED
from .card_entries import tool_result_entry
from .fields import SessionFields
from .text.terminal import plain
from .tool import ToolInfo

TOOL = "hdparm"
INFO = ToolInfo(name="hdparm", programs=("hdparm",), family="sequential",
                description="hdparm -t / --direct -t read timings (-T cached reads go to the notes)",
                units={"MB/sec": "MiB/s (2^20 bytes a second)", "kB/sec": "KiB/s (1024 bytes a second)"})
UNITS = {"MB/sec": "MiB/s", "kB/sec": "KiB/s"}

_TIMING_START = re.compile(r"^[ \t>]*+Timing (buffered|O_DIRECT) (disk|cached) reads(?: \(offset (\d{1,9}+) GB\))?:")
_TIMING_START_CACHED = re.compile(r"^[ \t>]*+Timing (O_DIRECT )?cached reads:")
_FIGURE = re.compile(r"^[ \t]*+(\d{1,12}+) MB in[ \t]++(\d{1,6}+\.\d{1,6}+) seconds =[ \t]*+(\d{1,12}+\.\d{1,6}+) "
                     r"(MB/sec|kB/sec)[ \t]*+$")
_DEVICE = re.compile(r"^[ \t>]*+(/dev/[\w./-]{1,200}+):[ \t]*+$")
# A logged command, as unwrap() writes it ("$ hdparm -t /dev/sdc") or still behind a coloured or quoted prompt.
_COMMAND = re.compile(r"^[ \t>]*+(?:[^\s$#]{0,200}+[$#][ \t]++)?+(?:sudo[ \t]++(?:-\S{1,20}+[ \t]++)*+)?+"
                      r"(?:\S{0,200}+/)?+hdparm(?:[ \t]++(.{0,2000}+))?$")
_SLACK = 0.002  # beyond the rounding of the printed seconds (1/100 s) and rate (1/100)


def detect(text):
    """NAMED when a timing line follows a logged hdparm command, SHAPED with a timing line alone."""
    if "Timing " not in text:
        return NOT_MINE
    lines = [plain(line) for line in text.splitlines()]
    if not any(_TIMING_START.match(line) or _TIMING_START_CACHED.match(line) for line in lines):
        return NOT_MINE
    return NAMED if any(_COMMAND.match(line) for line in lines) else SHAPED


def parse(text):
    runs, device, command = [], None, None
    for number, raw_line in enumerate(text.splitlines(), start=1):
        line = plain(raw_line)
        logged = _COMMAND.match(line)
        if logged:
            command, device = f"hdparm {logged.group(1) or ''}".strip(), None
            continue
        found = _DEVICE.match(line)
        if found:
            device = found.group(1)
            continue
        start = _TIMING_START.match(line) or _TIMING_START_CACHED.match(line)
        if start:
            runs.append(_run(line, start, number, device, command))
    if not runs:
        raise ParseError(TOOL, "no 'Timing … reads: N MB in S seconds = R MB/sec' line")
    return {"runs": runs}


def _run(line, start, number, device, command):
    if start.re is _TIMING_START:
        direct, cached, offset = start.group(1) == "O_DIRECT", start.group(2) == "cached", start.group(3)
    else:
        direct, cached, offset = bool(start.group(1)), True, None
    figure = _FIGURE.match(line[start.end():])
    if not figure:
        raise ParseError(TOOL, "a timing line without its 'N MB in S seconds = R MB/sec' figure (cut off, or "
                               "hdparm failed to read the device)", line=number, text=line)
    mib, seconds, value, unit = int(figure.group(1)), float(figure.group(2)), float(figure.group(3)), figure.group(4)
    if not _adds_up(mib * (1024 if unit == "kB/sec" else 1), seconds, value):
        raise ParseError(TOOL, f"{mib} MB in {seconds} seconds cannot give {value} {unit}: the line was edited or "
                               "broken", line=number, text=line)
    test = "hdparm -T" if cached else "hdparm -t"
    test += " --direct" if direct else ""
    test += f" --offset {offset}" if offset else ""
    return {"test": test, "cached": cached, "direct": direct, "device": device, "mib": mib, "seconds": seconds,
            "value": value, "unit": UNITS[unit], "command": command, "line": number}


def _adds_up(amount, seconds, value):
    """Whether `amount` (MB, or kB for kB/sec) over the printed seconds, which hdparm rounds to 1/100 s,
    can give the printed rate."""
    low = amount / (seconds + 0.005) * (1 - _SLACK) - 0.005
    high = amount / (seconds - 0.005) * (1 + _SLACK) + 0.005 if seconds > 0.005 else float("inf")
    return low <= value <= high


def entries(parsed):
    """tool_results of the disk-read runs: one entry per (test, unit), every run in order."""
    groups = {}
    for run in parsed["runs"]:
        if not run["cached"]:
            groups.setdefault((run["test"], run["unit"]), []).append(run)
    out = []
    for (test, unit), runs in groups.items():
        commands = {run["command"] for run in runs}
        out.append(tool_result_entry(TOOL, test, "read", unit, [run["value"] for run in runs], direct=runs[0]["direct"],
                                     target="device", command=commands.pop() if len(commands) == 1 else None))
    return out


def cached_note(parsed):
    """The -T runs as a sentence for the notes, or None: they are not a card figure. Plain -T times the
    host's memory and page cache; with --direct it reads the same 2 MiB again and again, which the
    device's or the reader's own cache answers."""
    cached = [run for run in parsed["runs"] if run["cached"]]
    if not cached:
        return None
    figures = ", ".join(f"{run['test']}: {run['value']:g} {'MB/sec' if run['unit'] == 'MiB/s' else 'kB/sec'}"
                        for run in cached)
    return f"hdparm cached reads (the host's or the device's cache, not a card figure): {figures}."


def to_session(parsed, **hints):
    found = entries(parsed)
    if not found:
        first = parsed["runs"][0]
        raise ParseError(TOOL, f"only cached reads ({first['test']}): they time the host's memory, not the card; "
                               "import hdparm -t output", line=first["line"], text=None)
    note = cached_note(parsed)
    return SessionFields(tools=[{"name": TOOL}], measurements={"tool_results": found},
                         runs=max(len(entry["runs"]) for entry in found), notes=[note] if note else [])
