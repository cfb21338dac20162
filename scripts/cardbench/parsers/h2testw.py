"""H2testw (Windows; Harald Bögeholz, c't) reports, English and German, as copied from its window.

Units: H2testw counts in binary units: "MByte" is 2^20 bytes, "GByte" 2^30 bytes (its files are
"1 GByte" = 1 GiB each, its sector counts are of 512 bytes and agree with GByte = GiB), so its
"MByte/s" is MiB/s and "KByte/s" KiB/s; the speeds are kept as printed in those units. German
reports write a decimal comma ("9,64 MByte/s"). Sizes come from the sector counts, never from the
rounded GByte figures (which are checked against them). The report gives no time, so a speed cannot
be checked against the size over the time: the card's checks hold it (positive, not above the card's
bus; INFO.past_cache, as H2testw fills the card beyond any cache and reads it back).

parse(text) -> {
    "verdict": "ok" | "defective",  "verdict_text": the sentence as printed,
    "tested_mib": int | None, "free_mib": int | None,  ("Warning: Only 7580 of 7581 MByte tested.")
    "sectors": {"ok", "lost", "overwritten", "changed", "corrupted", "aliased": int},  (defective only)
    "speeds": {"write"|"read": {"value": float, "unit": "MiB/s" | "KiB/s"}},
    "version": "1.4" | None,
}
A paste of several reports (two cards' results one below the other) is refused naming the second's verdict:
the import reads one card's report, and keeping one silently would lose the other.
"""

import re

from ..core.units import GIB_BYTES, KIB_BYTES, MIB_BYTES, SECTOR_BYTES, TIB_BYTES
from ..errors import ParseError
from . import NAMED, NOT_MINE, SHAPED
from .card_entries import capacity_check_entry, tool_result_entry
from .fields import SessionFields
from .text.numbers import number, refuse_long_numbers
from .text.pasted import binary_size_text, lines as pasted_lines
from .tool import ToolInfo

TOOL = "h2testw"
INFO = ToolInfo(name="h2testw", programs=("h2testw",), family="capacity",
                description="H2testw report (English or German): data written and verified, and its speeds",
                units={"MByte/s": "MiB/s", "KByte/s": "KiB/s", "GByte": "GiB (2^30 bytes)", "sectors": "512 bytes"},
                past_cache=True)
UNITS = {"Byte": 1, "KByte": KIB_BYTES, "MByte": MIB_BYTES, "GByte": GIB_BYTES, "TByte": TIB_BYTES}
RATE_UNITS = {"MByte/s": "MiB/s", "KByte/s": "KiB/s"}

_GOOD = re.compile(r"^(Test finished without errors\.|Test ohne Fehler beendet\.)")
_BAD = re.compile(r"^(The media is likely to be defective\.|Das Medium ist wahrscheinlich defekt\.)")
_TESTED = re.compile(r"^(?:Warning: Only|Achtung: Nur) (\d{1,12}) (?:of|von) (\d{1,12}) MByte (?:tested|getestet)\.$")
_AMOUNT = re.compile(r"^(?:Details: ?)?([\d.,]{1,20}) (Byte|KByte|MByte|GByte|TByte) (.{1,40}?) "
                     r"\((?:< ?8 [Bb]its?/\w{1,10}, )?(\d{1,15}) (?:sectors|Sektoren)\)$")
_AMOUNT_START = re.compile(r"^(?:Details: ?)?[\d.,]{1,20} (?:Byte|KByte|MByte|GByte|TByte) ")
_SPEED = re.compile(r"^(Writing speed|Reading speed|Schreibrate|Lesrate): ([\d.,]{1,20}) (MByte/s|KByte/s)$")
_SIGNATURE = re.compile(r"^H2testw v(\d[\w.]{0,10})$")
WORDS = {"OK": "ok", "DATA LOST": "lost", "DATEN VERLOREN": "lost", "overwritten": "overwritten",
         "überschrieben": "overwritten", "slightly changed": "changed", "leicht verändert": "changed",
         "corrupted": "corrupted", "beschädigt": "corrupted", "aliased memory": "aliased",
         "Alias-Speicher": "aliased"}
DETAILS = ("overwritten", "changed", "corrupted")  # the kinds of lost sectors, which add up to "lost"


def detect(text):
    """NAMED for H2testw's signature line or its verdict sentences; SHAPED for its speed lines alone."""
    head = text[:200_000]
    if re.search(r"(?m)^[ \t>]{0,16}H2testw v\d", head) or re.search(
            r"Test finished without errors\.|Test ohne Fehler beendet\.|likely to be defective\.|"
            r"wahrscheinlich defekt\.", head):
        return NAMED
    return SHAPED if re.search(r"(?m)^[ \t>]{0,16}(Writing speed|Schreibrate): [\d.,]+ MByte/s", head) else NOT_MINE


def _starts_figure(line):
    return bool(_AMOUNT_START.match(line) or line.startswith(("Warning: Only ", "Achtung: Nur ")))


def _complete_line(line):
    return bool(_AMOUNT.match(line) or _TESTED.match(line))


def parse(text):
    refuse_long_numbers(text, TOOL)
    out = {"verdict": None, "verdict_text": None, "tested_mib": None, "free_mib": None, "sectors": {}, "speeds": {},
           "version": None}
    last, verdict_line = 0, None
    all_lines = text.splitlines()
    for number_, line in pasted_lines(text, _starts_figure, _complete_line):
        if (m := _GOOD.match(line)) or (m := _BAD.match(line)):
            if verdict_line is not None:
                raise ParseError(TOOL, f"a second H2testw report below the one of line {verdict_line}: the import "
                                       "reads one card's report; import each report as a file of its own",
                                 line=number_, text=line)
            out.update(verdict="ok" if m.re is _GOOD else "defective", verdict_text=m.group(1))
            verdict_line = number_
        elif (m := _TESTED.match(line)):
            out.update(tested_mib=int(m.group(1)), free_mib=int(m.group(2)))
        elif (m := _AMOUNT.match(line)):
            kind = WORDS.get(m.group(3))
            if kind is None:
                raise ParseError(TOOL, f"unknown kind of sectors {m.group(3)!r}", line=number_, text=line)
            sectors = int(m.group(4))
            _check_amount(m.group(1), m.group(2), sectors, number_, line)
            out["sectors"][kind] = sectors
        elif (m := _SPEED.match(line)):
            op = "write" if m.group(1) in ("Writing speed", "Schreibrate") else "read"
            value = number(m.group(2))
            if value is None:
                raise ParseError(TOOL, "speed not a number", line=number_, text=line)
            out["speeds"][op] = {"value": value, "unit": RATE_UNITS[m.group(3)]}
        elif (m := _SIGNATURE.match(line)):
            out["version"] = m.group(1)
        else:
            continue
        last = number_
    if verdict_line is None:
        raise ParseError(TOOL, "no verdict ('Test finished without errors.' or 'The media is likely to be "
                               "defective.'): the report is cut off or not H2testw's", line=last or None,
                         text=all_lines[last - 1] if last else None)
    if out["verdict"] == "defective":
        _check_sectors(out["sectors"], last, all_lines)
    if not out["speeds"] and out["version"] is None:
        raise ParseError(TOOL, "the report stops before its speeds and 'H2testw v…' line: it is cut off", line=last,
                         text=all_lines[last - 1])
    return out


def _check_amount(shown, unit, sectors, number_, line):
    """The rounded size H2testw prints beside a sector count must fit it (a unit misread shows here)."""
    value = number(shown)
    exact = sectors * SECTOR_BYTES / UNITS[unit]
    if value is None or abs(value - exact) > max(0.11, exact * 0.01):
        raise ParseError(TOOL, f"{shown} {unit} does not fit {sectors} sectors of 512 bytes "
                               f"({exact:.2f} {unit})", line=number_, text=line)


def _check_sectors(sectors, last, all_lines):
    missing = [kind for kind in ("ok", "lost") if kind not in sectors]
    if missing:
        raise ParseError(TOOL, f"the report stops before its {' and '.join(missing)} sector counts: it is cut off",
                         line=last, text=all_lines[last - 1])
    details = [sectors[kind] for kind in DETAILS if kind in sectors]
    if len(details) == len(DETAILS) and sum(details) != sectors["lost"]:
        raise ParseError(TOOL, f"overwritten, slightly changed and corrupted sectors ({sum(details)}) do not add up "
                               f"to the {sectors['lost']} sectors lost", line=last, text=all_lines[last - 1])


def to_session(parsed, **hints):
    sectors = parsed["sectors"]
    if parsed["verdict"] == "defective":
        ok, lost = sectors["ok"] * SECTOR_BYTES, sectors["lost"] * SECTOR_BYTES
        written = ok + lost
    else:
        written = parsed["tested_mib"] * MIB_BYTES if parsed["tested_mib"] is not None else None
        ok = written
        lost = 0 if written is not None else None
    check = capacity_check_entry(TOOL, "data lost" if parsed["verdict"] == "defective" else "ok",
                                 parsed["verdict_text"], bytes_written=written, bytes_ok=ok, bytes_lost=lost,
                                 sectors=sectors or None)
    results = [tool_result_entry(TOOL, "Writing speed" if op == "write" else "Reading speed", op, speed["unit"],
                                 [speed["value"]], target="file")
               for op, speed in sorted(parsed["speeds"].items(), key=lambda item: item[0] != "write")]
    measurements = {"capacity_check": check}
    if results:
        measurements["tool_results"] = results
    note = f"H2testw: {parsed['verdict_text']}"
    if parsed["verdict"] == "defective":
        note += f" {binary_size_text(ok)} OK, {binary_size_text(lost)} lost."
    elif written is not None:
        note += f" {binary_size_text(written)} written and verified."
    tool = {"name": TOOL, "version": parsed["version"]} if parsed["version"] else {"name": TOOL}
    return SessionFields(tools=[tool], measurements=measurements, runs=1, notes=[note])
