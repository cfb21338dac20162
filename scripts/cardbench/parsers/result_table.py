"""Result tables as a source printed them: Markdown pipe tables and HTML tables, read with a layout that
says which cells are which figures.

A published review often keeps no tool output, only a table of what the tool printed, one card per row
or one test per row. This reader records each figure as printed, in the unit the table prints beside
it (in the cell or in its column heading), and never guesses what a column means: the layout names it.
It is never detected; a source's manifest (imports/sources.py) names it with its layout.

parse(text) -> {"tables": [{"heading": str | None, "header": [cell], "rows": [[cell]], "lines": [int],
                            "line": int, "note": str | None}]}
    every table of the text in order, each with the nearest heading above it (a Markdown '#' line, an
    HTML <h1>-<h6>, or a line in bold), the line of each row and its note: the first line of text below
    it (a caption such as '*All speeds are in MB/s.*', markup taken out); a cell is its text with markup
    taken out, except that a line break inside a cell (<br>) is kept as "\\n". Also "registers":
    {"CID": "0353..."} from lines like 'CID: $03 $53 …' (the SD card's registers, as some sources print
    them).
to_session(parsed, layout) -> SessionFields: the figures the layout names, as tool_results, dd or
    capacity_check entries, and the card's price when the layout names a price cell.

The layout (a mapping, from the source's manifest):
  table: N              which table of the part (1-based; default: the first)
  row: "Label"          the row whose first cell is this (rows are cards); a figure may name its own row
  key: "Column"         the column whose cell names the row, where the first does not (a date column first)
  unit_note: "words"    the table's note below it says the unit of figures that print none, in these words
  tool: "dd"            the tool of every figure (a figure may name its own)
  figures: [{column, row?, part?, label?, nth?, printed, unit, tool?, test, op, block_size?, iops?, entry?,
             count?, flags?, target?}]
      column: the column's heading as printed (markup taken out); part: in a cell of several figures
      (one per line), the one followed by this word ("58.2GB usable <br> 45 MB/s write" -> "write");
      label: the one after "label:" ("RPi4:&nbsp;43.8"); nth: in a cell of figures on one line
      separated by '/' ("95.40 / 63.66"), the nth (1-based); printed: the unit text the table prints with
      the figure (in the cell, else in the column heading, else in the note the layout's unit_note names),
      checked; unit: what the tool means by it
      (core.units); iops: "parentheses" when the cell prints the IOPS in brackets after the figure
      ("24.34 MB/s (6086)"); entry: "tool_results" (default), "dd" (with block_size, count, flags,
      target) or "capacity" (usable capacity: unit "GiB" or "GB", with announced_gb, and verdict_column
      and verdicts {cell text: "ok" | "data lost"}, or verdict given).
  price: {column, shop_part?: 0, amount_part?: 1, currency: "USD", date?}  the card's price and shop
  cid: "CID"            the CID register printed as 'CID: $03 $53 …' in the part
"""

import html
import re

from ..errors import ParseError, quoted
from ..core.units import GB_BYTES, GIB_BYTES, RATE_TO_MB_S
from . import NOT_MINE
from .entries import capacity_check_entry, tool_result_entry
from .fields import SessionFields
from .tool import ToolInfo

TOOL = "table"
INFO = ToolInfo(name="table", programs=(), family="suite",
                description="a result table as a source printed it (Markdown or HTML), read with its layout",
                units={"as printed": "the unit the table prints with each figure, named in the layout"},
                hints=("layout",))

_PIPE_ROW = re.compile(r"^[ \t]*+\|(.*)\|[ \t]*+$")
_PIPE_RULE = re.compile(r"^[ \t]*+\|?+[ \t]*+:?-{1,200}+:?[ \t]*+(?:\|[ \t]*+:?-{1,200}+:?[ \t]*+)*+\|?+[ \t]*+$")
_MD_HEADING = re.compile(r"^[ \t]*+(?:#{1,6}+[ \t]*+(.{1,300}?)[ \t#]*|\*\*(.{1,300}?)\*\*:?[ \t]*|#\[(.{1,300}?)\])$")
_HTML_HEADING = re.compile(r"<h[1-6][^>]{0,200}>(.{0,300}?)</h[1-6]>", re.I | re.S)
_TAG = re.compile(r"<[^<>]{0,500}>")
_BR = re.compile(r"<br[ \t]*+/?>", re.I)
_CELL_TAG = re.compile(r"<(t[dh])\b[^>]{0,500}>(.*?)</\1>", re.I | re.S)
_ROW_TAG = re.compile(r"<tr\b[^>]{0,500}>(.*?)</tr>", re.I | re.S)
_TABLE_TAG = re.compile(r"<table\b[^>]{0,500}>(.*?)</table>", re.I | re.S)
_FIGURE = re.compile(r"(?<![\w.])([-+]?\d{1,3}+(?:,\d{3})*+(?:\.\d{1,6}+)?|[-+]?\d{1,12}+(?:\.\d{1,6}+)?)[ \t]*+"
                     r"([A-Za-z/]{1,12}+)?")
_REGISTER = re.compile(r"^[ \t]*+(CID|CSD)[ \t]*+:[ \t]*+((?:\$[0-9A-Fa-f]{2}[ \t]*+){16})$", re.M)


def detect(text):
    """A table alone does not say what its columns are: never claimed; a manifest names this format."""
    return NOT_MINE


def _cell_text(raw):
    """A cell's text: markup out, entities decoded, <br> kept as a line break, spaces joined."""
    text = _BR.sub("\n", raw)
    text = _TAG.sub("", text)
    text = html.unescape(text).replace("\u00a0", " ")
    text = text.replace("**", "").replace("`", "")
    return "\n".join(" ".join(part.split()) for part in text.split("\n")).strip()


def _pipe_cells(inner):
    return [_cell_text(cell) for cell in re.split(r"(?<!\\)\|", inner)]


def parse(text):
    """The tables of a text (see the module's docstring)."""
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
            while j < len(lines) and _PIPE_ROW.match(lines[j]):
                rows.append(_pipe_cells(_PIPE_ROW.match(lines[j]).group(1)))
                numbers.append(j + 1)
                j += 1
            tables.append({"heading": heading, "header": header, "rows": rows, "lines": numbers, "line": i + 1,
                           "note": _note(lines[j:])})
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
                       "line": start_line, "note": _note(text[match.end():].split("\n"))})
    tables.sort(key=lambda table: table["line"])
    registers = {name: "".join(byte.strip("$ \t") for byte in value.split()).lower()
                 for name, value in _REGISTER.findall(text)}
    if not tables and not registers:
        raise ParseError(TOOL, "no table found (a Markdown table with its |---| line, or an HTML <table>)")
    return {"tables": tables, "registers": registers}


def _note(lines_below):
    """The first line of text below a table, markup out (its caption or the next paragraph), or None."""
    for line in lines_below[:20]:
        stripped = _TAG.sub("", line).strip()
        if stripped:
            return _cell_text(stripped)
    return None


def _table(parsed, layout):
    number = layout.get("table", 1)
    tables = parsed["tables"]
    if not 1 <= number <= len(tables):
        raise ParseError(TOOL, f"the layout names table {number}, but the text holds {len(tables)}")
    return tables[number - 1]


def _row(table, label, key=None):
    """The row named by label: in its first cell, or in the cell under the column headed key."""
    at = 0 if key is None else _column(table, key, table["line"])
    found = [(cells, line) for cells, line in zip(table["rows"], table["lines"])
             if len(cells) > at and cells[at] == label]
    if len(found) != 1:
        raise ParseError(TOOL, f"{'no' if not found else len(found)} row(s) whose "
                               f"{'first cell' if key is None else 'cell under ' + quoted(key)} is {quoted(label)} in "
                               f"the table at line {table['line']}", line=table["line"])
    return found[0]


def _column(table, name, line):
    header = table["header"]
    if header.count(name) != 1:
        raise ParseError(TOOL, f"no single column headed {quoted(name)} in the table (its headings: "
                               f"{', '.join(quoted(h) for h in header)})", line=line)
    return header.index(name)


def _part(cell, figure, line):
    """The piece of a cell holding the figure: the whole cell, or one of its lines named by its word or label."""
    pieces = [piece for piece in cell.split("\n") if piece.strip()]
    if figure.get("label"):
        label = figure["label"] + ":"
        found = [piece[len(label):].strip() for piece in pieces if piece.startswith(label)]
    elif figure.get("part"):
        word = re.compile(rf"(?<![\w]){re.escape(figure['part'])}\b", re.I)
        found = [piece for piece in pieces if word.search(piece)]
    else:
        found = pieces if len(pieces) == 1 else []
    if len(found) != 1:
        raise ParseError(TOOL, f"the cell {quoted(cell)} holds no single figure "
                               f"{'labelled ' + quoted(figure.get('label')) if figure.get('label') else ''}"
                               f"{'named ' + quoted(figure.get('part')) if figure.get('part') else ''}", line=line)
    if figure.get("nth"):
        slashed = re.split(r"[ \t]+/[ \t]+", found[0].strip())
        if not 1 <= figure["nth"] <= len(slashed):
            raise ParseError(TOOL, f"the cell {quoted(cell)} holds no figure {figure['nth']} of figures separated by "
                                   "' / '", line=line)
        return slashed[figure["nth"] - 1]
    return found[0]


def _number(text):
    return float(text.replace(",", ""))


def _value(piece, figure, heading, line, note=None):
    """(figure, IOPS or None) of a cell's piece, its printed unit checked against the layout."""
    match = _FIGURE.search(piece)
    if not match:
        raise ParseError(TOOL, f"no figure in {quoted(piece)}", line=line)
    value, unit = _number(match.group(1)), match.group(2)
    printed = figure["printed"]
    if unit is not None and unit.lower() == "b/s" and printed.lower().endswith("b/s"):
        unit = printed  # a source's typo ("30 B/s"): its column says the unit
    if unit is None or unit not in (printed,):
        if unit is None and printed in heading:
            pass  # the unit stands in the column's heading
        elif unit is None and note is not None and printed in note:
            pass  # the table's note says the unit (the layout names the note's words)
        elif unit is not None and unit != printed:
            raise ParseError(TOOL, f"{quoted(piece)} prints {quoted(unit)}, but the layout reads {quoted(printed)}",
                             line=line)
        else:
            raise ParseError(TOOL, f"{quoted(piece)} prints no unit, and its column heading {quoted(heading)} does "
                                   f"not say {quoted(printed)}", line=line)
    iops = None
    if figure.get("iops") == "parentheses":
        found = re.search(r"\((\d{1,3}+(?:,\d{3})*+|\d{1,12}+)\)", piece[match.end():])
        if not found:
            raise ParseError(TOOL, f"no IOPS in brackets after the figure in {quoted(piece)}", line=line)
        iops = _number(found.group(1))
    return value, iops


_UNIT_BYTES = {"GB": GB_BYTES, "GiB": GIB_BYTES}


def to_session(parsed, layout=None, **hints):
    """The figures the layout names (see the module's docstring)."""
    if not isinstance(layout, dict):
        raise ParseError(TOOL, "a result table needs its layout (which cell is which figure); only a source's "
                               "manifest gives one")
    table = _table(parsed, layout)
    note = None
    if layout.get("unit_note"):
        note = table.get("note") or ""
        if layout["unit_note"] not in note:
            raise ParseError(TOOL, f"the table's note {quoted(note)} does not say {quoted(layout['unit_note'])}",
                             line=table["line"])
        note = layout["unit_note"]
    measurements, card = {}, {}
    for figure in layout.get("figures") or []:
        cells, line = _row(table, figure.get("row", layout.get("row")), layout.get("key"))
        column = _column(table, figure["column"], line)
        if column >= len(cells):
            raise ParseError(TOOL, f"the row has no cell under {quoted(figure['column'])}", line=line)
        piece = _part(cells[column], figure, line)
        value, iops = _value(piece, figure, table["header"][column], line, note)
        entry_kind = figure.get("entry", "tool_results")
        if entry_kind == "capacity":
            measurements["capacity_check"] = _capacity(figure, value, table, cells, line)
            continue
        unit = figure["unit"]
        if unit not in RATE_TO_MB_S and unit not in ("IOPS", "us"):
            raise ParseError(TOOL, f"the layout stores a figure in {quoted(unit)}, which is no unit a card file "
                                   "takes", line=line)
        tool = figure.get("tool", layout.get("tool"))
        if entry_kind == "dd":
            entry = {"op": figure["op"], "block_size": figure.get("block_size"), "count": figure.get("count"),
                     "flags": figure.get("flags"), "target": figure.get("target"), "unit": unit, "runs": [value]}
            measurements.setdefault("dd", []).append({k: v for k, v in entry.items() if v is not None})
            continue
        entry = tool_result_entry(tool, figure["test"], figure["op"], unit, [value],
                                  block_size=figure.get("block_size"), target=figure.get("target"))
        if iops is not None:
            entry["iops"] = [int(iops) if iops.is_integer() else iops]
        measurements.setdefault("tool_results", []).append(entry)
    if layout.get("price"):
        card["price"] = _price(layout["price"], table, layout.get("row"), layout.get("key"))
    session = {}
    if layout.get("cid"):
        cid = parsed["registers"].get(layout["cid"])
        if cid is None:
            raise ParseError(TOOL, f"the layout reads the {layout['cid']} register, but the text prints none")
        session["cid"] = cid
    tools = sorted({e["tool"] for e in measurements.get("tool_results", [])} | ({"dd"} if "dd" in measurements else set())
                   | ({measurements["capacity_check"]["tool"]} if "capacity_check" in measurements else set()))
    runs = 1
    return SessionFields(tools=[{"name": name} for name in tools], measurements=measurements, runs=runs,
                         card=card, session=session)


def _capacity(figure, value, table, cells, line):
    unit = figure["unit"]
    if unit not in _UNIT_BYTES:
        raise ParseError(TOOL, f"a usable capacity in {quoted(unit)}: the layout must read GB or GiB", line=line)
    verdict = figure.get("verdict")
    if verdict is None:
        column = _column(table, figure["verdict_column"], line)
        text = cells[column].strip()
        verdict = (figure.get("verdicts") or {}).get(text)
        if verdict is None:
            raise ParseError(TOOL, f"the verdict cell {quoted(text)} is none the layout knows; give the verdict",
                             line=line)
    entry = capacity_check_entry(figure.get("tool", "h2testw"), verdict, figure.get("verdict_text"))
    entry["usable_bytes"] = int(round(value * _UNIT_BYTES[unit]))
    if figure.get("announced_gb"):
        entry["announced_bytes"] = int(round(float(figure["announced_gb"]) * GB_BYTES))
    return entry


def _price(spec, table, row_label, key=None):
    cells, line = _row(table, spec.get("row", row_label), key)
    cell = cells[_column(table, spec["column"], line)]
    pieces = [piece.strip() for piece in cell.split("\n") if piece.strip()]
    amount = next((piece for piece in pieces if re.fullmatch(r"[$€£]\s?\d{1,6}(?:\.\d{1,2})?", piece)), None)
    if amount is None:
        raise ParseError(TOOL, f"no price in {quoted(cell)}", line=line)
    shop = next((piece for piece in pieces if piece != amount), None)
    price = {"amount": float(amount.lstrip("$€£ ")), "currency": spec["currency"]}
    if shop:
        price["shop"] = shop
    if spec.get("date"):
        price["date"] = spec["date"]
    return price
