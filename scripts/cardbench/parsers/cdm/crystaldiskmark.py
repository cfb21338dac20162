"""CrystalDiskMark results (versions 2 to 8, any profile) as people have them, shared with KDiskMark.

parse(text) -> {"tool": "CrystalDiskMark", "version": "8.0.4", "profile": "Default" | "Peak" | "Real" | None,
                "test_size": "1 GiB", "test_count": 5, "date": "2020-12-13", "os": "Windows 10 …",
                "mix_ratio": "Read 70%/Write 30%" | None, "mix_read_percent": 70 | None,
                "unit": "MB/s" | "MiB/s" | "kKiB/s", "layout": "export" | "window",
                "missing": ["…"],   # what the text lacks (the footer, a cut-off section), for the notes
                "not_run": ["RND4K Q8T8 read", …],  # printed as 0.000: the tool did not run them
                "results": [{"test", "op": "read"|"write"|"mix", "value", "iops", "latency_us", "line"}]}
parse_all(text) -> [one dict per export] when several exports are pasted into one file.
detect(text) -> NAMED (a "CrystalDiskMark 8.0.4" header), SHAPED (result lines only) or NOT_MINE.
The lines' patterns and the site's names of their tests: export_lines.py.

Figures are kept as printed, in `unit`: MB/s = 10^6 B/s as CrystalDiskMark 3 and later print them
(its export says "* MB/s = 1,000,000 bytes/s"); MiB/s where an export says "MB/s = 1,048,576
byte/s" (CrystalDiskMark 2); kKiB/s for KDiskMark, whose "MB/s" is fio's KiB/s ÷ 1000 whatever its
header says. IOPS and latency (µs, mean) are None when the layout does not print them.

Layouts, each version's tests named as the site names them where they are the same test (block
size, queue depth, threads), older tests under their own names:
  text export (the tool's "Copy" / "Save text", always in English):
    7/8:  "  SEQ    1MiB (Q=  8, T= 1):   543.188 MB/s [    518.0 IOPS] < 15407.04 us>" in [Read],
          [Write] and [Mix] sections ("Sequential 1MiB (…)" in 7 and KDiskMark)
    5/6:  "   Sequential Read (Q= 32,T= 1) :   561.237 MB/s"  -> SEQ128K Q32T1 (128 KiB blocks)
          "Sequential Read (T= 1) :" -> SEQ1M Q1T1, "Random Read 4KiB (Q=  8,T= 8) : … [ … IOPS]" -> RND4K Q8T8
    2-4:  "Sequential Read :" -> SEQ1M Q1T1, "Random Read 512KB :" -> RND512K Q1T1,
          "Random Read 4KB (QD=32) :" -> RND4K Q32T1, "Random Read 4KB (QD=1) :" -> RND4K Q1T1
  the window, typed out (its labels; "Read"/"Write" also in the window's translations):
    "SEQ1M Q8T1 Read: 543.19 MB/s [518.0 IOPS] <15407.04 us>", "4K QD32 Read : 12.3 MB/s",
    "512K Write: …", "Seq Q32T1 …" (5/6: SEQ128K Q32T1), or a table under a header naming the
    columns ("          Lesen [MB/s]  Schreiben [MB/s]" then "SEQ1M Q8T1   90.12   60.34"),
    also as a Markdown table.
Tests whose figure is 0.000 were not run and are left out; 0.000 beside IOPS or a latency that are
not zero contradicts itself and is an error naming the line. An export without its footer ("Test:"
line), or whose last section stops early, gives what is there and says what is missing; a result
line cut off, a subtest twice in one section, or a complete section whose subtests differ from
[Read]'s is an error.
parse_file(text) -> {"exports": parse_all(text)}; to_session(parsed) -> SessionFields (cdm/session.py).
"""

import re

from ...errors import ParseError, quoted
from .. import NAMED, NOT_MINE, SHAPED
from .export_lines import (FIO_VERSION, FOOTER, HEADER, LABEL_LINE, LOOSE_RESULT, MIX_SHARE, NAMED_HEADER, NEW_RESULT,
                           OLD_RESULT, OP_OF_WORD, SECTION, TABLE_ROW, UNIT_LINE, is_result_line, new_style_name,
                           old_style_name, table_columns, window_test_name)
from .session import exports_session
from ..text.numbers import PLAUSIBLE_FIGURE, number, refuse_long_numbers
from ..tool import ToolInfo

TOOL = "CrystalDiskMark"
INFO = ToolInfo(name="crystaldiskmark", programs=(), family="suite",
                description="CrystalDiskMark 3 to 8 text export (UTF-8 or UTF-16), one or more",
                units={"MB/s": "10^6 bytes a second (MiB/s where the export says MB/s = 1,048,576 bytes/s)"})


def detect(text):
    """NAMED when a line starts "CrystalDiskMark <version>"; SHAPED when a line is a result line
    of any version, or a row of the window's table below its Read/Write header; else NOT_MINE."""
    lines = text.splitlines()
    if any(NAMED_HEADER.match(line) for line in lines):
        return NAMED
    if any(is_result_line(line) for line in lines):
        return SHAPED
    # Rows first: a row opens with a test label, which most lines fail at their first character; the
    # header's check reads every character of a line, too slow to run first on megabytes of text.
    if any(TABLE_ROW.match(line.replace("|", " ")) for line in lines) and any(table_columns(line) for line in lines):
        return SHAPED
    return NOT_MINE


def _split(text):
    """(first line number, lines) of every export in the text."""
    lines = text.splitlines()
    starts = [i for i, line in enumerate(lines) if HEADER.match(line)]
    if not starts:
        return [(1, lines)]
    # Take the dashes line above a header with it.
    bounds = [s - 1 if s > 0 and set(lines[s - 1].strip()) == {"-"} else s for s in starts]
    bounds[0] = 0
    return [(b + 1, lines[b: (bounds[i + 1] if i + 1 < len(bounds) else len(lines))]) for i, b in enumerate(bounds)]


def parse_all(text, tool=TOOL):
    refuse_long_numbers(text, tool)
    return [_parse_one(first, lines, tool) for first, lines in _split(text)]


def parse(text, tool=TOOL):
    exports = parse_all(text, tool)
    return exports[0]


def _figure(text, line_no, raw, tool):
    value = number(text) if text else None
    if text and value is None:
        raise ParseError(tool, "a figure on this line is not a number", line=line_no, text=raw)
    if value is not None and value > PLAUSIBLE_FIGURE:
        raise ParseError(tool, f"the figure {quoted(text)} is not a plausible figure (at most {PLAUSIBLE_FIGURE:g})",
                         line=line_no, text=raw)
    return value


class _Export:
    """What one export has given so far, line by line."""

    def __init__(self, tool):
        self.tool = tool
        self.out = {"tool": None, "version": None, "profile": None, "test_size": None, "test_count": None,
                    "date": None, "os": None, "mix_ratio": None, "mix_read_percent": None, "unit": "MB/s",
                    "layout": "export", "missing": [], "not_run": [], "results": []}
        self.found = set()  # (test, op) already read: a set, so many result lines are not quadratic
        self.lines_of = {}  # op -> tests whose line is there (also those not run, 0.000), in order
        self.sections = []  # ops of the [Read]/[Write]/[Mix] sections, in order
        self.section = None
        self.footer_line = None
        self.table = None  # ops of the window table's columns, once its header is read
        self.table_not_mb_s = None  # (line, text) of a table header naming GB/s, IOPS or µs
        self.last = None

    def add(self, test, op, value, iops, latency, line_no, raw):
        if test is None:
            raise ParseError(self.tool, "a block size that no CrystalDiskMark test has", line=line_no, text=raw)
        if (test, op) in self.found:
            raise ParseError(self.tool, f"{test} {op} appears twice in one export", line=line_no, text=raw)
        self.found.add((test, op))
        self.lines_of.setdefault(op, []).append(test)
        self.last = line_no
        if value == 0 and (iops or latency):
            measured = f"{iops:g} IOPS" if iops else f"a latency of {latency:g} us"
            raise ParseError(self.tool, f"{test} {op} is printed as 0 MB/s but with {measured}: a test not run "
                                        "prints 0 for both, so this line contradicts itself (edited?)",
                             line=line_no, text=raw)
        if value == 0:
            self.out["not_run"].append(f"{test} {op}")  # printed 0.000: not run, so no figure
            return
        self.out["results"].append({"test": test, "op": op, "value": value, "iops": iops, "latency_us": latency,
                                    "line": line_no})


def _parse_one(first, lines, tool):
    export = _Export(tool)
    out = export.out
    for offset, raw in enumerate(lines):
        line_no = first + offset
        line = raw.replace("\ufeff", "").rstrip("\r")
        if _read_heading(export, line, line_no, raw):
            continue
        if _read_result(export, line, line_no, raw):
            continue
        if LOOSE_RESULT.match(line):
            raise ParseError(tool, "result line not understood (cut off?)", line=line_no, text=raw)
        _read_footer(export, line, line_no)
    last = first + len(lines) - 1
    if out["tool"] is None and not out["results"] and not export.found:
        raise ParseError(tool, f"not a {tool} text export (no header, no result lines)", line=first,
                         text=lines[0] if lines else None)
    if not out["results"]:
        raise ParseError(tool, "export without results", line=last)
    if out["tool"] is None:
        out["tool"] = tool
    if out["tool"] == "KDiskMark":
        out["unit"] = "kKiB/s"  # KDiskMark divides fio's KiB/s by 1000, whatever its "MB/s" line says
    _check_complete(export, last)
    return out


def _read_heading(export, line, line_no, raw):
    """Header, fio version, unit line, section or table header: True when the line was one."""
    out = export.out
    header = HEADER.match(line)
    if header:
        out["tool"], out["version"] = header.group(1), header.group(2)
        return True
    fio = FIO_VERSION.search(line)
    if fio:
        out["fio_version"] = fio.group(1)  # KDiskMark runs fio
        return True
    unit = UNIT_LINE.match(line)
    if unit:
        out["unit"] = "MiB/s" if unit.group("bytes").replace(",", "").replace(".", "") == "1048576" else "MB/s"
        return True
    sec = SECTION.match(line)
    if sec:
        export.section = sec.group(1).lower()
        if export.section in export.sections:
            raise ParseError(export.tool, f"[{sec.group(1)}] section appears twice", line=line_no, text=raw)
        export.sections.append(export.section)
        if export.section == "mix":
            out["mix_ratio"] = sec.group(2).strip() or None
            share = MIX_SHARE.search(sec.group(2))
            out["mix_read_percent"] = int(share.group(1)) if share and int(share.group(1)) <= 100 else None
        return True
    columns = table_columns(line.replace("|", " ")) if export.table is None else None
    if columns:
        export.table = columns  # the window's layout once a row below it is read
        if re.search(r"GB/s|IOPS|[μµ]s\b", line) and "MB/s" not in line:
            export.table_not_mb_s = (line_no, raw)
        return True
    return False


def _read_result(export, line, line_no, raw):
    """A result line of any layout, or a row of the window's table: True when the line was one."""
    tool = export.tool
    new = NEW_RESULT.match(line)
    if new:
        if export.section is None:
            raise ParseError(tool, "result line outside a [Read]/[Write]/[Mix] section", line=line_no, text=raw)
        export.add(new_style_name(new), export.section, _figure(new.group("mbs"), line_no, raw, tool),
                   _figure(new.group("iops"), line_no, raw, tool), _figure(new.group("lat"), line_no, raw, tool),
                   line_no, raw)
        return True
    old = OLD_RESULT.match(line)
    if old:
        export.add(old_style_name(old), old.group("op").lower(), _figure(old.group("mbs"), line_no, raw, tool),
                   _figure(old.group("iops"), line_no, raw, tool), None, line_no, raw)
        return True
    labelled = LABEL_LINE.match(line)
    if labelled:
        export.out["layout"] = "window"
        export.add(window_test_name(labelled.group("label")), OP_OF_WORD[labelled.group("op").casefold()],
                   _figure(labelled.group("mbs"), line_no, raw, tool),
                   _figure(labelled.group("iops"), line_no, raw, tool),
                   _figure(labelled.group("lat"), line_no, raw, tool), line_no, raw)
        return True
    if export.table is not None:
        row = TABLE_ROW.match(line.replace("|", " "))
        if row:
            values = row.group("values").split()
            if len(values) != len(export.table):
                raise ParseError(tool, f"{len(values)} figure(s) where the header names {len(export.table)} "
                                       "columns", line=line_no, text=raw)
            if export.table_not_mb_s:
                raise ParseError(tool, "the window's figures are not in MB/s here; pick MB/s in CrystalDiskMark's "
                                       "unit box and copy them again", line=export.table_not_mb_s[0],
                                 text=export.table_not_mb_s[1])
            export.out["layout"] = "window"
            for op, text in zip(export.table, values):
                export.add(window_test_name(row.group("label")), op, _figure(text, line_no, raw, tool), None, None,
                           line_no, raw)
            return True
    return False


def _read_footer(export, line, line_no):
    out = export.out
    footer = FOOTER.match(line)
    if not footer:
        return
    key, value = footer.group(1).lower(), footer.group(2).strip()
    if key == "profile":
        out["profile"] = value or None
    elif key == "test":
        export.footer_line = line_no
        size = re.match(r"(\d+(?:\.\d+)?\s*[KMG]i?B)", value)
        count = re.search(r"\(x(\d+)\)", value)
        out["test_size"] = size.group(1) if size else None
        out["test_count"] = int(count.group(1)) if count else None
    elif key == "date":
        date = re.match(r"(\d{4})[/-](\d{2})[/-](\d{2})", value)
        out["date"] = "-".join(date.groups()) if date else None
    elif key == "os":
        out["os"] = value or None


def _check_complete(export, last):
    """Say what is missing (no footer; the last section stopped early) in out["missing"]; a complete
    section whose subtests differ from [Read]'s is a contradiction, an error."""
    out, tool = export.out, export.tool
    cut = export.footer_line is None
    if cut and out["layout"] == "window":
        out["missing"].append("test size, run count and date (a copy of the window has none)")
    elif cut:
        out["missing"].append("the footer ('Test:' line): test size, run count, date and system unknown")
    reference = export.lines_of.get("read", [])
    ops = export.sections or [op for op in ("read", "write") if op in export.lines_of]
    for op in ops:
        if op == "read":
            continue
        tests = export.lines_of.get(op, [])
        if sorted(tests) == sorted(reference):
            continue
        lacking = [t for t in reference if t not in tests]
        at_end = cut and op == ops[-1] and tests == reference[:len(tests)]
        if not at_end:
            raise ParseError(tool, f"[{op.title()}] has subtests {sorted(tests)} but [Read] has {sorted(reference)}",
                             line=last)
        out["missing"].append(f"{', '.join(lacking)} {op} (the text stops there)")
    if export.sections and "write" not in export.sections and reference:
        out["missing"].append("the [Write] section (the text stops after [Read])")
    elif not export.sections and reference and "write" not in export.lines_of:
        out["missing"].append("every write figure")


def parse_file(text):
    return {"exports": parse_all(text)}


def to_session(parsed, **hints):
    return exports_session(parsed["exports"], TOOL)
