"""f3write and f3read (F3 8.0, run here; tests/fixtures/import-corpus/f3rw): speeds in F3's binary units,
f3read's sector table and totals, and cut-off output refused."""

from pathlib import Path

import pytest

from cardbench.errors import CardbenchError, ParseError
from cardbench.imports.importer import import_file
from cardbench.parsers import NAMED, SHAPED, f3_write_read as f3rw

CORPUS = Path(__file__).parent / "fixtures" / "import-corpus" / "f3rw"


def read(case):
    return (CORPUS / f"f3rw--{case}.out").read_text(encoding="utf-8")


def test_units_are_the_docstrings():
    # F3's adjust_unit() divides by 1024: "MB/s" is MiB/s and "GB" GiB (5061376 sectors = 2.41 GiB, 2.59 GB).
    assert '"MB/s" is\nMiB/s' in f3rw.__doc__ or '"MB/s" is MiB/s' in " ".join(f3rw.__doc__.split())
    assert f3rw.parse("Average writing speed: 15.47 MB/s\n")["write"]["speed"] == {"value": 15.47, "unit": "MiB/s"}
    assert f3rw.parse("Average writing speed: 512.00 KB/s\n")["write"]["speed"] == {"value": 512, "unit": "KiB/s"}
    text = read("write-read-ok-prompted")
    assert f3rw.parse(text)["read"]["totals"]["ok"] == 5061376
    with pytest.raises(ParseError, match="does not fit 5061376 sectors"):
        f3rw.parse(text.replace("Data OK: 2.41 GB", "Data OK: 2.59 GB"))


def test_sectors_per_file_and_totals():
    # The run changed the files between f3write and f3read: one bit in each of 64 sectors of 1.h2w, 2048
    # sectors of 2.h2w overwritten with 0xff, 512 sectors of 3.h2w copied from its start to sector 20000.
    parsed = f3rw.parse(read("corrupted-markdown-fence"))
    files = [(f["name"], f["ok"], f["corrupted"], f["changed"], f["overwritten"]) for f in parsed["read"]["files"]]
    assert files == [("1.h2w", 2097088, 0, 64, 0), ("2.h2w", 2095104, 2048, 0, 0), ("3.h2w", 866560, 0, 0, 512)]
    assert parsed["read"]["totals"] == {"ok": 5058752, "lost": 2624, "corrupted": 2048, "changed": 64,
                                        "overwritten": 512}
    session = f3rw.to_session(parsed)
    check = session.measurements["capacity_check"]
    assert check["verdict"] == "data lost" and check["verdict_text"] == "Data LOST: 1.28 MB (2624 sectors)"
    assert [t["name"] for t in session.tools] == ["f3write", "f3read"]


def test_a_missing_file_line_is_refused():
    text = "\n".join(line for line in read("corrupted-markdown-fence").splitlines()
                     if not line.startswith("Validating file 2.h2w"))
    with pytest.raises(ParseError, match="a file's line is missing"):
        f3rw.parse(text)


def test_cut_off_output_is_refused_naming_the_line():
    with pytest.raises(ParseError) as cut:
        f3rw.parse(read("read-cut-off"))
    assert cut.value.line == 7 and "totals" in cut.value.message
    with pytest.raises(ParseError, match="Average writing speed") as cut_write:
        f3rw.parse("F3 write 8.0\nFree space: 2.43 GB\nCreating file 1.h2w ... OK!\n")
    assert cut_write.value.line == 3


def test_detection():
    assert f3rw.detect(read("write-read-ok-prompted")) == NAMED
    assert f3rw.detect("Creating file 1.h2w ... OK!\nAverage writing speed: 6.11 MB/s\n") == SHAPED


# --- the speeds held to the card's checks -----------------------------------------------------------

@pytest.mark.parametrize("speed, refusal", [
    ("99999999999.99", "is not a plausible figure"),
    ("0.00", "run value 0 is not positive"),
    ("200.00", "is above the UHS-I bus ceiling of 104 MB/s"),  # 200 MiB/s = 209.7 MB/s
])
def test_an_impossible_speed_is_refused_and_nothing_written(speed, refusal, tmp_path):
    """F3 prints no time, so the speed cannot be checked against the size over the time: it is held to
    what every reader's figures are held to (finite and plausible, positive, within the card's bus)."""
    cards = tmp_path / "data" / "cards"
    cards.mkdir(parents=True)
    log = tmp_path / "f3.out"
    log.write_text(read("write-read-ok-prompted").replace("Average writing speed: 69.00 MB/s",
                                                          f"Average writing speed: {speed} MB/s"), encoding="utf-8")
    with pytest.raises(CardbenchError, match=refusal):
        import_file(log, cards, "acme-x-64gb-microsdxc", name="Acme X 64GB", card={"bus": "UHS-II"}
                    if speed == "0.00" else None)
    assert not any(cards.iterdir())
    if speed == "200.00":  # on a card whose bus carries it, it lands
        import_file(log, cards, "acme-x-64gb-microsdxc", name="Acme X 64GB", card={"bus": "UHS-II"})
