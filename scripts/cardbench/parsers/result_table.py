"""Result tables as a source printed them: Markdown pipe tables and HTML tables, read with a layout that
says which cells are which figures.

A published review often keeps no tool output, only a table of what the tool printed, one card per row
or one test per row. This reader records each figure as printed, in the unit the table prints beside
it (in the cell or in its column heading), and never guesses what a column means: the layout names it.
It is never detected; a source's manifest (imports/sources.py) names it with its layout.

parse(text) -> {"tables": [{"heading": str | None, "header": [cell], "rows": [[cell]], "lines": [int],
                            "line": int, "above": str | None, "note": str | None}]}
    (and "lists": the text's Markdown lists, each a table of its items, see the layout's list)
    every table of the text in order, each with the nearest heading above it (a Markdown '#' line, an
    HTML <h1>-<h6>, or a line in bold) and the line of each row; a cell is its text with markup
    taken out, except that a line break inside a cell (<br>) is kept as "\\n". A Markdown table's
    rows may leave out the pipe at either end (as GitHub reads them); its "above" is the last line of
    text above its header row (a caption such as "The table below shows … [KB/s]"), its "note" the first
    line of text below it (a caption such as '*All speeds are in MB/s.*'). Also "registers":
    {"CID": "0353..."} from lines like 'CID: $03 $53 …' (the SD card's registers, as some sources print
    them).
to_session(parsed, layout) -> SessionFields: the figures the layout names, as tool_results, dd or
    capacity_check entries, and the card's price when the layout names a price cell.

The layout (a mapping, from the source's manifest):
  table: N              which table of the part (1-based; default: the first)
  list: N               instead of a table, the part's N-th Markdown list, read as a table of two columns,
                        "item" (a top-level item's text) and "nested" (the items under it, one per line):
                        "* sandisk 128gb extreme:" over "  * 1054.31 kb/s, …" is the row "sandisk 128gb extreme:"
  row: "Label"          the row whose first cell is this (rows are cards); a figure may name its own row
  where: {heading: text} with row, for a label the table gives twice: the row whose cells under these
                        headings are these texts (markup out, a <br> as "\\n")
  key: "Column"         the column whose cell names the row, where the first does not (a date column first)
  unit_note: "words"    the table's note below it says the unit of figures that print none, in these words
  tool: "dd"            the tool of every figure (a figure may name its own)
  figures: [{column, row?, part?, label?, split?, index?, printed, printed_above?, unit, tool?, test, op,
             block_size?, iops?, entry?, count?, flags?, target?, command?}]
      column: the column's heading as printed (markup taken out); part: in a cell of several figures
      (one per line), the one holding this word ("58.2GB usable <br> 45 MB/s write" -> "write"; a unit
      glued to its figure counts: "116.4GiB <br> 22.9 MB/s write" -> "GiB");
      label: the one after "label:" ("RPi4:&nbsp;43.8"); split, index: in a cell of figures separated
      by this text, the index-th (1-based: "1500 / 15" with split "/" and index 1 -> "1500");
      printed: the unit text the table prints with the figure (in the cell, else in the column heading,
      or with printed_above: true in the line above the table, or in the note the layout's unit_note names),
      checked; unit: what the tool means by it
      (core.units); iops: "parentheses" when the cell prints the IOPS in brackets after the figure
      ("24.34 MB/s (6086)"); access: "sequential" or "random", where the table says so; entry: "tool_results"
      (default), "dd" (with block_size, count, flags, target, command: the command the source states for it) or
      "capacity" (usable capacity: unit "GiB" or "GB", with announced_gb, and verdict_column
      and verdicts {cell text: "ok" | "data lost"}, or verdict given).
  price: {column, shop_part?: 0, amount_part?: 1, currency: "USD", date?}  the card's price and shop
  cid: "CID"            the CID register printed as 'CID: $03 $53 …' in the part
  rows: all             every row of the table is a figure (rows are tests), read with:
      column, printed, unit, tool: the figure's column and units, as for a figure above;
      test: a name made of the row's cells, e.g. "{section}: {Test}, {Size}" (a column heading in
      braces is that row's cell; {section} is the last section row above it: a row whose cells after
      the first are all empty, like "| **File Read** | | |"); default "{first}", the row's first cell;
      ops: {word: op}: the op of the one word (whole word, any case) the test name holds, e.g.
      {read: read, write: write}; a name holding none or two different ops is refused;
      access: {word: sequential | random}: the access of a row whose test name holds the word (optional);
      block_column: the column whose cell is the row's block size as printed ("32 KB"), where the table has it;
      block_binary: true when that size's "KB" is 1024 bytes (written then "32K", as tools write a binary size);
      empty: the cells that hold no figure, skipped (default "", "-", "--", "–", "—").
"""

import re

from ..errors import ParseError, quoted
from ..core.units import GB_BYTES, GIB_BYTES, RATE_TO_MB_S
from . import NOT_MINE
from .card_entries import capacity_check_entry, tool_result_entry
from .fields import SessionFields
from .text.tables import read_tables
from .tool import ToolInfo

TOOL = "table"
INFO = ToolInfo(name="table", programs=(), family="suite",
                description="a result table as a source printed it (Markdown or HTML), read with its layout",
                units={"as printed": "the unit the table prints with each figure, named in the layout"},
                hints=("layout",))

_FIGURE = re.compile(r"(?<![\w.])([-+]?\d{1,3}+(?:,\d{3})++(?:\.\d{1,6}+)?(?!\d)|[-+]?\d{1,12}+(?:\.\d{1,6}+)?)[ \t]*+"
                     r"([A-Za-z/]{1,12}+)?")


def detect(text):
    """A table alone does not say what its columns are: never claimed; a manifest names this format."""
    return NOT_MINE


def parse(text):
    """The tables of a text (see the module's docstring; text/tables.py reads them)."""
    parsed = read_tables(text)
    if not parsed["tables"] and not parsed["registers"] and not parsed["lists"]:
        raise ParseError(TOOL, "no table found (a Markdown table with its |---| line, or an HTML <table>)")
    return parsed


def _table(parsed, layout):
    kind = "list" if "list" in layout else "table"
    number = layout.get(kind, 1)
    tables = parsed["lists" if kind == "list" else "tables"]
    if not 1 <= number <= len(tables):
        raise ParseError(TOOL, f"the layout names {kind} {number}, but the text holds {len(tables)}")
    return tables[number - 1]


def _row(table, label, where=None, key=None):
    """The one row whose first cell (or cell under the column headed key: a table whose first column is a
    date) is label and, where the layout says, whose cells under those headings are these
    ({"Designation": "V30\\nUHS-I U3"}: a source that lists one name twice)."""
    header = table["header"]
    at = 0 if key is None else _column(table, key, table["line"])
    wanted = [(header.index(name), text) for name, text in (where or {}).items() if header.count(name) == 1]
    if len(wanted) != len(where or {}):
        raise ParseError(TOOL, f"the layout picks its row by a column the table at line {table['line']} has not "
                               f"(one of {', '.join(quoted(name) for name in where)})", line=table["line"])
    found = [(cells, line) for cells, line in zip(table["rows"], table["lines"]) if len(cells) > at
             and cells[at] == label and all(column < len(cells) and cells[column] == text for column, text in wanted)]
    if len(found) != 1:
        also = f" and {', '.join(f'{quoted(k)} {quoted(v)}' for k, v in where.items())}" if where else ""
        which = "first cell" if key is None else f"cell under {quoted(key)}"
        raise ParseError(TOOL, f"{'no' if not found else len(found)} row(s) whose {which} is {quoted(label)}{also} "
                               f"in the table at line {table['line']}", line=table["line"])
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
        word = re.compile(rf"(?<![A-Za-z_]){re.escape(figure['part'])}\b", re.I)
        found = [piece for piece in pieces if word.search(piece)]
    else:
        found = pieces if len(pieces) == 1 else []
    if len(found) != 1:
        raise ParseError(TOOL, f"the cell {quoted(cell)} holds no single figure "
                               f"{'labelled ' + quoted(figure.get('label')) if figure.get('label') else ''}"
                               f"{'named ' + quoted(figure.get('part')) if figure.get('part') else ''}", line=line)
    if figure.get("split"):
        pieces = found[0].split(figure["split"])
        index = figure.get("index")
        if not isinstance(index, int) or not 1 <= index <= len(pieces):
            raise ParseError(TOOL, f"the cell {quoted(cell)} holds {len(pieces)} piece(s) split by "
                                   f"{quoted(figure['split'])}; the layout reads piece {index}", line=line)
        return pieces[index - 1].strip()
    return found[0]


def _number(text):
    return float(text.replace(",", ""))


def _value(piece, figure, heading, line, above=None, note=None):
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
        elif unit is None and figure.get("printed_above") and printed in (above or ""):
            pass  # the unit stands in the line above the table, which the layout names
        elif unit is None and note is not None and printed in note:
            pass  # the table's note below it says the unit (the layout names the note's words)
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
    if layout.get("rows") is not None:
        if layout["rows"] != "all":
            raise ParseError(TOOL, f"the layout's rows is {quoted(str(layout['rows']))}; only 'all' is known")
        measurements["tool_results"] = _every_row(table, layout)
    for figure in layout.get("figures") or []:
        cells, line = _row(table, figure.get("row", layout.get("row")), figure.get("where", layout.get("where")),
                           layout.get("key"))
        column = _column(table, figure["column"], line)
        if column >= len(cells):
            raise ParseError(TOOL, f"the row has no cell under {quoted(figure['column'])}", line=line)
        piece = _part(cells[column], figure, line)
        value, iops = _value(piece, figure, table["header"][column], line, table.get("above"), note)
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
                     "flags": figure.get("flags"), "target": figure.get("target"), "command": figure.get("command"),
                     "unit": unit, "runs": [value]}
            measurements.setdefault("dd", []).append({k: v for k, v in entry.items() if v is not None})
            continue
        entry = tool_result_entry(tool, figure["test"], figure["op"], unit, [value],
                                  block_size=figure.get("block_size"), target=figure.get("target"))
        if figure.get("access"):
            entry = {**entry, "access": figure["access"]}
            entry = {key: entry[key] for key in ("tool", "test", "op", "access", "unit", "runs", "block_size", "target")
                     if key in entry}
        if iops is not None:
            entry["iops"] = [int(iops) if iops.is_integer() else iops]
        measurements.setdefault("tool_results", []).append(entry)
    if layout.get("price"):
        card["price"] = _price(layout["price"], table, layout.get("row"), layout.get("where"), layout.get("key"))
    session = {}
    if layout.get("cid"):
        cid = parsed["registers"].get(layout["cid"])
        if cid is None:
            raise ParseError(TOOL, f"the layout reads the {layout['cid']} register, but the text prints none")
        session["cid"] = cid
    tools = sorted({e["tool"] for e in measurements.get("tool_results", [])}
                   | ({"dd"} if "dd" in measurements else set())
                   | ({measurements["capacity_check"]["tool"]} if "capacity_check" in measurements else set()))
    runs = 1
    return SessionFields(tools=[{"name": name} for name in tools], measurements=measurements, runs=runs,
                         card=card, session=session)


_EMPTY_CELLS = ("", "-", "--", "\u2013", "\u2014")
_PLACE = re.compile(r"\{([^{}]{1,100})\}")


def _every_row(table, layout):
    """tool_results of every row holding a figure in the layout's column (layout rows: all)."""
    column = _column(table, layout["column"], table["line"])
    template = layout.get("test", "{first}")
    ops = {word.lower(): op for word, op in (layout.get("ops") or {}).items()}
    if not ops:
        raise ParseError(TOOL, "a layout of every row names its ops ({word: op}), the words that say each "
                               "row's op", line=table["line"])
    empty = tuple(layout.get("empty", _EMPTY_CELLS))
    unit = layout["unit"]
    if unit not in RATE_TO_MB_S and unit not in ("IOPS", "us"):
        raise ParseError(TOOL, f"the layout stores a figure in {quoted(unit)}, which is no unit a card file takes",
                         line=table["line"])
    entries, section, seen = [], None, set()
    for cells, line in zip(table["rows"], table["lines"]):
        if cells and all(not cell.strip() for cell in cells[1:]):
            section = cells[0]
            continue
        cell = cells[column].strip() if column < len(cells) else ""
        if cell in empty:
            continue
        value, _ = _value(cell, layout, table["header"][column], line)
        test = _test_name(template, table["header"], cells, section, line)
        if test in seen:
            raise ParseError(TOOL, f"two rows make the test {quoted(test)}; name the test by more cells",
                             line=line)
        seen.add(test)
        found = {op for word, op in ops.items() if re.search(rf"(?<![^\W_]){re.escape(word)}(?![^\W_])",
                                                               test, re.I)}
        if len(found) != 1:
            raise ParseError(TOOL, f"the test {quoted(test)} names {'no' if not found else 'more than one'} op "
                                   f"of {', '.join(quoted(w) for w in ops)}", line=line)
        block = None
        if layout.get("block_column") in table["header"]:  # a table of the source's without it gives none
            size = cells[_column(table, layout["block_column"], line)].replace(" ", "")
            if layout.get("block_binary"):  # the source's "32 KB" is 32 × 1024 bytes: written as the tools write it
                size = re.sub(r"^([0-9.]+)([KMGT])i?B$", r"\1\2", size)
            block = size if re.fullmatch(r"[0-9]{1,9}(?:\.[0-9]{1,3})?[KMGT]?i?B?", size) else None
        entry = tool_result_entry(layout.get("tool"), test, found.pop(), unit, [value], block_size=block)
        access = {value for word, value in (layout.get("access") or {}).items()
                  if re.search(rf"(?<![^\W_]){re.escape(word)}(?![^\W_])", test, re.I)}
        if len(access) > 1:
            raise ParseError(TOOL, f"the test {quoted(test)} names more than one access of the layout's", line=line)
        if access:
            entry = {**{k: entry[k] for k in ("tool", "test", "op")}, "access": access.pop(),
                     **{k: v for k, v in entry.items() if k not in ("tool", "test", "op")}}
        entries.append(entry)
    if not entries:
        raise ParseError(TOOL, f"no row of the table holds a figure under {quoted(layout['column'])}",
                         line=table["line"])
    return entries


def _test_name(template, header, cells, section, line):
    def cell(match):
        name = match.group(1)
        if name == "first":
            return cells[0]
        if name == "section":
            if section is None:
                raise ParseError(TOOL, "the test name holds {section}, but no section row stands above this row",
                                 line=line)
            return section
        if header.count(name) != 1 or header.index(name) >= len(cells):
            raise ParseError(TOOL, f"the test name holds {{{name}}}, but no single column is headed {quoted(name)}",
                             line=line)
        return cells[header.index(name)]
    return _PLACE.sub(cell, template)


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


def _price(spec, table, row_label, where=None, key=None):
    cells, line = _row(table, spec.get("row", row_label), spec.get("where", where), key)
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
