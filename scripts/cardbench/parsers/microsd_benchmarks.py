"""The log of Jeff Geerling's Raspberry Pi microSD benchmark script (microsd-benchmarks.sh, Raspberry Pi
Dramble): `hdparm -t`, a dd write and `iozone -e -I -a -s 100M -r 4k -i 0 -i 1 -i 2`, each below the
heading the script prints:
  "Raspberry Pi Dramble microSD benchmarks"   (and "microSD clock: 50.000 MHz" where it can read it)
  "Running hdparm test..."    hdparm -t output: "MB/sec" = MiB/s (parsers.hdparm)
  "Running dd test..."        dd if=/dev/zero of=~/test bs=8k count=50k conv=fsync: dd's decimal MB/s
  "Running iozone test..."    the iozone table: kB/s = KiB/s (parsers.iozone)
  "microSD card benchmark complete!"
The script does not echo its dd command: the command is the script's own (parsers.dd reads the summary).

parse(text) -> {"hdparm": hdparm.parse() | None, "dd": dd.parse() | None, "iozone": iozone.parse() | None,
                "clock": "50.000 MHz" | None, "complete": bool}
    each tool's part read by its own parser (errors name the line of the whole log). A log that
    stops before "microSD card benchmark complete!" still gives the parts it holds, each checked
    for being cut off by its own parser.
to_session(parsed) -> SessionFields: each tool's figures in one session (hdparm and iozone as their
    modules give them; the dd write as a dd entry: 8K blocks, count 51200, conv=fsync, a file).
detect(text) -> NAMED with the script's title, or its hdparm and iozone headings together.
"""

import re

from ..errors import ParseError
from . import NAMED, NOT_MINE, hdparm, iozone
from .dd import tool as dd_parser
from .card_entries import dd_entry
from .fields import SessionFields
from .text.script_log import merge_measurements, sections
from .text.terminal import plain
from .tool import ToolInfo

TOOL = "microsd-benchmarks"
INFO = ToolInfo(name="microsd-benchmarks", programs=(), family="suite",
                description="Jeff Geerling's microsd-benchmarks.sh log: hdparm -t, dd write, iozone 4K",
                units={"MB/sec": "hdparm: MiB/s", "MB/s": "dd: 10^6 bytes a second", "kB/s": "iozone: KiB/s"})
DD_COMMAND = "dd if=/dev/zero of=~/test bs=8k count=50k conv=fsync"  # the script's own, never echoed

_TITLE = re.compile(r"^[ \t>]*+Raspberry Pi Dramble microSD benchmarks")
_HEADINGS = {
    "title": _TITLE,
    "hdparm": re.compile(r"^[ \t>]*+Running hdparm test\.\.\."),
    "dd": re.compile(r"^[ \t>]*+Running dd test\.\.\."),
    "iozone": re.compile(r"^[ \t>]*+Running iozone test\.\.\."),
    "end": re.compile(r"^[ \t>]*+microSD card benchmark complete!"),
}
_CLOCK = re.compile(r"^[ \t>]*+microSD clock: ([\d.]{1,12}+ MHz)")


def detect(text):
    """NAMED with the script's title line, or with both its hdparm and iozone headings."""
    if "Dramble" not in text and "Running iozone test..." not in text:
        return NOT_MINE
    lines = [plain(line) for line in text.splitlines()]
    if any(_TITLE.match(line) for line in lines):
        return NAMED
    both = all(any(_HEADINGS[key].match(line) for line in lines) for key in ("hdparm", "iozone"))
    return NAMED if both else NOT_MINE


def parse(text):
    parts = sections(text, _HEADINGS)
    if not any(key in parts for key in ("hdparm", "dd", "iozone")):
        raise ParseError(TOOL, "no 'Running hdparm test...', 'Running dd test...' or 'Running iozone test...' "
                               "heading")
    clock = next((m.group(1) for m in map(_CLOCK.match, (plain(x) for x in text.splitlines())) if m), None)
    return {"hdparm": hdparm.parse(parts["hdparm"]) if "hdparm" in parts else None,
            "dd": dd_parser.parse(parts["dd"]) if "dd" in parts else None,
            "iozone": iozone.parse(parts["iozone"]) if "iozone" in parts else None,
            "clock": clock, "complete": "end" in parts}


def to_session(parsed, **hints):
    found, tools, notes = [], [{"name": TOOL}], ["Jeff Geerling's microSD benchmark script (microsd-benchmarks.sh)."]
    if parsed["clock"]:
        notes.append(f"microSD clock: {parsed['clock']}.")
    if parsed["hdparm"]:
        found.append({"tool_results": hdparm.entries(parsed["hdparm"])})
        tools.append({"name": "hdparm"})
        cached = hdparm.cached_note(parsed["hdparm"])
        notes += [cached] if cached else []
    if parsed["dd"]:
        found.append({"dd": [dd_entry("write", "8K", parsed["dd"], count=51200, flags=["fsync"], target="file",
                                      command=DD_COMMAND)]})
        tools.append({"name": "dd"})
    if parsed["iozone"]:
        iozone_fields = iozone.to_session(parsed["iozone"])
        found.append(iozone_fields.measurements)
        tools += iozone_fields.tools
        notes += iozone_fields.notes
    measurements = merge_measurements(*found)
    runs = max((len(entry["runs"]) for entries in measurements.values() for entry in entries), default=0)
    if not runs:
        raise ParseError(TOOL, "the log holds no figure of the card")
    return SessionFields(tools=tools, measurements=measurements, runs=runs, notes=notes)
