"""Processes that hold a block device or a file open, read from /proc/<pid>/fd without hanging.

Following a descriptor (stat) asks its filesystem: a FUSE daemon or a network server that no longer
answers would stop the collector there. What the descriptor's own fdinfo and its process's mount table
tell is used instead for files on such filesystems.
"""

import os
import stat

from .loopinfo import majmin_text
from .sysfs import read_attr, unescape

# Filesystems whose answers come from a daemon or over the network: never followed.
REMOTE_TYPES = ("fuse", "nfs", "cifs", "smb3", "9p", "ceph", "afs", "glusterfs", "lustre", "virtiofs")


def _mount_table(pid, tables):
    """{mount id: (MAJ:MIN, filesystem type)} of the process's mount namespace, read once per namespace."""
    try:
        namespace = os.readlink(f"/proc/{pid}/ns/mnt")
    except OSError:
        return {}
    if namespace not in tables:
        table = {}
        for line in (read_attr(f"/proc/{pid}/mountinfo", "") or "").splitlines():
            parts = line.split()
            if "-" in parts and len(parts) > parts.index("-") + 1:
                table[parts[0]] = (parts[2], unescape(parts[parts.index("-") + 1]))
        tables[namespace] = table
    return tables[namespace]


def _opened(pid, fd, tables):
    """("block", MAJ:MIN) for a block device, ("file", (MAJ:MIN of its filesystem, inode)) else; None when gone."""
    info = dict(line.split(":\t", 1) for line in (read_attr(f"/proc/{pid}/fdinfo/{fd}", "") or "").splitlines()
                if ":\t" in line)
    mount = _mount_table(pid, tables).get(info.get("mnt_id", "").strip())
    if mount and mount[1].split(".")[0] in REMOTE_TYPES:
        try:
            return "file", (mount[0], int(info.get("ino", "")))
        except ValueError:
            return None
    try:
        st = os.stat(f"/proc/{pid}/fd/{fd}")
    except OSError:
        return None
    if stat.S_ISBLK(st.st_mode):
        return "block", majmin_text(st.st_rdev)
    return "file", (majmin_text(st.st_dev), st.st_ino)


def process_openers(wanted):
    """(pid, command name, what) of processes but this one holding open one of `wanted` (see _opened)."""
    tables = {}
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            fds = os.listdir(f"/proc/{entry.name}/fd")
        except OSError:
            continue  # gone, or not ours to read
        for fd in fds:
            what = _opened(entry.name, fd, tables)
            if what in wanted:
                yield int(entry.name), read_attr(f"/proc/{entry.name}/comm", "?"), what
