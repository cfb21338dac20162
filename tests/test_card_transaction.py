"""The card transaction: parallel writers wait for each other and lose nothing, a killed writer's
temp files go on the next change, a full disk changes nothing, a held lock times out with a message."""

import os
import shutil
import signal
import subprocess
import sys
import threading
import time
import traceback
from pathlib import Path

import pytest

from cardbench.card.store.transaction import CardBusyError, card_change, card_lock, unique_session_id
from cardbench.card.store.checksums import read_sha256sums
from cardbench.card.load import load_card
from cardbench.cli import main
from cardbench.imports.importer import import_file
from cardwrites import NAME, SLUG, card_folder, card_with_one_import, dd_log, errors_of, snapshot

CLI = [sys.executable, "-m", "cardbench"]


@pytest.fixture
def data(tmp_path):
    return card_folder(tmp_path)


def imports_at_once(argvs, tmp_path, timeout=300):
    """`cardbench import` with each of `argvs`, each in a process of its own, all started at once: forked from
    this one, so that none spends a second starting Python and importing the package again. Each process's
    (exit status, stderr), in order."""
    children = []
    for number, argv in enumerate(argvs):
        stderr = tmp_path / f"import-{number}.stderr"
        pid = os.fork()
        if pid == 0:  # the child: the command line's entry point, then out without running the parent's cleanup
            code = 70
            try:
                with open(stderr, "w", encoding="utf-8") as sys.stderr, open(os.devnull, "w") as sys.stdout:
                    try:
                        code = main(argv)
                    except BaseException:
                        traceback.print_exc()
            finally:
                os._exit(code)
        children.append((pid, stderr))
    deadline = time.monotonic() + timeout
    outcomes = []
    for pid, stderr in children:
        while (ended := os.waitpid(pid, os.WNOHANG))[0] == 0:
            if time.monotonic() > deadline:
                os.kill(pid, signal.SIGKILL)
            time.sleep(0.05)
        outcomes.append((os.waitstatus_to_exitcode(ended[1]), stderr.read_text(encoding="utf-8")))
    return outcomes


def test_twenty_parallel_imports_all_land(data, tmp_path):
    logs = []
    for i in range(20):
        log = tmp_path / f"dd-{i:02d}.txt"
        log.write_text(dd_log(1.6 + i * 0.01))
        logs.append(log)
    import_file(logs[0], data / "cards", SLUG, name=NAME)  # the card exists; the other 19 race to append
    outcomes = imports_at_once([["import", str(log), "--card", SLUG, "--cards-dir", str(data / "cards")]
                                for log in logs[1:]], tmp_path)
    assert [code for code, _ in outcomes] == [0] * 19, outcomes
    card = load_card(data / "cards" / f"{SLUG}.yaml")
    assert len(card.data["sessions"]) == 20
    sums = read_sha256sums(data / "raw" / SLUG / "SHA256SUMS")
    assert len(sums) == 20
    assert errors_of(data) == []


def test_the_same_file_imported_in_parallel_lands_once(data, tmp_path):
    log = tmp_path / "dd.txt"
    log.write_text(dd_log(1.63627))
    outcomes = imports_at_once([["import", str(log), "--card", SLUG, "--name", NAME, "--cards-dir", str(data / "cards")]
                                for _ in range(6)], tmp_path)
    assert [code for code, _ in outcomes] == [0] * 6, outcomes
    card = load_card(data / "cards" / f"{SLUG}.yaml")
    assert len(card.data["sessions"]) == 1
    assert errors_of(data) == []


def test_a_held_lock_makes_a_writer_wait_then_give_up_with_a_message(data):
    told = []
    with card_lock(data / "cards", SLUG):
        with pytest.raises(CardBusyError, match="being written by another import or collector"):
            with card_change(data, SLUG, timeout=0.3, on_wait=told.append):
                pass
    assert told == [f"waiting for another import or collector to finish writing card '{SLUG}'"]


def test_a_writer_waits_for_the_lock_and_then_goes_ahead(data, tmp_path):
    log = tmp_path / "dd.txt"
    log.write_text(dd_log(1.63627))
    release, held = threading.Event(), threading.Event()

    def hold():
        with card_lock(data / "cards", SLUG):
            held.set()
            release.wait(10)

    holder = threading.Thread(target=hold)
    holder.start()
    assert held.wait(10)  # the import starts only once the lock is taken, however late the thread runs
    try:
        waited = []
        timer = threading.Timer(0.5, release.set)
        timer.start()
        result = import_file(log, data / "cards", SLUG, name=NAME, progress=waited.append)
    finally:
        release.set()
        holder.join()
    assert not result.already_imported
    assert any("waiting for another import" in line for line in waited)


KILLED_WRITER = """
import os, signal, sys
from cardbench.card.store.atomicfile import write_temp_beside
write_temp_beside(sys.argv[1], "half a card")
os.kill(os.getpid(), signal.SIGKILL)
"""


def test_temp_files_of_a_killed_writer_go_on_the_next_change(tmp_path):
    data = card_with_one_import(tmp_path)
    session_dir = next(p for p in (data / "raw" / SLUG).iterdir() if p.is_dir())  # beside it: SHA256SUMS
    for target in (data / "cards" / f"{SLUG}.yaml", session_dir / "first.txt", data / "raw" / SLUG / "SHA256SUMS"):
        proc = subprocess.run([sys.executable, "-c", KILLED_WRITER, str(target)], capture_output=True)
        assert proc.returncode == -9
    left = sorted(p.name for p in data.rglob("*.tmp"))
    assert len(left) == 3
    live = Path(session_dir / f".x.{os.getpid()}.abcdefgh.tmp")  # a writer that is still running keeps its file
    live.write_text("being written")
    second = tmp_path / "dd2.txt"
    second.write_text(dd_log(1.7))
    import_file(second, data / "cards", SLUG)
    assert sorted(p.name for p in data.rglob("*.tmp")) == [live.name]
    assert errors_of(data) == []


def test_session_ids_get_one_suffix_rule_within_the_length_limit():
    assert unique_session_id(set(), "2025-05-17-run") == "2025-05-17-run"
    assert unique_session_id({"2025-05-17-run"}, "2025-05-17-run") == "2025-05-17-run-2"
    assert unique_session_id({"2025-05-17-run", "2025-05-17-run-2"}, "2025-05-17-run") == "2025-05-17-run-3"
    long = "2025-05-17-" + "x" * 69
    assert len(unique_session_id({long}, long)) == 80


@pytest.fixture
def small_disk(tmp_path):
    """A 1 MiB tmpfs holding data/: a real full disk."""
    if os.geteuid() != 0:
        pytest.skip("mounting a small filesystem needs root")
    mount = tmp_path / "small"
    mount.mkdir()
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", str(mount)], check=True)
    try:
        yield mount
    finally:
        subprocess.run(["umount", "-l", str(mount)], check=False)


def fill(folder, leave_bytes=0):
    """Write a filler file until the disk is full, or until only leave_bytes are left."""
    stat = os.statvfs(folder)
    left = stat.f_bavail * stat.f_frsize - leave_bytes if leave_bytes else 1 << 40
    fd = os.open(folder / "filler", os.O_WRONLY | os.O_CREAT, 0o644)
    try:
        while left > 0:
            left -= os.write(fd, b"\0" * min(left, 4096))
    except OSError:
        pass  # full
    finally:
        os.close(fd)


@pytest.mark.parametrize("leave_bytes", [0, 8192])  # nothing fits; the raw file fits but not the card
def test_a_full_disk_changes_nothing_and_says_so(small_disk, tmp_path, leave_bytes):
    data = small_disk / "data"
    (data / "cards").mkdir(parents=True)
    first = tmp_path / "dd.txt"
    first.write_text(dd_log(1.63627))
    import_file(first, data / "cards", SLUG, name=NAME)
    fill(small_disk, leave_bytes)
    before = snapshot(data)
    second = tmp_path / "dd-second.txt"
    second.write_text(dd_log(1.7) * 40)  # larger than the room left when leave_bytes is set
    proc = subprocess.run(CLI + ["import", str(second), "--card", SLUG, "--cards-dir", str(data / "cards")],
                          capture_output=True, text=True)
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr
    assert "no space left on the disk holding" in proc.stderr
    assert snapshot(data) == before
    (small_disk / "filler").unlink()
    assert errors_of(data) == []


def test_collector_store_records_raw_hashes_under_the_lock(data):
    from cardbench.collect.store import SessionStore
    from cardbench.card import new_card_data

    session = new_card_data.new_session("2025-05-17", "Collector, quick profile", complete=False,
                                   source={"name": "cardbench collector", "date": "2025-05-17"})
    folder = data / "raw" / SLUG / session["id"]
    folder.mkdir(parents=True)
    (folder / "collect.json").write_text("{}\n")
    session["raw"] = [f"raw/{SLUG}/{session['id']}/collect.json"]
    store = SessionStore(data, SLUG)
    store.write(session, new_card=new_card_data.new_card(SLUG, NAME, 64, "microSD", "UHS-I", "cardbench collector"))
    (folder / "dd-write.txt").write_text(dd_log(1.63627))
    session["raw"].append(f"raw/{SLUG}/{session['id']}/dd-write.txt")
    store.write(session)
    assert sorted(read_sha256sums(data / "raw" / SLUG / "SHA256SUMS")) == [
        f"{session['id']}/collect.json", f"{session['id']}/dd-write.txt"]
    assert errors_of(data) == []
    shutil.rmtree(folder)


@pytest.mark.parametrize("name, stored", [("results.html", "results.html.txt"), ("dd log", "dd-log.txt"),
                                          ("run.LOG", "run.LOG"), ("x.svg", "x.svg.txt"),
                                          ("nul.txt", "import-nul.txt"), ("CON", "import-CON.txt")])
def test_an_imported_file_is_kept_as_inert_text_whatever_its_name(data, tmp_path, name, stored):
    log = tmp_path / name
    log.write_text(dd_log(1.63627))
    result = import_file(log, data / "cards", SLUG, name=NAME)
    assert result.raw[0].rsplit("/", 1)[1] == stored
    assert errors_of(data) == []


# --- the lock file itself ---------------------------------------------------------------------

def test_the_lock_lives_under_the_data_folder_owner_only_and_goes_when_released(data):
    lock = data / ".locks" / f"{SLUG}.lock"
    with card_lock(data / "cards", SLUG):
        assert lock.is_file() and not lock.is_symlink()
        assert stat_mode(lock) & 0o077 == 0 and stat_mode(lock.parent) & 0o077 == 0
    assert not lock.exists() and not lock.parent.exists()  # data/ is left as it was


def test_a_planted_lock_link_is_refused_and_never_followed(data, tmp_path):
    target = tmp_path / "elsewhere" / "made-by-root"
    target.parent.mkdir()
    (data / ".locks").mkdir(mode=0o700)
    (data / ".locks" / f"{SLUG}.lock").symlink_to(target)
    with pytest.raises(CardBusyError, match="is a symbolic link; it is not followed"):
        with card_change(data, SLUG, timeout=0.2):
            pass
    assert not target.exists()
    (data / ".locks" / f"{SLUG}.lock").unlink()
    (data / ".locks").rmdir()
    (data / ".locks").symlink_to(target.parent)
    with pytest.raises(CardBusyError, match="is not a folder"):
        with card_change(data, SLUG, timeout=0.2):
            pass
    assert list(target.parent.iterdir()) == []


def test_a_lock_folder_swapped_for_a_link_after_it_was_made_is_never_followed(data, tmp_path, monkeypatch):
    """Someone who can write data/ swaps .locks for a link right after the writer made it: the lock file
    is opened relative to the folder's own descriptor, taken without following links, so nothing is made
    in the link's target."""
    target = tmp_path / "elsewhere"
    target.mkdir()
    real_mkdir = os.mkdir

    def mkdir_then_swap(path, mode=0o777, *, dir_fd=None):
        real_mkdir(path, mode, dir_fd=dir_fd)
        locks = data / ".locks"
        locks.rename(tmp_path / "moved-away")
        locks.symlink_to(target)

    monkeypatch.setattr(os, "mkdir", mkdir_then_swap)
    with pytest.raises(CardBusyError, match="is not a folder"):
        with card_lock(data / "cards", SLUG, timeout=0.2):
            pass
    assert list(target.iterdir()) == []


def test_a_lock_left_by_a_killed_writer_is_taken_and_removed(data):
    (data / ".locks").mkdir(mode=0o700)
    stale = data / ".locks" / f"{SLUG}.lock"
    stale.write_text("")
    with card_lock(data / "cards", SLUG, timeout=0.5):
        pass
    assert not stale.exists()


def stat_mode(path):
    return os.lstat(path).st_mode


def test_a_written_file_gets_the_mode_open_gives_without_the_umask_ever_changing(tmp_path, monkeypatch):
    from cardbench.card.store.atomicfile import atomic_write_text

    def no_umask_change(mask):
        raise AssertionError("the umask was changed while writing")

    old = os.umask(0o027)
    try:
        monkeypatch.setattr(os, "umask", no_umask_change)  # other threads may create files meanwhile
        atomic_write_text(tmp_path / "a.txt", "text")
    finally:
        monkeypatch.undo()
        os.umask(old)
    assert stat_mode(tmp_path / "a.txt") & 0o777 == 0o640
    assert [p.name for p in tmp_path.iterdir()] == ["a.txt"]
