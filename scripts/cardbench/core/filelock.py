"""Exclusive locks on files (flock), by which cardbench's processes take turns: a card's writers
(card/store/transaction.py) and the builds of one output folder (publish/build_cache.py)."""

import fcntl
import time

POLL_S = 0.05  # between tries while waiting with a time limit


def lock_exclusive(handle, timeout=None, on_wait=None):
    """Takes an exclusive flock on `handle` (an open file or its descriptor). Waits while another holds it,
    calling on_wait() once if it has to; with `timeout` (seconds) it gives up after that long and returns
    False. Returns True once the lock is held; closing the file (or unlock) releases it."""
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        return True
    except BlockingIOError:
        pass
    if timeout is None:
        if on_wait is not None:
            on_wait()
        fcntl.flock(handle, fcntl.LOCK_EX)
        return True
    deadline = time.monotonic() + timeout
    told = False
    while True:
        if time.monotonic() >= deadline:
            return False
        if not told and on_wait is not None:
            on_wait()
            told = True
        time.sleep(POLL_S)
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return True
        except BlockingIOError:
            pass


def unlock(handle):
    fcntl.flock(handle, fcntl.LOCK_UN)
