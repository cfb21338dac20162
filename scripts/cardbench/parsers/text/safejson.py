"""JSON decoding for untrusted tool output (fio, nvme-cli -o json).

raw_decode(text, start, tool, refused=None) -> (value, end), as json.JSONDecoder().raw_decode, except
that a document nested deeper than MAX_DEPTH, holding a number of more than MAX_DIGITS characters, or
a key twice in one object where refused(key, values) says that is unclear (every duplicate, by
default), raises ParseError(tool, ..., line=N) naming the line. json.JSONDecodeError passes through for the
caller to word. Python's decoder would otherwise fail on such input with RecursionError (deep
nesting) or ValueError (int() refuses more than 4300 digits), and no tool prints either.
"""

import json
import re

from ...errors import ParseError, quoted

MAX_DEPTH = 64  # fio json+ nests 6 deep
MAX_DIGITS = 100  # fio's largest figures are 64-bit counters (20 digits)

# A string (unrolled loop, possessive: nothing can backtrack) or a bracket. A string left open runs to the
# end of the text: tried again from each quote inside it, it would take quadratic time (the decoder
# refuses such a document anyway).
_STRING = r'"[^"\\]*+(?:\\.[^"\\]*+)*+(?:"|\\?+\Z)'
_TOKENS = re.compile(rf'{_STRING}|[\[\]{{}}]', re.DOTALL)


class _TooLong(Exception):
    def __init__(self, token):
        super().__init__(token)
        self.token = token


def _bounded(convert):
    def parse(token):
        if len(token) > MAX_DIGITS:
            raise _TooLong(token)
        return convert(token)
    return parse


class _DuplicateKey(Exception):
    def __init__(self, key):
        super().__init__(key)
        self.key = key


def _keys_checked(refused):
    """An object_pairs_hook: the object's dict (the last of equal keys counts), or _DuplicateKey for a key
    that comes twice and that refused(key, values) says may hold a figure (JSON leaves which one counts
    open). refused None: every duplicate is refused."""
    def hook(pairs):
        out = dict(pairs)
        if len(out) == len(pairs):
            return out
        seen = {}
        for key, value in pairs:
            seen.setdefault(key, []).append(value)
        for key, values in seen.items():
            if len(values) > 1 and (refused is None or refused(key, values)):
                raise _DuplicateKey(key)
        return out
    return hook


def _decoder(refused):
    return json.JSONDecoder(parse_int=_bounded(int), parse_float=_bounded(float),
                            object_pairs_hook=_keys_checked(refused))
# A string followed by a colon (an object's key), or a bracket.
_KEYS = re.compile(rf'({_STRING})\s*+:|[\[\]{{}}]|{_STRING}', re.DOTALL)


def _line(text, pos):
    return text.count("\n", 0, pos) + 1


def _shown(text, pos, width=60):
    """The line around pos, cut to about 2 * width characters (a minified document is one line)."""
    start = text.rfind("\n", 0, pos) + 1
    end = text.find("\n", pos)
    end = len(text) if end == -1 else end
    left, right = max(start, pos - width), min(end, pos + width)
    return ("…" if left > start else "") + text[left:right].rstrip("\r") + ("…" if right < end else "")


def check_depth(text, start, tool):
    """ParseError when the JSON value starting at text[start] nests deeper than MAX_DEPTH."""
    depth = 0
    for match in _TOKENS.finditer(text, start):
        token = match.group()
        if token in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                raise ParseError(tool, f"JSON nested more than {MAX_DEPTH} levels deep; not tool output",
                                 line=_line(text, match.start()), text=_shown(text, match.start()))
        elif token in "]}":
            depth -= 1
            if depth <= 0:
                return


def _duplicate_key(text, start, tool, wanted):
    """ParseError naming the line where the key `wanted` comes a second time in one object of the JSON
    value starting at text[start]."""
    objects = []  # keys seen so far in each open object (None for an array)
    for match in _KEYS.finditer(text, start):
        token = match.group()
        if token == "{":
            objects.append(set())
        elif token == "[":
            objects.append(None)
        elif token in "]}":
            if objects:
                objects.pop()
            if not objects:
                break
        elif match.group(1) is not None and objects and objects[-1] is not None:
            key = json.loads(match.group(1))
            if key == wanted and key in objects[-1]:
                raise ParseError(tool, f"the key {quoted(key)} comes twice in one JSON object; which one holds the "
                                       "figure is unclear", line=_line(text, match.start()),
                                 text=_shown(text, match.start()))
            objects[-1].add(key)
    raise ParseError(tool, "a key comes twice in one JSON object", line=_line(text, start))


def raw_decode(text, start, tool, refused=None):
    """json's raw_decode with the limits above; a key that comes twice in one object is refused when
    refused(key, values) is true (by default always)."""
    check_depth(text, start, tool)
    try:
        return _decoder(refused).raw_decode(text, start)
    except _DuplicateKey as exc:
        _duplicate_key(text, start, tool, exc.key)
    except _TooLong as exc:
        pos = text.find(exc.token, start)
        raise ParseError(tool, f"a number of {len(exc.token)} characters in the JSON (the limit is {MAX_DIGITS}); "
                               "not tool output", line=_line(text, pos), text=_shown(text, pos)) from None
