"""How values and texts are worded inside a one-line message about a card."""

import re
import unicodedata

_UNPRINTABLE = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff]")
SURROGATE = re.compile("[\ud800-\udfff]")
# Python reads each byte of a command line argument that is not UTF-8 as one of these (surrogateescape).
_ESCAPED_BYTES = range(0xDC80, 0xDD00)


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
    if SURROGATE.fullmatch(char):
        return f"U+{ord(char):04X} (a lone surrogate, which is no character)"
    name = unicodedata.name(char, "")
    return f"U+{ord(char):04X} " + (name or "(a control character)")


def lone_surrogate(text):
    """The first lone surrogate of `text` (a match), or None. A surrogate is no character and cannot be
    written as UTF-8: one in a card's text would stop every build of the site. Python makes one of each
    byte of a command line argument that is not UTF-8 (a terminal set to Latin-1), and JSON's '\\ud800'
    and YAML's "\\udcf1" escapes make them too."""
    return SURROGATE.search(text)


def surrogate_words(char):
    """What a lone surrogate stands for, for a message: the byte a terminal sent, or half a UTF-16 pair."""
    code = ord(char)
    if code in _ESCAPED_BYTES:
        return (f"the byte 0x{code - 0xDC00:02X}, which is not UTF-8 (typed in a terminal set to another "
                f"encoding, such as Latin-1?)")
    return f"U+{code:04X}, half of a UTF-16 surrogate pair standing alone, which is no character"
