"""The one way a card's files change: under the card's lock, checked, all or nothing.

The collector and the importer both go through `card_change(data_dir, slug)`:

    with card_change(data_dir, slug) as change:
        change.add_raw_bytes("2025-05-17-fio/fio.json", raw)   # raw files the session names are recorded too
        change.append_session(session, new_card=card)          # or replace_session / set_card_field
        change.commit()

Everything happens while the card's lock is held, so parallel writers wait for each other instead of
losing a SHA256SUMS line or a raw file. `commit()` puts the raw files in place, records their SHA-256
in data/raw/<slug>/SHA256SUMS, checks the new card text with every rule and only then renames it into
place. Any failure, a full disk or SIGINT/SIGTERM included, puts back what was there before. What a writer
killed outright leaves (raw files, SHA256SUMS lines, temp files) goes the next time the card changes:
the commit writes down what it is about to change first (journal.py).
"""

import errno
import os
import re
import signal
import stat
import time
from contextlib import contextmanager
from pathlib import Path

from .atomicfile import remove_stale_temps, write_temp_beside
from .checksums import SUMS_NAME, update_sha256sums
from ..dump import dump_yaml, new_card_text
from .journal import (LOCKS_FOLDER, backup_path, drop_backups, finish_dead_commit, remove_journal, undo_files,
                      write_journal)
from ..load import load_card, parse_card_text
from .session_text import append_session_text, replace_session_text
from ...errors import CardbenchError, CardFileError
from ...core.filelock import lock_exclusive
from ...core.paths import card_path, card_raw_dir, raw_names

LOCK_TIMEOUT_S = 300  # longer than any single card write; a collector holds the lock only while it saves
MAX_SESSION_ID = 80


class CardBusyError(CardbenchError):
    """Another import or collector kept the card's lock for longer than the wait allows."""


class DiskFullError(CardbenchError):
    """The disk holding data/ is full; nothing of this change was kept."""


def _lock_path(cards_dir, slug):
    # Beside the cards, never in /tmp: there any user could plant a symlink for root to follow, or hold the lock.
    return Path(cards_dir).parent / LOCKS_FOLDER / f"{slug}.lock"


def _owned_like_data(fd, data_fd):
    """Root running the collector in a user's checkout: the lock folder and file stay the user's, so the
    user's own imports can take the lock later."""
    if os.geteuid() != 0:
        return
    owner = os.fstat(data_fd)
    os.fchown(fd, owner.st_uid, owner.st_gid)


_NO_LINKS = os.O_NOFOLLOW | os.O_CLOEXEC


def _open_lock(lock_path, slug, attempts=20):
    """(lock file, its folder) as descriptors: the file created 0600 in a 0700 folder. Both are opened
    relative to an open descriptor of data/ and never through a symbolic link, so nobody who can write
    data/ can swap the folder for a link between the check and the use."""
    folder = lock_path.parent
    try:
        data_fd = os.open(folder.parent, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    except OSError as exc:
        raise CardBusyError(f"cannot open the data folder {folder.parent} of card '{slug}': {exc.strerror}") from None
    try:
        for _ in range(attempts):  # the last holder of another card's lock may remove the folder meanwhile
            try:
                os.mkdir(LOCKS_FOLDER, mode=0o700, dir_fd=data_fd)
            except FileExistsError:
                pass
            except OSError as exc:
                raise CardBusyError(f"cannot make the lock folder {folder} of card '{slug}': {exc.strerror}") from None
            try:
                folder_fd = os.open(LOCKS_FOLDER, os.O_RDONLY | os.O_DIRECTORY | _NO_LINKS, dir_fd=data_fd)
            except FileNotFoundError:
                continue
            except OSError as exc:
                if exc.errno in (errno.ELOOP, errno.ENOTDIR):
                    raise CardBusyError(f"the lock folder {folder} is not a folder (a symbolic link?); remove it "
                                        "and run again") from None
                raise CardBusyError(f"cannot open the lock folder {folder} of card '{slug}': {exc.strerror}") from None
            try:
                fd = os.open(lock_path.name, os.O_RDWR | os.O_CREAT | _NO_LINKS, 0o600, dir_fd=folder_fd)
            except FileNotFoundError:
                os.close(folder_fd)
                continue
            except OSError as exc:
                os.close(folder_fd)
                if exc.errno == errno.ELOOP:
                    raise CardBusyError(f"the lock file {lock_path} of card '{slug}' is a symbolic link; it is not "
                                        "followed: remove it and run again") from None
                raise CardBusyError(f"cannot open the lock file {lock_path} of card '{slug}': {exc.strerror}; "
                                    "remove it if no import or collector is running") from None
            break
        else:
            raise CardBusyError(f"cannot open the lock file {lock_path} of card '{slug}': its folder keeps "
                                "disappearing")
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            os.close(fd)
            os.close(folder_fd)
            raise CardBusyError(f"the lock file {lock_path} of card '{slug}' is not a regular file; remove it and "
                                "run again")
        _owned_like_data(folder_fd, data_fd)
        _owned_like_data(fd, data_fd)
        return fd, folder_fd
    finally:
        os.close(data_fd)


def _still_there(fd, folder_fd, name):
    """Whether the locked file is still the one named `name` in its folder (the last holder removes it when done)."""
    try:
        on_disk = os.stat(name, dir_fd=folder_fd, follow_symlinks=False)
    except FileNotFoundError:
        return False
    held = os.fstat(fd)
    return (on_disk.st_dev, on_disk.st_ino) == (held.st_dev, held.st_ino)


@contextmanager
def card_lock(cards_dir, slug, timeout=LOCK_TIMEOUT_S, on_wait=None):
    """Hold the card's lock (an flock on data/.locks/<slug>.lock, shared by every cardbench process).

    Waits while another writer holds it, telling on_wait once; CardBusyError after `timeout` seconds.
    The holder removes the file when done, so no lock file outlives its writer.
    """
    lock_path = _lock_path(cards_dir, slug)
    deadline = time.monotonic() + timeout
    told = False

    def tell_once():  # once in all, though the file may be opened again when its holder removed it
        nonlocal told
        if not told and on_wait is not None:
            on_wait(f"waiting for another import or collector to finish writing card '{slug}'")
            told = True

    while True:
        fd, folder_fd = _open_lock(lock_path, slug)
        if not lock_exclusive(fd, timeout=max(0.0, deadline - time.monotonic()), on_wait=tell_once):
            os.close(fd)
            os.close(folder_fd)
            raise CardBusyError(f"card '{slug}' is being written by another import or collector; waited "
                                f"{timeout:.0f} s for it (lock {lock_path}); try again when it has finished")
        if _still_there(fd, folder_fd, lock_path.name):
            break
        os.close(fd)  # its holder removed it meanwhile: lock the file now at that path
        os.close(folder_fd)
    try:
        yield
    finally:
        try:
            os.unlink(lock_path.name, dir_fd=folder_fd)  # while still held: a waiter then sees it gone and retries
            os.rmdir(lock_path.parent)  # when no other card's lock is in it: data/ is left as it was
        except OSError:
            pass
        os.close(folder_fd)
        os.close(fd)  # closing releases the flock


def unique_session_id(taken, wanted):
    """wanted, or wanted-2, -3 … (cut so the id stays within the schema's length) when taken."""
    candidate, n = wanted, 2
    while candidate in taken:
        suffix = f"-{n}"
        candidate = wanted[:MAX_SESSION_ID - len(suffix)].rstrip("-") + suffix
        n += 1
    return candidate


class CardChange:
    """A staged change of one card; made by card_change(), which holds the lock while it lives."""

    def __init__(self, data_dir, slug):
        self.data_dir = Path(data_dir)
        self.slug = slug
        self.cards_dir = self.data_dir / "cards"
        self.path = card_path(self.cards_dir, slug)
        self.raw_root = card_raw_dir(self.data_dir, slug)
        self.loaded = load_card(self.path) if self.path.exists() else None
        self._raw_bytes = {}  # name relative to data/raw/<slug>/ -> bytes to write
        self._raw_written = set()  # names already on disk (tool output) to record
        self._text = None
        self.committed = False

    # --- what the card holds now -------------------------------------------------------------
    @property
    def data(self):
        return self.loaded.data if self.loaded else None

    @property
    def sessions(self):
        found = (self.data or {}).get("sessions")
        return [s for s in found if isinstance(s, dict)] if isinstance(found, list) else []

    def unique_session_id(self, wanted):
        return unique_session_id({s.get("id") for s in self.sessions}, wanted)

    def session_with_import(self, digest, label=None):
        """The session that already holds an import of a file with this SHA-256, or None; given a label, only a
        session of that label (a source's kept file may give a card several sessions, one per label)."""
        return next((s for s in self.sessions if digest in (s.get("imported_sha256") or [])
                     and (label is None or s.get("label") == label)), None)

    # --- what to change ----------------------------------------------------------------------
    def add_raw_bytes(self, name, data):
        """A raw file to write at data/raw/<slug>/<name>."""
        self._raw_bytes[self._checked_name(name)] = data

    def append_session(self, session, new_card=None):
        """Add a session at the end; creates the card from new_card when the file does not exist."""
        if self.loaded is not None:
            existing = self.loaded.text
        elif new_card is None:
            raise CardFileError(self.path, "card file does not exist; a name is needed to create it")
        else:
            existing = new_card_text({**new_card, "sessions": []})
        self._set_text(existing, session)
        self._stage_session_raw(session)

    def replace_session(self, session):
        """Replace the session with this one's id where it is: sessions added after it meanwhile (an import
        during a collector run) and every byte outside it stay unchanged."""
        if self.loaded is None:
            raise CardFileError(self.path, "card file disappeared during the run", field="sessions")
        self._text = replace_session_text(self.loaded.text, session, self.path)
        self._stage_session_raw(session)

    def set_card_field(self, key, value):
        """Set one top-level field of the card (a guessed bus raised) on its own line, in the staged
        text: every session, imported ones included, and every other byte stay as they are."""
        text = self._text if self._text is not None else (self.loaded.text if self.loaded else None)
        if text is None:
            raise CardFileError(self.path, "card file does not exist; nothing to change", field=key)
        pattern = re.compile(rf"^{re.escape(key)}:[^\n]*$", re.M)
        if len(pattern.findall(text)) != 1:
            raise CardFileError(self.path, f"'{key}' is not one line of its own at the top of the card file; "
                                           "not changed", field=key)
        line = dump_yaml({key: value}).rstrip("\n")  # as a new card file writes it
        if "\n" in line:
            raise CardFileError(self.path, f"'{key}' would not fit on one line; not changed", field=key)
        self._text = pattern.sub(lambda _: line, text)

    # --- all or nothing ------------------------------------------------------------------------
    def commit(self):
        """Raw files, SHA256SUMS and the card file, checked, in place; on any failure none of it.

        The journal (journal.py) is written first, so a writer killed at any point leaves what the next
        change of the card puts back; an exception, SIGINT and SIGTERM included, undoes it here."""
        from ..checks.validate import brand_findings, check_card

        if self._text is None:
            raise ValueError("nothing to commit: no session was staged")
        sums_path = self.raw_root / SUMS_NAME
        sums_before = sums_path.read_bytes() if sums_path.exists() else None
        writes = []  # (name, bytes, whether an earlier file is replaced)
        for name, data in sorted(self._raw_bytes.items()):
            target = self.raw_root / name
            before = target.read_bytes() if target.is_file() else None
            if before != data:
                writes.append((name, data, before is not None))
        created_dirs = []
        for folder in [self.raw_root] + [(self.raw_root / name).parent for name, _, _ in writes]:
            created_dirs += [d for d in _missing_dirs(folder, self.data_dir) if d not in created_dirs]
        files = [(name, kept) for name, _, kept in writes]
        try:
            write_journal(self.data_dir, self.slug, self._text, sums_before, files, created_dirs)
            for name, data, kept in writes:
                target = self.raw_root / name
                target.parent.mkdir(parents=True, exist_ok=True)
                if kept:
                    backup_path(target).unlink(missing_ok=True)
                    os.link(target, backup_path(target))
                tmp = write_temp_beside(target, data)
                os.replace(tmp, target)
            names = sorted(set(self._raw_bytes) | self._raw_written)
            if names:
                update_sha256sums(self.raw_root, names)
            new_card = parse_card_text(self._text, self.path)
            findings = check_card(new_card, data_dir=self.data_dir)
            if self.data is None or self.data.get("brand") != new_card.data.get("brand"):
                findings += brand_findings([new_card], self.data_dir)  # the whole site is read: only for a new brand
            errors = [f.error for f in findings if f.severity == "error"]
            if errors:
                first = errors[0]
                more = f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""
                raise CardFileError(self.path, f"this change would make the card invalid: {first.message}{more}; "
                                               "nothing written", line=first.line, column=first.column,
                                    field=first.field, rule=first.rule)
            tmp = write_temp_beside(self.path, self._text)
            with _signals_held():  # the commit point: once the card is renamed, the change is kept
                try:
                    os.replace(tmp, self.path)
                except BaseException:
                    os.unlink(tmp)
                    raise
                self.committed = True
        except BaseException as exc:
            if self.committed:
                raise  # a signal let through once the card was in place: the next change drops the journal
            self._undo(sums_before, files, created_dirs)
            if isinstance(exc, OSError) and exc.errno in (errno.ENOSPC, errno.EDQUOT):
                raise DiskFullError(f"no space left on the disk holding {self.data_dir} while writing card "
                                    f"'{self.slug}'; nothing of this change was kept, earlier data is intact. "
                                    "Free some space and run the same command again") from None
            raise
        with _signals_held():
            drop_backups(self.raw_root, files)
            remove_journal(self.data_dir, self.slug)
        return self.path

    # --- helpers -------------------------------------------------------------------------------
    def _checked_name(self, name):
        name = Path(name).as_posix()
        parts = name.split("/")
        if name.startswith("/") or any(p in ("", ".", "..") for p in parts):
            raise ValueError(f"raw file name {name!r} must stay inside {self.raw_root}")
        return name

    def _set_text(self, existing, session):
        self._text = append_session_text(existing, session, self.path)

    def _stage_session_raw(self, session):
        # Every raw file the session names in this card's folder is fingerprinted with it.
        self._raw_written.update(n for n in raw_names(session, self.slug) if n not in self._raw_bytes)

    def _undo(self, sums_before, files, created_dirs):
        """Put back what commit() changed; a second signal waits until it is done. The journal goes only
        when everything was put back; otherwise the next change of the card finishes the undo."""
        with _signals_held():
            sums = None if sums_before is None else sums_before.decode("utf-8", "surrogateescape")
            for target in [self.path] + [self.raw_root / name for name, _ in files]:
                for tmp in target.parent.glob(f".{target.name}.{os.getpid()}.*.tmp"):
                    tmp.unlink(missing_ok=True)
            if undo_files(self.raw_root, files, sums, created_dirs):
                remove_journal(self.data_dir, self.slug)


@contextmanager
def _signals_held():
    """SIGINT and SIGTERM wait (are delivered afterwards) while what is inside runs."""
    held = {signal.SIGINT, signal.SIGTERM}
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, held)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


def _missing_dirs(folder, stop):
    """Folders from `stop` down to `folder` that do not exist yet, outermost first."""
    missing = []
    folder = Path(folder)
    while not folder.exists() and folder != Path(stop) and folder.parent != folder:
        missing.append(folder)
        folder = folder.parent
    return list(reversed(missing))


@contextmanager
def card_change(data_dir, slug, timeout=LOCK_TIMEOUT_S, on_wait=None):
    """Lock the card, finish or undo the commit a killed writer left, clear its temp files, and yield a
    CardChange loaded under the lock."""
    data_dir = Path(data_dir)
    cards_dir = data_dir / "cards"
    cards_dir.mkdir(parents=True, exist_ok=True)
    with card_lock(cards_dir, slug, timeout=timeout, on_wait=on_wait):
        finish_dead_commit(data_dir, slug)
        remove_stale_temps(cards_dir)
        remove_stale_temps(card_raw_dir(data_dir, slug), recursive=True)
        yield CardChange(data_dir, slug)
