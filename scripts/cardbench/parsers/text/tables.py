"""The tables of a text as a source printed them: Markdown pipe tables, HTML tables and Markdown lists.

read_tables(text) -> {"tables": [...], "registers": {...}, "lists": [...]}, as result_table.parse describes;
no I/O and no meaning given to any cell (result_table.py's layout says what a cell holds).
"""

import html
import re

_PIPE_ROW = re.compile(r"^[ \t]*+\|(.*)\|[ \t]*+$")
_PIPE_RULE = re.compile(r"^[ \t]*+\|?+[ \t]*+:?-{1,200}+:?[ \t]*+(?:\|[ \t]*+:?-{1,200}+:?[ \t]*+)*+\|?+[ \t]*+$")
_MD_HEADING = re.compile(r"^[ \t]*+(?:#{1,6}+[ \t]*+(.{1,300}?)[ \t#]*|\*\*(.{1,300}?)\*\*:?[ \t]*|#\[(.{1,300}?)\])$")
_HTML_HEADING = re.compile(r"<h[1-6][^>]{0,200}>(.{0,300}?)</h[1-6]>", re.I | re.S)
_TAG = re.compile(r"<[^<>]{0,500}>")
_BR = re.compile(r"<br[ \t]*+/?>", re.I)
_CELL_TAG = re.compile(r"<(t[dh])\b[^>]{0,500}>(.*?)</\1>", re.I | re.S)
_ROW_TAG = re.compile(r"<tr\b[^>]{0,500}>(.*?)</tr>", re.I | re.S)
_TABLE_TAG = re.compile(r"<table\b[^>]{0,500}>(.*?)</table>", re.I | re.S)
_REGISTER = re.compile(r"^[ \t]*+(CID|CSD)[ \t]*+:[ \t]*+((?:\$[0-9A-Fa-f]{2}[ \t]*+){16})$", re.M)


def _cell_text(raw):
    """A cell's text: markup out, entities decoded, <br> kept as a line break, spaces joined."""
    text = _BR.sub("\n", raw)
    text = _TAG.sub("", text)
    text = html.unescape(text).replace("\u00a0", " ")
    text = text.replace("**", "").replace("`", "")
    return "\n".join(" ".join(part.split()) for part in text.split("\n")).strip()


def _pipe_cells(inner):
    return [_cell_text(cell) for cell in re.split(r"(?<!\\)\|", inner)]


def _loose_row(line):
    """The cells' text of a Markdown row that leaves out the pipe at one end or both ('Z-suit | 16GB |'),
    as GitHub reads such a row inside a table; None for a line that is no row (blank, no pipe, a heading)."""
    if not line.strip() or "|" not in line.replace("\\|", "") or _MD_HEADING.match(line):
        return None
    inner = line.strip()
    inner = inner[1:] if inner.startswith("|") else inner
    inner = inner[:-1] if inner.endswith("|") and not inner.endswith("\\|") else inner
    return inner


def _note(lines_below):
    """The first line of text below a table, markup out (its caption or the next paragraph), or None."""
    for line in lines_below[:20]:
        stripped = _TAG.sub("", line).strip()
        if stripped:
            return _cell_text(stripped)
    return None


def _text_above(lines, index):
    """The last line of text above lines[index] (a table's caption), markup taken out; None if none."""
    for line in reversed(lines[:index]):
        if line.strip():
            return None if _MD_HEADING.match(line) or _PIPE_ROW.match(line) else _cell_text(line)
    return None


def read_tables(text):
    """{"tables", "registers", "lists"} of a text: see the module's docstring."""
    tables, heading = [], None
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        line = lines[i]
        found = _MD_HEADING.match(line)
        if found:
            heading = _cell_text(next(group for group in found.groups() if group is not None))
        for match in _HTML_HEADING.finditer(line):
            heading = _cell_text(match.group(1))
        row = _PIPE_ROW.match(line)
        if row and i + 1 < len(lines) and _PIPE_RULE.match(lines[i + 1]):
            header = _pipe_cells(row.group(1))
            rows, numbers = [], []
            j = i + 2
            while j < len(lines) and _loose_row(lines[j]) is not None:
                rows.append(_pipe_cells(_loose_row(lines[j])))
                numbers.append(j + 1)
                j += 1
            tables.append({"heading": heading, "header": header, "rows": rows, "lines": numbers, "line": i + 1,
                           "above": _text_above(lines, i), "note": _note(lines[j:])})
            i = j
            continue
        i += 1
    offset = 0
    line_starts = [0]
    for line in lines:
        offset += len(line) + 1
        line_starts.append(offset)
    for match in _TABLE_TAG.finditer(text):
        start_line = text.count("\n", 0, match.start()) + 1
        before = text[:match.start()]
        headings = _HTML_HEADING.findall(before)
        html_rows = []
        for row_match in _ROW_TAG.finditer(match.group(1)):
            cells = [_cell_text(cell) for _, cell in _CELL_TAG.findall(row_match.group(1))]
            row_line = text.count("\n", 0, match.start(1) + row_match.start()) + 1
            html_rows.append((cells, row_line))
        if not html_rows:
            continue
        tables.append({"heading": _cell_text(headings[-1]) if headings else None, "header": html_rows[0][0],
                       "rows": [cells for cells, _ in html_rows[1:]], "lines": [n for _, n in html_rows[1:]],
                       "line": start_line, "above": None, "note": _note(text[match.end():].split("\n"))})
    tables.sort(key=lambda table: table["line"])
    registers = {name: "".join(byte.strip("$ \t") for byte in value.split()).lower()
                 for name, value in _REGISTER.findall(text)}
    return {"tables": tables, "registers": registers, "lists": _lists(lines)}


_LIST_ITEM = re.compile(r"^([ \t]*+)(?:[-*+]|\d{1,9}[.)])[ \t]++(.{1,2000})$")


def _lists(lines):
    """Markdown lists read as two-column tables: a top-level item's text, and the text of the items
    nested under it (one per line), with the nearest heading above the list."""
    lists, heading, current = [], None, None
    for number, line in enumerate(lines, start=1):
        item = _LIST_ITEM.match(line)
        if item is None:
            found = _MD_HEADING.match(line)
            if found:
                heading = _cell_text(next(group for group in found.groups() if group is not None))
            if line.strip():
                current = None  # text between items ends the list; a blank line does not
            continue
        if len(item.group(1).expandtabs(4)) < 2:
            if current is None:
                current = {"heading": heading, "header": ["item", "nested"], "rows": [], "lines": [], "line": number}
                lists.append(current)
            current["rows"].append([_cell_text(item.group(2)), ""])
            current["lines"].append(number)
        elif current is not None:
            row = current["rows"][-1]
            row[1] = f"{row[1]}\n{_cell_text(item.group(2))}" if row[1] else _cell_text(item.group(2))
    return lists
