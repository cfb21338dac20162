"""Terminal residue in pasted logs: colour and cursor escapes (a script's `tput setaf 3`, `tput sgr0`).

plain(line) -> the line without ANSI escape sequences, for the tool modules that read coloured logs.
shown(line) -> plain(line) without carriage returns as well (CRLF files, progress lines redrawn in place).
echoed(line) -> the line without what `echo -e` leaves in a shell whose echo takes no options.
unquoted(line, keep_columns=False) -> the line without a mail-style "> " quote (nested ones too).
printable(text) -> text with what a terminal would act on escaped, for messages and notes.
damaged_lines(text) -> [(line number, line)] of the lines holding a character no terminal capture
    holds (NUL, most C0 controls, DEL); undamaged(line) -> the line without them.
"""

import re

# CSI sequences ("\x1b[33m", "\x1b[1;4m", "\x1b[K"), a character-set choice ("\x1b(B", from `tput sgr0`)
# and other two-character escapes; bounded, so a long line stays linear.
_ANSI = re.compile(r"\x1b(?:\[[0-9;?]{0,32}+[ -/]{0,4}+[@-~]|[()][0-9A-Za-z]|[@-Z\\-_])")

# Colour codes a script wrote for `echo -e` that a shell's plain echo printed as they were written.
_WRITTEN_OUT = re.compile(r"\\(?:033|e)\[[0-9;]{0,32}+m")

# NUL and the C0 controls a terminal neither shows nor acts on, and DEL: no capture or saved report holds
# them (tab, BEL, backspace, ESC and its sequences, and the line breaks of str.splitlines() are a
# capture's own). A line holding one no longer matches the line it was, and would be left out unseen.
_DAMAGE = re.compile("[\x00-\x06\x0e-\x1a\x7f]")

# "> ", "> > ", ">>" after a little indentation: a log quoted in a mail or a forum post.
_QUOTE = re.compile(r"^[ \t]{0,8}+(?:>[ \t]?+){1,16}+")


def plain(line):
    """The line as it reads on a terminal: ANSI escapes taken out."""
    return _ANSI.sub("", line) if "\x1b" in line else line


def shown(line):
    """The line without ANSI escapes and carriage returns (a CRLF file, a progress line redrawn in place)."""
    return plain(line).replace("\r", "")


def echoed(line):
    """The line without the "-e " a shell's plain echo printed before it and the colour codes it printed as
    written ("\\033[1m", "\\e[0m")."""
    line = _WRITTEN_OUT.sub("", line) if "\\" in line else line
    return line[3:] if line.startswith("-e ") else line


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


def damaged_lines(text):
    """[(line number as str.splitlines() counts it, the line)] of each line holding a character no
    terminal capture holds (a NUL in a copied or damaged file), in order."""
    if not _DAMAGE.search(text):
        return []
    return [(number, line) for number, line in enumerate(text.splitlines(), start=1) if _DAMAGE.search(line)]


def undamaged(line):
    """The line without the characters no terminal capture holds."""
    return _DAMAGE.sub("", line)
