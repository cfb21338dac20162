"""A logged flashbench command's options, read as flashbench's getopt_long would.

options(args, line=None) -> {"mode": "sequential" | "random", "open_au", "erase", "block", "count",
    "offset"}: the numbers given (None where not given); a value that is not a plain number (a
    variable the log never set, '4M') is an error naming the option and the line.
"""

import re

from ..errors import ParseError

TOOL = "flashbench"

# getopt_long's table in flashbench.c: long name -> (short name, takes a value)
_LONG = {"out": ("o", True), "scatter": ("s", False), "scatter-order": ("S", True), "scatter-span": ("$", True),
         "align": ("a", False), "interval": ("i", False), "interval-order": ("I", True), "find-fat": ("f", False),
         "fat-nr": ("F", True), "open-au": ("O", False), "open-au-nr": ("0", True), "offset": ("t", True),
         "random": ("r", False), "verbose": ("v", False), "count": ("c", True), "blocksize": ("b", True),
         "erasesize": ("e", True)}
_SHORT_VALUED = set("oFcbe")  # "o:siafF:Ovrc:b:e:p"
_VARIABLE = re.compile(r"\$\{?([A-Za-z_]\w{0,63})")


def options(args, line=None):
    """{"mode", "open_au", "erase", "block", "count", "offset"} of flashbench's arguments (None where
    not given); ParseError naming the option when a number is not one (a variable never set, '4M')."""
    opts = {"mode": "sequential", "open_au": None, "erase": None, "block": None, "count": None, "offset": None}
    given = {}
    i = 0
    while i < len(args):
        word = args[i]
        if word.startswith("--") and len(word) > 2:
            name, has_value, value = word[2:].partition("=")
            key = _long_option(name)
            if key is None:
                i += 1
                continue
            short, valued = _LONG[key]
            if valued and not has_value:
                i += 1
                value = args[i] if i < len(args) else ""
            given[short] = (f"--{key}", value)
        elif word.startswith("-") and len(word) > 1:
            for j, short in enumerate(word[1:], start=1):
                if short in _SHORT_VALUED:
                    value = word[j + 1:]
                    if not value:
                        i += 1
                        value = args[i] if i < len(args) else ""
                    given[short] = (f"-{short}", value)
                    break
                given[short] = (f"-{short}", "")
        i += 1
    if "r" in given:
        opts["mode"] = "random"
    for short, key in (("0", "open_au"), ("e", "erase"), ("b", "block"), ("c", "count"), ("t", "offset")):
        if short in given:
            opts[key] = _number(*given[short], line, offset=short == "t")
    return opts


def _long_option(name):
    """getopt_long's choice: the exact name, else the one option the prefix names."""
    if name in _LONG:
        return name
    matches = [key for key in _LONG if key.startswith(name)]
    return matches[0] if len(matches) == 1 else None


def _number(option, value, line, offset=False):
    if re.fullmatch(r"\d{1,18}", value):
        return int(value)
    if offset and re.fullmatch(r"0[xX][0-9a-fA-F]{1,16}", value):
        return int(value, 16)  # --offset is read with strtoull(…, 0)
    shown = f"{option}={value}" if option.startswith("--") else f"{option} {value}"
    variable = _VARIABLE.search(value)
    if variable:
        raise ParseError(TOOL, f"{shown}: ${variable.group(1)} is not set earlier in the file; set it above the "
                               f"command (e.g. '{variable.group(1)}=$((4*1024*1024))') or write the number "
                               f"({option}=4194304)", line=line)
    raise ParseError(TOOL, f"{shown}: flashbench reads {option} as a plain number of bytes or times; write it as "
                           "one (e.g. 4194304 for 4 MiB)", line=line)
