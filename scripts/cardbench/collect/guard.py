"""Refuse devices that must not be written: checked before anything touches the card or data/.

Raw profiles write the whole device, so it must be a whole disk that nothing uses: not the disk of
'/' or another system path, not mounted (itself or a partition), not swap, not a RAID/LVM/
device-mapper member, not write-protected. The readonly profile never writes the device: it needs
the card's filesystem mounted and writes a test file inside it.
"""

import os
import stat
from dataclasses import dataclass, field
from pathlib import Path

from .errors import (HolderError, MissingDeviceError, MountedError, NotBlockDeviceError, NotConfirmedError,
                     NotMountedError, PartitionGivenError, ReadOnlyDeviceError, SwapError, SystemDiskError)
from .sysfs import BlockTree, mount_nodes, read_mounts, read_swaps

# Mount points whose disk is the running system's. A disk holding any of them (or anything below
# /usr, /var, /boot) is never a card under test.
SYSTEM_MOUNTS = {"/", "/boot", "/boot/efi", "/efi", "/usr", "/var", "/home", "/etc", "/opt", "/srv", "/root",
                 "/nix", "/snap", "/tmp"}
SYSTEM_PREFIXES = ("/usr/", "/var/", "/boot/")

RAW = "raw"  # the profile writes the raw device
FILESYSTEM = "filesystem"  # the profile writes only a file on the card's mounted filesystem


@dataclass
class GuardResult:
    """What the guard learned: the disk's name, and for the readonly profile the mount to write into."""

    name: str
    majmin: str
    mounts: list = field(default_factory=list)  # Mounts of this disk (readonly profile)
    test_dir: str | None = None


def is_system_mount(mount_point):
    return mount_point in SYSTEM_MOUNTS or mount_point.startswith(SYSTEM_PREFIXES)


def block_majmin(path):
    """MAJ:MIN of a block device path; refuses missing and non-block paths."""
    try:
        st = os.stat(path)
    except FileNotFoundError:
        raise MissingDeviceError(path, "no such device; check the name with lsblk") from None
    except OSError as exc:
        raise MissingDeviceError(path, f"cannot open: {exc.strerror}") from None
    if not stat.S_ISBLK(st.st_mode):
        kind = "a folder" if stat.S_ISDIR(st.st_mode) else "a character device" if stat.S_ISCHR(st.st_mode) \
            else "a regular file" if stat.S_ISREG(st.st_mode) else "not a device"
        raise NotBlockDeviceError(path, f"is {kind}, not a block device; give the card's device, e.g. /dev/sdb "
                                        "or /dev/mmcblk0 (see lsblk)")
    return f"{os.major(st.st_rdev)}:{os.minor(st.st_rdev)}"


def _describe_holder(tree, name):
    if name.startswith("md"):
        return f"{name} (software RAID)"
    dm = tree.dm_name(name)
    if name.startswith("dm-") or dm:
        return f"{name} (device-mapper/LVM{': ' + dm if dm else ''})"
    return name


def check_disk(device, majmin, mode=RAW, root="/"):
    """Apply every rule to the disk with this MAJ:MIN, reading sysfs and /proc under root."""
    tree = BlockTree(root)
    node = tree.node_for_majmin(majmin)
    if node is None:
        raise MissingDeviceError(device, f"block device {majmin} is not in sysfs (was the card removed?)")
    if node.is_partition:
        raise PartitionGivenError(device, f"is partition {node.name} of /dev/{node.parent}; give the whole "
                                          f"card, /dev/{node.parent}")
    name = node.name
    own = tree.chain(name)  # this disk and whatever it rests on
    family = tree.family(name)  # this disk and its partitions

    mounts = read_mounts(root)
    touching = []
    for mount in mounts:
        under = mount_nodes(tree, mount)
        if not under:
            continue
        if is_system_mount(mount.mount_point) and (under & own or under & family):
            raise SystemDiskError(device, f"holds the system path {mount.mount_point} (on {mount.source}); "
                                          "this is the computer's own disk, never a card to test")
        if under & family or name in under:
            touching.append(mount)

    if mode == RAW:
        if touching:
            where = ", ".join(f"{m.source} on {m.mount_point}" for m in touching)
            first = touching[0].mount_point
            raise MountedError(device, f"is mounted ({where}); unmount it first (sudo umount {first}) or use "
                                       "--profile readonly to test through the filesystem")
        for swap_path, _kind in read_swaps(root):
            swap_node = tree.node_for_device_path(swap_path)
            if swap_node and (tree.chain(swap_node) & family):
                raise SwapError(device, f"{swap_path} is in use as swap; run sudo swapoff {swap_path} first")
        for member in sorted(family):
            holders = tree.nodes[member].holders
            if holders:
                what = ", ".join(_describe_holder(tree, h) for h in holders)
                raise HolderError(device, f"{member} is a member of {what}; stop it first (mdadm --stop, "
                                          "vgchange -an, dmsetup remove)")
        if node.attr("ro") == "1":
            raise ReadOnlyDeviceError(device, "the kernel reports it read-only; is the card's lock switch set?")
        return GuardResult(name=name, majmin=majmin)

    usable = [m for m in touching if "rw" in m.options.split(",")]
    if not usable:
        if touching:
            raise NotMountedError(device, "its filesystem is mounted read-only; the readonly profile writes its "
                                          "test file into the card's filesystem, so mount it read-write")
        raise NotMountedError(device, "no filesystem of it is mounted; the readonly profile tests through the "
                                      "card's filesystem: mount it first (e.g. udisksctl mount -b "
                                      f"/dev/{(tree.partitions(name) or [name])[0]})")
    return GuardResult(name=name, majmin=majmin, mounts=touching, test_dir=usable[0].mount_point)


def check_device(device, mode=RAW, root="/"):
    """Every rule for a device path on this computer."""
    majmin = block_majmin(device)
    return check_disk(device, majmin, mode=mode, root=root)


def confirmation_prompt(device, description):
    """Text the CLI shows before asking the user to type the device name."""
    return (f"ALL DATA on {device} ({description}) may be overwritten.\n"
            f"Type the device name ({Path(device).name}) to continue: ")


def check_confirmation(device, answer):
    """Accept 'sdb' or '/dev/sdb'; anything else refuses."""
    given = (answer or "").strip()
    if given and given in (str(device), Path(device).name):
        return
    shown = f"'{given}'" if given else "nothing"
    raise NotConfirmedError(device, f"not confirmed (typed {shown}, expected '{Path(device).name}'); "
                                    "nothing was written. Use --yes in scripts.")
