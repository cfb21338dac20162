"""Which dd summaries are runs of which test, through `cardbench import`: status=progress updates pasted
on lines of their own (whole or decimal seconds) are never runs; runs on other targets are never
merged, and runs that did not touch the card never reach its figures; output without its command
asks for everything it lacks at once."""

from pathlib import Path

from cardbench import cli
from cardbench.card.load import load_card

CORPUS = Path(__file__).parent / "fixtures" / "import-corpus" / "dd"


def import_text(tmp_path, capsys, text, *options):
    cards = tmp_path / "data" / "cards"
    cards.mkdir(parents=True, exist_ok=True)
    path = tmp_path / "dd.log"
    path.write_text(text, encoding="utf-8")
    code = cli.main(["import", str(path), "--card", "test-card", "--name", "Test Card 64GB", "--cards-dir", str(cards),
                     *options])
    card = cards / "test-card.yaml"
    session = load_card(card).data["sessions"][-1] if code == 0 else None
    assert code != 0 or session is not None
    return code, capsys.readouterr().err, session, card


# --- status=progress updates ----------------------------------------------------------------------

def test_updates_with_decimal_seconds_on_their_own_lines_are_not_runs(tmp_path, capsys):
    # coreutils 8.24 to 8.27 print updates with "%g s", as the summary: three runs, not twelve.
    text = (CORPUS / "dd--progress-decimal-seconds-pasted.out").read_text(encoding="utf-8")
    code, err, session, _ = import_text(tmp_path, capsys, text)
    assert code == 0, err
    assert [entry["runs"] for entry in session["dd"]] == [[40.2, 40.3, 40.2]]


def test_updates_with_decimal_seconds_without_the_command(tmp_path, capsys):
    text = (CORPUS / "dd--progress-decimal-output-only-op-write.out").read_text(encoding="utf-8")
    code, err, session, _ = import_text(tmp_path, capsys, text, "--op", "write")
    assert code == 0, err
    assert session["dd"][0]["runs"] == [18.7, 20.0, 17.6] and session["dd"][0]["block_size"] == "1M"


def test_summaries_without_record_lines_stay_runs(tmp_path, capsys):
    # `2>&1 | tail -1` three times: nothing follows them, so each is a run.
    line = "62914560 bytes (63 MB, 60 MiB) copied, {} s, {} MB/s\n"
    text = line.format("3.36353", "18.7") + line.format("3.14689", "20.0") + line.format("3.57091", "17.6")
    code, err, session, _ = import_text(tmp_path, capsys, text, "--op", "write", "--bs", "1M")
    assert code == 0, err
    assert session["dd"][0]["runs"] == [18.7, 20.0, 17.6]
