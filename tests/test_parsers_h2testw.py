"""H2testw reports (rebuilt from its documented messages; tests/fixtures/import-corpus/h2testw): English and
German, verdicts, sector counts, and its binary units."""

import re
from pathlib import Path

import pytest

from cardbench.errors import CardbenchError, ParseError
from cardbench.imports.importer import import_file
from cardbench.parsers import NAMED, NOT_MINE, h2testw

CORPUS = Path(__file__).parent / "fixtures" / "import-corpus" / "h2testw"
OK_EN = ("Test finished without errors.\nYou can now delete the test files *.h2w or verify them again.\n"
         "Writing speed: 9.64 MByte/s\nReading speed: 19.8 MByte/s\nH2testw v1.4\n")


def read(case):
    return (CORPUS / f"h2testw--{case}.out").read_text(encoding="utf-8")


def test_units_are_the_docstrings():
    # MByte/s is MiB/s, kept as printed; GByte is GiB: 32768000 sectors of 512 bytes print as 15.6 GByte.
    assert '"MByte/s" is MiB/s' in h2testw.__doc__ and '"GByte" 2^30' in h2testw.__doc__
    parsed = h2testw.parse(OK_EN)
    assert parsed["speeds"] == {"write": {"value": 9.64, "unit": "MiB/s"}, "read": {"value": 19.8, "unit": "MiB/s"}}
    report = read("english-data-lost-email-quote")
    assert h2testw.parse(report)["sectors"]["ok"] == 32768000
    with pytest.raises(ParseError, match="does not fit 32768000 sectors") as decimal:
        h2testw.parse(report.replace("15.6 GByte OK", "16.7 GByte OK"))  # 16.7 = 10^9-byte GB: not H2testw's
    assert decimal.value.line == 5


def test_german_report_with_decimal_commas():
    parsed = h2testw.parse(read("german-ok-forum"))
    assert parsed["verdict"] == "ok" and parsed["verdict_text"] == "Test ohne Fehler beendet."
    assert parsed["speeds"]["write"] == {"value": 9.64, "unit": "MiB/s"} and parsed["tested_mib"] == 14894


def test_data_lost_details():
    parsed = h2testw.parse(read("german-data-lost-wraps"))
    assert parsed["verdict"] == "defective"
    assert parsed["sectors"] == {"ok": 16384000, "lost": 44695552, "overwritten": 44695552, "changed": 0,
                                 "corrupted": 0, "aliased": 16384000}
    check = h2testw.to_session(parsed).measurements["capacity_check"]
    assert (check["verdict"], check["bytes_ok"], check["bytes_lost"]) == ("data lost", 16384000 * 512, 44695552 * 512)


def test_details_that_do_not_add_up_are_refused():
    report = read("english-data-lost-email-quote").replace("42.5 GByte corrupted (89128960",
                                                           "42.4 GByte corrupted (89000000")
    with pytest.raises(ParseError, match="do not add up"):
        h2testw.parse(report)


def test_a_report_a_mail_program_wrapped():
    parsed = h2testw.parse(read("english-data-lost-mail-wrapped"))
    assert parsed["sectors"]["lost"] == 7331840 and parsed["tested_mib"] == 7580


def test_cut_off_reports_are_refused_naming_the_line():
    lines = read("english-ok").splitlines()
    with pytest.raises(ParseError) as no_verdict:
        h2testw.parse("\n".join(lines[:1]))
    assert "no verdict" in no_verdict.value.message
    with pytest.raises(ParseError) as no_lost:
        h2testw.parse(read("cut-off"))
    assert no_lost.value.line == 3 and "lost" in no_lost.value.message
    with pytest.raises(ParseError, match="before its speeds"):
        h2testw.parse("Test finished without errors.\nYou can now delete the test files *.h2w or verify them again.\n")


def test_detection():
    assert h2testw.detect(read("english-ok")) == NAMED and h2testw.detect(read("german-ok-forum")) == NAMED
    assert h2testw.detect("Writing speed: fast") == NOT_MINE


# --- the speeds held to the card's checks -----------------------------------------------------------

@pytest.mark.parametrize("speed, refusal", [
    ("99999999999.99", "is not a plausible figure"),
    ("0", "run value 0 is not positive"),
    ("150,5", "is above the UHS-I bus ceiling of 104 MB/s"),  # 150.5 MiB/s = 157.8 MB/s
])
def test_an_impossible_speed_is_refused_and_nothing_written(speed, refusal, tmp_path):
    """The report gives no time, so the speed cannot be checked against the size over the time: it is
    held to what every reader's figures are held to (finite and plausible, positive, within the bus)."""
    cards = tmp_path / "data" / "cards"
    cards.mkdir(parents=True)
    log = tmp_path / "h2testw.txt"
    text = (CORPUS / "h2testw--german-ok-forum.out").read_text(encoding="utf-8")
    changed = re.sub(r"Schreibrate: [\d,]+ MByte/s", f"Schreibrate: {speed} MByte/s", text)
    assert changed != text
    log.write_text(changed, encoding="utf-8")
    with pytest.raises(CardbenchError, match=refusal):
        import_file(log, cards, "acme-x-64gb-microsdxc", name="Acme X 64GB")
    assert not any(cards.iterdir())
