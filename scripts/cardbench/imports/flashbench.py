"""A flashbench log -> session fields: each logged flashbench command and the rows below it are
one -a, --open-au or -f entry, with block, erase and open-AU sizes taken from the command.

The log is read as a shell would have run it (imports.shell.Shell): variables set earlier
(ERASE=$((4*1024*1024)); flashbench -O --erasesize=$ERASE …), arithmetic ($[4*1024*1024]), sudo,
pipes and for loops (for n in 2 3 4; do flashbench -O --open-au-nr=$n …; done gives one sweep per
value, cut apart where the block size grows again). Options flashbench was not given take its
defaults (-b 16 KiB, -e 4 MiB, --open-au-nr 2). Output pasted without its command imports what the
output says (-a, -f), or, for an --open-au sweep, whose number of open erase blocks flashbench does
not print, is refused with the option to give. Lines of no flashbench row (a wrapper script's
messages, perror lines) are skipped; a log holding other tools' commands too is cut apart by
mixed.several_tools.
"""

import re

from ..card import sessions
from ..errors import ParseError
from ..parsers import flashbench as flashbench_parser
from .result import SessionFields
from .mixed import several_tools
from .shell import Shell, command_lines
from .transcript import renumbered

TOOL = "flashbench"
DEFAULT_BLOCK_BYTES = 16384  # flashbench's -b when the command gives none
DEFAULT_ERASE_BYTES = 4 * 1024 * 1024  # its -e
DEFAULT_OPEN_AU = 2  # its --open-au-nr

# getopt_long's table in flashbench.c: long name -> (short name, takes a value)
_LONG = {"out": ("o", True), "scatter": ("s", False), "scatter-order": ("S", True), "scatter-span": ("$", True),
         "align": ("a", False), "interval": ("i", False), "interval-order": ("I", True), "find-fat": ("f", False),
         "fat-nr": ("F", True), "open-au": ("O", False), "open-au-nr": ("0", True), "offset": ("t", True),
         "random": ("r", False), "verbose": ("v", False), "count": ("c", True), "blocksize": ("b", True),
         "erasesize": ("e", True)}
_SHORT_VALUED = set("oFcbe")  # "o:siafF:Ovrc:b:e:p"
_VARIABLE = re.compile(r"\$\{?([A-Za-z_]\w{0,63})")


def options(args, line=None):
    """{"mode", "open_au", "erase", "block", "count", "offset"} of flashbench's arguments (None where
    not given); ParseError naming the option when a number is not one (a variable never set, '4M')."""
    opts = {"mode": "sequential", "open_au": None, "erase": None, "block": None, "count": None, "offset": None}
    given = {}
    i = 0
    while i < len(args):
        word = args[i]
        if word.startswith("--") and len(word) > 2:
            name, has_value, value = word[2:].partition("=")
            key = _long_option(name)
            if key is None:
                i += 1
                continue
            short, valued = _LONG[key]
            if valued and not has_value:
                i += 1
                value = args[i] if i < len(args) else ""
            given[short] = (f"--{key}", value)
        elif word.startswith("-") and len(word) > 1:
            for j, short in enumerate(word[1:], start=1):
                if short in _SHORT_VALUED:
                    value = word[j + 1:]
                    if not value:
                        i += 1
                        value = args[i] if i < len(args) else ""
                    given[short] = (f"-{short}", value)
                    break
                given[short] = (f"-{short}", "")
        i += 1
    if "r" in given:
        opts["mode"] = "random"
    for short, key in (("0", "open_au"), ("e", "erase"), ("b", "block"), ("c", "count"), ("t", "offset")):
        if short in given:
            opts[key] = _number(*given[short], line, offset=short == "t")
    return opts


def _long_option(name):
    """getopt_long's choice: the exact name, else the one option the prefix names."""
    if name in _LONG:
        return name
    matches = [key for key in _LONG if key.startswith(name)]
    return matches[0] if len(matches) == 1 else None


def _number(option, value, line, offset=False):
    if re.fullmatch(r"\d{1,18}", value):
        return int(value)
    if offset and re.fullmatch(r"0[xX][0-9a-fA-F]{1,16}", value):
        return int(value, 16)  # --offset is read with strtoull(…, 0)
    shown = f"{option}={value}" if option.startswith("--") else f"{option} {value}"
    variable = _VARIABLE.search(value)
    if variable:
        raise ParseError(TOOL, f"{shown}: ${variable.group(1)} is not set earlier in the file; set it above the "
                               f"command (e.g. '{variable.group(1)}=$((4*1024*1024))') or write the number "
                               f"({option}=4194304)", line=line)
    raise ParseError(TOOL, f"{shown}: flashbench reads {option} as a plain number of bytes or times; write it as "
                           "one (e.g. 4194304 for 4 MiB)", line=line)


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
    return [s for s in segments if flashbench_parser.has_rows("\n".join(s["lines"]))]


def from_flashbench(text):
    mixed = several_tools(text)
    if mixed is not None:
        return mixed
    found = {"flashbench_open_au": [], "flashbench_align": [], "flashbench_find_fat": []}
    segments = _segments(text)
    if not segments:
        raise ParseError(TOOL, "no flashbench -a, --open-au or -f rows found", line=None)
    for segment in segments:
        commands = segment["commands"]
        pieces = flashbench_parser.runs("\n".join(segment["lines"]))
        if commands and 1 < len(commands) < len(pieces):
            raise ParseError(TOOL, f"the loop runs flashbench {len(commands)} times, but {len(pieces)} outputs "
                                   "follow it", line=segment["line"])
        for index, (first, piece) in enumerate(pieces):
            first += segment["first"] - 1  # the piece's first line, counted in the file
            try:
                parsed = flashbench_parser.parse(piece)
            except ParseError as exc:
                raise renumbered(exc, first) from None
            command = commands[min(index, len(commands) - 1)] if commands else None
            first_row = first + next(i for i, line in enumerate(piece.splitlines()) if flashbench_parser.has_rows(line))
            key, entry = _entry(parsed, command, segment["line"], first_row)
            found[key].append(entry)
    return SessionFields(tools=[{"name": TOOL}], measurements={k: v for k, v in found.items() if v}, runs=1)


def _entry(parsed, command, command_line, first_row):
    """(session key, entry) of one parsed run and the command that printed it (None: not in the log)."""
    args = list(command.args) if command else None
    opts = options(args, command_line) if command else options([])
    text = ("flashbench " + " ".join(args))[:2000] if command else None
    block = opts["block"] or (DEFAULT_BLOCK_BYTES if command else None)
    if parsed["kind"] == "align":
        return "flashbench_align", sessions.align_entry(parsed, block, opts["count"], text)
    largest = (parsed["rows"] if parsed["kind"] == "find_fat" else parsed["points"])[0]["block_size_bytes"]
    # flashbench's sweeps start at the erase size: the output says it when the command does not
    erase = opts["erase"] or (DEFAULT_ERASE_BYTES if command else int(largest))
    if largest > erase:
        given = f"--erasesize={erase}" if opts["erase"] else f"no --erasesize (flashbench's default is {erase})"
        raise ParseError(TOOL, f"the command gives {given}, but the rows start at {int(largest)} bytes: is it the "
                               "command that printed them?", line=command_line)
    if parsed["kind"] == "find_fat":
        return "flashbench_find_fat", sessions.find_fat_entry(parsed, erase, block, text)
    if command is None:
        raise ParseError(TOOL, "an --open-au sweep without its command line above it: the number of erase blocks "
                               "open at once is not in the output; put the command above it with --open-au-nr, "
                               f"e.g. '$ flashbench --open-au --open-au-nr=2 --erasesize={erase} /dev/sdX'",
                         line=first_row)
    return "flashbench_open_au", sessions.open_au_entry(parsed, opts["mode"], opts["open_au"] or DEFAULT_OPEN_AU,
                                                        erase, block, text, offset_bytes=opts["offset"])
