"""PyYAML's errors as CardFileErrors: the line and column, the reason, and a hint in plain words."""

import re

from ..errors import CardFileError
from .wording import shorten

# Plain-language hints for PyYAML's most common complaints.
_YAML_HINTS = [
    ("mapping values are not allowed here", "a ':' inside unquoted text? put the text in quotes"),
    ("while scanning a quoted scalar", "a quote is not closed"),
    ("expected <block end>", "indentation does not line up with the lines above"),
    ("found undefined alias", "'*' starts an alias in YAML; put the text in quotes"),
    ("that cannot start any token", "put the text in quotes"),
    ("expected a single document", "a card file holds one document; remove the '---' line"),
    ("found duplicate anchor", "each &anchor name may be used once"),
]

_OPENING_QUOTE = re.compile(r"""^\s*(?:-\s+)?[^\s"'#][^:#]*:\s+(["'])(.*)$""")


def yaml_error(exc, path, text):
    """CardFileError for a PyYAML error: its position, its reason, and a hint."""
    mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
    line = mark.line + 1 if mark else None
    column = mark.column + 1 if mark else None
    problem = getattr(exc, "problem", None) or ""
    if "'\\t'" in problem:
        tab_column = _indent_tab(text, line)
        if tab_column is not None:
            return CardFileError(path, "tab character in the indentation; YAML indents with spaces only",
                                 line=line, column=tab_column, rule="tab-indent")
        return CardFileError(path, "tab character outside quotes; use spaces, or put the text in quotes",
                             line=line, column=column, rule="tab-indent")
    if "could not determine a constructor" in problem:
        return CardFileError(path, "YAML tag is not allowed; card files hold plain text, numbers, lists and "
                                   "mappings only", line=line, column=column, rule="tag")
    reason = " ".join(str(part) for part in (getattr(exc, "context", None), problem) if part) or str(exc)
    hint = next((h for key, h in _YAML_HINTS if key in reason), None)
    opened = _unclosed_quote_line(text, line) if line else None
    if opened is not None:
        hint = f"the quote opened at line {opened} is not closed on that line"
    message = f"YAML syntax error: {reason}" + (f" ({hint})" if hint else "")
    if mark is None:
        message = f"YAML syntax error: {shorten(exc, 200)}"
    return CardFileError(path, message, line=line, column=column, rule="yaml")


def reader_error(exc, path, text):
    """Characters YAML does not allow (NUL, most control characters) with their line and column."""
    position = exc.position if isinstance(exc.position, int) else 0
    before = text[:position]
    line = before.count("\n") + 1
    column = position - (before.rfind("\n") + 1) + 1
    char = exc.character
    shown = f"U+{char:04X}" if isinstance(char, int) else repr(char)
    return CardFileError(path, f"character {shown} is not allowed in YAML text", line=line, column=column,
                         rule="encoding")


def _indent_tab(text, line):
    """1-based column of a tab in the indentation of a line, or None."""
    lines = text.splitlines()
    if not 1 <= line <= len(lines):
        return None
    row = lines[line - 1]
    indent = row[: len(row) - len(row.lstrip(" \t"))]
    return indent.index("\t") + 1 if "\t" in indent else None


def _unclosed_quote_line(text, before):
    """First line before `before` whose value opens a quote it does not close on that line."""
    for number, row in enumerate(text.splitlines()[: max(before - 1, 0)], 1):
        match = _OPENING_QUOTE.match(row)
        if match and match.group(1) not in match.group(2):
            return number
    return None
