"""`cardbench import` run as a user runs it, for the tests of one tool's imports."""

from cardbench import cli
from cardbench.card.load import load_card


def imported_session(path, tmp_path, capsys, name="Acme Fast 64GB", slug="test-card", options=()):
    """The session `cardbench import` adds to a new card from the file at `path`; the import must succeed."""
    cards = tmp_path / "cards"
    cards.mkdir(parents=True, exist_ok=True)
    code = cli.main(["import", "--card", slug, "--name", name, "--cards-dir", str(cards), *options, "--", str(path)])
    err = capsys.readouterr().err
    assert code == 0, err
    return load_card(cards / f"{slug}.yaml").data["sessions"][-1]
