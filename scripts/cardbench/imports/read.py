"""Reading an import's input safely: a regular file of bounded size, decoded as tool output is saved.

read_input(path) -> bytes; decode_text(raw, path) -> str; check_length(text, path) refuses more
than MAX_LINES lines; printable(text) (parsers/text/terminal.py) escapes what a terminal would act on, for messages.
"""

import os
import stat

from ..core.units import MIB_BYTES
from ..errors import ParseError
from ..parsers.text.terminal import printable

MAX_BYTES = 20 * MIB_BYTES
# Lines of a file, counted as str.splitlines() counts them. Tool output runs to a few thousand (fio
# json+ with many jobs: tens of thousands); the parsers take a few microseconds a line.
MAX_LINES = 200_000
_LINE_BREAKS = ("\n", "\r", "\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029")

_NOT_REGULAR = ((stat.S_ISDIR, "a directory"), (stat.S_ISCHR, "a character device"),
                (stat.S_ISBLK, "a block device"), (stat.S_ISFIFO, "a named pipe (FIFO)"), (stat.S_ISSOCK, "a socket"))


def _not_regular(path, mode):
    what = next((name for test, name in _NOT_REGULAR if test(mode)), "not a regular file")
    where = (f"{printable(path)} links to {printable(os.path.realpath(path))}, which" if os.path.islink(path)
             else printable(path))
    return ParseError("import", f"{where} is {what}; give a saved tool output file")


SYSTEM_TREES = ("/proc", "/sys", "/dev")


def _refuse_system_path(path):
    resolved = os.path.realpath(path)
    tree = next((t for t in SYSTEM_TREES if resolved == t or resolved.startswith(t + "/")), None)
    if tree is not None:
        via = f" (it leads to {printable(resolved)})" if os.path.abspath(path) != resolved else ""
        raise ParseError("import", f"{printable(path)} is under {tree}{via}, which holds system state, not saved "
                                   "tool output; save the tool's output to a file and import that")
    tree = _mounted_system_tree(path)
    if tree is not None:
        raise ParseError("import", f"{printable(path)} is on the file system of {tree} (mounted elsewhere), which "
                                   "holds system state, not saved tool output; save the tool's output to a file "
                                   "and import that")


def _mounted_system_tree(path):
    """The system tree whose file system holds path when it is mounted a second time elsewhere (a bind
    mount of /proc), found by device number; None when the path is elsewhere or cannot be looked at."""
    try:
        device = os.stat(path).st_dev
        root = os.stat("/").st_dev
    except OSError:
        return None  # read_input says why
    for tree in SYSTEM_TREES:
        try:
            tree_device = os.stat(tree).st_dev
        except OSError:
            continue
        if tree_device != root and tree_device == device:  # a tree that is no mount of its own proves nothing
            return tree
    return None


def read_input(path, limit=MAX_BYTES):
    """Bytes of a regular file (or a symlink to one) of at most `limit` bytes; ParseError otherwise.

    Devices, FIFOs, sockets and directories are refused before they are opened (a device can have
    effects when opened, /dev/zero never ends, a FIFO blocks until a writer comes), and at most
    limit + 1 bytes are read, so a file that grows while it is read is refused too. Paths that resolve
    under /proc, /sys or /dev are refused by name before anything is opened: they hold a process's
    environment, kernel state and devices, never saved tool output."""
    _refuse_system_path(path)
    try:
        info = os.stat(path)
    except OSError as exc:
        raise ParseError("import", f"cannot read {printable(path)}: {exc.strerror}") from None
    if not stat.S_ISREG(info.st_mode):
        raise _not_regular(path, info.st_mode)
    if info.st_size > limit:
        raise ParseError("import", f"{printable(path)} is {info.st_size} bytes; the limit is {limit}")
    try:
        # O_NONBLOCK: should the path have been swapped for a FIFO since the check, open() does not wait.
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_CLOEXEC", 0))
    except OSError as exc:
        raise ParseError("import", f"cannot read {printable(path)}: {exc.strerror}") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise _not_regular(path, info.st_mode)
        chunks, total = [], 0
        while total <= limit:
            chunk = os.read(fd, min(MIB_BYTES, limit + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
    except OSError as exc:
        raise ParseError("import", f"cannot read {printable(path)}: {exc.strerror}") from None
    finally:
        os.close(fd)
    if total > limit:
        raise ParseError("import", f"{printable(path)} grew past {limit} bytes while being read; the limit is {limit}")
    return b"".join(chunks)


def decode_text(raw, path="file"):
    """Text of a tool output file: UTF-8 (with or without BOM) or UTF-16 with a BOM."""
    if raw.startswith((b"\xff\xfe", b"\xfe\xff")):
        encoding = "utf-16"
    elif raw[:200].count(b"\x00") > 20:  # UTF-16 without a byte-order mark
        encoding = "utf-16-le" if raw[1:2] == b"\x00" else "utf-16-be"
    else:
        encoding = "utf-8-sig"
    try:
        return raw.decode(encoding)
    except UnicodeDecodeError as exc:
        # An odd byte count, a lone surrogate or a byte that starts no UTF-8 character.
        if encoding == "utf-8-sig":
            line = raw[: exc.start].count(b"\n") + 1
        else:
            line = raw[: exc.start].decode(encoding, errors="replace").count("\n") + 1
        raise ParseError("import", f"{printable(path)} is not UTF-8 or UTF-16 text (byte {exc.start}: {exc.reason})",
                         line=line) from None


def check_length(text, path="file"):
    """ParseError when text has more than MAX_LINES lines."""
    lines = sum(text.count(c) for c in _LINE_BREAKS) - text.count("\r\n")
    lines += 1 if text and text[-1] not in _LINE_BREAKS else 0
    if lines > MAX_LINES:
        raise ParseError("import", f"{printable(path)} has {lines} lines; the limit is {MAX_LINES} "
                                   "(tool output is far shorter)")
