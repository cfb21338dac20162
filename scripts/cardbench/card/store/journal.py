"""What a card commit is about to change, written down before it changes anything, so that a writer
killed halfway (kill -9, power cut) leaves nothing behind that no session names.

data/.locks/<slug>.journal (git-ignored, beside the card's lock) lists the raw files the commit puts in
place, which of them replaced an earlier file (kept as a hard link, `.<name>.backup.tmp`, until the
commit ends), the folders it made, SHA256SUMS as it was, and the SHA-256 of the new card text. The
commit removes the journal when it is done or undone. A journal found by the next writer (under the
lock, so its writer is gone) is finished: when the card file holds the new text, only the backups
go; otherwise the raw files, SHA256SUMS lines and folders of that commit that no session names go.
"""

import hashlib
import json
import os
from pathlib import Path

from ...core.paths import card_path, card_raw_dir, raw_names
from ...errors import CardFileError
from .atomicfile import atomic_write_text
from .checksums import SUMS_NAME, read_sha256sums, update_sha256sums
from ..load import load_card

LOCKS_FOLDER = ".locks"  # data/.locks/: the card locks and commit journals, git-ignored


def journal_path(data_dir, slug):
    return Path(data_dir) / LOCKS_FOLDER / f"{slug}.journal"


def backup_path(target):
    """Where the file a commit replaces is kept until the commit ends (validate skips *.tmp)."""
    target = Path(target)
    return target.with_name(f".{target.name}.backup.tmp")


def text_digest(text):
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def write_journal(data_dir, slug, card_text, sums_before, files, created_dirs):
    """Record the commit: files are (name relative to data/raw/<slug>/, whether an earlier file is kept);
    sums_before is SHA256SUMS's bytes, or None when there was none."""
    sums = None if sums_before is None else sums_before.decode("utf-8", "surrogateescape")
    record = {"pid": os.getpid(), "card_sha256": text_digest(card_text), "sums": sums,
              "files": [[name, kept] for name, kept in files],
              "dirs": [Path(d).relative_to(data_dir).as_posix() for d in created_dirs]}
    path = journal_path(data_dir, slug)
    path.parent.mkdir(mode=0o700, exist_ok=True)
    atomic_write_text(path, json.dumps(record, sort_keys=True) + "\n")
    return path


def remove_journal(data_dir, slug):
    journal_path(data_dir, slug).unlink(missing_ok=True)


def _inside(root, name):
    """root/name when name is a plain relative path that stays inside root (the journal is a file on
    disk: it is checked like any input before a path in it is touched), else None."""
    if not isinstance(name, str) or name.startswith("/") or any(p in ("", ".", "..") for p in name.split("/")):
        return None
    target = Path(root) / name
    try:
        root, parent = Path(root).resolve(), target.parent.resolve()
    except (OSError, RuntimeError):
        return None
    return target if parent == root or root in parent.parents else None


def _read(path):
    try:
        record = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(record, dict) or not isinstance(record.get("files"), list):
        return None
    return record


def undo_files(raw_root, files, sums_before, created_dirs):
    """Put raw files, SHA256SUMS (sums_before: its text, bytes kept through surrogateescape, or None)
    and folders back as they were before a commit, each step on its own: one that fails (a full disk
    refusing a restore) does not stop the others. True when all went."""
    complete = True
    for name, kept in reversed(list(files)):
        target = _inside(raw_root, name)
        if target is None:
            continue
        try:
            if kept:
                if backup_path(target).is_file():
                    os.replace(backup_path(target), target)
            else:
                target.unlink(missing_ok=True)
        except OSError:
            complete = False
    sums_path = Path(raw_root) / SUMS_NAME
    try:
        if sums_before is None:
            sums_path.unlink(missing_ok=True)
        else:
            before = sums_before.encode("utf-8", "surrogateescape")
            if not sums_path.is_file() or sums_path.read_bytes() != before:
                atomic_write_text(sums_path, before)
    except OSError:
        complete = False
    for folder in sorted(created_dirs, key=lambda d: len(Path(d).parts), reverse=True):
        try:
            Path(folder).rmdir()
        except OSError:
            pass  # a folder something else now holds files in stays
    return complete


def drop_backups(raw_root, files):
    for name, kept in files:
        target = _inside(raw_root, name)
        if kept and target is not None:
            backup_path(target).unlink(missing_ok=True)


def finish_dead_commit(data_dir, slug):
    """Finish the commit a killed writer left (call with the card's lock held). Returns what it did:
    "none", "kept" (the card has the new text), "undone", or "unreadable" (a journal that is not one is
    removed; validate reports whatever it left).

    The journal is a file on disk, so it is trusted only as a list of names: a file is removed only when
    the card as it stands does not name it, only its SHA256SUMS line goes with it, and a replaced file
    comes back only from its backup."""
    data_dir = Path(data_dir)
    path = journal_path(data_dir, slug)
    if not path.is_file():
        return "none"
    record = _read(path)
    if record is None:
        path.unlink(missing_ok=True)
        return "unreadable"
    raw_root = card_raw_dir(data_dir, slug)
    files = [(f[0], bool(f[1])) for f in record["files"]
             if isinstance(f, list) and len(f) == 2 and _inside(raw_root, f[0]) is not None]
    card = card_path(data_dir / "cards", slug)
    try:
        card_bytes = card.read_bytes() if card.is_file() else None
    except OSError:
        card_bytes = None
    if card_bytes is not None and hashlib.sha256(card_bytes).hexdigest() == record.get("card_sha256"):
        drop_backups(raw_root, files)
        path.unlink(missing_ok=True)
        return "kept"
    named = _named(card, slug) if card_bytes is not None else set()
    restored, removed = [], []
    for name, kept in files:
        target = _inside(raw_root, name)
        try:
            if kept and backup_path(target).is_file():
                os.replace(backup_path(target), target)
                restored.append(name)
            elif not kept and name not in named:
                target.unlink(missing_ok=True)
                removed.append(name)
        except OSError:
            return "undone"  # partly: the journal stays for the next writer to finish
    _mend_sums(raw_root, removed, restored, had_sums=record.get("sums") is not None)
    for folder in sorted((d for d in (_inside(data_dir, n) for n in record.get("dirs") or []) if d is not None),
                         key=lambda d: len(d.parts), reverse=True):
        try:
            folder.rmdir()
        except OSError:
            pass  # not empty, or gone
    path.unlink(missing_ok=True)
    return "undone"


def _named(card, slug):
    try:
        return set(raw_names(load_card(card).data, slug))
    except CardFileError:
        return set()


def _mend_sums(raw_root, removed, restored, had_sums):
    """SHA256SUMS without the lines of removed files, with the restored files' hashes recorded again;
    gone when it was not there before and nothing else is left in it."""
    sums_path = Path(raw_root) / SUMS_NAME
    if not sums_path.is_file():
        return
    try:
        entries = {name: digest for name, (digest, _) in read_sha256sums(sums_path).items() if name not in removed}
    except CardFileError:
        return  # validate names the bad line
    if not entries and not had_sums:
        sums_path.unlink(missing_ok=True)
        return
    atomic_write_text(sums_path, "".join(f"{digest}  {name}\n" for name, digest in sorted(entries.items())))
    if restored:
        update_sha256sums(raw_root, restored)
