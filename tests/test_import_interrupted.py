"""`cardbench import` stopped at the worst point of its card commit (the raw copy and its SHA256SUMS line
on disk, the card file not yet renamed): SIGTERM undoes the change, SIGKILL leaves what validate names
and the next change of the card puts back."""

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from cardbench.card.store.checksums import read_sha256sums
from cardbench.card.store.journal import finish_dead_commit, journal_path
from cardbench.card.load import load_card
from cardbench.imports.importer import import_file
from cardwrites import SLUG, card_with_one_import, dd_log, errors_of, snapshot


# The real command, stopped (SIGSTOP) by an audit hook as it opens the card file's temp file: every raw
# file and SHA256SUMS line of the commit is written by then, the card file is not.
STOPPED_AT_CARD_WRITE = """
import os, signal, sys
# As a terminal starts the command: a shell that runs the tests as a background job ignores SIGINT, and the
# command would inherit that, leaving SIGINT nothing to stop.
signal.signal(signal.SIGINT, signal.default_int_handler)
card = sys.argv[1]
prefix = os.path.join(os.path.dirname(card), "." + os.path.basename(card) + ".")
def stop(event, args):
    if event == "open" and isinstance(args[0], str) and args[0].startswith(prefix):
        os.kill(os.getpid(), signal.SIGSTOP)
sys.addaudithook(stop)
from cardbench.cli import main
sys.exit(main(sys.argv[2:]))
"""


@pytest.fixture
def data(tmp_path):
    return card_with_one_import(tmp_path)


def stopped_import(data, log):
    """The import process, stopped at the card write, after checking the commit's files are on disk."""
    card = data / "cards" / f"{SLUG}.yaml"
    proc = subprocess.Popen([sys.executable, "-c", STOPPED_AT_CARD_WRITE, str(card), "import", str(log),
                             "--card", SLUG, "--cards-dir", str(data / "cards")],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    _, status = os.waitpid(proc.pid, os.WUNTRACED)  # returns once the process has stopped itself
    assert os.WIFSTOPPED(status), status
    copies = [p for p in (data / "raw" / SLUG).rglob(log.name)]
    assert len(copies) == 1
    listed = read_sha256sums(data / "raw" / SLUG / "SHA256SUMS")
    assert any(name.endswith(log.name) for name in listed)  # the worst point: copy and line, no session
    return proc, copies[0]


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_sigterm_or_sigint_at_the_worst_point_undoes_the_whole_change(data, tmp_path, signum):
    before = snapshot(data)
    log = tmp_path / "second.txt"
    log.write_text(dd_log(1.7))
    proc, _ = stopped_import(data, log)
    os.kill(proc.pid, signum)
    os.kill(proc.pid, signal.SIGCONT)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 128 + signum, err
    assert f"interrupted ({signal.Signals(signum).name}); no card was left half-written" in err
    assert snapshot(data) == before  # no raw copy, no SHA256SUMS line, no journal, no temp file, no lock
    assert not (data / ".locks").exists()
    assert errors_of(data) == []


def test_sigkill_at_the_worst_point_is_named_by_validate_and_undone_by_the_next_change(data, tmp_path):
    before = snapshot(data)
    log = tmp_path / "second.txt"
    log.write_text(dd_log(1.7))
    proc, copy = stopped_import(data, log)
    proc.kill()
    proc.communicate(timeout=60)
    assert proc.returncode == -signal.SIGKILL
    assert journal_path(data, SLUG).is_file()

    found = {(f.rule, Path(f.error.path).name) for f in errors_of(data)}
    assert ("raw-orphan", copy.name) in found and ("raw-orphan", "SHA256SUMS") in found
    messages = " ".join(f.error.message for f in errors_of(data))
    assert f"no session names data/raw/{SLUG}/{copy.parent.name}/{copy.name}" in messages

    third = tmp_path / "third.txt"
    third.write_text(dd_log(1.8))
    import_file(third, data / "cards", SLUG)  # the next change of the card finishes the dead one's commit
    assert not copy.exists() and not copy.parent.exists() and not journal_path(data, SLUG).exists()
    assert errors_of(data) == []
    assert len(load_card(data / "cards" / f"{SLUG}.yaml").data["sessions"]) == 2
    import_file(log, data / "cards", SLUG)  # the killed import can simply be run again
    assert errors_of(data) == [] and len(read_sha256sums(data / "raw" / SLUG / "SHA256SUMS")) == 3
    assert set(before) <= set(snapshot(data))


def test_a_commit_killed_after_the_card_landed_keeps_it(data, tmp_path):
    """Killed between the card rename and the journal's removal: the change stands, the journal goes."""
    log = tmp_path / "second.txt"
    log.write_text(dd_log(1.7))
    import_file(log, data / "cards", SLUG)
    after = snapshot(data)
    card_text = (data / "cards" / f"{SLUG}.yaml").read_text(encoding="utf-8")
    from cardbench.card.store.journal import write_journal
    session_dir = sorted((data / "raw" / SLUG).glob("*/second.txt"))[0]
    write_journal(data, SLUG, card_text, b"", [(f"{session_dir.parent.name}/second.txt", False)], [])
    assert finish_dead_commit(data, SLUG) == "kept"
    assert snapshot(data) == after and errors_of(data) == []


def test_a_journal_cannot_reach_outside_the_cards_raw_folder(data, tmp_path):
    outside = tmp_path / "keep.txt"
    outside.write_text("mine")
    journal = journal_path(data, SLUG)
    journal.parent.mkdir(exist_ok=True)
    journal.write_text('{"card_sha256": "0", "sums": null, "files": [["../../../keep.txt", false], '
                       '["/etc/passwd", false]], "dirs": ["../.."]}')
    sums = (data / "raw" / SLUG / "SHA256SUMS").read_bytes()
    finish_dead_commit(data, SLUG)
    assert outside.read_text() == "mine" and data.parent.is_dir() and Path("/etc/passwd").is_file()
    assert not journal.exists()
    assert (data / "raw" / SLUG / "SHA256SUMS").read_bytes() == sums  # not as the journal says it was (none)


def test_a_journal_never_removes_a_file_the_card_names(data):
    [named] = [p for p in (data / "raw" / SLUG).rglob("first.txt")]
    before = snapshot(data)
    journal = journal_path(data, SLUG)
    journal.parent.mkdir(exist_ok=True)
    journal.write_text('{"card_sha256": "0", "sums": null, "files": [["%s/first.txt", false]], "dirs": []}'
                       % named.parent.name)
    assert finish_dead_commit(data, SLUG) == "undone"
    assert snapshot(data) == before and errors_of(data) == [] and not journal.exists()
