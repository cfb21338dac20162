"""Logs of several tools: the commands and output of the registry's tools (dd, hdparm, iozone,
flashbench, f3probe, nvme-cli, fio, …: parsers.registry.logged_tools()) in one pasted session.

tool_parts(text, tools, claim) -> {tool: text}: a log holding commands of several tools cut into
    one text per tool, line for line (other lines blank), for each tool's own import.
several_tools(text) -> SessionFields of a log of several tools' commands together (each tool's part
    read by its own tool module, the results merged; a part no module reads is refused naming its
    line), or None for a log of one tool.
merged(results) -> one session's fields from the SessionFields of each tool of a log.
check_one_tool(text, fmt): a file holding figures of a tool that is read apart (fio JSON with dd lines)
    is refused, naming where the second tool's output starts.
Every tool it knows of comes from parsers.registry.
"""

import re

from ..errors import ParseError
from ..parsers import NOT_MINE
from ..parsers.fields import SessionFields
from ..parsers.text.logged_shell import Shell, command_lines
from ..parsers.registry import FIO_FILES, READ_TOGETHER, format_claims, format_named, logged_tools


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
            if len(set(found)) > 1 and claim is not None:  # `dd … status=none; nvme smart-log …`: whose output?
                claimed = claim("\n".join(physical[number:end]))
                current = claimed if claimed in found else found[-1]  # unclaimed: what printed last
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

def _session_of(name, text):
    """SessionFields of one tool's part of a log, read by its tool module."""
    return format_named(name).read_session(text)


def _mentioned(text, tools):
    """The programs of `tools` that a line of text could run (a quick look before the log is read as shell)."""
    programs = {name for names in tools.values() for name in names}
    return {name for name in programs
            if re.search(rf"(?:^|[\s/;&|(`]){re.escape(name)}(?:[ \t]|$)", text, re.M)}


def several_tools(text, handler=None):
    """SessionFields of a log holding the commands and output of more than one registered tool (dd,
    hdparm, iozone, flashbench, f3probe, nvme-cli… in one pasted session): each tool's part read by
    that tool's own import, the results put together as one session. A part no reader takes (a
    tool's output in a shape not read here) is refused naming its line and the tool, never left out.
    None when one tool's output is all the log holds. handler(name) -> handler(text) -> SessionFields
    (the tool module's parse_file() and to_session(), by default)."""
    tools = logged_tools()
    if len(_mentioned(text, tools)) < 2:
        return None  # one tool at most: no need to read the log twice
    if handler is None:
        def handler(name):
            return lambda part: _session_of(name, part)
    detectors = {tool: format_named(tool).module.detect for tool in tools}

    def claim(chunk):
        scores = {tool: detect(chunk) for tool, detect in detectors.items()}
        best = max(scores, key=scores.get)
        return best if scores[best] else None

    parts = {}
    for tool, part in tool_parts(text, tools, claim).items():
        # Formats that share a program (fio's JSON and text output): the one that claims the part reads it.
        sharing = [name for name, programs in tools.items() if set(programs) & set(tools[tool])]
        best = max(sharing, key=lambda name: detectors[name](part))
        if detectors[best](part) == NOT_MINE and best != tool:
            best = tool
        parts[best] = part if best not in parts else _joined(parts[best], part)
    parts = _with_output(parts)
    if len(parts) < 2:
        return None
    results = []
    for tool, part in parts.items():
        try:
            results.append(handler(tool)(part))
        except ParseError as exc:
            lines = part.split("\n")
            if exc.line is not None and 0 < exc.line <= len(lines) and lines[exc.line - 1].strip():
                raise
            number, line = _first_own_line(tool, parts)  # name where the tool's part starts, whatever the reader said
            raise ParseError(exc.tool, f"{exc.message} (the {tool} part of the log, from this line on)", line=number,
                             text=line) from None
    return merged(results)


def _with_output(parts):
    """The parts that hold output of their own: a logged command whose output went to a file
    (fio --output=write.json) leaves nothing to read and nothing to lose."""
    cut = {tool: part.split("\n") for tool, part in parts.items()}
    kept = {}
    for tool, lines in cut.items():
        others = [other for name, other in cut.items() if name != tool]
        for index, line in enumerate(lines):
            if line.strip() and not line.startswith("$ ") and not all(other[index] for other in others):
                kept[tool] = parts[tool]
                break
    return kept


def _joined(first, second):
    """Two parts of one log (each the log's length, other lines blank) as one."""
    return "\n".join(a or b for a, b in zip(first.split("\n"), second.split("\n")))


def _first_own_line(tool, parts):
    """(1-based number, text) of the first line of a tool's part that no other part holds: its first command."""
    lines = parts[tool].split("\n")
    others = [part.split("\n") for name, part in parts.items() if name != tool]
    for index, line in enumerate(lines):
        if line.strip() and not all(other[index] for other in others):
            return index + 1, line
    return None, None


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
    return SessionFields(tools=tools, measurements=measurements, runs=max(f.runs for f in results), notes=notes,
                         date=next((f.date for f in results if f.date), None),
                         host=next((f.host for f in results if f.host), None),
                         assumption=next((f.assumption for f in results if f.assumption), None))


# --- tools that do not share a file ------------------------------------------------------------

def families():
    """Formats read together from one file: fio's JSON and its bandwidth log; CrystalDiskMark, KDiskMark
    and cdm_fio.sh lines; the other logged tools, which several_tools joins into one session; a script's
    log and the tools it runs (registry.READ_TOGETHER)."""
    logged = tuple(name for name in logged_tools() if name not in FIO_FILES[:2])  # fio's text is logged too
    return (*READ_TOGETHER, logged)


def check_one_tool(text, fmt, claims=None):
    """ParseError when text holds, beside the output of `fmt`, figures of a tool of another family
    (a dd log below a CrystalDiskMark export, fio JSON followed by dd lines): the import reads one
    format, so the other tool's figures would be lost without a word. Names the line where the later
    of the two tools' output starts. claims: registry.format_claims(text), when the caller has them."""
    # A format may belong to two families (fio's text output: fio's files, and the logged tools).
    family = {name for names in families() if fmt in names for name in names} or {fmt}
    lines = text.splitlines()
    for other, score in claims if claims is not None else format_claims(text):
        if other.name in family or score == NOT_MINE:
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
    low, high = 0, len(lines) - 1  # lines[:high + 1] is claimed
    while low < high:
        middle = (low + high) // 2
        if detect("\n".join(lines[:middle + 1])) != NOT_MINE:
            high = middle
        else:
            low = middle + 1
    return high
