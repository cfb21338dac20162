"""Numbers as the tools print them, and a guard against numbers no tool prints."""

import re

from ...errors import ParseError

# No tool prints a number this long; int() refuses more than 4300 digits, and arithmetic on a
# number of thousands of digits (2 ** n) would not end.
MAX_DIGITS = 100
_LONG_NUMBER = re.compile(rf"(?<!\d)\d{{{MAX_DIGITS + 1}}}")  # starts only where a run of digits starts
# No figure of a card benchmark (MB/s, IOPS, µs) comes near this; a larger one is not a measurement.
PLAUSIBLE_FIGURE = 1e9
_NUMBER = re.compile(r"^[+-]?(\d+([.,]\d*)?|[.,]\d+)([eE][+-]?\d+)?$")


def number(text):
    """'84.3', '84,3' (decimal comma) or '2.6509e-05' as float; None when not a number."""
    text = text.strip()
    if not _NUMBER.match(text):
        return None
    return float(text.replace(",", "."))


def refuse_long_numbers(text, tool, newline_only=False):
    """ParseError naming the line of the first run of more than MAX_DIGITS digits in text. Lines
    are counted as the parser counts them: by str.splitlines(), or by "\\n" alone."""
    match = _LONG_NUMBER.search(text)
    if match is None:
        return
    start = match.start()
    if newline_only:
        line = text.count("\n", 0, start) + 1
        begin = text.rfind("\n", 0, start) + 1
    else:
        before = (text[:start] + "x").splitlines()
        line = len(before)
        begin = start - len(before[-1]) + 1
    left = max(begin, start - 40)  # the digits come within 40 characters of `start`
    shown = ("…" if left > begin else "") + text[left:start + 40] + "…"
    raise ParseError(tool, f"a number of more than {MAX_DIGITS} digits; not {tool} output", line=line, text=shown)
