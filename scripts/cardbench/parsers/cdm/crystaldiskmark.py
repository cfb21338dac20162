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
is_result_line(line) -> whether the line is a result line of any version's export or window.

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
parse_file(text) -> {"exports": parse_all(text)}; to_session(parsed) -> SessionFields (parsers.cdm_session).
"""

import re

from ...core.units import GIB_BYTES, KIB_BYTES, MIB_BYTES, size_label_from_bytes
from ...errors import ParseError, quoted
from .. import NAMED, NOT_MINE, SHAPED
from .session import exports_session
from ..text.numbers import PLAUSIBLE_FIGURE, number, refuse_long_numbers
from ..tool import ToolInfo

TOOL = "CrystalDiskMark"
INFO = ToolInfo(name="crystaldiskmark", programs=(), family="suite",
                description="CrystalDiskMark 3 to 8 text export (UTF-8 or UTF-16), one or more",
                units={"MB/s": "10^6 bytes a second (MiB/s where the export says MB/s = 1,048,576 bytes/s)"},
                logs_with=("kdiskmark", "cdm-fio"))

# The words for reading and writing in the window's column headers: English and the window's translations.
READ_WORDS = ("Read", "Lesen", "Lecture", "Lectura", "Lettura", "Leitura", "Odczyt", "Lezen", "Läsning", "Čtení",
              "Okuma", "Чтение", "Читання", "読み込み", "读取", "讀取", "읽기")
WRITE_WORDS = ("Write", "Schreiben", "Écriture", "Ecriture", "Escritura", "Scrittura", "Gravação", "Escrita",
               "Zapis", "Schrijven", "Skrivning", "Zápis", "Yazma", "Запись", "Запис", "書き込み", "写入", "寫入", "쓰기")
_OP_OF_WORD = {**{w.casefold(): "read" for w in READ_WORDS}, **{w.casefold(): "write" for w in WRITE_WORDS},
               "mix": "mix"}
_WORDS = "|".join(re.escape(w) for w in sorted(_OP_OF_WORD, key=len, reverse=True))

# Possessive quantifiers (*+, ++, ?+) keep what they matched: optional parts between runs of spaces
# cannot make these backtrack in quadratic time over a long line.
# "KDiskMark: https://…" (early versions) names no version.
_HEADER = re.compile(r"^\s*+(CrystalDiskMark|KDiskMark)(?:\s*+\(?+\s*+(\d[\w.]*+)|:\s)")
_SECTION = re.compile(r"^\s*+\[(Read|Write|Mix)\](.*+)$")
_NEW = re.compile(
    r"^\s*+(?P<kind>SEQ|RND|Sequential|Random)\s++(?P<size>\d++)\s*+(?P<unit>KiB|MiB|GiB)\s*+"
    r"\(Q=\s*+(?P<q>\d++),\s*+T=\s*+(?P<t>\d++)\)\s*+:\s*+(?P<mbs>[\d.]++)\s*+MB/s"
    r"(?:\s*+\[\s*+(?P<iops>[\d.]++)\s*+IOPS\])?+(?:\s*+<\s*+(?P<lat>[\d.]++)\s*+us>)?+\s*+$")
_OLD = re.compile(
    r"^\s*+(?P<kind>Sequential|Random)\s++(?P<op>Read|Write)(?:\s++(?P<size>\d++)\s*+(?P<unit>KiB|KB|MiB|MB))?+\s*+"
    r"(?:\((?:Q=\s*+(?P<q>\d++),\s*+)?+T=\s*+(?P<t>\d++)\)|\(QD=\s*+(?P<qd>\d++)\))?+\s*+:\s*+(?P<mbs>[\d.]++)\s*+"
    r"MB/s(?:\s*+\[\s*+(?P<iops>[\d.]++)\s*+IOPS\])?+\s*+$")
# The window's test labels, longest first: 7/8 "SEQ1M Q8T1", 5/6 "Seq Q32T1", "4KiB Q8T8", 3/4 "4K QD32".
_LABEL = (r"(?P<label>(?:SEQ|RND)\s?+\d++\s?+(?:KiB|MiB|K|M)\s++Q\d++\s?+T\d++|Seq\s++Q32T1|4KiB\s++Q\d++T\d++"
          r"|4K\s++Q32T1|4K\s++QD32|Seq|512K|4KiB|4K)")
_LABEL_LINE = re.compile(
    r"^\s*+" + _LABEL + r"\s*+[-:]?+\s*+(?P<op>" + _WORDS + r")\s*+:?+\s*+(?P<mbs>\d++(?:[.,]\d++)?+)\s*+(?:MB/s)?+"
    r"(?:\s*+\[\s*+(?P<iops>[\d.]++)\s*+IOPS\s*+\])?+(?:\s*+<\s*+(?P<lat>[\d.]++)\s*+(?:us|μs|µs)\s*+>)?+\s*+$",
    re.IGNORECASE)
_TABLE_ROW = re.compile(r"^\s*+" + _LABEL + r"(?:\s*+:)?+\s++(?P<values>\d++(?:[.,]\d++)?+(?:\s++\d++(?:[.,]\d++)?+){0,2})\s*+$",
                        re.IGNORECASE)
_TABLE_WORD = re.compile(r"(?<![^\W\d_])(?:" + _WORDS + r")(?![^\W\d_])", re.IGNORECASE)
_LOOSE = re.compile(r"^\s*+(SEQ|RND|Sequential|Random)\b.*\(|^\s*+(Sequential|Random) (Read|Write)\b")
# The value is stripped by the caller: a lazy (.*?) before \s*$ is quadratic over a run of spaces.
_FOOTER = re.compile(r"^\s*+(Profile|Test|Date|OS|Mode|Time|Comment|Target)\s*+:(.*+)$")
_UNIT_LINE = re.compile(r"^\s*+\*\s*+MB/s\s*+=\s*+(?P<bytes>[\d,.]++)\s*+byte")
_FIO = re.compile(r"Flexible I/O Tester \((fio-[^()]*+)\)")
_MIX_SHARE = re.compile(r"Read\s*+(\d{1,3})\s*+%")
_UNITS = {"KiB": KIB_BYTES, "KB": KIB_BYTES, "MiB": MIB_BYTES, "MB": MIB_BYTES, "GiB": GIB_BYTES}
# The window's fixed labels of versions 3 to 6 -> (kind, block bytes, queue depth, threads).
_FIXED_LABELS = {"seq q32t1": ("SEQ", 128 * KIB_BYTES, 32, 1), "seq": ("SEQ", MIB_BYTES, 1, 1),
                 "512k": ("RND", 512 * KIB_BYTES, 1, 1), "4k": ("RND", 4096, 1, 1), "4kib": ("RND", 4096, 1, 1),
                 "4k qd32": ("RND", 4096, 32, 1), "4k q32t1": ("RND", 4096, 32, 1)}

_NAMED = re.compile(r"^\s*CrystalDiskMark \d")
_DIGIT = re.compile(r"\d")


def detect(text):
    """NAMED when a line starts "CrystalDiskMark <version>"; SHAPED when a line is a result line
    of any version, or a row of the window's table below its Read/Write header; else NOT_MINE."""
    lines = text.splitlines()
    if any(_NAMED.match(line) for line in lines):
        return NAMED
    if any(is_result_line(line) for line in lines):
        return SHAPED
    # Rows first: a row opens with a test label, which most lines fail at their first character; the
    # header's check reads every character of a line, too slow to run first on megabytes of text.
    if any(_TABLE_ROW.match(line.replace("|", " ")) for line in lines) and any(_table_columns(line) for line in lines):
        return SHAPED
    return NOT_MINE


def is_result_line(line):
    """Whether a line is a result line of a CrystalDiskMark export or of its window typed out."""
    return bool(_OLD.match(line) or _NEW.match(line) or _LABEL_LINE.match(line))


def _test_name(kind, size, queue, threads):
    label = size_label_from_bytes(size)
    return f"{kind}{label} Q{int(queue)}T{int(threads)}" if label else None


def _new_style(match):
    kind = "SEQ" if match.group("kind") in ("SEQ", "Sequential") else "RND"
    size = int(match.group("size")) * _UNITS[match.group("unit")]
    return _test_name(kind, size, match.group("q"), match.group("t"))


def _old_style(match):
    kind = "SEQ" if match.group("kind") == "Sequential" else "RND"
    if match.group("size"):
        size = int(match.group("size")) * _UNITS[match.group("unit")]
    elif kind == "SEQ" and match.group("q"):
        size = 128 * KIB_BYTES  # CrystalDiskMark 5/6 "Seq Q32T1" used 128 KiB blocks
    else:
        size = MIB_BYTES
    return _test_name(kind, size, match.group("q") or match.group("qd") or "1", match.group("t") or "1")


def window_test_name(label):
    """The site's name of a label in CrystalDiskMark's window: 'SEQ1M Q8T1', 'Seq Q32T1' (versions
    5/6: SEQ128K Q32T1), '4K QD32' (3/4: RND4K Q32T1), '512K' (RND512K Q1T1); None if unknown."""
    plain = " ".join(label.split())
    named = re.fullmatch(r"(SEQ|RND) ?(\d{1,6}) ?(KiB|MiB|K|M) Q(\d{1,4}) ?T(\d{1,4})", plain, re.IGNORECASE)
    if named:
        kind, size, unit, queue, threads = named.groups()
        block = int(size) * (KIB_BYTES if unit[0] in "Kk" else MIB_BYTES)
        return _test_name(kind.upper(), block, queue, threads)
    six = re.fullmatch(r"4KiB Q(\d{1,4})T(\d{1,4})", plain, re.IGNORECASE)
    if six:
        return _test_name("RND", 4096, six.group(1), six.group(2))
    fixed = _FIXED_LABELS.get(plain.casefold())
    return _test_name(*fixed) if fixed else None


def _table_columns(line):
    """The ops of a header line of the window's table, in column order ("Read [MB/s]  Write [MB/s]"
    -> ["read", "write"]), or None when the line is not such a header."""
    if ":" in line or _DIGIT.search(line.replace("MB/s", "").replace("GB/s", "")):
        return None  # a footer line, a result line
    ops = [_OP_OF_WORD[m.group(0).casefold()] for m in _TABLE_WORD.finditer(line)]
    return ops if "read" in ops and "write" in ops and len(ops) == len(set(ops)) else None


def _split(text):
    """(first line number, lines) of every export in the text."""
    lines = text.splitlines()
    starts = [i for i, line in enumerate(lines) if _HEADER.match(line)]
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
        if _LOOSE.match(line):
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
    header = _HEADER.match(line)
    if header:
        out["tool"], out["version"] = header.group(1), header.group(2)
        return True
    fio = _FIO.search(line)
    if fio:
        out["fio_version"] = fio.group(1)  # KDiskMark runs fio
        return True
    unit = _UNIT_LINE.match(line)
    if unit:
        out["unit"] = "MiB/s" if unit.group("bytes").replace(",", "").replace(".", "") == "1048576" else "MB/s"
        return True
    sec = _SECTION.match(line)
    if sec:
        export.section = sec.group(1).lower()
        if export.section in export.sections:
            raise ParseError(export.tool, f"[{sec.group(1)}] section appears twice", line=line_no, text=raw)
        export.sections.append(export.section)
        if export.section == "mix":
            out["mix_ratio"] = sec.group(2).strip() or None
            share = _MIX_SHARE.search(sec.group(2))
            out["mix_read_percent"] = int(share.group(1)) if share and int(share.group(1)) <= 100 else None
        return True
    columns = _table_columns(line.replace("|", " ")) if export.table is None else None
    if columns:
        export.table = columns  # the window's layout once a row below it is read
        if re.search(r"GB/s|IOPS|[μµ]s\b", line) and "MB/s" not in line:
            export.table_not_mb_s = (line_no, raw)
        return True
    return False


def _read_result(export, line, line_no, raw):
    """A result line of any layout, or a row of the window's table: True when the line was one."""
    tool = export.tool
    new = _NEW.match(line)
    if new:
        if export.section is None:
            raise ParseError(tool, "result line outside a [Read]/[Write]/[Mix] section", line=line_no, text=raw)
        export.add(_new_style(new), export.section, _figure(new.group("mbs"), line_no, raw, tool),
                   _figure(new.group("iops"), line_no, raw, tool), _figure(new.group("lat"), line_no, raw, tool),
                   line_no, raw)
        return True
    old = _OLD.match(line)
    if old:
        export.add(_old_style(old), old.group("op").lower(), _figure(old.group("mbs"), line_no, raw, tool),
                   _figure(old.group("iops"), line_no, raw, tool), None, line_no, raw)
        return True
    labelled = _LABEL_LINE.match(line)
    if labelled:
        export.out["layout"] = "window"
        export.add(window_test_name(labelled.group("label")), _OP_OF_WORD[labelled.group("op").casefold()],
                   _figure(labelled.group("mbs"), line_no, raw, tool), _figure(labelled.group("iops"), line_no, raw, tool),
                   _figure(labelled.group("lat"), line_no, raw, tool), line_no, raw)
        return True
    if export.table is not None:
        row = _TABLE_ROW.match(line.replace("|", " "))
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
    footer = _FOOTER.match(line)
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
