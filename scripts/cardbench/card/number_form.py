"""How a card file writes a number: the one plain decimal form, and why any other form is refused.

load.py refuses a number in another form with the message made here; dump.py quotes text that reads as a number.
"""

import math
import re

import yaml

from .wording import shorten

# The one way a card file writes a number: decimal digits, optionally a sign, a fraction and an exponent
# (JSON's form, plus '+'). YAML 1.1 also reads 1:04 (base 60), 0x36, 066 (octal), 0b11, 5_4, .inf and
# .nan as numbers, which a reader does not see as the value they are; the card loader refuses them.
PLAIN_NUMBER = re.compile(r"[-+]?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?")
# PyYAML wants a point and a signed exponent ("1.5e+3") and leaves 1.5e3 and 1e3 as text; read them as
# numbers too, as YAML 1.2 and JSON do.
EXPONENT_NUMBER = re.compile(r"^[-+]?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?[eE][-+]?[0-9]+$")


def number_form_problem(text):
    """Why a scalar YAML reads as a number is not written as one, or None when it is plain decimal."""
    if PLAIN_NUMBER.fullmatch(text):
        return None
    try:
        value = yaml.safe_load(text)  # one short scalar (its length is bounded before)
    except yaml.YAMLError:
        value = None
    if not isinstance(value, (int, float)) or isinstance(value, bool):
        return f"'{shorten(text)}' is tagged as a number but not written as one; write plain decimal digits"
    if isinstance(value, float) and not math.isfinite(value):
        return (f"'{text}' is YAML for {value}, not a figure; card figures are finite numbers (leave the "
                f"value out, or put it in quotes if it is text)")
    bare = text.lstrip("+-").lower()
    if ":" in bare:
        form = "base 60 (YAML 1.1 reads each ':' as a sexagesimal place)"
    elif bare.startswith("0x"):
        form = "hexadecimal"
    elif bare.startswith("0b"):
        form = "binary"
    elif "_" in bare:
        form = "with '_' between digits, which YAML drops"
    elif re.fullmatch(r"0[0-7]+", bare):
        form = "octal (YAML 1.1 reads a leading 0 so)"
    else:
        form = "not in plain decimal form"
    shown = _decimal_text(value)
    return (f"'{text}' is read as the number {shown}: {form}; write {shown} in plain decimal digits, "
            f"or put the value in quotes if it is text")


def _decimal_text(value):
    """A number as a card file should write it: 64, 10.5, 1.5e-07."""
    if isinstance(value, int):
        return str(value)
    text = repr(value)
    return text[:-2] if text.endswith(".0") and "e" not in text else text
