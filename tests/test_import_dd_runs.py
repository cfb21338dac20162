"""Which dd summaries are runs of which test, through `cardbench import`: status=progress updates pasted
on lines of their own (whole or decimal seconds) are never runs; runs on other targets are never
merged, and runs that did not touch the card never reach its figures; output without its command
asks for everything it lacks at once."""

from pathlib import Path

from cardbench.card.load import load_card

from cliimport import import_text

CORPUS = Path(__file__).parent / "fixtures" / "import-corpus" / "dd"


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


# --- runs to other targets ----------------------------------------------------------------------------

SYSTEM_DISK_AND_CARD = (CORPUS / "dd--system-disk-and-card-file.out").read_text(encoding="utf-8")


def test_a_file_on_another_disk_is_left_out_and_named(tmp_path, capsys):
    # Without the /dev/null line: both loops write a file with the same options; one is on the card.
    text = SYSTEM_DISK_AND_CARD.split("pi@raspberrypi:~ $ dd if=/dev/zero of=/dev/null")[0]
    code, err, session, _ = import_text(tmp_path, capsys, text)
    assert code == 0, err
    assert [(entry["command"], entry["runs"]) for entry in session["dd"]] == [
        ("dd if=/dev/zero of=/media/pi/CARD/ddtest bs=1M count=40 oflag=direct", [9.0, 9.0, 9.0])]
    assert ("import: note: Left out of the card's figures: dd if=/dev/zero of=/var/log/ddtest bs=1M count=40 "
            "oflag=direct (line 1) writes /var/log/ddtest, not on the card: the log's other runs are on "
            "/media/pi/CARD/ddtest.") in err
    assert "/var/log/ddtest, not on the card" in session["notes"]


def test_a_copy_without_a_card_is_left_out_and_named(tmp_path, capsys):
    code, err, session, _ = import_text(tmp_path, capsys, SYSTEM_DISK_AND_CARD)
    assert code == 0, err
    assert len(session["dd"]) == 1 and session["dd"][0]["runs"] == [9.0, 9.0, 9.0]
    assert "dd if=/dev/zero of=/dev/null bs=1M count=1000 (line 21) copies /dev/zero to /dev/null: no card in it" in err


def test_runs_to_different_files_on_the_card_are_separate_entries(tmp_path, capsys):
    text = SYSTEM_DISK_AND_CARD.split("pi@raspberrypi:~ $ dd if=/dev/zero of=/dev/null")[0].replace(
        "/var/log/ddtest", "/media/pi/CARD/other")
    code, err, session, _ = import_text(tmp_path, capsys, text, "--bus", "SD Express")  # 845 MB/s: beyond UHS-I
    assert code == 0, err
    assert [entry["runs"] for entry in session["dd"]] == [[845, 521, 434], [9.0, 9.0, 9.0]]


def test_a_file_outside_the_mount_points_alone_is_taken_as_the_card_and_said(tmp_path, capsys):
    text = SYSTEM_DISK_AND_CARD.split("pi@raspberrypi:~ $ for i in 1 2 3; do dd if=/dev/zero of=/media")[0]
    code, err, session, _ = import_text(tmp_path, capsys, text, "--bus", "SD Express")
    assert code == 0, err
    assert session["dd"][0]["runs"] == [845, 521, 434]
    assert "/var/log/ddtest is taken to be on the card, which holds the system here" in err


def test_a_log_measuring_no_card_is_refused(tmp_path, capsys):
    text = "$ dd if=/dev/zero of=/dev/null bs=1M count=1000\n" + SYSTEM_DISK_AND_CARD.split("count=1000\n")[1]
    code, err, _, card = import_text(tmp_path, capsys, text, "--op", "write")
    assert code == 2 and "no dd command in the file measured the card" in err and "line 1" in err
    assert not card.exists()


# --- output without its command -----------------------------------------------------------------------

def test_output_without_command_or_records_asks_for_op_and_bs_at_once(tmp_path, capsys):
    text = "33554432 bytes (34 MB, 32 MiB) copied, 1.63627 s, 20.5 MB/s\n"
    code, err, _, card = import_text(tmp_path, capsys, text)
    assert code == 2 and not card.exists()
    assert ("read or write and the block size (no 'N+0 records out' line tells it) are unknown: give OP=read or "
            "OP=write and BS= (e.g. BS=4M; without it the figures are kept as 'dd (block size not stated)', a test of "
            "their own) on make import, or --op and --bs on cardbench import") in err


def test_output_without_command_or_records_lands_as_block_size_not_stated(tmp_path, capsys):
    from cardbench.figures.aggregate import aggregate

    text = ("33554432 bytes (34 MB, 32 MiB) copied, 1.63627 s, 20.5 MB/s\n"
            "33554432 bytes (34 MB, 32 MiB) copied, 1.60001 s, 21.0 MB/s\n")
    code, err, session, card = import_text(tmp_path, capsys, text, "--op", "write")
    assert code == 0, err
    entry, = session["dd"]
    assert entry["block_size_stated"] is False and "block_size" not in entry and entry["runs"] == [20.5, 21.0]
    assert "kept as 'dd (block size not stated)', a test of their own" in err
    shown = aggregate([load_card(card).data], tmp_path / "data")
    assert shown["cards"]["test-card"]["sessions"][0]["subtests"][0]["test"] == "dd (block size not stated)"
    assert shown["leaderboard"][0]["seq_write"] is None  # never ranked: its method is unknown


def test_a_stated_block_size_is_never_pooled_with_one_not_stated(tmp_path, capsys):
    from cardbench.figures.aggregate import aggregate

    text = "33554432 bytes (34 MB, 32 MiB) copied, 1.63627 s, 20.5 MB/s\n"
    import_text(tmp_path, capsys, text, "--op", "write")
    code, err, _, card = import_text(tmp_path, capsys, text.replace("1.63627 s, 20.5", "1.59800 s, 21.0"), "--op",
                                     "write", "--bs", "4M")
    assert code == 0, err
    pooled = aggregate([load_card(card).data], tmp_path / "data")["cards"]["test-card"]["pooled"]
    assert set(pooled) == {"dd (block size not stated) write", "dd bs=4M write"}


def test_cards_measured_with_block_size_not_stated_form_a_suite_of_their_own():
    from cardbench.figures.aggregate import aggregate

    def card(slug, read, write):
        entries = [{"op": op, "block_size_stated": False, "unit": "MB/s", "runs": [value]}
                   for op, value in (("read", read), ("write", write))]
        return {"slug": slug, "brand": "Acme", "model": slug, "capacity_gb": 64, "form_factor": "microSD",
                "bus": "UHS-I", "source": {"name": "test"},
                "sessions": [{"id": "s1", "label": "dd", "date": "2025-05-01", "dd": entries}]}

    suites = aggregate([card("acme-a", 40.0, 20.0), card("acme-b", 80.0, 30.0)])["compare"]["suites"]
    suite, = [s for s in suites if s["id"] == "dd-block-size-not-stated"]
    assert suite["subtests"] == ["dd (block size not stated) read", "dd (block size not stated) write"]
    assert len(suite["cards"]) == 2
