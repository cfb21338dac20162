"""Wakes the preview's serve loop as soon as a card file in the folder is saved, renamed into place or removed
(Linux inotify), rather than at its next poll. Where inotify cannot be had, `wait` only sleeps, and the
loop's own polling finds the change as before; the poll stays in any case, as the judge of what changed.
"""

import ctypes
import os
import select
import struct
import time

# <sys/inotify.h>
IN_CLOSE_WRITE, IN_MOVED_FROM, IN_MOVED_TO, IN_DELETE = 0x8, 0x40, 0x80, 0x200
IN_Q_OVERFLOW = 0x4000
# A file written in place counts once it is closed; one being written (IN_MODIFY) would be read half-written.
EVENTS = IN_CLOSE_WRITE | IN_MOVED_FROM | IN_MOVED_TO | IN_DELETE
EVENT_HEADER = struct.Struct("iIII")  # wd, mask, cookie, len; then len bytes of NUL-padded name
OVERFLOW = object()  # in the names `wait` returns: events were lost, so any file may have changed


def _inotify_fd(folder):
    """A non-blocking inotify descriptor watching `folder`, or None."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)  # the C library the interpreter is linked with
        fd = libc.inotify_init1(os.O_NONBLOCK | os.O_CLOEXEC)
    except (OSError, AttributeError):  # not Linux, or no such call
        return None
    if fd < 0:
        return None
    if libc.inotify_add_watch(fd, os.fsencode(folder), EVENTS) < 0:
        os.close(fd)
        return None
    return fd


def event_names(buffer):
    """The file names in a buffer of inotify events (OVERFLOW among them when the queue overflowed)."""
    names, offset = set(), 0
    while offset + EVENT_HEADER.size <= len(buffer):
        _, mask, _, length = EVENT_HEADER.unpack_from(buffer, offset)
        offset += EVENT_HEADER.size
        if mask & IN_Q_OVERFLOW:
            names.add(OVERFLOW)
        name = buffer[offset:offset + length].rstrip(b"\0")
        if name:
            names.add(os.fsdecode(name))
        offset += length
    return names


class FolderWatch:
    """with FolderWatch(folder) as watch: names = watch.wait(seconds)"""

    def __init__(self, folder):
        self.fd = _inotify_fd(folder)

    def wait(self, timeout):
        """The names of the files that changed, as soon as one has; an empty set after `timeout` seconds."""
        if self.fd is None:
            time.sleep(timeout)
            return set()
        ready, _, _ = select.select([self.fd], [], [], timeout)
        names = set()
        while ready:
            try:
                chunk = os.read(self.fd, 65536)
            except BlockingIOError:
                break
            if not chunk:
                break
            names |= event_names(chunk)
        return names

    def close(self):
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


__all__ = ["FolderWatch", "event_names", "OVERFLOW"]
