"""What a loop device reads and writes, as the kernel itself reports it (ioctl LOOP_GET_STATUS64).

sysfs only shows the backing file's name as the loop's creator saw it: a path in another mount
namespace, a node since deleted ("… (deleted)"), or one name among several for the same file. The
ioctl gives what names cannot hide: the device and inode of the backing file, and for a backing
device node the block device it leads to (its rdev), even once that node is gone.
"""

import contextlib
import errno
import fcntl
import os
import stat
import struct
import tempfile
import threading
from dataclasses import dataclass

LOOP_GET_STATUS64 = 0x4C05
# struct loop_info64: lo_device, lo_inode, lo_rdevice, lo_offset, lo_sizelimit, lo_number, lo_encrypt_type,
# lo_encrypt_key_size, lo_flags, lo_file_name[64], lo_crypt_name[64], lo_encrypt_key[32], lo_init[2]
_LOOP_INFO64 = struct.Struct("=QQQQQIIII64s64s32s2Q")


ANSWER_SECONDS = 5.0  # a local backing file answers at once
NO_ANSWER = "the filesystem holding its backing file does not respond (a stalled FUSE daemon or network server?)"
_waiting = {}  # MAJ:MIN -> thread still waiting for the kernel's answer about that loop device


def majmin_text(dev):
    return f"{os.major(dev)}:{os.minor(dev)}"


class LoopUnknown(Exception):
    """The kernel would not say what a loop device rests on; the text says why."""


@dataclass(frozen=True)
class LoopStatus:
    """A bound loop device's backing file: (file_dev, file_ino) is the file itself, whatever its names."""

    file_dev: str  # MAJ:MIN of the filesystem holding the backing file (or the device node)
    file_ino: int
    backing_device: str | None  # MAJ:MIN of the block device when the backing file is a device node
    offset: int
    file_name: str  # as the creator named it, cut at 63 bytes: for messages only

    @property
    def file_id(self):
        return self.file_dev, self.file_ino


def _node_matches(path, majmin):
    try:
        st = os.stat(path)
    except OSError:
        return False
    return stat.S_ISBLK(st.st_mode) and majmin_text(st.st_rdev) == majmin


@contextlib.contextmanager
def block_node(majmin, name):
    """A path that opens block device majmin: /dev/<name> when it leads there, else a private node made
    for the moment (the device may have been set up in another mount namespace, or its node removed)."""
    if _node_matches(f"/dev/{name}", majmin):
        yield f"/dev/{name}"
        return
    folder = tempfile.mkdtemp(prefix="cardbench-node-")
    path = os.path.join(folder, name)
    major, minor = (int(n) for n in majmin.split(":"))
    try:
        os.mknod(path, stat.S_IFBLK | 0o600, os.makedev(major, minor))
        yield path
    finally:
        with contextlib.suppress(OSError):
            os.unlink(path)
        os.rmdir(folder)


def loop_status(majmin, name):
    """The backing file of loop device majmin, None when it is not bound. LoopUnknown when the device
    cannot be asked (no node can be made, the ioctl fails) or does not answer within ANSWER_SECONDS: the
    kernel asks the backing file's filesystem, and a stalled FUSE daemon or network server never answers."""
    waiting = _waiting.get(majmin)
    if waiting is not None and waiting.is_alive():
        raise LoopUnknown(f"{name} does not answer: {NO_ANSWER}")
    answer = {}

    def ask():
        try:
            answer["status"] = _ask(majmin, name)
        except LoopUnknown as exc:
            answer["error"] = exc

    thread = threading.Thread(target=ask, name=f"ask {name}", daemon=True)
    thread.start()
    thread.join(ANSWER_SECONDS)
    if thread.is_alive():
        _waiting[majmin] = thread  # asked once: not again while that question hangs
        raise LoopUnknown(f"{name} does not answer within {ANSWER_SECONDS:g} s: {NO_ANSWER}")
    if "error" in answer:
        raise answer["error"]
    return answer["status"]


def _ask(majmin, name):
    try:
        with block_node(majmin, name) as path:
            fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
    except OSError as exc:
        raise LoopUnknown(f"{name} cannot be opened to ask what it rests on ({exc.strerror})") from None
    try:
        buffer = bytearray(_LOOP_INFO64.size)
        fcntl.ioctl(fd, LOOP_GET_STATUS64, buffer)
    except OSError as exc:
        if exc.errno == errno.ENXIO:
            return None  # no backing file: an unused loop device
        raise LoopUnknown(f"the kernel does not say what {name} rests on ({exc.strerror})") from None
    finally:
        os.close(fd)
    dev, ino, rdev, offset, _limit, _number, _etype, _ksize, _flags, file_name, *_ = _LOOP_INFO64.unpack(buffer)
    return LoopStatus(file_dev=majmin_text(dev), file_ino=ino, backing_device=majmin_text(rdev) if rdev else None,
                      offset=offset, file_name=file_name.split(b"\0", 1)[0].decode("utf-8", "replace"))
