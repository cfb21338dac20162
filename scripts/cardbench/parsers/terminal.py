"""Terminal residue in pasted logs: colour and cursor escapes (a script's `tput setaf 3`, `tput sgr0`).

plain(line) -> the line without ANSI escape sequences, for the tool modules that read coloured logs.
unquoted(line, keep_columns=False) -> the line without a mail-style "> " quote (nested ones too).
printable(text) -> text with what a terminal would act on escaped, for messages and notes.
"""

import re

# CSI sequences ("\x1b[33m", "\x1b[1;4m", "\x1b[K"), a character-set choice ("\x1b(B", from `tput sgr0`)
# and other two-character escapes; bounded, so a long line stays linear.
_ANSI = re.compile(r"\x1b(?:\[[0-9;?]{0,32}+[ -/]{0,4}+[@-~]|[()][0-9A-Za-z]|[@-Z\\-_])")

# "> ", "> > ", ">>" after a little indentation: a log quoted in a mail or a forum post.
_QUOTE = re.compile(r"^[ \t]{0,8}+(?:>[ \t]?+){1,16}+")


def plain(line):
    """The line as it reads on a terminal: ANSI escapes taken out."""
    return _ANSI.sub("", line) if "\x1b" in line else line


def unquoted(line, keep_columns=False):
    """The line with its "> " quote taken out, or blanked out with keep_columns (a table's columns stay
    where they were)."""
    quote = _QUOTE.match(line) if ">" in line[:48] else None
    if not quote:
        return line
    return (" " * quote.end() if keep_columns else "") + line[quote.end():]


def printable(text):
    """str(text) with line breaks, control and format characters escaped ('\\n', '\\x1b', '\\u202e'):
    a file name or a tool's message quoted in a message cannot move the cursor, recolour or fake a
    line of output."""
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in str(text))
