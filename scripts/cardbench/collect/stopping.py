"""What a stopped run leaves: signals wait while the card file is written, folders the run made go when it
keeps nothing, and a full disk under data/ is told apart from a failing tool."""

import errno
import os
import shutil
import signal
import threading
from pathlib import Path

from ..core.units import MIB_BYTES
from ..errors import CardFileError, ParseError
from .errors import CollectInterrupted, DiskFullError, ToolFailedError


class Signals:
    """SIGINT/SIGTERM raise CollectInterrupted, except inside a critical section (card file write)."""

    def __init__(self):
        self.critical = 0
        self.pending = None
        self.previous = {}

    def install(self):
        if threading.current_thread() is not threading.main_thread():
            return
        for signum in (signal.SIGINT, signal.SIGTERM):
            self.previous[signum] = signal.signal(signum, self._handle)

    def restore(self):
        for signum, handler in self.previous.items():
            signal.signal(signum, handler)
        self.previous = {}

    def _handle(self, signum, frame):
        name = signal.Signals(signum).name
        if self.critical:
            self.pending = name
            return
        raise CollectInterrupted(name)

    def __enter__(self):
        self.critical += 1

    def __exit__(self, *exc):
        self.critical -= 1
        if not self.critical and self.pending and exc[0] is None:
            name, self.pending = self.pending, None
            raise CollectInterrupted(name)


class CreatedFolders:
    """Folders under data/ made by this run, so a run that keeps nothing leaves data/ as it was."""

    def __init__(self):
        self.folders = []  # outermost first; the last is the session's raw folder

    def mkdir(self, raw_dir):
        missing, here = [], Path(raw_dir)
        while not here.exists():
            missing.append(here)
            here = here.parent
        self.folders = list(reversed(missing))
        Path(raw_dir).mkdir(parents=True, exist_ok=True)

    def remove(self):
        if not self.folders:
            return
        shutil.rmtree(self.folders[-1], ignore_errors=True)  # made by this run: only its own files
        for folder in reversed(self.folders[:-1]):
            try:
                folder.rmdir()  # only when empty
            except FileNotFoundError:
                continue
            except OSError:
                break
        self.folders = []


# Less free space than this and a tool's output or the card file may not fit: the disk counts as full.
FULL_BELOW_BYTES = MIB_BYTES


def _mount_point(path):
    path = Path(os.path.abspath(path))
    while not path.exists():
        path = path.parent
    while not os.path.ismount(path):
        path = path.parent
    return path


def _full_filesystem(paths):
    """The first of these paths whose filesystem is (nearly) full, as text; None when none is."""
    for path in paths:
        path = Path(path)
        while not path.exists() and path != path.parent:
            path = path.parent
        try:
            st = os.statvfs(path)
        except OSError:
            continue
        free = (st.f_bfree if os.geteuid() == 0 else st.f_bavail) * st.f_frsize
        if free < FULL_BELOW_BYTES or (st.f_files and not st.f_ffree):
            return f"the filesystem at {_mount_point(path)}"
    return None


def disk_full(exc, data_dir, raw_dir=None):
    """Where data/ ran out of space when exc came from that (ENOSPC/EDQUOT anywhere in its chain, or a
    failure while the raw folder's or card folder's filesystem is full); None otherwise."""
    paths = [p for p in (raw_dir, Path(data_dir) / "cards", data_dir) if p is not None]
    seen = exc
    while seen is not None:
        if isinstance(seen, DiskFullError):
            return None
        if isinstance(seen, OSError) and seen.errno in (errno.ENOSPC, errno.EDQUOT):
            return _full_filesystem(paths) or f"the filesystem at {_mount_point(data_dir)}"
        seen = seen.__cause__ or seen.__context__
    if isinstance(exc, (OSError, ToolFailedError, ParseError, ValueError, CardFileError)):
        return _full_filesystem(paths)
    return None


def log_quietly(log, text):
    """Log a stop; the log may be on the full disk that caused it."""
    try:
        log(text)
    except OSError:
        pass
