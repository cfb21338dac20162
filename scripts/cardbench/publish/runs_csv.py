"""Every run of a card as CSV, for spreadsheets: /cards/<slug>/runs.csv, and all cards in /runs.csv.

The rows come from the card's aggregated JSON (aggregate.py): each run of every subtest (fio, CrystalDiskMark
and the like, dd) and of every other tool's figures (hdparm, iozone, sysbench, f3write/f3read, H2testw, the
Raspberry Pi SD Card Speed Test), as stored, in the unit the tool printed, and beside it the same run in MB/s
as the statistics convert it (core/units.py), empty for a figure that is not a rate (IOPS, latency).

Text from card files is data, never a formula: a spreadsheet would run a cell starting with =, +, - or @, so
such a cell gets a leading apostrophe; and a cell holding a comma, a semicolon (the separator a spreadsheet
in many locales splits on), a quote or a line break is quoted whole.
"""

import re

COLUMNS = ["card_slug", "card_name", "session_id", "date", "tool", "test", "op", "unit", "run", "value", "value_mb_s",
           "excluded"]
HEADER = ",".join(COLUMNS) + "\n"
# A spreadsheet reads a cell starting with these as a formula (tab and carriage return too, in some).
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
# Tools a session lists that write no CrystalDiskMark-style subtests of their own.
NOT_SUBTEST_TOOLS = {"dd", "flashbench", "f3probe", "f3", "nvme-cli", "nvme"}


def text_cell(text):
    """A cell of text from a card file, safe to open in a spreadsheet."""
    text = "" if text is None else str(text)
    return "'" + text if text.startswith(FORMULA_STARTS) else text


def number_cell(value):
    return "" if value is None else repr(value) if isinstance(value, float) else str(value)


def subtest_tool(session, subtest):
    """The tool behind a subtest: its own when it names one, dd for dd runs, else the session's benchmark tools."""
    if subtest.get("tool"):
        return subtest["tool"]
    if subtest["kind"] == "dd":
        return "dd"
    names = [t["name"] for t in session.get("tools") or [] if t["name"] not in NOT_SUBTEST_TOOLS]
    return ", ".join(dict.fromkeys(names)) or "fio"


def _subtest_rows(card):
    """(the cells every run of a subtest or other tool's figure shares, [the cells of each run]), in page order."""
    card_cells = [text_cell(card["slug"]), text_cell(card["title"])]
    for session in card["sessions"]:
        session_cells = card_cells + [text_cell(session["id"]), text_cell(session.get("date"))]
        entries = [(subtest_tool(session, subtest), subtest) for subtest in session["subtests"]]
        entries += [(entry.get("tool"), entry) for entry in session.get("tool_results") or []]
        for tool, entry in entries:
            in_mb_s = (entry.get("mb_s") or {}).get("runs") or []
            excluded = set(entry.get("excluded_runs") or [])
            same = session_cells + [text_cell(tool), text_cell(entry["test"]), text_cell(entry.get("op")),
                                    text_cell(entry["unit"])]
            yield same, [[str(index + 1), number_cell(value),
                          number_cell(in_mb_s[index] if index < len(in_mb_s) else None),
                          "yes" if index in excluded else ""] for index, value in enumerate(entry["runs"])]


def card_rows(card):
    """One row per run of every subtest of every session, in page order."""
    return [same + own for same, runs in _subtest_rows(card) for own in runs]


# A cell quoted whole: one holding the separator, the separator of a spreadsheet set to a ';' locale, a quote
# or a line end (RFC 4180, with ';' added).
_QUOTED = re.compile(r'[,;"\r\n]')


def csv_cell(text):
    return '"' + text.replace('"', '""') + '"' if _QUOTED.search(text) else text


def csv_line(cells):
    return ",".join(map(csv_cell, cells)) + "\n"


def csv_body(rows):
    """Rows as CSV text without the header line ('\\n' line ends, so files compare equal when read back)."""
    return "".join(map(csv_line, rows))


# Cells written as they are: nothing in them to quote (numbers, run counts, "yes").
_PLAIN_CELL = re.compile(r'[^,;"\r\n]*')


def card_csv(card):
    """A card's runs.csv: the header, then every run: csv_body(card_rows(card)), with a subtest's shared cells
    written (and quoted where needed) once and each run's own plain cells joined to them."""
    out = [HEADER]
    for same, runs in _subtest_rows(card):
        shared = csv_line(same)[:-1]
        for own in runs:
            if _PLAIN_CELL.fullmatch(own[1]) and _PLAIN_CELL.fullmatch(own[2]):  # the run number and "yes" always are
                out.append(f"{shared},{','.join(own)}\n")
            else:
                out.append(csv_body([same + own]))
    return "".join(out)


__all__ = ["COLUMNS", "HEADER", "card_csv", "card_rows", "text_cell", "subtest_tool"]
