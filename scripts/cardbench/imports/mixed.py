"""Logs of several tools: the commands and output of dd, flashbench, f3probe and nvme-cli in one
pasted session.

tool_parts(text, tools, claim) -> {tool: text}: a log holding commands of several tools cut into
    one text per tool, line for line (other lines blank), for each tool's own import.
several_tools(text) -> SessionFields of a log of dd, flashbench, f3probe and nvme-cli commands
    together (each tool's part read by its own import, the results merged), or None for a log of
    one tool: the flashbench, f3probe and nvme imports start with it.
merged(results) -> one session's fields from the SessionFields of each tool of a log.
"""

import re

from ..errors import ParseError
from .result import SessionFields
from .shell import Shell, command_lines


def tool_parts(text, tools, claim=None):
    """A log cut into one text per tool: {tool: text}, each the whole log's length with the lines of
    other tools blank, so that an error still names the line of the file.

    tools: {tool: program names}. A tool's commands and the output below them are its own; lines
    that run no tool's command (NAME=value, lsblk) are in every part; output below them, and before
    the first command, goes to claim(chunk text) -> tool (or None: left out)."""
    physical = text.splitlines()
    owners = [None] * len(physical)  # tool, "*" (every part) or None (output of no tool)
    shell = Shell(programs={name for names in tools.values() for name in names})
    entries = command_lines(text)
    current = None
    for k, (number, line) in enumerate(entries):
        end = entries[k + 1][0] - 1 if k + 1 < len(entries) else len(physical)
        commands = shell.read(line)
        if commands is not None:
            found = [tool for command in commands for tool, names in tools.items() if command.name in names]
            current = found[0] if found else None
            mark = current or "*"
        else:
            mark = current
        for index in range(number - 1, end):
            owners[index] = mark
    if claim is not None:
        _claim_unowned(physical, owners, claim)
    return {tool: "\n".join(line if owners[i] in (tool, "*") else "" for i, line in enumerate(physical))
            for tool in dict.fromkeys(owner for owner in owners if owner not in (None, "*"))}


def _claim_unowned(physical, owners, claim):
    """Give each run of lines that no command owns to the tool claim() names for it."""
    start = None
    for i in range(len(owners) + 1):
        if i < len(owners) and owners[i] is None:
            start = i if start is None else start
            continue
        if start is not None:
            tool = claim("\n".join(physical[start:i]))
            if tool is not None:
                owners[start:i] = [tool] * (i - start)
            start = None


# --- a log of several tools --------------------------------------------------------------------

# Tools whose commands a log may hold together: {tool: program names}, in the registry's names.
LOGGED_TOOLS = {"dd": {"dd"}, "flashbench": {"flashbench"}, "f3probe": {"f3probe"}, "nvme": {"nvme"}}
# A tool's name as a command's first word could be (a quick look before the log is read as shell).
_MENTIONS = {tool: re.compile(rf"(?:^|[\s/;&|(`]){'|'.join(names)}(?:[ \t]|$)", re.M)
             for tool, names in LOGGED_TOOLS.items()}


def several_tools(text):
    """SessionFields of a log holding the commands and output of more than one of LOGGED_TOOLS
    (dd, flashbench, f3probe, nvme-cli in one pasted session): each tool's part read by that
    tool's own import, the results put together as one session. None when one tool's output is
    all the log holds."""
    if sum(1 for mention in _MENTIONS.values() if mention.search(text)) < 2:
        return None  # one tool at most: no need to read the log twice
    from ..parsers.registry import format_named
    from . import dd, f3probe, flashbench, nvme  # flashbench, f3probe and nvme import this module
    handlers = {"dd": dd.from_dd, "flashbench": flashbench.from_flashbench, "f3probe": f3probe.from_f3probe,
                "nvme": nvme.from_nvme}
    detectors = {tool: format_named(tool).module.detect for tool in LOGGED_TOOLS}

    def claim(chunk):
        scores = {tool: detect(chunk) for tool, detect in detectors.items()}
        best = max(scores, key=scores.get)
        return best if scores[best] else None

    parts = {tool: part for tool, part in tool_parts(text, LOGGED_TOOLS, claim).items() if detectors[tool](part)}
    if len(parts) < 2:
        return None
    return merged([handlers[tool](part) for tool, part in parts.items()])


def merged(results):
    """One session's fields from the SessionFields of each tool of a log."""
    tools, measurements, notes = [], {}, []
    for fields in results:
        tools += [tool for tool in fields.tools if tool not in tools]
        for key, value in fields.measurements.items():
            if isinstance(value, list):
                measurements.setdefault(key, []).extend(value)
            elif key in measurements:
                raise ParseError("import", f"the log holds two {key} results; import them one file each")
            else:
                measurements[key] = value
        notes += fields.notes
    fields = SessionFields(tools=tools, measurements=measurements, runs=max(f.runs for f in results), notes=notes,
                           date=next((f.date for f in results if f.date), None),
                           host=next((f.host for f in results if f.host), None))
    if hasattr(fields, "assumption"):
        fields.assumption = next((f.assumption for f in results if f.assumption), None)
    return fields


# --- tools that do not share a file ------------------------------------------------------------

# Formats read together from one file: fio's JSON, its bandwidth log and its normal text
# (--output-format=normal,json prints both; the JSON is read); CrystalDiskMark, KDiskMark and cdm_fio.sh
# lines; the logged tools, which several_tools joins into one session.
FAMILIES = (("fio-json", "fio-bwlog", "fio-text"), ("kdiskmark", "cdm-fio", "crystaldiskmark"), tuple(LOGGED_TOOLS))


def check_one_tool(text, fmt):
    """ParseError when text holds, beside the output of `fmt`, figures of a tool of another family
    (a dd log below a CrystalDiskMark export, fio JSON followed by dd lines): the import reads one
    format, so the other tool's figures would be lost without a word. Names the line where the later
    of the two tools' output starts."""
    from ..parsers import NOT_MINE
    from ..parsers.registry import FORMATS, format_named

    family = next((names for names in FAMILIES if fmt in names), (fmt,))
    lines = text.splitlines()
    for other in FORMATS:
        if other.name in family or other.module.detect(text) == NOT_MINE:
            continue
        try:
            parsed = other.module.parse(text)
        except ParseError:  # its lines do not make that tool's output: nothing is lost
            continue
        if not _holds_figures(parsed):
            continue
        own, theirs = _start(format_named(fmt).module.detect, lines), _start(other.module.detect, lines)
        (_, earlier), (later, second) = sorted(((own, fmt), (theirs, other.name)))
        raise ParseError("import", f"{second} output from this line on, below {earlier} output: the import reads "
                                   "one tool's output at a time, and the rest would be lost; import each tool's "
                                   "output as its own file", line=later + 1, text=lines[later])


def _holds_figures(parsed):
    """Whether a parser's result holds a non-empty list of entries (runs, results, jobs, rows…)."""
    if isinstance(parsed, dict):
        return any(_holds_figures(value) for value in parsed.values())
    if isinstance(parsed, list):
        return any(isinstance(item, dict) for item in parsed)
    return False


def _start(detect, lines):
    """Index of the line where the output detect() claims starts: the first line up to which the text
    is claimed (found by halving: a longer head never holds less of a tool's output)."""
    from ..parsers import NOT_MINE

    low, high = 0, len(lines) - 1  # lines[:high + 1] is claimed
    while low < high:
        middle = (low + high) // 2
        if detect("\n".join(lines[:middle + 1])) != NOT_MINE:
            high = middle
        else:
            low = middle + 1
    return high
