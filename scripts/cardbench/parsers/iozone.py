"""iozone output: `iozone -e -I -a -s 100M -r 4k -i 0 -i 1 -i 2` (the Raspberry Pi shape), `iozone -r 4k …`,
`iozone -a` (the auto table), one or more runs in a log.

Read: the header ("Iozone: Performance Test of File I/O", "Version $Revision: 3.489 $", "Include fsync in
write timing", "O_DIRECT feature enabled", "Record Size 4 kB", "Command line used: …", "Output is in
kBytes/sec") and the result table below its two header lines
  "              kB  reclen    write  rewrite    read    reread    read     write     read   rewrite …"
  "          102400       4     8047     8000    10536    15081    15965     7991"
whose figures stand right-aligned under their column (the columns of tests not run stay blank).
Units: iozone prints "Output is in kBytes/sec" and computes it as bytes ÷ 1024 ÷ seconds, so its kB/s
is KiB/s (1024 bytes a second); the table's kB (file size) and reclen are KiB too. Figures are kept in
KiB/s as printed. A table whose header says "Output is in operations per second" (-O), and throughput
mode (-t: "Children see throughput for …", no table), are refused naming the line.

An excerpt of the table as an article quotes it (its header and rows, with no banner or command line
above them and no "iozone test complete." below) is read too: its header may stop after any column (the
columns quoted), it is never taken as cut off, and iozone's settings are not in it, so its O_DIRECT and
fsync are None (unknown) and its 4 KiB random figures stay tool figures.

parse(text) -> {"runs": [{"version": str | None, "command": str | None, "direct": bool | None, "fsync": bool | None,
                          "rows": [{"kb": int, "reclen": int, "values": {column: int}, "line": int}],
                          "line": int}]}
    one run per table; columns: write, rewrite, read, reread, random read, random write, bkwd read,
    record rewrite, stride read, fwrite, frewrite, fread, freread. A run without "iozone test
    complete." after its table is cut off: an error naming its last line.
to_session(parsed) -> SessionFields: 4 KiB random reads and writes with O_DIRECT (-I) are the
    CrystalDiskMark-style subtest RND4K Q1T1 (results, KiB/s); every other figure of the main six
    columns is a tool_results entry "iozone <column> (<kB> kB file, <reclen> kB records)". Of an
    auto table (-a: many file sizes) the largest file's rows are kept, the rest stay in the raw
    file (a session holds at most 100 entries). The same figure in several runs is one entry.
detect(text) -> NAMED with iozone's banner, SHAPED with its table header, else NOT_MINE.
"""

import re

from ..core.units import KIB_BYTES, KIB_IN_MIB
from ..errors import ParseError
from . import NAMED, NOT_MINE, SHAPED
from .card_entries import results_from_table, tool_result_entry
from .fields import SessionFields
from .fio.options import fio_size
from .text.terminal import plain, unquoted
from .tool import ToolInfo

TOOL = "iozone"
UNIT = "KiB/s"
INFO = ToolInfo(name="iozone", programs=("iozone",), family="suite",
                description="iozone tables (-a, -I -r 4k -i 0 -i 1 -i 2, …), figures in kB/s = KiB/s",
                units={"kBytes/sec": "KiB/s (1024 bytes a second)"})

COLUMNS = ("write", "rewrite", "read", "reread", "random read", "random write", "bkwd read", "record rewrite",
           "stride read", "fwrite", "frewrite", "fread", "freread")
KEPT = COLUMNS[:6]  # the figures a session keeps; the raw file holds the rest
WRITES = {"write", "rewrite", "random write", "record rewrite", "fwrite", "frewrite"}
_HEADER_WORDS = ["kB", "reclen", "write", "rewrite", "read", "reread", "read", "write", "read", "rewrite", "read",
                 "fwrite", "frewrite", "fread", "freread"]

_BANNER = re.compile(r"^[ \t>]*+Iozone: Performance Test of File I/O")
_VERSION = re.compile(r"^[ \t>]*+Version \$Revision: ([\d.]{1,20}+) \$")
_COMMAND = re.compile(r"^[ \t>]*+Command line used: (.{1,2000}+)$")
_DIRECT = re.compile(r"(?:^|\s)-I(?:\s|$)")  # iozone -I: O_DIRECT
# the command typed, as the importer writes it
_LOGGED = re.compile(r"^\$ ((?:[^\s/]{0,200}+/){0,20}+iozone\s.{0,2000}+)$")
_TABLE_HEADER = re.compile(r"^[ \t>]*+kB[ \t]++reclen[ \t]++write\b")
_ROW = re.compile(r"^[ \t>]*+\d{1,15}+(?:[ \t]++\d{1,15}+){2,14}+[ \t]*+$")
_DONE = re.compile(r"^[ \t>]*+iozone test complete\.")
_THROUGHPUT = re.compile(r"^[ \t]*+Children see throughput for")
_OPS = re.compile(r"^[ \t>]*+Output is in operations per second")


def detect(text):
    """NAMED with the banner "Iozone: Performance Test of File I/O", SHAPED with the table header."""
    if "Iozone" not in text and "reclen" not in text:
        return NOT_MINE
    lines = [plain(line) for line in text.splitlines()]
    if any(_BANNER.match(line) for line in lines):
        return NAMED
    return SHAPED if any(_TABLE_HEADER.match(line) for line in lines) else NOT_MINE


def parse(text):
    runs, run, header, logged = [], None, None, None
    last = (0, "")
    for number, raw_line in enumerate(text.splitlines(), start=1):
        line = unquoted(plain(raw_line).rstrip(), keep_columns=True)
        if _LOGGED.match(line):
            logged = _LOGGED.match(line).group(1).strip()  # "$ iozone -e -I -s 100M -r 4k …": for the run below
            continue
        if _BANNER.match(line) or (run is None and (_COMMAND.match(line) or _TABLE_HEADER.match(line))):
            _close(run, last)
            # An excerpt: a table quoted with no banner, command or logged command above it (iozone's settings unknown).
            excerpt = run is None and logged is None and not _BANNER.match(line) and not _COMMAND.match(line)
            run, header = {"version": None, "command": logged,
                           "direct": None if excerpt else bool(logged and _DIRECT.search(logged)),
                           "fsync": None if excerpt else False, "rows": [], "complete": excerpt, "excerpt": excerpt,
                           "line": number}, None
            runs.append(run)
            logged = None
        if run is None:
            continue
        if line.strip():
            last = (number, line)
        if _THROUGHPUT.match(line):
            raise ParseError(TOOL, "iozone's throughput mode (-t) prints no result table; import a table run "
                                   "(-a, or -i … -r … -s …)", line=number, text=line)
        if _OPS.match(line):
            raise ParseError(TOOL, "this table is in operations per second (iozone -O); import iozone's kB/s "
                                   "output", line=number, text=line)
        found = _VERSION.match(line) or _COMMAND.match(line)
        if found:
            run["version" if found.re is _VERSION else "command"] = found.group(1).strip()
            if found.re is _COMMAND and _DIRECT.search(found.group(1)):
                run["direct"] = True  # -I is O_DIRECT: a paste may start below "O_DIRECT feature enabled"
        elif "O_DIRECT feature enabled" in line:
            run["direct"] = True
        elif "Include fsync in write timing" in line:
            run["fsync"] = True
        elif _TABLE_HEADER.match(line):
            header = _columns(line, number)
        elif _DONE.match(line):
            run["complete"] = True
            run = None
        elif header is not None and _ROW.match(line):
            run["rows"].append(_row(line, header, number))
    _close(run, last)
    if not runs:
        raise ParseError(TOOL, "no iozone table ('kB  reclen  write  rewrite …')")
    for run in runs:
        if not run["rows"]:
            raise ParseError(TOOL, "iozone's header without its result table", line=run["line"])
        del run["complete"], run["excerpt"]
    return {"runs": runs}


def _close(run, last):
    """A run that ended without "iozone test complete." was cut off: name its last line. Unless its command
    names every file size (-s) and record length (-r) and the table holds a row for each: a paste trimmed
    to the table, nothing of it missing."""
    if run is not None and not run["complete"] and not _all_rows(run):
        raise ParseError(TOOL, "the output stops before 'iozone test complete.': cut off, or iozone was stopped",
                         line=last[0] or run["line"], text=last[1] or None)


def _all_rows(run):
    words = (run["command"] or "").split()
    sizes = {words[i + 1] for i, word in enumerate(words[:-1]) if word == "-s"}
    records = {words[i + 1] for i, word in enumerate(words[:-1]) if word == "-r"}
    if not sizes or not records or any(fio_size(size) is None for size in sizes | records):
        return False
    tests = {words[i + 1] for i, word in enumerate(words[:-1]) if word == "-i"}
    if not tests <= set(_TEST_COLUMNS):
        return False
    columns = {name for test in (tests or _TEST_COLUMNS) for name in _TEST_COLUMNS[test]}
    if any(set(row["values"]) != columns for row in run["rows"]):
        return False  # a row cut short
    rows = {(row["kb"], row["reclen"]) for row in run["rows"]}
    return rows == {(fio_size(size) // KIB_BYTES, fio_size(record) // KIB_BYTES)
                    for size in sizes for record in records}


# iozone -i N: the columns each test fills
_TEST_COLUMNS = {"0": ("write", "rewrite"), "1": ("read", "reread"), "2": ("random read", "random write"),
                 "3": ("bkwd read",), "4": ("record rewrite",), "5": ("stride read",), "6": ("fwrite", "frewrite"),
                 "7": ("fread", "freread")}


def _columns(line, number):
    """[(right edge, column name)] of the table's header line: all of iozone's columns, or its first ones as a
    paste trimmed to the tests run (-i 0 -i 1 -i 2: "kB  reclen  write  rewrite  read  reread  read  write")."""
    words = [(match.end(), match.group()) for match in re.finditer(r"\S++", line)]
    names = [word for _, word in words]
    if len(names) < 3 or names != _HEADER_WORDS[:len(names)]:
        raise ParseError(TOOL, "an iozone table header with other columns than kB reclen write rewrite read …",
                         line=number, text=line)
    return list(zip([end for end, _ in words], ("kB", "reclen") + COLUMNS))


def _row(line, header, number):
    values = {}
    for match in re.finditer(r"\d++", line):
        end, name = min(header, key=lambda column: abs(column[0] - match.end()))
        if abs(end - match.end()) > 3 or name in values:
            raise ParseError(TOOL, f"a figure that stands under no column ({match.group()})", line=number, text=line)
        values[name] = int(match.group())
    if "kB" not in values or "reclen" not in values:
        raise ParseError(TOOL, "a table row without its file size and record length", line=number, text=line)
    return {"kb": values.pop("kB"), "reclen": values.pop("reclen"), "values": values, "line": number}


def kept_rows(run):
    """The rows a session keeps: of an auto table (several file sizes), those of the largest file."""
    largest = max(row["kb"] for row in run["rows"])
    return [row for row in run["rows"] if row["kb"] == largest]


def _is_rnd4k(run, row, column):
    return run["direct"] and row["reclen"] == 4 and column in ("random read", "random write")


def measurements(parsed):
    """{"results": [...], "tool_results": [...]} of parse()'s runs (see the module's docstring)."""
    random, figures, commands = {}, {}, {}
    for run in parsed["runs"]:
        for row in kept_rows(run):
            for column in KEPT:
                if column not in row["values"]:
                    continue
                key = (column, row["kb"], row["reclen"], run["direct"])
                target = random if _is_rnd4k(run, row, column) else figures
                target.setdefault(key, []).append(row["values"][column])
                commands.setdefault(key, set()).add(run["command"])
    out = {}
    for column in (c for c in KEPT if any(key[0] == c for key in random)):
        keys = [key for key in random if key[0] == column]
        values = [value for key in keys for value in random[key]]
        sizes = {kb for _, kb, _, _ in keys}
        entry = results_from_table([[{"test": "RND4K Q1T1", "op": "write" if column in WRITES else "read",
                                      "value": value}] for value in values], UNIT,
                                   command=_one(set().union(*(commands[key] for key in keys))))[0]
        if len(sizes) == 1:
            kb = sizes.pop()
            entry["size"] = f"{kb // KIB_IN_MIB}M" if kb % KIB_IN_MIB == 0 else f"{kb}K"
        out.setdefault("results", []).append(entry)
    for key, values in figures.items():
        column, kb, reclen, direct = key
        out.setdefault("tool_results", []).append(tool_result_entry(
            TOOL, f"iozone {column} ({kb} kB file, {reclen} kB records)", "write" if column in WRITES else "read",
            UNIT, values, block_size=f"{reclen}K", queue_depth=1, threads=1, direct=direct, target="file",
            command=_one(commands[key])))
    return out


def _one(commands):
    commands = {command for command in commands if command}
    return commands.pop()[:2000] if len(commands) == 1 else None


def notes(parsed):
    """Sentences for the session's notes: what of an auto table the session keeps."""
    out = []
    for run in parsed["runs"]:
        sizes = sorted({row["kb"] for row in run["rows"]})
        if len(sizes) > 1:
            out.append(f"iozone auto table (file sizes {sizes[0]} to {sizes[-1]} kB): "
                       f"the figures of the {sizes[-1]} kB file are kept; the raw output holds the whole table.")
    return out


def to_session(parsed, **hints):
    found = measurements(parsed)
    versions = {run["version"] for run in parsed["runs"] if run["version"]}
    tool = {"name": TOOL, "version": versions.pop()} if len(versions) == 1 else {"name": TOOL}
    runs = max(len(entry["runs"]) for entries in found.values() for entry in entries)
    return SessionFields(tools=[tool], measurements=found, runs=runs, notes=notes(parsed))
