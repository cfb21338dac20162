"""A pasted log's lines, as the tool modules that read logged commands take them.

PROMPT: how the importer's front end (imports.transcript.unwrap) writes every command line, "$ <command>".
logical_lines(text) -> [(first line number, line)]: backslash-continued lines joined.
segments(text, command_of) -> [(command words or None, first line number, output text)]: the log
    split at the lines command_of() takes for a command of one tool.
renumbered(exc, first_line) -> a segment's ParseError with its line counted in the whole file.
"""

from ...errors import ParseError

PROMPT = "$ "


def logical_lines(text):
    """(line number, text) with backslash-continued lines joined."""
    out = []
    parts, start = [], None  # pieces so far; looking only at the newest keeps many continued lines linear
    for number, line in enumerate(text.splitlines(), start=1):
        if len(parts) > 1 or (parts and parts[0]):
            piece = line.strip()
        else:
            parts, start, piece = [], number, line
        if piece.rstrip().endswith("\\"):
            parts.append(piece.rstrip()[:-1])
            continue
        parts.append(piece)
        out.append((start, " ".join(parts)))
        parts = []
    if len(parts) > 1 or (parts and parts[0]):
        out.append((start, " ".join(parts)))
    return out


def segments(text, command_of):
    """Split a log at command lines: [(command words or None, first line, segment text)].

    command_of(logical line) gives the words of a command of the tool, or None for any other line;
    text before the first command is a segment of its own (command None)."""
    found = []
    command, start, lines = None, 1, []
    for number, logical in logical_lines(text):
        words = command_of(logical)
        if words is not None:
            if lines and any(line.strip() for line in lines):
                found.append((command, start, "\n".join(lines)))
            command, start, lines = words, number, []
            continue
        if not lines:
            start = number
        lines.append(logical)
    if lines and any(line.strip() for line in lines):
        found.append((command, start, "\n".join(lines)))
    return found or [(None, 1, "\n".join(text.splitlines()))]


def renumbered(exc, first_line):
    """The ParseError of a segment starting at first_line, its line counted in the whole file."""
    if isinstance(exc, ParseError) and exc.line is not None:
        return ParseError(exc.tool, exc.message, line=exc.line + first_line - 1, text=exc.text)
    return exc
