"""PiBenchmarks' storage benchmark (TheRemote/PiBenchmarks Storage.sh): its raw log, in ANSI colours,
and the result table it prints at the end, together or either alone.

The raw log (each tool below the script's yellow heading):
  "Running HDParm tests ..."      hdparm -Tt --direct (or the fallbacks): "MB/sec" = MiB/s (parsers.hdparm)
  "HDParm: 40.09 MB/sec - HDParmCached: 40.34 MB/sec"
  "Running dd tests ..."          dd if=/dev/zero of=test bs=4k count=130k conv=fsync: dd's decimal MB/s
  "DD Write Speed: 14.3 MB/s"
  "FIO results - 4k RandWrite: 1993 IOPS (7974 KB/s) - 4k RandRead: 4012 IOPS (16050 KB/s)"
        fio --minimal --direct=1 --bs=4k --iodepth=64 --ioengine=libaio --size=80M, one job: the terse
        fields 7/8 and 48/49, bandwidth in KiB/s (the script's "KB/s") and IOPS: RND4K Q64T1
  "Running iozone test ..."       iozone -a -e -I -i 0 -i 1 -i 2 -s 80M -r 4k: kB/s = KiB/s (parsers.iozone)
The result table (Category, Test, Result):
  "HDParm  Disk Read  40.09 MB/sec", "HDParm  Cached Disk Read  40.34 MB/sec", "DD  Disk Write  14.3 MB/s",
  "FIO  4k random read  4012 IOPS (16050 KB/s)", "FIO  4k random write  …", "IOZone  4k read  16032 KB/s",
  "IOZone  4k write  …", "IOZone  4k random read  …", "IOZone  4k random write  …", then "Score: 1234".
The script before November 2023 wrote hdparm's figures followed by "MB/s" ("HDParm: 41.90 MB/s", "HDParm
Disk Read  41.90 MB/s"): hdparm's number, so MiB/s all the same.
Units as printed: hdparm's MB/sec is MiB/s, dd's MB/s is 10^6 bytes a second, the fio and iozone KB/s
are KiB/s. The cached reads time the host as much as the card and the Score is the script's own sum:
both go to the notes, never to a card figure.

parse(text) -> {"hdparm": hdparm.parse() | None, "dd": dd.parse() | None, "iozone": iozone.parse() | None,
                "fio": {"read"|"write": {"iops", "kib_s", "line"}}, "table": {(category, test): {"value",
                "unit", "iops", "line"} or {"missing": True, "line"} where the script printed no figure},
                "score": int | None}
to_session(parsed) -> SessionFields: each figure once, from the raw log where it holds it, else from the
    table; a figure in neither is left out, a table line that cannot be read is an error naming it.
detect(text) -> NAMED with the script's headings, its result table, its fio or iozone summary line or its
    closing prompt (a paste from the fio step on).
"""

import re

from ..errors import ParseError
from . import NAMED, NOT_MINE, hdparm, iozone
from .dd import tool as dd_parser
from .card_entries import dd_entry, results_from_table, tool_result_entry
from .fields import SessionFields
from .text.script_log import merge_measurements, sections
from .text.terminal import plain
from .tool import ToolInfo

TOOL = "pibenchmarks"
INFO = ToolInfo(name="pibenchmarks", programs=(), family="suite",
                description="PiBenchmarks Storage.sh: its coloured log and result table (hdparm, dd, fio, iozone)",
                units={"MB/sec": "hdparm: MiB/s", "MB/s": "dd: 10^6 bytes a second", "KB/s": "fio, iozone: KiB/s"})
DD_COMMAND = "dd if=/dev/zero of=test bs=4k count=130k conv=fsync"  # the script's own, never echoed
FIO_TEST = "RND4K Q64T1"  # --bs=4k --iodepth=64, one job
IOZONE_TEST = "iozone {} (81920 kB file, 4 kB records)"  # -s 80M -r 4k, as parsers.iozone names them

_HEADINGS = {
    "hdparm": re.compile(r"^[ \t>]*+Running HDParm tests \.\.\."),
    "dd": re.compile(r"^[ \t>]*+Running dd tests \.\.\."),
    "fio": re.compile(r"^[ \t>]*+Running fio write test \.\.\."),
    "iozone": re.compile(r"^[ \t>]*+Running iozone test \.\.\."),
    "table": re.compile(r"^[ \t>]*+Category[ \t]++Test[ \t]++Result"),
    "end": re.compile(r"^[ \t>]*+(?:Enter a description of your storage|Compare with previous benchmark results)"),
}
_FIO = re.compile(r"FIO results - 4k RandWrite: (\d{1,12}+) IOPS \((\d{1,12}+) KB/s\) - 4k RandRead: (\d{1,12}+) IOPS "
                  r"\((\d{1,12}+) KB/s\)")
_ROW = re.compile(r"^[ \t>]*+(HDParm|DD|FIO|IOZone)[ \t]++((?:[\w-]++ ){0,4}?[\w-]++)[ \t]{2,}+(.{0,80}+)$")
_FIGURE = re.compile(r"^([\d.]{1,20}+) (MB/sec|kB/sec|MB/s|KB/s)[ \t]*+$")
_FIO_FIGURE = re.compile(r"^(\d{1,12}+) IOPS \((\d{1,12}+) KB/s\)[ \t]*+$")
_SCORE = re.compile(r"^[ \t>]*+Score: (\d{1,12}+)")
_HDPARM_UNITS = {"MB/sec": "MiB/s", "kB/sec": "KiB/s"}


_OWN = re.compile(r"^[ \t>]*+(?:Running (?:HDParm|dd|fio write|iozone) tests? \.\.\.|Category[ \t]++Test[ \t]++Result|"
                  r"FIO results - 4k RandWrite: |RandRead: \d++ - RandWrite: \d++ - Read: |"
                  r"Enter a description of your storage)")


def detect(text):
    """NAMED with what only the script prints: a heading of its ("Running HDParm tests ...", "Running iozone
    test ..."), its "Category  Test  Result" table, its fio and iozone summary lines or its closing prompt; a
    paste of the log from the fio step on holds no HDParm heading, and its fio figures are the script's own."""
    if not any(word in text for word in ("HDParm", "Category", "FIO results", "RandRead:", "Running ")):
        return NOT_MINE
    return NAMED if any(_OWN.match(plain(line)) for line in text.splitlines()) else NOT_MINE


def parse(text):
    parts = sections(text, _HEADINGS)
    if not any(key in parts for key in ("hdparm", "dd", "fio", "iozone", "table")):
        # a paste of the log's tail, from inside a tool's output down to the script's closing prompt
        head = "\n".join(line if not _HEADINGS["end"].match(plain(line)) else "" for line in
                         text.split("\n")[:_first_line(text, _HEADINGS["end"])])
        for key, module in (("iozone", iozone), ("hdparm", hdparm), ("dd", dd_parser)):
            if module.detect(head) != NOT_MINE:
                parts[key] = head
                break
        if "FIO results - " in head:
            parts["fio"] = head
    if not any(key in parts for key in ("hdparm", "dd", "fio", "iozone", "table")):
        raise ParseError(TOOL, "neither the script's headings ('Running HDParm tests ...') nor its result table")
    fio = {}
    for number, line in enumerate(parts.get("fio", "").split("\n"), start=1):
        found = _FIO.search(line)
        if found:
            fio = {"write": {"iops": int(found.group(1)), "kib_s": int(found.group(2)), "line": number},
                   "read": {"iops": int(found.group(3)), "kib_s": int(found.group(4)), "line": number}}
    table, score = _table(parts.get("table", ""))
    return {"hdparm": _read_if(hdparm, parts.get("hdparm")), "dd": _read_if(dd_parser, parts.get("dd")),
            "iozone": _read_if(iozone, parts.get("iozone")), "fio": fio, "table": table, "score": score}


def _first_line(text, pattern):
    """Index of the first line matching pattern (its colours taken off), else the number of lines."""
    lines = text.split("\n")
    return next((i for i, line in enumerate(lines) if pattern.match(plain(line))), len(lines))


def _read_if(module, part):
    """A tool's part read by its own parser; None when the log has none or it holds nothing of the tool
    (the script's fallbacks may print nothing)."""
    if part is None or module.detect(part) == NOT_MINE:
        return None
    return module.parse(part)


def _table(part):
    table, score = {}, None
    for number, line in enumerate(part.split("\n"), start=1):
        found = _SCORE.match(line)
        if found:
            score = int(found.group(1))
            continue
        row = _ROW.match(line)
        if not row:
            continue
        category, test, result = row.group(1), row.group(2).strip(), row.group(3).strip()
        if not any(char.isdigit() for char in result):
            table[(category, test)] = {"missing": True, "line": number}  # the script printed no figure: not run
            continue
        if category == "FIO":
            figure = _FIO_FIGURE.match(result)
            entry = figure and {"value": int(figure.group(2)), "unit": "KiB/s", "iops": int(figure.group(1))}
        else:
            figure = _FIGURE.match(result)
            entry = figure and {"value": float(figure.group(1)), "unit": figure.group(2)}
        if not entry:
            raise ParseError(TOOL, f"the result table's {category} {test} line has no figure the script prints "
                                   "('40.09 MB/sec', '14.3 MB/s', '16032 KB/s', '4012 IOPS (16050 KB/s)')",
                             line=number, text=line)
        table[(category, test)] = dict(entry, line=number)
    return table, score


def to_session(parsed, **hints):
    table = {key: row for key, row in parsed["table"].items() if not row.get("missing")}
    found, tools = [], [{"name": TOOL}]
    notes = ["PiBenchmarks storage benchmark (Storage.sh)."]
    missing = [f"{category} {test}" for (category, test), row in parsed["table"].items() if row.get("missing")]
    if missing:
        notes.append(f"The result table gives no figure for {', '.join(missing)}.")
    if parsed["hdparm"]:
        found.append({"tool_results": hdparm.entries(parsed["hdparm"])})
        notes += [note for note in [hdparm.cached_note(parsed["hdparm"])] if note]
    elif ("HDParm", "Disk Read") in table:
        row = table[("HDParm", "Disk Read")]
        found.append({"tool_results": [tool_result_entry("hdparm", "HDParm Disk Read", "read",
                                                         _hdparm_unit(row), [row["value"]], target="device")]})
    if ("HDParm", "Cached Disk Read") in table and not parsed["hdparm"]:
        row = table[("HDParm", "Cached Disk Read")]
        notes.append(f"HDParm Cached Disk Read (the host's cache, not a card figure): {row['value']:g} "
                     f"{'MB/sec' if row['unit'] == 'MB/sec' else row['unit']}.")
    if parsed["dd"]:
        found.append({"dd": [dd_entry("write", "4K", parsed["dd"], count=133120, flags=["fsync"], target="file",
                                      command=DD_COMMAND)]})
    elif ("DD", "Disk Write") in table:
        row = table[("DD", "Disk Write")]
        if row["unit"] != "MB/s":
            raise ParseError(TOOL, "dd's Disk Write figure is not in MB/s", line=row["line"])
        found.append({"tool_results": [tool_result_entry("dd", "DD Disk Write", "write", "MB/s", [row["value"]],
                                                         block_size="4K", target="file", command=DD_COMMAND)]})
    found.append(_fio(parsed["fio"], table))
    found.append(iozone.measurements(parsed["iozone"]) if parsed["iozone"] else _iozone_from_table(table))
    tools += [{"name": name} for name, key in (("hdparm", "HDParm"), ("dd", "DD"), ("fio", "FIO"), ("iozone", "IOZone"))
              if parsed.get(name) or any(category == key for category, _ in table)]
    if parsed["score"] is not None:
        notes.append(f"The script's Score: {parsed['score']} (its own weighting of the figures, not a card figure).")
    measurements = merge_measurements(*found)
    runs = max((len(entry["runs"]) for entries in measurements.values() for entry in entries), default=0)
    if not runs:
        raise ParseError(TOOL, "the log holds no figure of the card")
    return SessionFields(tools=tools, measurements=measurements, runs=runs, notes=notes)


def _hdparm_unit(row):
    """The unit of the table's HDParm figure: hdparm's own (MB/sec is MiB/s) since the script's change of November
    2023; before it the script wrote hdparm's number followed by "MB/s", still hdparm's MiB/s."""
    if row["unit"] == "MB/s":
        return "MiB/s"
    if row["unit"] not in _HDPARM_UNITS:
        raise ParseError(TOOL, f"hdparm's Disk Read figure in {row['unit']}, not hdparm's MB/sec", line=row["line"])
    return _HDPARM_UNITS[row["unit"]]


def _fio(fio, table):
    """results: the fio 4k random read and write as RND4K Q64T1, KiB/s with their IOPS."""
    runs = []
    for op in ("read", "write"):
        figure = fio.get(op) or table.get(("FIO", f"4k random {op}"))
        if figure:
            kib_s = figure.get("kib_s", figure.get("value"))
            runs.append({"test": FIO_TEST, "op": op, "value": kib_s, "iops": figure["iops"]})
    return {"results": results_from_table([runs], "KiB/s", command=None)} if runs else {}


def _iozone_from_table(table):
    """The IOZone rows of the table: random read and write as RND4K Q1T1 (iozone -I, 4 KiB records), read and
    write as parsers.iozone names them."""
    random = [{"test": "RND4K Q1T1", "op": op, "value": table[("IOZone", f"4k random {op}")]["value"]}
              for op in ("read", "write") if ("IOZone", f"4k random {op}") in table]
    out = {"results": results_from_table([random], "KiB/s")} if random else {}
    figures = [tool_result_entry("iozone", IOZONE_TEST.format(op), op, "KiB/s",
                                 [table[("IOZone", f"4k {op}")]["value"]],
                                 block_size="4K", queue_depth=1, threads=1, direct=True, target="file")
               for op in ("write", "read") if ("IOZone", f"4k {op}") in table]
    if figures:
        out["tool_results"] = figures
    return out
