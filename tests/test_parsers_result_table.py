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

CARDS_ROWS = ("| Brand | Observed (avg.) | Marketplace | Genuine? | Sequential Read Test<br/>MB/s |\n"
              "| - | - | - | - | - |\n"
              "| KODAK | 58.2GB usable <br> 45 MB/s write <br> 84 MB/s read | Temu <br> $4.58 | Yes "
              "| RPi3:&nbsp;23.4<br>RPi4:&nbsp;44.5 |\n"
              "| Fake | 14.4GiB usable <br> 27.7 MB/s write | AliExpress <br> $2.59 | No | 9 |\n")

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
        {"column": "Observed (avg.)", "part": "write", "printed": "MB/s", "unit": "MB/s", "test": "write",
         "op": "write"},
        {"column": "Sequential Read Test\nMB/s", "label": "RPi4", "printed": "MB/s", "unit": "MB/s", "test": "dd read",
         "op": "read"},
        {"column": "Observed (avg.)", "part": "usable", "printed": "GB", "unit": "GiB", "entry": "capacity",
         "announced_gb": 64, "verdict_column": "Genuine?", "verdicts": {"Yes": "ok", "No": "data lost"}}],
        "price": {"column": "Marketplace", "currency": "USD", "date": "2024-01-02"}}
    fields = session(CARDS_ROWS, layout)
    assert [e["runs"] for e in fields.measurements["tool_results"]] == [[45], [44.5]]
    check = fields.measurements["capacity_check"]
    assert ((check["verdict"], check["usable_bytes"], check["announced_bytes"])
            == ("ok", round(58.2 * 2**30), 64 * 10**9))
    assert fields.card["price"] == {"amount": 4.58, "currency": "USD", "shop": "Temu", "date": "2024-01-02"}


def test_an_html_table_under_its_heading():
    parsed = result_table.parse(HTML)
    [table] = parsed["tables"]
    assert table["heading"] == "Pi 4" and table["rows"] == [["Samsung Pro+ 32GB", "39.6 MB/s"]]
    fields = result_table.to_session(parsed, layout={"row": "Samsung Pro+ 32GB", "figures": [
        {"column": "dd write", "printed": "MB/s", "unit": "MB/s", "entry": "dd", "op": "write", "block_size": "8K"}]})
    assert fields.measurements["dd"] == [{"op": "write", "block_size": "8K", "unit": "MB/s", "runs": [39.6]}]


def test_a_row_named_in_another_column_a_slashed_cell_and_a_unit_given_below_the_table():
    text = ("| Date | Card | Seq (R/W) [MB/s] | Rand |\n|---|---|---|---|\n"
            "| 2025-05-27 | A 64GB | 95.40 / 63.66 | 7.7 |\n"
            "| 2025-05-27 | B 128GB | 96.14 / 65.84 | 4.7 |\n\n*All speeds are in MB/s.*\n")
    parsed = result_table.parse(text)
    assert parsed["tables"][0]["note"] == "*All speeds are in MB/s.*"
    layout = {"key": "Card", "row": "B 128GB", "unit_note": "All speeds are in MB/s", "tool": "table", "figures": [
        {"column": "Seq (R/W) [MB/s]", "split": "/", "index": 2, "printed": "MB/s", "unit": "MB/s", "test": "Seq write",
         "op": "write"},
        {"column": "Rand", "printed": "MB/s", "unit": "MB/s", "test": "Rand", "op": "read"}]}
    fields = result_table.to_session(parsed, layout=layout)
    assert [e["runs"] for e in fields.measurements["tool_results"]] == [[65.84], [4.7]]
    with pytest.raises(ParseError, match="2 row"):  # the first cell (a date) names no single row
        result_table.to_session(parsed, layout={**layout, "key": None, "row": "2025-05-27"})
    with pytest.raises(ParseError, match="reads piece 3"):
        result_table.to_session(parsed, layout={**layout, "figures": [{**layout["figures"][0], "index": 3}]})
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
    text = ("CID: $03 $53 $44 $53 $4E $36 $34 $47 $86 $7E $65 $07 $71 $01 $6B $8D\n"
            "| a | b |\n|---|---|\n| x | 1 MB/s |\n")
    fields = session(text, {"cid": "CID", "figures": []})
    assert fields.session["cid"] == "035344534e3634478 67e6507 71016b8d".replace(" ", "")


LOOSE_ROWS = """| Brand | Claimed <br> Size | Designation | Observed (avg.) | Genuine? |
| - | - | - | - | - |
| TECLAST | 64GB | UHS-I U1 <br> C10 | 58.6GB usable <br> 28.5 MB/s write | Yes |
| TECLAST | 64GB | V30 <br> UHS-I U3 | 58.2GB usable <br> 40.8 MB/s write | Yes
| OSMR | 128GB | C10 | 116.4GiB <br> 22.9 MB/s write | Short of write speeds |
Z-suit | 16GB | UHS-I U1 <br> C10 | 14.4GB usable <br> 18.7 MB/s write | Yes |

After the table.
"""


def test_rows_without_an_end_pipe_stay_in_the_table():
    [table] = result_table.parse(LOOSE_ROWS)["tables"]
    assert [row[0] for row in table["rows"]] == ["TECLAST", "TECLAST", "OSMR", "Z-suit"]
    assert table["rows"][1][-1] == "Yes" and table["rows"][3][1] == "16GB"


def test_a_name_given_twice_is_picked_by_another_cell():
    layout = {"row": "TECLAST", "where": {"Designation": "V30\nUHS-I U3"}, "tool": "h2testw", "figures": [
        {"column": "Observed (avg.)", "part": "write", "printed": "MB/s", "unit": "MB/s", "test": "w", "op": "write"}]}
    assert session(LOOSE_ROWS, layout).measurements["tool_results"][0]["runs"] == [40.8]
    with pytest.raises(ParseError, match="2 row"):
        session(LOOSE_ROWS, {**layout, "where": None})


def test_a_part_named_by_the_unit_glued_to_its_figure():
    layout = {"row": "OSMR", "figures": [
        {"column": "Observed (avg.)", "part": "GiB", "printed": "GiB", "unit": "GiB", "entry": "capacity",
         "announced_gb": 128, "verdict": "ok"}]}
    check = session(LOOSE_ROWS, layout).measurements["capacity_check"]
    assert check["usable_bytes"] == round(116.4 * 2**30)


CAPTIONED = """## SD Cards

The table below shows the **mean sequential write speed [KB/s]** / **maximum write time per block [ms]**.

| SD Card                 | F4            | F7      |
| ----------------------- | ------------- | ------- |
| SanDisk Extreme U3 32GB | 1500 / **15** | 1800/10 |
| Sandisk Class 4 8GB     | 212 / 60      | ?/?     |
"""


def test_pairs_in_a_cell_with_their_unit_in_the_caption():
    figure = {"column": "F4", "split": "/", "index": 1, "printed": "KB/s", "printed_above": True, "tool": "sd-bench",
              "unit": "KiB/s", "test": "mean sequential write speed", "op": "write"}
    fields = session(CAPTIONED, {"row": "SanDisk Extreme U3 32GB", "tool": "sd-bench",
                                 "figures": [figure, {**figure, "column": "F7"}]})
    assert [e["runs"] for e in fields.measurements["tool_results"]] == [[1500], [1800]]
    with pytest.raises(ParseError, match="no figure"):
        session(CAPTIONED, {"row": "Sandisk Class 4 8GB", "figures": [{**figure, "column": "F7"}]})
    with pytest.raises(ParseError, match="prints no unit"):
        session(CAPTIONED, {"row": "Sandisk Class 4 8GB", "figures": [{**figure, "printed_above": False}]})


EVERY_ROW = """### Raw Registers

CID: $03 $53 $44 $53 $4E $36 $34 $47 $86 $7E $65 $07 $71 $01 $6B $8D

### Performance Benchmarks (350 MHz sysclk)

| Test | Size | Avg | Throughput |
|------|------|-----|------------|
| **Raw Single-Sector** | | | |
| Read (1x512B) | 512B | 509 us | 1,005 KB/s |
| **Raw Multi-Sector Read (CMD18)** | | | |
| 8 sectors | 4 KB | 1,973 us | 2,076 KB/s |
| **Raw Multi-Sector Write (CMD25)** | | | |
| 8 sectors | 4 KB | 2,500 us | 1,638 KB/s |
| **File Read** | | | |
| open+read+close | 256 KB | 251,931 us | 1,040 KB/s |
| **Overhead** | | | |
| File Open | -- | 145 us | -- |
"""

EVERY_ROW_LAYOUT = {"rows": "all", "column": "Throughput", "printed": "KB/s", "unit": "kB/s", "tool": "p2-bench",
                    "test": "{section}: {Test}, {Size}", "ops": {"read": "read", "write": "write"}, "cid": "CID"}


def test_every_row_is_a_test_named_by_its_section_and_cells():
    fields = session(EVERY_ROW, EVERY_ROW_LAYOUT)
    found = [(e["test"], e["op"], e["runs"], e["unit"]) for e in fields.measurements["tool_results"]]
    assert found == [("Raw Single-Sector: Read (1x512B), 512B", "read", [1005], "kB/s"),
                     ("Raw Multi-Sector Read (CMD18): 8 sectors, 4 KB", "read", [2076], "kB/s"),
                     ("Raw Multi-Sector Write (CMD25): 8 sectors, 4 KB", "write", [1638], "kB/s"),
                     ("File Read: open+read+close, 256 KB", "read", [1040], "kB/s")]
    assert fields.session["cid"] == "035344534e36344786" "7e650771016b8d"
    assert fields.tools == [{"name": "p2-bench"}]


@pytest.mark.parametrize("change, words", [
    ({"test": "read {Size}"}, "two rows make the test"),
    ({"test": "{Size}"}, "names no op"),
    ({"test": "{section} {Test} write"}, "more than one op"),
    ({"test": "{Speed}"}, "no single column is headed 'Speed'"),
    ({"ops": {}}, "names its ops"),
    ({"empty": [""]}, "no figure in '--'"),
    ({"rows": "some"}, "only 'all'"),
])
def test_a_layout_of_every_row_that_does_not_fit_is_refused(change, words):
    with pytest.raises(ParseError, match=words.replace("(", r"\(").replace(")", r"\)")):
        session(EVERY_ROW, {**EVERY_ROW_LAYOUT, **change})


def test_every_row_without_section_rows_and_its_unit_in_the_heading():
    text = "| Test | Avg (us) | KB/s |\n|---|---|---|\n| File Write 512B | 8,027 | **63** |\n| Mount | — | — |\n"
    fields = session(text, {**EVERY_ROW_LAYOUT, "column": "KB/s", "test": "{Test}", "cid": None})
    assert [(e["test"], e["op"], e["runs"]) for e in fields.measurements["tool_results"]] == [
        ("File Write 512B", "write", [63])]
    with pytest.raises(ParseError, match="no section row"):
        session(text, {**EVERY_ROW_LAYOUT, "column": "KB/s", "cid": None})


LISTED = """## board 2 spi

* **card a** winner:
  * 1137.44 kb/s, 12.90 simultaneous audio streams. Average time: 3401.97 us
* card b batch #1:
  * 1088.37 kb/s, 12.34 simultaneous audio streams.

Text between lists.

- other list
"""


def test_a_list_of_items_with_their_results_nested_reads_as_a_table():
    parsed = result_table.parse(LISTED)
    first = parsed["lists"][0]
    assert first["heading"] == "board 2 spi" and first["header"] == ["item", "nested"]
    assert first["rows"][0] == ["card a winner:", "1137.44 kb/s, 12.90 simultaneous audio streams. Average time: "
                                                  "3401.97 us"]
    assert len(parsed["lists"]) == 2 and parsed["lists"][1]["rows"] == [["other list", ""]]
    figure = {"column": "nested", "printed": "kb/s", "unit": "KiB/s", "test": "Average speed", "op": "read"}
    fields = result_table.to_session(parsed, layout={"list": 1, "row": "card b batch #1:", "tool": "sdtest",
                                                     "figures": [figure]})
    assert fields.measurements["tool_results"][0]["runs"] == [1088.37]
    with pytest.raises(ParseError, match="names list 3"):
        result_table.to_session(parsed, layout={"list": 3, "row": "card a winner:", "figures": [figure]})
