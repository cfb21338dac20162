"""Lines of tool output as people paste them: indented, quoted with "> " in a mail reply, a line
broken in two by a mail program.

lines(text, starts=None, complete=None) -> [(line number, bare line)]: every line without its
    indentation, "> " quotes, line ending and trailing blanks; a line that starts(line) says begins
    a figure but complete(line) says is not whole is joined with the next one (a mail program broke
    it), numbered by its first line.
"""

import re

from ...core.units import GIB_BYTES, KIB_BYTES, MIB_BYTES, TIB_BYTES

_LEAD = re.compile(r"^[ \t]{0,64}+(?:>[ \t]{0,64}+){0,8}+")
MAX_JOINED = 3  # a figure's line broken more often than this is not a wrapped line


def bare(line):
    """The line without indentation, "> " quotes and trailing blanks."""
    return _LEAD.sub("", line, count=1).rstrip()


def lines(text, starts=None, complete=None):
    raw = [bare(line) for line in text.splitlines()]
    out, index = [], 0
    while index < len(raw):
        line, first = raw[index], index
        if starts is not None and starts(line):
            while not complete(line) and index + 1 < len(raw) and raw[index + 1] and index - first < MAX_JOINED:
                index += 1
                line = f"{line} {raw[index]}"
            if not complete(line):  # not a broken line after all: as it was
                line, index = raw[first], first
        out.append((first + 1, line))
        index += 1
    return out


def binary_size_text(size_bytes):
    for factor, unit in ((TIB_BYTES, "TiB"), (GIB_BYTES, "GiB"), (MIB_BYTES, "MiB"), (KIB_BYTES, "KiB")):
        if size_bytes >= factor:
            return f"{size_bytes / factor:.2f} {unit}"
    return f"{size_bytes} bytes"
