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
Every row comes out in the order flashbench printed it (largest block first). A line that starts
like a row ("align …", "Aligned @ …", "<size> …") must read as one; any other line (shell prompt and
command lines, "^C", a wrapper script's messages, "sched_setscheduler: Operation not permitted")
is skipped.

flashbench prints each time into 7 characters (snprintf into char[8]), so a unit may be cut: a
negative diff always comes in ns, "-14207n" is -14207 ns, "-412331" is -412331 ns, and a diff of
-1 ms or more has lost digits as well: "-707165" stands for -7071650 ns (or -70716500 …). Such a
bare 7-character diff is scaled by the power of ten that brings it nearest to on − (pre + post) / 2
worked out from the printed times (which differ from it by their rounding to three digits only).
"1e+03µ" (999.5 to 999.999 µs) is read as µs.

An --open-au sweep is `interrupted` when the text holds "^C" or, if the caller passes
smallest_block_bytes (the -b of the command), when the last row is above that size.

runs(text) -> [(first, text)]: the outputs of several runs pasted one after another (a loop over
--open-au-nr, or over -b for -a) cut apart where the block size or offset grows again, each run's
text's line 1 being the input's line `first`. has_rows(text) -> whether any line starts like a row.

detect(text) -> NAMED when a logged flashbench command comes with rows of any of the three,
SHAPED for rows alone, else NOT_MINE.

parse_file(text) -> {"runs": [{"kind", "parsed", "entry"}]}: a log of flashbench commands and their
    output, each logged command and the rows below it one -a, --open-au or -f run, with block, erase
    and open-AU sizes taken from the command (parsers.flashbench_command). The log is read as a shell
    would have run it (parsers/text/logged_shell.py): variables set earlier (ERASE=$((4*1024*1024));
    flashbench -O --erasesize=$ERASE …), arithmetic, sudo, pipes and for loops (for n in 2 3 4; do
    flashbench -O --open-au-nr=$n …; done gives one sweep per value, cut apart where the block size
    grows again). Options flashbench was not given take its defaults (-b 16 KiB, -e 4 MiB,
    --open-au-nr 2). Output pasted without its command imports what the output says (-a, -f), or,
    for an --open-au sweep, whose number of open erase blocks flashbench does not print, is refused
    with the option to give. Lines of no flashbench row (a wrapper script's messages) are skipped.
to_session(parsed) -> SessionFields: the flashbench_align, flashbench_open_au, flashbench_find_fat entries.
"""

import re

from ..core.units import DECIMAL_RATE_IN_MB_S, MIB_BYTES, NS_IN_MS, NS_IN_S, NS_IN_US, bytes_from_size_text
from ..core.measurement_kinds import FLASHBENCH_KINDS
from ..errors import ParseError, quoted
from . import NAMED, NOT_MINE, SHAPED
from .card_entries import align_entry, find_fat_entry, open_au_entry
from .fields import SessionFields
from .flashbench_command import options
from .text.log_lines import renumbered
from .text.logged_shell import Shell, command_lines
from .text.numbers import refuse_long_numbers
from .tool import ToolInfo

TOOL = "flashbench"
INFO = ToolInfo(name="flashbench", programs=("flashbench",), family="device facts",
                description="flashbench -a, --open-au and -f output, with the logged commands",
                units={"M/s": "MB/s (10^6 bytes a second)", "ns, µs, ms, s": "times, kept in ns",
                       "KiB, MiB, GiB": "binary sizes"})
DEFAULT_BLOCK_BYTES = 16384  # flashbench's -b when the command gives none
DEFAULT_ERASE_BYTES = 4 * MIB_BYTES  # its -e
DEFAULT_OPEN_AU = 2  # its --open-au-nr

TIME_NS = {"ns": 1, "n": 1, "µs": NS_IN_US, "μs": NS_IN_US, "us": NS_IN_US, "Âµs": NS_IN_US, "µ": NS_IN_US,
           "μ": NS_IN_US, "Âµ": NS_IN_US, "ms": NS_IN_MS, "s": NS_IN_S}
RATE_MB_S = {"B": DECIMAL_RATE_IN_MB_S["B/s"], "K": DECIMAL_RATE_IN_MB_S["kB/s"], "M": DECIMAL_RATE_IN_MB_S["MB/s"],
             "G": DECIMAL_RATE_IN_MB_S["GB/s"]}

# Possessive quantifiers (*+, ++, ?+) keep what they matched: no quadratic backtracking over long runs.
# "µ" alone: "1e+03µs" cut to 7 bytes (µ is two).
_TIME = r"(-?\d++(?:\.\d++)?+(?:e[-+]?\d++)?+)\s*+(ns|µs|μs|us|Âµs|ms|s|µ|μ|Âµ)"
# A diff may have lost its unit or part of it when cut to 7 characters (see above).
_DIFF = r"(-?\d++(?:\.\d++)?+(?:e[-+]?\d++)?+)\s*+(ns|µs|μs|us|Âµs|ms|s|n|µ|μ|Âµ)?+"
DIFF_WIDTH = 7  # characters flashbench prints a time in
_ALIGN_NEW = re.compile(rf"^align\s++(\d++)\s++pre\s++{_TIME}\s++on\s++{_TIME}\s++post\s++{_TIME}"
                        rf"\s++diff\s++{_DIFF}\s*+$")
_ALIGN_OLD = re.compile(rf"^Aligned\s*+@\s*+(\d++)\s++Delay:?+\s*+{_TIME}\s*+$")
_SIZE = r"\d++(?:\.\d++)?+(?:[KMG]iB|B)"
# flashbench prints rates in 7 characters, so a fast one loses its "s": "1.462G/".
_RATE = re.compile(r"^(\d++(?:\.\d++)?+(?:e[-+]?\d++)?+)([BKMG])/s?$")
_ROW = re.compile(rf"^({_SIZE})\s++(.*)$")
# A logged command line: behind the "$ " every prompt is written as, or traced by `set -x`.
_COMMAND = re.compile(r"^[ \t]*+(?:\$|\+{1,8}+)[ \t]++(?:[^\r\n]{0,2000}?[ \t;&|/])?flashbench(?:[ \t]|$)")
# Lines that start like a row must read as one; any other line is not flashbench's.
_ROW_START = re.compile(r"^(?:align\s|Aligned\b|\d++(?:\.\d++)?+\s?+(?:[KMG]i?+B|B)(?:\s|$))")
_OFFSET_OR_SIZE = re.compile(rf"^(?:align\s++(\d{{1,30}}+)|Aligned\s*+@\s*+(\d{{1,30}}+)|({_SIZE})(?:\s|$))")


def detect(text):
    """NAMED when a logged flashbench command ("$ sudo ./flashbench -a …", "+ flashbench …") comes
    with -a, --open-au or -f rows; SHAPED for the rows alone."""
    lines = text.splitlines()
    if not any(_ALIGN_NEW.match(line.replace("\t", " ").strip()) or _ALIGN_OLD.match(line.strip())
               or _ROW.match(line.strip()) for line in lines):
        return NOT_MINE
    commanded = any(TOOL in line and len(line) < 4096 and _COMMAND.match(line) for line in lines)
    return NAMED if commanded else SHAPED


def _ns(value, unit):
    return round(float(value) * TIME_NS[unit], 3)


def _is_noise(line):
    """Lines a pasted log may hold around the figures: anything that does not start like a row."""
    return not _ROW_START.match(line.strip())


def has_rows(text):
    """Whether any line of text starts like a row (and so must read as one)."""
    return any(_ROW_START.match(line.strip()) for line in text.splitlines())


def _diff_ns(printed, unit, point):
    """The printed diff in ns; a bare number cut to DIFF_WIDTH characters scaled as the docstring says."""
    value = float(printed)
    if unit:
        return _ns(printed, unit)
    if len(printed) < DIFF_WIDTH:
        return value
    worked_out = point["on_ns"] - (point["pre_ns"] + point["post_ns"]) / 2
    scales = [10**k for k in range(13)]
    return value * min(scales, key=lambda scale: abs(value * scale - worked_out))


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
            point["diff_ns"] = round(_diff_ns(g[7], g[8], point), 3)
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
                raise ParseError(TOOL, f"{quoted(cell)} is not a flashbench rate like 12.3M/s", line=number_, text=line)
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


def runs(text):
    """[(first line, text)] of each run in text: a new run starts at a row whose offset or block
    size is not below the row before it (flashbench prints largest first)."""
    starts, previous = [], None
    lines = text.splitlines()
    for index, line in enumerate(lines):
        found = _OFFSET_OR_SIZE.match(line.replace("\t", " ").strip())
        if not found:
            continue
        offset, aligned, size = found.groups()
        current = int(offset or aligned) if (offset or aligned) else bytes_from_size_text(size)
        if current is None:
            continue
        if previous is None or current >= previous:
            starts.append(index)
        previous = current
    if len(starts) < 2:
        return [(1, text)]
    bounds = [0] + starts[1:] + [len(lines)]
    return [(bounds[k] + 1, "\n".join(lines[bounds[k]:bounds[k + 1]])) for k in range(len(bounds) - 1)]


def parse(text):
    lines = [line for _, line in _lines(text)]
    if any(_ALIGN_NEW.match(line) or _ALIGN_OLD.match(line) or line.startswith(("align ", "Aligned"))
           for line in lines):
        return parse_align(text)
    rows = _rows(text, "--open-au or -f")
    if any(len(values) > 1 for _, _, values, _ in rows):
        return parse_find_fat(text)
    return parse_open_au(text)


def _segments(text):
    """[{"commands": [Command] or None, "line": command line or None, "first": first output line,
    "lines": output lines}] of the log, split at every logged command line."""
    shell = Shell(programs={TOOL})
    segments, current = [], None
    for number, line in command_lines(text):
        commands = shell.read(line)
        if commands is not None:
            current = {"commands": [c for c in commands if c.name == TOOL] or None, "line": number, "first": None,
                       "lines": []}
            segments.append(current)
            continue
        if current is None:
            current = {"commands": None, "line": None, "first": None, "lines": []}
            segments.append(current)
        if current["first"] is None:
            current["first"] = number
        gap = number - current["first"] - len(current["lines"])  # lines joined by a trailing backslash
        current["lines"] += [""] * gap + [line]
    return [s for s in segments if has_rows("\n".join(s["lines"]))]


def parse_file(text):
    """Every run of the log with what its command says: [{"kind", "parsed", "entry": the entry
    builder's arguments}], in order; the checks that need the command (--erasesize against the
    rows, an --open-au sweep without its command) are made here, run by run."""
    found = []
    segments = _segments(text)
    if not segments:
        raise ParseError(TOOL, "no flashbench -a, --open-au or -f rows found", line=None)
    for segment in segments:
        commands = segment["commands"]
        pieces = runs("\n".join(segment["lines"]))
        if commands and 1 < len(commands) < len(pieces):
            raise ParseError(TOOL, f"the loop runs flashbench {len(commands)} times, but {len(pieces)} outputs "
                                   "follow it", line=segment["line"])
        for index, (first, piece) in enumerate(pieces):
            first += segment["first"] - 1  # the piece's first line, counted in the file
            try:
                parsed = parse(piece)
            except ParseError as exc:
                raise renumbered(exc, first) from None
            command = commands[min(index, len(commands) - 1)] if commands else None
            first_row = first + next(i for i, line in enumerate(piece.splitlines()) if has_rows(line))
            found.append(_described(parsed, command, segment["line"], first_row))
    return {"runs": found}


def to_session(parsed, command=None, raw=None, **hints):
    """The -a, --open-au and -f entries of the log's runs, each under its own session key. command: the
    command's text as recorded, in place of the logged one (the collector's, naming the card by its device);
    raw: the raw files' paths, given to every entry."""
    found = {kind: [] for kind in FLASHBENCH_KINDS}
    for run in parsed["runs"]:
        build = {"align": align_entry, "find_fat": find_fat_entry, "open_au": open_au_entry}[run["kind"]]
        described = {**run["entry"], **({"command": command} if command else {})}
        found[f"flashbench_{run['kind']}"].append(build(run["parsed"], **described, raw=raw))
    return SessionFields(tools=[{"name": TOOL}], measurements={k: v for k, v in found.items() if v}, runs=1)


def _described(parsed, command, command_line, first_row):
    """One parsed run with what the command that printed it (None: not in the log) says, as the
    entry builder's arguments."""
    args = list(command.args) if command else None
    opts = options(args, command_line) if command else options([])
    text = ("flashbench " + " ".join(args))[:2000] if command else None
    block = opts["block"] or (DEFAULT_BLOCK_BYTES if command else None)
    if parsed["kind"] == "align":
        return _run(parsed, block_size_bytes=block, count=opts["count"], command=text)
    largest = (parsed["rows"] if parsed["kind"] == "find_fat" else parsed["points"])[0]["block_size_bytes"]
    # flashbench's sweeps start at the erase size: the output says it when the command does not
    erase = opts["erase"] or (DEFAULT_ERASE_BYTES if command else int(largest))
    if largest > erase:
        given = f"--erasesize={erase}" if opts["erase"] else f"no --erasesize (flashbench's default is {erase})"
        raise ParseError(TOOL, f"the command gives {given}, but the rows start at {int(largest)} bytes: is it the "
                               "command that printed them?", line=command_line)
    if parsed["kind"] == "find_fat":
        return _run(parsed, erase_size_bytes=erase, block_size_bytes=block, command=text)
    if command is None:
        raise ParseError(TOOL, "an --open-au sweep without its command line above it: the number of erase blocks "
                               "open at once is not in the output; put the command above it with --open-au-nr, "
                               f"e.g. '$ flashbench --open-au --open-au-nr=2 --erasesize={erase} /dev/sdX'",
                         line=first_row)
    return _run(parsed, mode=opts["mode"], open_au=opts["open_au"] or DEFAULT_OPEN_AU, erase_size_bytes=erase,
                block_size_bytes=block, command=text, offset_bytes=opts["offset"])


def _run(parsed, **entry):
    return {"kind": parsed["kind"], "parsed": parsed, "entry": entry}
