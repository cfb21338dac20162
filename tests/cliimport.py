"""`cardbench import` run as a user runs it, for the tests of imports."""

from pathlib import Path

from cardbench import cli
from cardbench.card.load import load_card

SLUG, NAME = "test-card", "Acme Fast 64GB"


def run_import(path, cards, capsys=None, name=NAME, slug=SLUG, options=()):
    """`cardbench import` of the file at `path` into the card folder `cards` (made if missing): (exit code, what
    it wrote to stderr (read through capsys; "" without), the card file)."""
    cards = Path(cards)
    cards.mkdir(parents=True, exist_ok=True)
    code = cli.main(["import", "--card", slug, "--name", name, "--cards-dir", str(cards), *options, "--", str(path)])
    return code, capsys.readouterr().err if capsys else "", cards / f"{slug}.yaml"


def imported_session(path, tmp_path, capsys=None, name=NAME, slug=SLUG, options=()):
    """The session `cardbench import` adds to a new card from the file at `path`; the import must succeed."""
    code, err, card = run_import(path, tmp_path / "cards", capsys, name, slug, options)
    assert code == 0, err
    return load_card(card).data["sessions"][-1]


def import_text(tmp_path, capsys, text, *options, file_name="dd.log", name=NAME):
    """run_import of `text` written to tmp_path/<file_name>, into tmp_path/data/cards: (exit code, stderr, the
    session it added or None, the card file)."""
    path = tmp_path / file_name
    path.write_text(text, encoding="utf-8")
    code, err, card = run_import(path, tmp_path / "data" / "cards", capsys, name=name, options=options)
    session = load_card(card).data["sessions"][-1] if code == 0 else None
    return code, err, session, card


def imported_text(tmp_path, capsys, text, *options, file_name="dd.log", name=NAME):
    """import_text that must succeed: (stderr, the session it added)."""
    code, err, session, _ = import_text(tmp_path, capsys, text, *options, file_name=file_name, name=name)
    assert code == 0, err
    return err, session
