"""Result tables read with a layout: each figure as printed, its printed unit checked, never guessed."""

import pytest

from cardbench.errors import ParseError
from cardbench.parsers import result_table

MARKDOWN = """# Card A CQ ON
| Block Size | 4k (IOPS)      | 1m (IOPS)      |
|------------|----------------|----------------|
| Read       | 24.34 MB/s (6,086) | 91.88 MB/s (89) |
| Write      | 6.97 MB/s (1744)  | 74.31 MB/s (72) |
"""

CARDS_ROWS = """| Brand | Observed (avg.) | Marketplace | Genuine? | Sequential Read Test<br/>MB/s |
| - | - | - | - | - |
| KODAK | 58.2GB usable <br> 45 MB/s write <br> 84 MB/s read | Temu <br> $4.58 | Yes | RPi3:&nbsp;23.4<br>RPi4:&nbsp;44.5 |
| Fake | 14.4GiB usable <br> 27.7 MB/s write | AliExpress <br> $2.59 | No | 9 |
"""

HTML = """<h2>Pi 4</h2><table><tr><th>Card</th><th><code>dd</code> write</th></tr>
<tr><td><a href="x">Samsung Pro+</a> 32GB</td><td>39.6 MB/s</td></tr></table>"""


def session(text, layout):
    return result_table.to_session(result_table.parse(text), layout=layout)


def test_rows_of_tests_with_iops_in_brackets():
    fields = session(MARKDOWN, {"tool": "table", "figures": [
        {"row": "Read", "column": "4k (IOPS)", "printed": "MB/s", "unit": "MB/s", "iops": "parentheses",
         "test": "Read 4k", "op": "read", "block_size": "4K"}]})
    [entry] = fields.measurements["tool_results"]
    assert (entry["runs"], entry["iops"], entry["unit"], entry["block_size"]) == ([24.34], [6086], "MB/s", "4K")


def test_rows_of_cards_with_parts_labels_price_and_capacity():
    layout = {"row": "KODAK", "tool": "h2testw", "figures": [
        {"column": "Observed (avg.)", "part": "write", "printed": "MB/s", "unit": "MB/s", "test": "write", "op": "write"},
        {"column": "Sequential Read Test\nMB/s", "label": "RPi4", "printed": "MB/s", "unit": "MB/s", "test": "dd read",
         "op": "read"},
        {"column": "Observed (avg.)", "part": "usable", "printed": "GB", "unit": "GiB", "entry": "capacity",
         "announced_gb": 64, "verdict_column": "Genuine?", "verdicts": {"Yes": "ok", "No": "data lost"}}],
        "price": {"column": "Marketplace", "currency": "USD", "date": "2024-01-02"}}
    fields = session(CARDS_ROWS, layout)
    assert [e["runs"] for e in fields.measurements["tool_results"]] == [[45], [44.5]]
    check = fields.measurements["capacity_check"]
    assert (check["verdict"], check["usable_bytes"], check["announced_bytes"]) == ("ok", round(58.2 * 2**30), 64 * 10**9)
    assert fields.card["price"] == {"amount": 4.58, "currency": "USD", "shop": "Temu", "date": "2024-01-02"}


def test_an_html_table_under_its_heading():
    parsed = result_table.parse(HTML)
    [table] = parsed["tables"]
    assert table["heading"] == "Pi 4" and table["rows"] == [["Samsung Pro+ 32GB", "39.6 MB/s"]]
    fields = result_table.to_session(parsed, layout={"row": "Samsung Pro+ 32GB", "figures": [
        {"column": "dd write", "printed": "MB/s", "unit": "MB/s", "entry": "dd", "op": "write", "block_size": "8K"}]})
    assert fields.measurements["dd"] == [{"op": "write", "block_size": "8K", "unit": "MB/s", "runs": [39.6]}]


def test_a_row_named_in_another_column_a_slashed_cell_and_a_unit_given_below_the_table():
    text = ("| Date | Card | Seq (R/W) [MB/s] | Rand |\n|---|---|---|---|\n| 2025-05-27 | A 64GB | 95.40 / 63.66 | 7.7 |\n"
            "| 2025-05-27 | B 128GB | 96.14 / 65.84 | 4.7 |\n\n*All speeds are in MB/s.*\n")
    parsed = result_table.parse(text)
    assert parsed["tables"][0]["note"] == "*All speeds are in MB/s.*"
    layout = {"key": "Card", "row": "B 128GB", "unit_note": "All speeds are in MB/s", "tool": "table", "figures": [
        {"column": "Seq (R/W) [MB/s]", "nth": 2, "printed": "MB/s", "unit": "MB/s", "test": "Seq write", "op": "write"},
        {"column": "Rand", "printed": "MB/s", "unit": "MB/s", "test": "Rand", "op": "read"}]}
    fields = result_table.to_session(parsed, layout=layout)
    assert [e["runs"] for e in fields.measurements["tool_results"]] == [[65.84], [4.7]]
    with pytest.raises(ParseError, match="2 row"):  # the first cell (a date) names no single row
        result_table.to_session(parsed, layout={**layout, "key": None, "row": "2025-05-27"})
    with pytest.raises(ParseError, match="no figure 3"):
        result_table.to_session(parsed, layout={**layout, "figures": [{**layout["figures"][0], "nth": 3}]})
    with pytest.raises(ParseError, match="does not say"):
        result_table.to_session(parsed, layout={**layout, "unit_note": "in KB/s"})
    with pytest.raises(ParseError, match="prints no unit"):  # without the note, a bare figure has no unit
        result_table.to_session(parsed, layout={**layout, "unit_note": None, "figures": layout["figures"][1:]})


@pytest.mark.parametrize("figure, words", [
    ({"row": "Read", "column": "4k (IOPS)", "printed": "KB/s", "unit": "kB/s"}, "prints 'MB/s'"),
    ({"row": "Read", "column": "8k (IOPS)", "printed": "MB/s", "unit": "MB/s"}, "no single column"),
    ({"row": "Trim", "column": "4k (IOPS)", "printed": "MB/s", "unit": "MB/s"}, "row(s) whose first cell"),
    ({"row": "Read", "column": "4k (IOPS)", "printed": "MB/s", "unit": "GB/s"}, "no unit a card file takes"),
])
def test_a_layout_that_does_not_fit_the_table_is_refused_naming_the_line(figure, words):
    with pytest.raises(ParseError, match=words.replace("(", r"\(").replace(")", r"\)")):
        session(MARKDOWN, {"tool": "table", "figures": [{**figure, "test": "t", "op": "read"}]})


def test_a_table_is_never_detected_and_needs_its_layout():
    assert result_table.detect(MARKDOWN) == result_table.NOT_MINE
    with pytest.raises(ParseError, match="needs its layout"):
        result_table.to_session(result_table.parse(MARKDOWN))


def test_registers_are_read_as_printed():
    text = "CID: $03 $53 $44 $53 $4E $36 $34 $47 $86 $7E $65 $07 $71 $01 $6B $8D\n| a | b |\n|---|---|\n| x | 1 MB/s |\n"
    fields = session(text, {"cid": "CID", "figures": []})
    assert fields.session["cid"] == "035344534e3634478 67e6507 71016b8d".replace(" ", "")
