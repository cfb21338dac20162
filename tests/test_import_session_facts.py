"""What `cardbench import` says of the session it adds, through the command line: its day (from the
log's `date` output when the tool prints none), its host and reader (given, or said to be unknown
and how to give them) and which of its figures the leaderboard will rank, as the site works it out."""

from pathlib import Path

import pytest

from cliimport import imported_text, run_import

CORPUS = Path(__file__).parent / "fixtures" / "import-corpus"
DD_LOG = (CORPUS / "dd" / "dd--system-disk-and-card-file.out").read_text(encoding="utf-8")


@pytest.mark.parametrize("date_lines, day", [
    ("pi@raspberrypi:~ $ date\nTue Mar  4 21:07:33 GMT 2025\n", "2025-03-04"),
    ("$ date -R\nTue, 04 Mar 2025 21:07:33 +0000\n", "2025-03-04"),
    ("$ date -I\n2025-03-04\n", "2025-03-04"),
    ("$ date --rfc-3339=seconds\n2025-03-04 21:07:33+00:00\n", "2025-03-04"),
])
def test_a_dd_log_is_dated_by_its_date_output(tmp_path, capsys, date_lines, day):
    err, session = imported_text(tmp_path, capsys, date_lines + DD_LOG)
    assert session["date"] == day and session["id"].startswith(day)
    assert f"import: session dated {day} (from the `date` output on line 2)" in err


def test_an_iso_date_without_its_command_dates_nothing(tmp_path, capsys):
    err, session = imported_text(tmp_path, capsys, "2025-03-04\n" + DD_LOG)
    assert session["date"] != "2025-03-04"
    assert "(today; the file gives no date" in err


def test_host_and_reader_are_stored_when_given(tmp_path, capsys):
    err, session = imported_text(tmp_path, capsys, DD_LOG, "--host", "Raspberry Pi 4, Raspberry Pi OS 12",
                               "--reader", "USB 3.0 card reader")
    assert (session["host"], session["reader"]) == ("Raspberry Pi 4, Raspberry Pi OS 12", "USB 3.0 card reader")
    assert "unknown" not in err


def test_host_and_reader_unknown_are_said_with_how_to_give_them(tmp_path, capsys):
    err, session = imported_text(tmp_path, capsys, DD_LOG)
    assert "host" not in session and "reader" not in session
    assert ('import: host and reader unknown: give --host="…" --reader="…" on cardbench import (HOST="…" READER="…" '
            "on make import), stored in the session's host and reader fields") in err


def test_a_crystaldiskmark_system_line_is_its_host_and_the_reader_is_asked_for(tmp_path, capsys):
    text = (CORPUS / "crystaldiskmark" / "crystaldiskmark--cdm8-default.out").read_text(encoding="utf-8")
    err, session = imported_text(tmp_path, capsys, text, file_name="cdm.txt")
    assert session["host"] and "import: reader unknown: give --reader=" in err and "host and reader" not in err


def test_the_leaderboard_line_names_what_ranks_and_why_the_rest_does_not(tmp_path, capsys):
    text = (CORPUS / "crystaldiskmark" / "crystaldiskmark--cdm8-default.out").read_text(encoding="utf-8")
    err, _ = imported_text(tmp_path, capsys, text, file_name="cdm.txt")
    line, = [line for line in err.splitlines() if line.startswith("import: leaderboard: ")]
    assert "ranked: SEQ1M Q8T1 read (sequential read)" in line and "RND4K Q1T1 write (random 4K write)" in line
    assert "SEQ1M Q1T1 read (SEQ1M Q8T1 read stands for the card's sequential read)" in line
    assert "RND4K Q32T1 read, RND4K Q32T1 write (no leaderboard column takes this test)" in line


def test_dd_without_direct_io_is_said_not_to_rank(tmp_path, capsys):
    text = DD_LOG.replace(" oflag=direct", "")
    err, _ = imported_text(tmp_path, capsys, text)
    assert ("import: leaderboard: nothing from this session ranks; not ranked: dd bs=1M write (dd ranks only with "
            "direct I/O (iflag=direct, oflag=direct))") in err


def test_dd_with_direct_io_ranks(tmp_path, capsys):
    err, _ = imported_text(tmp_path, capsys, DD_LOG)
    assert "import: leaderboard: ranked: dd bs=1M write (sequential write)" in err


def test_an_import_ends_with_the_new_results_standing_and_a_tool_figure_can_rank(tmp_path, capsys):
    from cardbench.cli import result_standing_line

    path = CORPUS / "hdparm" / "hdparm--three-runs-pi-prompt.out"
    code, err, card = run_import(path, tmp_path / "data" / "cards", capsys, name="Acme HD 64GB", slug="acme-hd-64gb")
    assert code == 0, err
    last = err.strip().splitlines()[-1]
    assert last == "import: leaderboard: ranked: hdparm hdparm -t (read) (sequential read)"
    # the collector ends with the same line, from the same function, for its own session
    import yaml
    session_id = yaml.safe_load(card.read_text(encoding="utf-8"))["sessions"][-1]["id"]
    assert "import: " + result_standing_line(card, session_id, tmp_path / "data") == last
