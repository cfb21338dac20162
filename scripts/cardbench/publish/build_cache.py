"""The build cache on disk: every card's result (incremental.py) as a snapshot, and a journal of the few entries
changed since it.

At thousands of cards the snapshot is a hundred MB of JSON; a build that checked one card would write it all
again. It writes the journal instead: the changed and removed entries, and the snapshot's token, so a journal
left beside another snapshot (one written later, or restored from elsewhere) is never applied to it. Once the
journal holds more than JOURNAL_LIMIT entries, the next save writes a whole snapshot and removes the journal.
Each file is replaced whole (temporary file, then rename); a build killed between writing the snapshot and
removing the journal leaves a journal naming the old token, which the next build ignores.

Every entry must describe the card files on disk: before a build writes a card's files, the journal records its
entry as removed (forget), so a build stopped before it saves, or one that never saves (the preview's), leaves
no entry its card's files may contradict. So a journal that names the snapshot but cannot be read, or holds what
no build writes, leaves the snapshot untrusted too: the build checks every card.

Builds of one output folder take turns (`<out>.lock`, held from reading the cache to saving it).
Between its builds the preview keeps the entries in memory; they hold only while the cache files are as it last
read or wrote them: once another build has written them, the preview reads them again (unchanged()).
"""

import gc
import os
import secrets
from contextlib import contextmanager
from pathlib import Path

import orjson

from .site_files import replace_text
from ..core.filelock import lock_exclusive, unlock
from ..core.jsontext import compact_json

JOURNAL_LIMIT = 200  # entries; past it, a whole snapshot costs little next to the journal's own writing


def cache_path_for(out_dir):
    out_dir = Path(out_dir)
    return out_dir.with_name(out_dir.name + ".cache.json")


def journal_path_for(cache_file):
    cache_file = Path(cache_file)
    return cache_file.with_name(cache_file.name.removesuffix(".json") + ".journal.json")


def lock_path_for(out_dir):
    out_dir = Path(out_dir)
    return out_dir.with_name(out_dir.name + ".lock")


@contextmanager
def build_lock(out_dir):
    """Held by a build of `out_dir` (its card files, shared files and cache); another build of it waits."""
    path = lock_path_for(out_dir)
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "a+b") as handle:
        lock_exclusive(handle)
        try:
            yield
        finally:
            unlock(handle)


def _stat(path):
    try:
        st = os.stat(path)
    except FileNotFoundError:
        return None
    return st.st_mtime_ns, st.st_size, st.st_ino


def cache_bytes(value):
    """A cache file's bytes: orjson, or the json module for what orjson does not write (an integer past 64
    bits); either reads back the same values. A NaN is let through: the cache is never published, and a file
    holding one cannot be read back, so the next build checks every card rather than this one failing."""
    try:
        return orjson.dumps(value)
    except TypeError:
        return compact_json(value, allow_nan=True).encode("utf-8")


def _read_values(path):
    """A cache file's values, None when there is no such file. They are tens of MB, millions of objects at
    thousands of cards: Python's cyclic collector would scan them again and again as they are made, finding no
    garbage (values read from JSON hold no cycles, and the reference counts free them), so it is paused meanwhile,
    and they are kept out of its later scans (gc.freeze) before it runs again: its first collection would otherwise
    scan them all. Raises OSError or ValueError for a file that cannot be read."""
    if not path.is_file():
        return None
    data = path.read_bytes()
    enabled = gc.isenabled()
    gc.disable()
    try:
        return orjson.loads(data)
    finally:
        gc.freeze()
        if enabled:
            gc.enable()


def _collect_frozen():
    """Put back in the collector's reach what an earlier read kept out of its scans (gc.freeze), and collect what
    died in cycles since: a long-lived process (the preview) reads the cache again whenever its environment
    changes or another build has written the cache, and each read would otherwise keep such garbage for good."""
    if gc.get_freeze_count():
        gc.unfreeze()
        gc.collect()


def _entries_shaped(entries, removals):
    """Whether a cache file's `entries` are as a build writes them: name → entry (a dict with its findings), or
    in a journal also None for an entry removed."""
    if not isinstance(entries, dict):
        return False
    return all((entry is None and removals) or (isinstance(entry, dict) and isinstance(entry.get("findings"), list))
               for entry in entries.values())


def _unlink(path):
    try:
        os.unlink(path)
    except FileNotFoundError:
        pass


class CacheFile:
    """The snapshot and its journal for one output folder. load() gives the entries and shared-file record
    kept for an environment; save() writes what changed since."""

    def __init__(self, path):
        self.path = Path(path)
        self.journal = journal_path_for(self.path)
        self.token = None  # the snapshot's, as read or last written
        self.journaled = {}  # name → entry (None: removed) in the journal beside that snapshot
        self.seen = None  # the files' (snapshot, journal) signatures as this object last read or wrote them

    def _on_disk(self):
        return _stat(self.path), _stat(self.journal)

    def unchanged(self):
        """Whether no other build has written the cache files since this object last read or wrote them."""
        return self.seen is not None and self._on_disk() == self.seen

    def load(self, environment):
        """(entries, shared) as saved for `environment`, or ({}, {}) when there is none or it is unreadable
        (an unreadable cache is only a slower build)."""
        self.token, self.journaled = None, {}
        self.seen = self._on_disk()  # before reading: a file replaced meanwhile is then seen as changed
        _collect_frozen()
        try:
            saved = _read_values(self.path)
            if not isinstance(saved, dict) or saved.get("environment") != environment or not saved.get("token") \
                    or not _entries_shaped(saved.get("entries") or {}, False) \
                    or not isinstance(saved.get("shared") or {}, dict):
                return {}, {}
            journal = _read_values(self.journal)
        except (OSError, ValueError):
            return {}, {}
        entries, shared = saved.get("entries") or {}, saved.get("shared") or {}
        if isinstance(journal, dict) and journal.get("token") != saved["token"]:
            journal = None  # left by a build stopped after writing the snapshot that replaced its own
        if journal is not None:  # it names this snapshot, or names none: it applies whole, or nothing here is trusted
            if not isinstance(journal, dict) or journal.get("environment") != environment \
                    or not _entries_shaped(journal.get("entries") or {}, True) \
                    or not isinstance(journal.get("shared") or {}, dict):
                return {}, {}
            self.journaled = journal.get("entries") or {}
            for name, entry in self.journaled.items():
                if entry is None:
                    entries.pop(name, None)
                else:
                    entries[name] = entry
            shared = journal.get("shared") or {}
        self.token = saved["token"]
        return entries, shared

    def forget(self, environment, names):
        """Before card files are written for the entries `names`: record them as removed in the journal, or, with
        no snapshot of this environment to add to, remove the cache files (module docstring)."""
        if self.token and self.path.is_file() and self.unchanged():
            journaled = {**self.journaled, **dict.fromkeys(names)}
            self._write(self.journal, {"environment": environment, "token": self.token, "entries": journaled,
                                       "shared": {}})
            self.journaled = journaled
            return
        self._remove()

    def save(self, environment, entries, shared, changed):
        """Write the entries named in `changed` (those gone from `entries` as removed) to the journal, or every
        entry to a new snapshot when there is no snapshot to add to or the journal would grow past its limit.
        Cache files another build wrote since they were read are removed instead: `entries` may no longer say
        what that build's card files hold."""
        if not self.unchanged():
            self._remove()
            return
        journaled = {**self.journaled, **{name: entries.get(name) for name in changed}}
        self.path.parent.mkdir(parents=True, exist_ok=True)
        if self.token and len(journaled) <= JOURNAL_LIMIT and self.path.is_file():
            self._write(self.journal, {"environment": environment, "token": self.token, "entries": journaled,
                                       "shared": shared})
            self.journaled = journaled
            return
        token = secrets.token_hex(8)
        self._write(self.path, {"environment": environment, "token": token, "entries": entries, "shared": shared})
        self.token, self.journaled = token, {}
        _unlink(self.journal)
        self.seen = self._on_disk()

    def _write(self, path, value):
        replace_text(path, cache_bytes(value))
        self.seen = self._on_disk()

    def _remove(self):
        self.token, self.journaled = None, {}
        _unlink(self.path)
        _unlink(self.journal)
        self.seen = self._on_disk()

__all__ = ["CacheFile", "build_lock", "cache_path_for", "journal_path_for", "lock_path_for", "cache_bytes",
           "JOURNAL_LIMIT"]
