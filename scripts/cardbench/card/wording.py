"""How values and texts are worded inside a one-line message about a card."""

import re
import unicodedata

_UNPRINTABLE = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


def shorten(text, limit=60):
    """The text cut after `limit` characters, so a long value is never echoed whole."""
    text = str(text)
    return text if len(text) <= limit else text[:limit] + "…"


def one_line(text):
    """Text with line breaks and control characters escaped, so a message is one line that no value
    can extend (CI reads each line as a finding or a command)."""
    return _UNPRINTABLE.sub(lambda m: f"\\u{ord(m.group()):04x}", str(text))


def describe(value):
    """How a value reads in a message, never longer than a line."""
    if value is None:
        return "nothing (empty)"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int) and abs(value) >= 10**40:
        return "a number with more than 40 digits"
    if isinstance(value, (int, float)):
        return f"the number {value!r}"
    if isinstance(value, str):
        return f"the text {shorten(value, 40)!r}"
    if isinstance(value, list):
        return f"a list of {len(value)} item(s)"
    if isinstance(value, dict):
        return "a mapping (key: value)"
    return type(value).__name__


def character_name(char):
    """'U+202E RIGHT-TO-LEFT OVERRIDE'; control characters, which have no name, are called so."""
    name = unicodedata.name(char, "")
    return f"U+{ord(char):04X} " + (name or "(a control character)")
