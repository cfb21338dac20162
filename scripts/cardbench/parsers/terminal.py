"""Terminal residue in pasted logs: colour and cursor escapes (a script's `tput setaf 3`, `tput sgr0`).

plain(line) -> the line without ANSI escape sequences, for the tool modules that read coloured logs.
printable(text) -> text with what a terminal would act on escaped, for messages and notes.
"""

import re

# CSI sequences ("\x1b[33m", "\x1b[1;4m", "\x1b[K"), a character-set choice ("\x1b(B", from `tput sgr0`)
# and other two-character escapes; bounded, so a long line stays linear.
_ANSI = re.compile(r"\x1b(?:\[[0-9;?]{0,32}+[ -/]{0,4}+[@-~]|[()][0-9A-Za-z]|[@-Z\\-_])")


def plain(line):
    """The line as it reads on a terminal: ANSI escapes taken out."""
    return _ANSI.sub("", line) if "\x1b" in line else line


def printable(text):
    """str(text) with line breaks, control and format characters escaped ('\\n', '\\x1b', '\\u202e'):
    a file name or a tool's message quoted in a message cannot move the cursor, recolour or fake a
    line of output."""
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in str(text))
