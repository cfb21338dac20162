"""CrystalDiskMark text exports (versions 3 to 8, any profile), shared with KDiskMark's export.

parse(text) -> {"tool": "CrystalDiskMark", "version": "8.0.4", "profile": "Default" | "Peak" | "Real" | None,
                "test_size": "1 GiB", "test_count": 5, "date": "2020-12-13", "os": "Windows 10 …",
                "mix_ratio": "Read 70%/Write 30%" | None,
                "results": [{"test", "op": "read"|"write"|"mix", "mb_s", "iops", "latency_us", "line"}]}
parse_all(text) -> [one dict per export] when several exports are pasted into one file.
detect(text) -> NAMED (a "CrystalDiskMark 8.0.4" header), SHAPED (result lines only) or NOT_MINE.

Figures are MB/s = 10^6 B/s as CrystalDiskMark prints them; IOPS and latency (µs, mean) are None
when the version does not print them. Result lines:
  8:  "  SEQ    1MiB (Q=  8, T= 1):   543.188 MB/s [    518.0 IOPS] < 15407.04 us>"
  7:  "Sequential 1MiB (Q=  8, T= 1):   563.859 MB/s [    537.7 IOPS] < 14857.50 us>"
  5/6: "   Sequential Read (Q= 32,T= 1) :   561.237 MB/s"   (128 KiB blocks: SEQ128K Q32T1)
       "Sequential Read (T= 1) :" (1 MiB, SEQ1M Q1T1), "Random Read 4KiB (Q=  8,T= 8) : … [ … IOPS]"
  3/4: "Sequential Read :" (SEQ1M Q1T1), "Random Read 512KB :" (RND512K Q1T1), "Random Read 4KB (QD=32) :"
Tests whose figure is 0.000 were not run and are left out. Each export needs its footer
("Test:" line); a cut-off export, a subtest twice in one section, or a section whose subtests
differ from the [Read] section's is an error.
"""

import re

from ..core.units import size_label_from_bytes
from ..errors import ParseError
from . import NAMED, NOT_MINE, SHAPED
from .numbers import refuse_long_numbers

TOOL = "CrystalDiskMark"

# Possessive quantifiers (*+, ++, ?+) keep what they matched: optional parts between runs of spaces
# cannot make these backtrack in quadratic time over a long line.
_HEADER = re.compile(r"^\s*+(CrystalDiskMark|KDiskMark)\s*+\(?+\s*+(\d[\w.]*+)")
_SECTION = re.compile(r"^\s*\[(Read|Write|Mix)\](.*)$")
_NEW = re.compile(
    r"^\s*+(?P<kind>SEQ|RND|Sequential|Random)\s++(?P<size>\d++)\s*+(?P<unit>KiB|MiB|GiB)\s*+"
    r"\(Q=\s*+(?P<q>\d++),\s*+T=\s*+(?P<t>\d++)\)\s*+:\s*+(?P<mbs>[\d.]++)\s*+MB/s"
    r"(?:\s*+\[\s*+(?P<iops>[\d.]++)\s*+IOPS\])?+(?:\s*+<\s*+(?P<lat>[\d.]++)\s*+us>)?+\s*+$")
_OLD = re.compile(
    r"^\s*+(?P<kind>Sequential|Random)\s++(?P<op>Read|Write)(?:\s++(?P<size>\d++)\s*+(?P<unit>KiB|KB|MiB|MB))?+\s*+"
    r"(?:\((?:Q=\s*+(?P<q>\d++),\s*+)?+T=\s*+(?P<t>\d++)\)|\(QD=\s*+(?P<qd>\d++)\))?+\s*+:\s*+(?P<mbs>[\d.]++)\s*+"
    r"MB/s(?:\s*+\[\s*+(?P<iops>[\d.]++)\s*+IOPS\])?+\s*+$")
_LOOSE = re.compile(r"^\s*(SEQ|RND|Sequential|Random)\b.*\(|^\s*(Sequential|Random) (Read|Write)\b")
# The value is stripped by the caller: a lazy (.*?) before \s*$ is quadratic over a run of spaces.
_FOOTER = re.compile(r"^\s*+(Profile|Test|Date|OS|Mode|Time|Comment|Target)\s*+:(.*)$")
_UNITS = {"KiB": 1024, "KB": 1024, "MiB": 1024**2, "MB": 1024**2, "GiB": 1024**3}


_NAMED = re.compile(r"^\s*CrystalDiskMark \d")


def detect(text):
    """NAMED when a line starts "CrystalDiskMark <version>"; SHAPED when a line is a result line
    of any version; else NOT_MINE."""
    lines = text.splitlines()
    if any(_NAMED.match(line) for line in lines):
        return NAMED
    if any(_OLD.match(line) or _NEW.match(line) for line in lines):
        return SHAPED
    return NOT_MINE


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
        size = 128 * 1024  # CrystalDiskMark 5/6 "Seq Q32T1" used 128 KiB blocks
    else:
        size = 1024**2
    return _test_name(kind, size, match.group("q") or match.group("qd") or "1", match.group("t") or "1")


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


def _parse_one(first, lines, tool):
    out = {"tool": None, "version": None, "profile": None, "test_size": None, "test_count": None, "date": None,
           "os": None, "mix_ratio": None, "results": []}
    section = None
    old_layout_seen = False
    found = set()  # (test, op) already read: a set, so many result lines are not quadratic
    footer_line = None
    sections = {}
    for offset, raw in enumerate(lines):
        line_no = first + offset
        line = raw.replace("\ufeff", "").rstrip("\r")
        header = _HEADER.match(line)
        if header:
            out["tool"], out["version"] = header.group(1), header.group(2)
            continue
        fio = re.search(r"Flexible I/O Tester \((fio-[^()]*+)\)", line)
        if fio:
            out["fio_version"] = fio.group(1)  # KDiskMark runs fio
            continue
        sec = _SECTION.match(line)
        if sec:
            section = sec.group(1).lower()
            if section in sections:
                raise ParseError(tool, f"[{sec.group(1)}] section appears twice", line=line_no, text=raw)
            sections[section] = []
            if section == "mix":
                out["mix_ratio"] = sec.group(2).strip() or None
            continue
        new = _NEW.match(line)
        old = None if new else _OLD.match(line)
        if new or old:
            if new:
                if section is None:
                    raise ParseError(tool, "result line outside a [Read]/[Write]/[Mix] section", line=line_no, text=raw)
                test, op = _new_style(new), section
                match = new
            else:
                old_layout_seen = True
                test, op = _old_style(old), old.group("op").lower()
                match = old
            try:
                mb_s = float(match.group("mbs"))
                iops = float(match.group("iops")) if match.group("iops") else None
                lat = match.group("lat") if "lat" in match.groupdict() else None
                latency = float(lat) if lat else None
            except ValueError:
                raise ParseError(tool, "a figure on this line is not a number", line=line_no, text=raw) from None
            if mb_s == 0:
                continue  # subtest not run
            if test is None:
                raise ParseError(tool, "a block size of 0 (no CrystalDiskMark test has one)", line=line_no, text=raw)
            if (test, op) in found:
                raise ParseError(tool, f"{test} {op} appears twice in one export", line=line_no, text=raw)
            found.add((test, op))
            out["results"].append({"test": test, "op": op, "mb_s": mb_s, "iops": iops,
                                   "latency_us": latency, "line": line_no})
            sections.setdefault(op, []).append(test)
            continue
        if _LOOSE.match(line):
            raise ParseError(tool, "result line not understood (cut off?)", line=line_no, text=raw)
        footer = _FOOTER.match(line)
        if footer:
            key, value = footer.group(1).lower(), footer.group(2).strip()
            if key == "profile":
                out["profile"] = value or None
            elif key == "test":
                footer_line = line_no
                size = re.match(r"(\d+(?:\.\d+)?\s*[KMG]i?B)", value)
                count = re.search(r"\(x(\d+)\)", value)
                out["test_size"] = size.group(1) if size else None
                out["test_count"] = int(count.group(1)) if count else None
            elif key == "date":
                date = re.match(r"(\d{4})[/-](\d{2})[/-](\d{2})", value)
                out["date"] = "-".join(date.groups()) if date else None
            elif key == "os":
                out["os"] = value or None
    last = first + len(lines) - 1
    if out["tool"] is None and not old_layout_seen and not out["results"]:
        raise ParseError(tool, f"not a {tool} text export (no header, no result lines)", line=first,
                         text=lines[0] if lines else None)
    if not out["results"]:
        raise ParseError(tool, "export without results", line=last)
    if footer_line is None:
        raise ParseError(tool, "export has no 'Test:' footer line (cut off?)", line=last,
                         text=lines[-1] if lines else None)
    if out["tool"] is None:
        out["tool"] = tool
    reference = sorted(sections.get("read", []))
    for op, tests in sections.items():
        if op != "read" and reference and sorted(tests) != reference and op != "mix":
            raise ParseError(tool, f"[{op.title()}] has subtests {sorted(tests)} but [Read] has {reference}",
                             line=last)
    return out
