"""Text that is no character, or that hides itself, never reaches a card: a byte typed in a terminal set
to Latin-1 (Python keeps it as a lone surrogate, which cannot be written as UTF-8 and stopped every build
of the site), a lone surrogate in a GitHub event's JSON, and zero-width, format and line-break characters
that make two hosts or readers that read alike two entries on /readers/. Each way in refuses them
naming its option or field: the command line, the issue form, the collector, and `validate`."""

import json
from pathlib import Path
from types import SimpleNamespace

import pytest

from cardbench import cli
from cardbench.card.dump import new_card_text
from cardbench.card.load import load_card
from cardbench.card.lookalike import cleaned_name, name_problem
from cardbench.card.checks.validate import validate_paths
from cardbench.errors import CardbenchError
from cardbench.imports.importer import import_file
from cardbench.imports.submission import submit
from carddata import TODAY, by_rule, card_data, findings_for
from test_submission import body_of

FIXTURES = Path(__file__).parent / "fixtures"
LOG = FIXTURES / "import-corpus" / "hdparm" / "hdparm--three-runs-pi-prompt.out"
LATIN_1_NAME = b"Se\xf1or Latin 64GB".decode("utf-8", "surrogateescape")  # NAME=$'Se\xf1or Latin 64GB'
HIDDEN = ["\u200b", "\ufeff", "\u00ad", "\u3164", "\u2028", "\n"]


def cards_dir(tmp_path):
    folder = tmp_path / "data" / "cards"
    folder.mkdir(parents=True)
    return folder


def wrote_nothing(cards):
    return not any(cards.iterdir()) and not (cards.parent / "raw").exists()


# --- bytes that are not UTF-8, and lone surrogates ---------------------------------------------------

@pytest.mark.parametrize("option", ["--name", "--label", "--host", "--reader"])
def test_a_latin_1_byte_in_an_option_is_refused_naming_the_option(option, tmp_path, capsys):
    cards = cards_dir(tmp_path)
    given = {"--name": "Senor Latin 64GB", option: LATIN_1_NAME}
    code = cli.main(["import", str(LOG), "--card", "senor-latin-64gb-microsdxc", "--cards-dir", str(cards),
                     *[part for pair in given.items() for part in pair]])
    err = capsys.readouterr().err
    assert code == 2
    assert f"cardbench: {option} contains at position 2 the byte 0xF1, which is not UTF-8" in err, err
    assert wrote_nothing(cards)


def test_new_card_refuses_a_latin_1_byte_naming_its_option(tmp_path, capsys):
    cards = cards_dir(tmp_path)
    code = cli.main(["new-card", "--brand", "Se\udcf1or", "--model", "X", "--capacity-gb", "64", "--form-factor",
                     "microSD", "--bus", "UHS-I", "--markings", "", "--cards-dir", str(cards), "--content-dir",
                     str(tmp_path / "content")])
    assert code == 2 and "--brand contains at position 2 the byte 0xF1" in capsys.readouterr().err
    assert wrote_nothing(cards)


def test_an_import_given_a_lone_surrogate_through_its_api_writes_nothing(tmp_path):
    """The issue form calls the import itself: the card's checks refuse what no option check saw."""
    cards = cards_dir(tmp_path)
    with pytest.raises(CardbenchError, match="the byte 0xF1, which is not UTF-8"):
        import_file(LOG, cards, "senor-latin-64gb-microsdxc", name=LATIN_1_NAME)
    with pytest.raises(CardbenchError, match=r"the session host fails the card's checks: .*U\+D800.*--host"):
        import_file(LOG, cards, "senor-latin-64gb-microsdxc", name="Senor Latin 64GB", host="Pi \ud800")
    assert wrote_nothing(cards)


def test_the_collector_refuses_a_name_holding_a_byte_that_is_not_utf8(tmp_path):
    from cardbench.collect.errors import CardMismatchError
    from cardbench.collect.trial_card import check_names

    cards = cards_dir(tmp_path)
    request = SimpleNamespace(name=LATIN_1_NAME, slug="senor-latin-64gb-microsdxc", label=None)
    store = SimpleNamespace(path=cards / "senor-latin-64gb-microsdxc.yaml", data_dir=cards.parent)
    with pytest.raises(CardMismatchError, match=r"--name \(make: NAME=\): .*the byte 0xF1"):
        check_names(request, store, new=True)


@pytest.mark.parametrize("path, value, words", [
    (("brand",), "Se\udcf1or", "the byte 0xF1, which is not UTF-8"),
    (("sessions", 0, "host"), "Pi\ud800", "U+D800, half of a UTF-16 surrogate pair standing alone"),
    (("notes",), "fast \udce9", "the byte 0xE9"),
])
def test_validate_refuses_a_lone_surrogate_in_any_text(path, value, words, tmp_path):
    data = card_data()
    target = data
    for part in path[:-1]:
        target = target[part]
    target[path[-1]] = value
    [finding] = by_rule(findings_for(data, tmp_path), "text-control")
    assert finding.severity == "error" and words in finding.error.message
    assert value not in str(finding) and str(finding).encode("utf-8")  # the message itself can be printed anywhere


def test_one_card_holding_a_lone_surrogate_stops_no_build(tmp_path):
    """As YAML writes it ("\\uDCF1"), the card file is valid UTF-8: validate refuses it, and the site
    build reports it as an error instead of failing to write its pages."""
    pytest.importorskip("pandas")
    from cardbench.publish.incremental import build_site_data

    cards = cards_dir(tmp_path)
    path = cards / "acme-fast-64gb-microsdxc.yaml"
    path.write_text(new_card_text(card_data(brand="Se\udcf1or")), encoding="utf-8")
    assert '"Se\\uDCF1or"' in path.read_text(encoding="utf-8")
    _, findings = validate_paths([path], today=TODAY)
    assert [f.rule for f in findings if f.severity == "error"] == ["text-control"]
    result = build_site_data(cards, tmp_path / "out", use_cache=False, data_dir=cards.parent, workers=1)
    assert result.errors == 1


def test_a_lone_surrogate_in_the_events_json_is_refused_in_words(tmp_path, capsys):
    log = LOG.read_text(encoding="utf-8")
    event = tmp_path / "event.json"
    body = body_of(log, host="Raspberry Pi 5").replace("Raspberry Pi 5", "Raspberry Pi \\ud800")
    event.write_text(json.dumps({"issue": {"body": "@@"}}).replace("@@", body.replace("\n", "\\n")), encoding="utf-8")
    cards = cards_dir(tmp_path)
    code = cli.main(["submission", "--event", str(event), "--cards-dir", str(cards),
                     "--message-file", str(tmp_path / "reply.md")])
    out = capsys.readouterr().out
    line = body.split("\n").index("Raspberry Pi \\ud800") + 1
    assert code == 1 and f"line {line} of the issue holds U+D800, half of a UTF-16 surrogate pair" in out, out
    assert f"line {line} of the issue" in (tmp_path / "reply.md").read_text(encoding="utf-8")
    assert wrote_nothing(cards)


# --- zero-width, format and line-break characters in names --------------------------------------------

@pytest.mark.parametrize("char", HIDDEN, ids=lambda c: f"U+{ord(c):04X}")
@pytest.mark.parametrize("option", ["--host", "--reader", "--label"])
def test_import_refuses_a_hidden_character_in_host_reader_or_label(option, char, tmp_path, capsys):
    cards = cards_dir(tmp_path)
    code = cli.main(["import", str(LOG), "--card", "acme-x-64gb-microsdxc", "--name", "Acme X 64GB",
                     "--cards-dir", str(cards), option, f"Raspberry{char} Pi 4"])
    err = capsys.readouterr().err
    assert code == 2
    assert f"the session {option[2:]} fails the card's checks: contains U+{ord(char):04X}" in err, err
    assert f"give another with {option}" in err
    assert wrote_nothing(cards)


@pytest.mark.parametrize("char", [c for c in HIDDEN if not c.isspace()], ids=lambda c: f"U+{ord(c):04X}")
def test_import_refuses_a_hidden_character_in_the_name_naming_it(char, tmp_path, capsys):
    """(A line break in the name parts its words, as a space does.)"""
    cards = cards_dir(tmp_path)
    code = cli.main(["import", str(LOG), "--card", "acme-x-64gb-microsdxc", "--name", f"Acme X{char}y 64GB",
                     "--cards-dir", str(cards)])
    err = capsys.readouterr().err
    assert code == 2 and "made from the card name (--name) fails the card's checks" in err, err
    assert wrote_nothing(cards)


@pytest.mark.parametrize("char", HIDDEN[:-1], ids=lambda c: f"U+{ord(c):04X}")
@pytest.mark.parametrize("label, answer", [("Card name", "name"), ("Host", "host"), ("Reader", "reader")])
def test_the_form_refuses_a_hidden_character_in_an_answer_naming_it(label, answer, char, tmp_path):
    cards = cards_dir(tmp_path)
    answers = {"name": "Acme X 64GB", "host": "Raspberry Pi 5", "reader": "Built-in slot"}
    answers[answer] = answers[answer].replace(" ", f"{char} ", 1)
    result = submit(body_of(LOG.read_text(encoding="utf-8"), **answers), cards)
    assert not result.accepted
    assert f"**{label}** contains U+{ord(char):04X}" in result.message, result.message
    assert wrote_nothing(cards)


def test_spaces_of_every_kind_in_host_and_reader_are_one_plain_space(tmp_path, capsys):
    """'USB\u00a03.0 reader' would be a reader of its own beside 'USB 3.0 reader' on /readers/."""
    log = LOG.read_text(encoding="utf-8")
    result = submit(body_of(log, host="Raspberry\u00a0Pi  5", reader="USB\u30003.0\treader"), cards_dir(tmp_path))
    session = load_card(result.card_path).data["sessions"][-1]
    assert (session["host"], session["reader"]) == ("Raspberry Pi 5", "USB 3.0 reader")
    cards = cards_dir(tmp_path / "cli")
    assert cli.main(["import", str(LOG), "--card", "acme-x-64gb-microsdxc", "--name", "Acme X 64GB", "--cards-dir",
                     str(cards), "--host", " Raspberry\u2009Pi 5 ", "--reader", "\u00a0"]) == 0
    session = load_card(cards / "acme-x-64gb-microsdxc.yaml").data["sessions"][-1]
    assert session["host"] == "Raspberry Pi 5" and "reader" not in session


@pytest.mark.parametrize("text", ["Raspberry Pi 5", "USB 3.0 card reader (0bda:0158)", "サンディスク", "Ünïcødé"])
def test_names_that_read_as_they_are_pass(text):
    assert name_problem(text) is None


def test_the_collectors_own_host_and_reader_are_made_plain_not_refused():
    assert (cleaned_name("Raspberry Pi 4 Model B\u200b Rev 1.4, Debian\n12")
            == "Raspberry Pi 4 Model B Rev 1.4, Debian 12")
    assert cleaned_name("USB\ufeff 3.0 card reader \udcff") == "USB 3.0 card reader"
