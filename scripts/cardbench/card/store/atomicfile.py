"""Files written whole or not at all: a temp file in the same folder, fsync, then rename (or link),
so a reader never sees half a file; temp files a killed writer left behind are cleared later."""

import os
import re
import secrets
from pathlib import Path


_NEW_FILE = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_NOFOLLOW", 0)


def _create_beside(folder, name):
    """A new, empty temp file in `folder` for `name`: (fd, path). Created with mode 0666 for the kernel to
    apply the umask, as open() would: the umask is never set and restored (that would race with other
    threads creating files or folders)."""
    for _ in range(100):
        tmp = os.path.join(folder, f".{name}.{os.getpid()}.{secrets.token_hex(4)}.tmp")
        try:
            return os.open(tmp, _NEW_FILE, 0o666), tmp
        except FileExistsError:
            continue
    raise FileExistsError(f"no free temp file name beside {name} in {folder}")


def write_temp_beside(path, text, fsync=True):
    """Write text (or bytes) to a new temp file in path's folder, with the mode open() would give;
    returns its path. The caller renames (or links) it into place, so readers never see half a file.

    The name carries the writer's process id (.<name>.<pid>.<random>.tmp), so a temp file left by a
    killed writer can be told from one being written now (remove_stale_temps).
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = _create_beside(path.parent, path.name)
    try:
        with os.fdopen(fd, "wb" if isinstance(text, bytes) else "w",
                       **({} if isinstance(text, bytes) else {"encoding": "utf-8"})) as handle:
            handle.write(text)
            handle.flush()
            if fsync:
                os.fsync(handle.fileno())
    except BaseException:
        os.unlink(tmp)
        raise
    return tmp


_TEMP_NAME = re.compile(r"^\..+\.(\d{1,10})\.[A-Za-z0-9_]{6,12}\.tmp$")


def process_alive(pid):
    """Whether a process of that id runs (a writer whose temp files must be left alone)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # another user's live process
    return True


def remove_stale_temps(folder, recursive=False):
    """Delete temp files that write_temp_beside left behind when its writer died (kill -9, power cut).

    Only names of that form whose writer's process is gone are removed; returns them.
    """
    folder = Path(folder)
    if not folder.is_dir():
        return []
    found = folder.rglob("*.tmp") if recursive else folder.glob("*.tmp")
    removed = []
    for candidate in found:
        match = _TEMP_NAME.match(candidate.name)
        if match and candidate.is_file() and not candidate.is_symlink() and not process_alive(int(match.group(1))):
            candidate.unlink(missing_ok=True)
            removed.append(candidate)
    return removed


def atomic_write_text(path, text, fsync=True):
    """Write text to path through a temp file and rename, so readers never see half a file."""
    tmp = write_temp_beside(path, text, fsync=fsync)
    try:
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise


def atomic_create_text(path, text):
    """Like atomic_write_text, but never replaces an existing file: raises FileExistsError.

    The temp file is hard-linked to its name, which fails atomically when the name is taken.
    """
    tmp = write_temp_beside(path, text)
    try:
        os.link(tmp, path)
    finally:
        os.unlink(tmp)
