"""Refuse a card whose storage something else reaches by another way than through the card's own name.

A loop device writes its backing file: so does every other loop device on that file (found by the
file's device and inode, not its name), and the file may be active swap. A process holding the file or
the disk open may use it without any mount the kernel would refuse (fuse2fs, a virtual machine). A
device resting on another shares it with whatever else rests there. And a card holding the backing file
of a loop device holds a filesystem in use, even one lazily unmounted that no mount table shows any more.
"""

import os

from ..errors import HolderError, InUseError, MountedError, SwapError
from .loopinfo import majmin_text
from .openers import process_openers
from .sysfs import mount_nodes


def describe_holder(tree, name):
    if name.startswith("md"):
        return f"{name} (software RAID)"
    dm = tree.dm_name(name)
    if name.startswith("dm-") or dm:
        return f"{name} (device-mapper/LVM{': ' + dm if dm else ''})"
    return name


def _file_id(path):
    try:
        st = os.stat(path)
    except OSError:
        return None
    return majmin_text(st.st_dev), st.st_ino


def check_open_elsewhere(device, tree, name, family, devices=True):
    """Refuse when a process holds open the disk, a partition, a device below it or a loop device's backing
    file: fuse2fs mounts a filesystem that way in any mount namespace without claiming the device, and a
    virtual machine may be using it. During the run only the backing files count (the run's own tools
    open the card, never its image)."""
    own = tree.chain(name) | family
    wanted = {("block", tree.nodes[n].majmin): f"/dev/{n}" for n in own} if devices else {}
    wanted.update({("file", tree.loops[n].file_id): f"its backing file {tree.loops[n].file_name}" for n in own
                   if n in tree.loops and tree.loops[n].backing_device is None})
    if not wanted:
        return
    for pid, comm, what in process_openers(wanted):
        raise InUseError(device, f"{wanted[what]} is open in process {pid} ({comm}), which may be using it without "
                                 "mounting it here (a FUSE mount such as fuse2fs, a virtual machine): stop it first")


def check_shared_storage(device, tree, name, family, mounts, swaps):
    """Every rule above for disk `name` (family: it and its partitions), given the mounts and swaps."""
    for other, via in sorted(tree.co_users(name).items()):
        used = [m for m in mounts if other in mount_nodes(tree, m)]
        if used:
            raise MountedError(device, f"shares {via} with {other}, which is mounted ({used[0].source} on "
                                       f"{used[0].mount_point}); writing it would destroy that filesystem: unmount "
                                       f"it first (sudo umount {used[0].mount_point})")
        holders = tree.nodes[other].holders
        if holders:
            what = ", ".join(describe_holder(tree, h) for h in holders)
            raise HolderError(device, f"shares {via} with {other}, which {what} rests on; stop or detach "
                                      f"{'it' if len(holders) == 1 else 'them'} first")
    own_files = {tree.loops[n].file_id: tree.loops[n].file_name for n in tree.chain(name)
                 if n in tree.loops and tree.loops[n].backing_device is None}
    for swap_path, _kind in swaps if own_files else ():
        if _file_id(swap_path) in own_files:
            raise SwapError(device, f"its backing file {own_files[_file_id(swap_path)]} is in use as swap "
                                    f"({swap_path}); run sudo swapoff {swap_path} first")
    family_majmins = {tree.nodes[n].majmin for n in family}
    for loop, status in sorted(tree.loops.items()):
        if status.backing_device is None and status.file_dev in family_majmins:
            raise HolderError(device, f"holds {status.file_name}, the backing file of {loop}: a filesystem on it "
                                      f"is in use (perhaps unmounted lazily); detach it first (sudo losetup -d "
                                      f"/dev/{loop})")
