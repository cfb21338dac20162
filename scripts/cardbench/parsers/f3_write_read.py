"""f3write and f3read output (F3 6.x to 8.x): test files written to the card's filesystem, then
read back and checked sector by sector.

Units: F3 prints sizes and speeds in binary units (its adjust_unit() divides by 1024): "MB/s" is
MiB/s, "KB/s" KiB/s, "GB" GiB; sector counts are of 512 bytes. Speeds are kept as printed in
those units ("Average writing speed: 15.47 MB/s" -> 15.47 MiB/s); sizes come from the sector
counts, and the rounded sizes printed beside them are checked against them. F3 prints no time, so
a speed cannot be checked against the size over the time: the card's checks hold it (positive, not
above the card's bus; INFO.past_cache, as f3read drops the page cache before it reads).

parse(text) -> {
    "write": {"files": int, "speed": {"value", "unit"} | None} | None,
    "read": {"files": [{"name", "ok", "corrupted", "changed", "overwritten", "line"}],
             "totals": {"ok", "lost", "corrupted", "changed", "overwritten": sectors},
             "lost_line": "Data LOST: …" as printed, "speed": {"value", "unit"} | None,
             "elided": file lines the paste left out ("1.h2w", "...", "30.h2w": 28), by the files' numbers} | None,
    "versions": {"f3write": "8.0", "f3read": "8.0"} (those named),
}
The files' sector counts must add up to f3read's totals; where file lines are left out (their numbers skip:
"..." or "(a few minutes later...)" in their place), they may only add up to less, and a note says so.
"""

import re

from ..core.units import GIB_BYTES, KIB_BYTES, MIB_BYTES, PIB_BYTES, SECTOR_BYTES, TIB_BYTES
from ..errors import ParseError
from . import NAMED, NOT_MINE, SHAPED
from .card_entries import capacity_check_entry, tool_result_entry
from .fields import SessionFields
from .text.numbers import number, refuse_long_numbers
from .text.pasted import binary_size_text, lines as pasted_lines
from .tool import ToolInfo

TOOL = "f3rw"
INFO = ToolInfo(name="f3rw", programs=("f3write", "f3read"), family="capacity",
                description="f3write and f3read output: test files written, read back and checked",
                units={"MB/s": "MiB/s (F3 divides by 1024)", "KB/s": "KiB/s", "GB": "GiB", "sectors": "512 bytes"},
                past_cache=True)
SIZE_UNITS = {"Byte": 1, "KB": KIB_BYTES, "MB": MIB_BYTES, "GB": GIB_BYTES, "TB": TIB_BYTES, "PB": PIB_BYTES}
# The printed speed unit -> (the unit kept, the factor to it): MB/s is MiB/s, KB/s is KiB/s.
RATE_UNITS = {"Byte/s": ("KiB/s", 1 / KIB_BYTES), "KB/s": ("KiB/s", 1), "MB/s": ("MiB/s", 1),
              "GB/s": ("MiB/s", GIB_BYTES // MIB_BYTES)}

_VERSION = re.compile(r"^F3 (write|read) (\d[\w.]{0,10})$")
_CREATING = re.compile(r"^Creating file (\d{1,9}\.h2w) \.\.\. .{0,400}?OK!")
_VALIDATING = re.compile(r"^Validating file (\d{1,9}\.h2w) \.\.\. *(\d{1,15})/ *(\d{1,15})/ *(\d{1,15})/ *(\d{1,15})")
_TOTAL = re.compile(r"^(Data OK|Data LOST|Corrupted|Slightly changed|Overwritten): ([\d.]{1,20}) (Byte|KB|MB|GB|TB|PB) "
                    r"\((\d{1,15}) sectors\)$")
_SPEED = re.compile(r"^Average (writing|reading) speed: ([\d.]{1,20}) (Byte/s|KB/s|MB/s|GB/s)$", re.IGNORECASE)
TOTALS = {"Data OK": "ok", "Data LOST": "lost", "Corrupted": "corrupted", "Slightly changed": "changed",
          "Overwritten": "overwritten"}


def detect(text):
    """NAMED for an "F3 write"/"F3 read" banner or f3read's totals; SHAPED for f3write's lines alone."""
    head = text[:200_000]
    if re.search(r"(?m)^[ \t>]{0,16}F3 (write|read) \d", head) or re.search(r"Data LOST: [\d.]+ \w+ \(\d+ sectors\)",
                                                                             head):
        return NAMED
    if re.search(r"(?m)^[ \t>]{0,16}(Creating file \d+\.h2w \.\.\.|Average writing speed: )", head):
        return SHAPED
    return NOT_MINE


def _starts_figure(line):
    return line.startswith(("Validating file ", "Data OK:", "Data LOST:", "Corrupted:", "Slightly changed:",
                            "Overwritten:", "Average "))


def _whole_figure(line):
    return bool(_VALIDATING.match(line) or _TOTAL.match(line) or _SPEED.match(line))


def _speed(m, number_, line):
    value = number(m.group(2))
    unit, factor = RATE_UNITS[m.group(3)]
    if value is None:
        raise ParseError("f3", "speed not a number", line=number_, text=line)
    return {"value": round(value * factor, 6), "unit": unit}


def parse(text):
    refuse_long_numbers(text, TOOL)
    write, read, versions = None, None, {}
    last_write = last_read = 0
    for number_, line in pasted_lines(text, _starts_figure, _whole_figure):
        if (m := _VERSION.match(line)):
            versions[f"f3{m.group(1)}"] = m.group(2)
            if m.group(1) == "write":
                write, last_write = {"files": 0, "speed": None}, number_
            else:
                read, last_read = _new_read(), number_
        elif (m := _CREATING.match(line)):
            write = write or {"files": 0, "speed": None}
            write["files"] += 1
            last_write = number_
        elif (m := _VALIDATING.match(line)):
            read = read or _new_read()
            ok, corrupted, changed, overwritten = (int(m.group(i)) for i in range(2, 6))
            read["files"].append({"name": m.group(1), "ok": ok, "corrupted": corrupted, "changed": changed,
                                  "overwritten": overwritten, "line": number_})
            last_read = number_
        elif (m := _TOTAL.match(line)):
            read = read or _new_read()
            sectors = int(m.group(4))
            _check_size(m.group(2), m.group(3), sectors, number_, line)
            read["totals"][TOTALS[m.group(1)]] = sectors
            if m.group(1) == "Data LOST":
                read["lost_line"] = line
            last_read = number_
        elif (m := _SPEED.match(line)):
            if m.group(1).lower() == "writing":
                write = write or {"files": 0, "speed": None}
                write["speed"], last_write = _speed(m, number_, line), number_
            else:
                read = read or _new_read()
                read["speed"], last_read = _speed(m, number_, line), number_
    all_lines = text.splitlines()
    if write is None and read is None:
        raise ParseError("f3", "no f3write or f3read output ('Creating file 1.h2w … OK!', 'Validating file …')",
                         line=len(all_lines) or None)
    if write is not None and write["speed"] is None:
        raise ParseError("f3write", "the output stops before 'Average writing speed': it is cut off", line=last_write,
                         text=all_lines[last_write - 1])
    if read is not None:
        _check_read(read, last_read, all_lines)
    return {"write": write, "read": read, "versions": versions}


def _new_read():
    return {"files": [], "totals": {}, "lost_line": None, "speed": None}


def _check_size(shown, unit, sectors, number_, line):
    value = number(shown)
    exact = sectors * SECTOR_BYTES / SIZE_UNITS[unit]
    if value is None or abs(value - exact) > max(0.011, exact * 0.005):
        raise ParseError("f3read", f"{shown} {unit} does not fit {sectors} sectors of 512 bytes ({exact:.2f} {unit})",
                         line=number_, text=line)


def _check_read(read, last, all_lines):
    totals = read["totals"]
    missing = [name for name, key in TOTALS.items() if key not in totals]
    if missing:
        raise ParseError("f3read", f"the output stops before its totals ({', '.join(missing)}): it is cut off",
                         line=last, text=all_lines[last - 1])
    if totals["corrupted"] + totals["changed"] + totals["overwritten"] != totals["lost"]:
        raise ParseError("f3read", "corrupted, slightly changed and overwritten sectors do not add up to Data LOST",
                         line=last, text=all_lines[last - 1])
    elided = _elided(read["files"], all_lines)
    read["elided"] = elided
    for kind in ("ok", "corrupted", "changed", "overwritten"):
        per_file = sum(f[kind] for f in read["files"])
        if read["files"] and (per_file > totals[kind] if elided else per_file != totals[kind]):
            raise ParseError("f3read", f"the files' {kind} sectors add up to {per_file}, not the total's "
                                       f"{totals[kind]}: a file's line is missing", line=read["files"][-1]["line"],
                             text=all_lines[read["files"][-1]["line"] - 1])


def _elided(files, all_lines):
    """The number of file lines a paste left out, marked where they were ("1.h2w", "...", "30.h2w": 28), judged
    by the files' numbers, which f3read prints one after another from 1; 0 when none is missing, or when one
    is missing with nothing in its place (then the sums are refused). The totals hold them all."""
    numbers = [int(f["name"].split(".")[0]) for f in files]
    if not numbers or len(set(numbers)) != len(numbers) or numbers != sorted(numbers):
        return 0
    for (before, after), (first, second) in zip(zip(numbers, numbers[1:]), zip(files, files[1:])):
        between = [line for line in all_lines[first["line"]:second["line"] - 1] if line.strip()]
        if after - before > 1 and not between:
            return 0  # a line gone without a mark: not an elision
    return numbers[-1] - len(numbers)


def to_session(parsed, **hints):
    write, read = parsed["write"], parsed["read"]
    tools = [{"name": name, "version": parsed["versions"][name]} if name in parsed["versions"] else {"name": name}
             for name, part in (("f3write", write), ("f3read", read)) if part is not None]
    results, measurements, notes = [], {}, []
    for part, op, test in ((write, "write", "Average writing speed"), (read, "read", "Average reading speed")):
        if part is not None and part["speed"] is not None:
            results.append(tool_result_entry(TOOL, test, op, part["speed"]["unit"], [part["speed"]["value"]],
                                             target="file"))
    if results:
        measurements["tool_results"] = results
    if read is not None:
        totals = read["totals"]
        ok, lost = totals["ok"] * SECTOR_BYTES, totals["lost"] * SECTOR_BYTES
        measurements["capacity_check"] = capacity_check_entry(
            TOOL, "data lost" if lost else "ok", read["lost_line"], bytes_written=ok + lost, bytes_ok=ok,
            bytes_lost=lost, sectors=totals, files=(len(read["files"]) + read.get("elided", 0)) or None)
        notes.append(f"f3read: {binary_size_text(ok)} read back as written, {binary_size_text(lost)} lost "
                     f"({totals['corrupted']} sectors corrupted, {totals['changed']} slightly changed, "
                     f"{totals['overwritten']} overwritten).")
        if read.get("elided"):
            notes.append(f"f3read: {read['elided']} file lines are left out of the paste; its totals are f3read's own.")
    return SessionFields(tools=tools, measurements=measurements, runs=1, notes=notes)
