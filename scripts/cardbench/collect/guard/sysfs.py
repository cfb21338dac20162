"""Read the block-device tree from sysfs, mountinfo and swaps under a root folder.

Every function takes `root` so tests can point it at a fixture tree that looks like `/`
(sys/class/block/<name> symlinks, sys/dev/block/MAJ:MIN symlinks, proc/self/mountinfo, proc/swaps).
"""

import os
import re
from dataclasses import dataclass, field, replace
from pathlib import Path

from .loopinfo import LoopUnknown, loop_status

_OCTAL_ESCAPE = re.compile(r"\\([0-7]{3})")


def read_attr(path, default=None):
    """A sysfs attribute as stripped text, or default when absent or unreadable."""
    try:
        return Path(path).read_text(encoding="utf-8", errors="replace").strip()
    except OSError:
        return default


def unescape(text):
    """mountinfo and swaps write space, tab, newline and backslash as \\040-style octal escapes."""
    return _OCTAL_ESCAPE.sub(lambda m: chr(int(m.group(1), 8)), text)


@dataclass
class BlockNode:
    """One block device or partition as sysfs shows it."""

    name: str
    path: Path  # resolved sysfs folder
    majmin: str
    is_partition: bool
    parent: str | None  # disk of a partition
    slaves: list = field(default_factory=list)
    holders: list = field(default_factory=list)

    def attr(self, name, default=None):
        return read_attr(self.path / name, default)


@dataclass
class Mount:
    mount_id: str
    majmin: str
    mount_point: str
    fstype: str
    source: str
    options: str  # per-mount options, e.g. "rw,relatime"


class BlockTree:
    """Index of every block device and partition under root/sys/class/block."""

    def __init__(self, root="/"):
        self.root = Path(root)
        self.nodes = {}
        self.by_majmin = {}
        class_dir = self.root / "sys" / "class" / "block"
        for entry in sorted(class_dir.iterdir()) if class_dir.is_dir() else []:
            resolved = Path(os.path.realpath(entry))
            majmin = read_attr(resolved / "dev", "")
            is_partition = (resolved / "partition").exists()
            node = BlockNode(
                name=entry.name,
                path=resolved,
                majmin=majmin,
                is_partition=is_partition,
                parent=resolved.parent.name if is_partition else None,
                slaves=_list_dir(resolved / "slaves"),
                holders=_list_dir(resolved / "holders"),
            )
            self.nodes[node.name] = node
            if majmin:
                self.by_majmin[majmin] = node
        # A loop device whose backing file is a block device rests on it like a device-mapper target on its
        # slaves, but the kernel lists neither in slaves/holders: add the link here.
        self.loops = {}  # loop device name -> LoopStatus of its backing file (this computer only)
        self.unknown = {}  # name -> why what it rests on cannot be told
        for node in list(self.nodes.values()):
            backing = self.loop_backing(node)
            if backing and backing != node.name:
                node.slaves = sorted({*node.slaves, backing})
                below = self.nodes[backing]
                below.holders = sorted({*below.holders, node.name})

    def loop_backing(self, node):
        """Name of the block device a loop device reads and writes (None for a backing regular file)."""
        if not node.name.startswith("loop") or node.is_partition:
            return None
        if self.root == Path("/"):
            # The kernel's own answer: sysfs names the backing file only as its creator saw it.
            try:
                status = loop_status(node.majmin, node.name)
            except LoopUnknown as exc:
                self.unknown[node.name] = str(exc)
                return None
            if status is None:
                return None
            # The ioctl cuts the name at 63 bytes; sysfs has all of it (as its creator named it).
            self.loops[node.name] = replace(status, file_name=node.attr("loop/backing_file") or status.file_name)
            if status.backing_device is None:
                return None
            found = self.node_for_majmin(status.backing_device)
            if found is None:
                self.unknown[node.name] = (f"its backing device {status.backing_device} ({status.file_name}) is not "
                                           "in sysfs")
            return found.name if found else None
        # A fixture tree has no device nodes: a /dev path names the device.
        path = read_attr(node.path / "loop" / "backing_file")
        base = os.path.basename(path or "")
        return base if path and path.startswith("/dev/") and base in self.nodes else None

    def sharing_backing_file(self, name):
        """Other loop devices whose backing file is the very file behind loop device name (same device and
        inode, whatever path each was set up with)."""
        status = self.loops.get(name)
        if status is None or status.backing_device is not None:
            return []
        return sorted(other for other, st in self.loops.items() if other != name and st.file_id == status.file_id)

    def co_users(self, name):
        """Devices that reach storage under `name` by another way than through it, each with how: the
        other loop devices on its backing file (or on a loop device it rests on), what else rests on a
        device below it, what rests on it or its partitions, and everything resting on those. Writing
        `name` writes under their feet."""
        own = self.chain(name)
        found = {}
        start = [(other, f"its backing file {self.loops[loop].file_name}")
                 for loop in sorted(own) for other in self.sharing_backing_file(loop)]
        start += [(holder, f"the device {below} under it") for below in sorted(own - self.family(name))
                  for holder in self.nodes[below].holders]
        start += [(holder, "its storage") for member in sorted(self.family(name))
                  for holder in self.nodes[member].holders]
        while start:
            other, via = start.pop(0)
            if other in own or other in found or other not in self.nodes:
                continue
            found[other] = via
            start += [(up, via) for up in (*self.nodes[other].holders, *self.partitions(other))]
        return found

    def node_for_majmin(self, majmin):
        node = self.by_majmin.get(majmin)
        if node is None:
            link = self.root / "sys" / "dev" / "block" / majmin
            if link.exists():
                node = self.nodes.get(Path(os.path.realpath(link)).name)
        return node

    def partitions(self, disk):
        """Partitions of a disk, by name."""
        return [n.name for n in self.nodes.values() if n.is_partition and n.parent == disk]

    def chain(self, name, seen=None):
        """The node, its disk if it is a partition, and everything under it through slaves."""
        seen = set() if seen is None else seen
        if name in seen or name not in self.nodes:
            return seen
        seen.add(name)
        node = self.nodes[name]
        if node.parent:
            self.chain(node.parent, seen)
        for slave in node.slaves:
            self.chain(slave, seen)
        return seen

    def family(self, disk):
        """A whole disk and its partitions."""
        return {disk, *self.partitions(disk)}

    def dm_name(self, name):
        node = self.nodes.get(name)
        return node.attr("dm/name") if node else None

    def node_for_device_path(self, device_path):
        """Map a /dev path from mountinfo or swaps to a node name (None when not a known block device)."""
        if not device_path.startswith("/dev/"):
            return None
        if self.root == Path("/"):
            try:
                rdev = os.stat(device_path).st_rdev
                node = self.node_for_majmin(f"{os.major(rdev)}:{os.minor(rdev)}")
                if node:
                    return node.name
            except OSError:
                pass
        base = os.path.basename(device_path)
        if device_path.startswith("/dev/mapper/"):
            for name in self.nodes:
                if self.dm_name(name) == base:
                    return name
        return base if base in self.nodes else None


def _list_dir(path):
    try:
        return sorted(p.name for p in Path(path).iterdir())
    except OSError:
        return []


def read_mounts(root="/"):
    """Mounts from root/proc/self/mountinfo."""
    text = read_attr(Path(root) / "proc" / "self" / "mountinfo", "")
    mounts = []
    for line in text.splitlines():
        parts = line.split()
        if "-" not in parts or len(parts) < 7:
            continue
        dash = parts.index("-")
        mounts.append(Mount(mount_id=parts[0], majmin=parts[2], mount_point=unescape(parts[4]),
                            options=parts[5], fstype=parts[dash + 1] if len(parts) > dash + 1 else "",
                            source=unescape(parts[dash + 2]) if len(parts) > dash + 2 else ""))
    return mounts


def read_swaps(root="/"):
    """Swap areas from root/proc/swaps: list of (path, type)."""
    text = read_attr(Path(root) / "proc" / "swaps", "")
    out = []
    for line in text.splitlines()[1:]:
        parts = line.split()
        if len(parts) >= 2:
            out.append((unescape(parts[0]), parts[1]))
    return out


def mount_nodes(tree, mount):
    """Block nodes a mount rests on (empty for tmpfs, proc, network filesystems)."""
    node = tree.node_for_majmin(mount.majmin) if not mount.majmin.startswith("0:") else None
    name = node.name if node else tree.node_for_device_path(mount.source)
    return tree.chain(name) if name else set()
