"""Terminal residue in pasted logs: colour and cursor escapes (a script's `tput setaf 3`, `tput sgr0`).

plain(line) -> the line without ANSI escape sequences, for the tool modules that read coloured logs.
"""

import re

# CSI sequences ("\x1b[33m", "\x1b[1;4m", "\x1b[K"), a character-set choice ("\x1b(B", from `tput sgr0`)
# and other two-character escapes; bounded, so a long line stays linear.
_ANSI = re.compile(r"\x1b(?:\[[0-9;?]{0,32}+[ -/]{0,4}+[@-~]|[()][0-9A-Za-z]|[@-Z\\-_])")


def plain(line):
    """The line as it reads on a terminal: ANSI escapes taken out."""
    return _ANSI.sub("", line) if "\x1b" in line else line
