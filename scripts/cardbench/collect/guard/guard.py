"""Refuse devices that must not be written: checked before anything touches the card or data/.

Raw profiles write the whole device, so it must be a whole disk that nothing uses: not the disk of
'/' or another system path, not mounted (itself or a partition), not swap, not a RAID/LVM/
device-mapper member or the backing of a loop device, not resting on a mounted device, not sharing
its storage with a device in use (sharing.py: another loop device on the same image file), not open in
another process, not write-protected, not smaller than a card. What a loop device rests on is what the
kernel reports (loopinfo.py), never a name. Then the collector claims it exclusively (O_EXCL) for the
whole run, with what it rests on and what shares its storage: the kernel refuses that while one is
mounted in any mount namespace or held by another device, which /proc/self/mountinfo cannot show, and
refuses to mount them while the claim is held. Before each write the sharing rules are applied again.
The readonly profile never writes the device: it needs the card's filesystem mounted and writes a
test file inside it.
"""

import errno
import fcntl
import os
import stat
import struct
from dataclasses import dataclass, field
from pathlib import Path

from .device import identify, identity_changes
from ..errors import (CardChangedError, CardInUseError, DeviceVanishedError, GuardError, HolderError, InUseError,
                      MissingDeviceError, MountedError, NotBlockDeviceError, NotConfirmedError, NotMountedError,
                      PartitionGivenError, ReadOnlyDeviceError, SwapError, SystemDiskError, TooSmallError,
                      UnknownBackingError, device_text)
from .loopinfo import block_node
from .shared_storage import check_open_elsewhere, check_shared_storage, describe_holder
from .sysfs import BlockTree, mount_nodes, read_mounts, read_swaps
from ...core.units import MIB_BYTES, SECTOR_BYTES, mib_from_bytes
from ...errors import quoted

# Mount points whose disk is the running system's. A disk holding any of them (or anything below
# /usr, /var, /boot) is never a card under test.
SYSTEM_MOUNTS = {"/", "/boot", "/boot/efi", "/efi", "/usr", "/var", "/home", "/etc", "/opt", "/srv", "/root",
                 "/nix", "/snap", "/tmp"}
SYSTEM_PREFIXES = ("/usr/", "/var/", "/boot/")

# The smallest device taken for a card. SD cards sold since about 2005 hold at least 64 MiB; anything
# smaller is an empty reader (0 bytes), a wrong device, or a test image too small for the profiles.
MIN_CARD_BYTES = 64 * MIB_BYTES

BLKGETSIZE64 = 0x80081272  # _IOR(0x12, 114, size_t): a block device's size in bytes

IN_USE = ("in use by the kernel: mounted somewhere (maybe another mount namespace or container), or held by another "
          "device; unmount/detach it first")

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


def _sectors(node):
    try:
        return int(node.attr("size") or 0)
    except ValueError:
        return 0


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
    below = own - family  # what it rests on (device-mapper slaves, a loop device's backing device)

    mounts = read_mounts(root)
    touching, beneath = [], []
    for mount in mounts:
        under = mount_nodes(tree, mount)
        if not under:
            continue
        if is_system_mount(mount.mount_point) and (under & own or under & family):
            raise SystemDiskError(device, f"holds the system path {mount.mount_point} (on {mount.source}); "
                                          "this is the computer's own disk, never a card to test")
        if under & family or name in under:
            touching.append(mount)
        elif under & below:
            beneath.append(mount)

    size = _sectors(node) * SECTOR_BYTES
    if size < MIN_CARD_BYTES:
        what = "0 bytes: no card in the reader?" if size == 0 else \
            f"only {mib_from_bytes(size):.1f} MiB, smaller than any card (at least {MIN_CARD_BYTES // MIB_BYTES} MiB)"
        raise TooSmallError(device, f"is {what}; check the device name with lsblk")

    if mode == RAW:
        unknown = sorted(n for n in own if n in tree.unknown)
        if unknown:
            raise UnknownBackingError(device, f"cannot tell what {unknown[0]} rests on: {tree.unknown[unknown[0]]}; "
                                              "it could be another name for a mounted disk, so it is not written")
        if tree.unknown:
            # The kernel lists a loop device among neither holders nor slaves: one not answering may rest on it.
            other, why = min(tree.unknown.items())
            raise UnknownBackingError(device, f"cannot tell what {other} rests on: {why}; it could rest on this disk, "
                                              f"so it is not written: detach {other} or bring back what it rests on")
        if beneath:
            where = ", ".join(f"{m.source} on {m.mount_point}" for m in beneath)
            raise MountedError(device, f"rests on a mounted device ({where}); writing it would destroy that "
                                       f"filesystem: unmount it first (sudo umount {beneath[0].mount_point})")
        if touching:
            where = ", ".join(f"{m.source} on {m.mount_point}" for m in touching)
            first = touching[0].mount_point
            raise MountedError(device, f"is mounted ({where}); unmount it first (sudo umount {first}) or use "
                                       "the readonly profile (--profile readonly; make: PROFILE=readonly) "
                                       "to test through the filesystem")
        for swap_path, _kind in read_swaps(root):
            swap_node = tree.node_for_device_path(swap_path)
            if swap_node and (tree.chain(swap_node) & family):
                raise SwapError(device, f"{swap_path} is in use as swap; run sudo swapoff {swap_path} first")
        for member in sorted(family):
            holders = tree.nodes[member].holders
            loops = [h for h in holders if h.startswith("loop")]
            if loops:
                raise HolderError(device, f"{member} is the backing device of {', '.join(loops)}; detach "
                                          f"{'it' if len(loops) == 1 else 'them'} first (sudo losetup -d "
                                          f"{' '.join('/dev/' + h for h in loops)})")
            if holders:
                what = ", ".join(describe_holder(tree, h) for h in holders)
                raise HolderError(device, f"{member} is a member of {what}; stop it first (mdadm --stop, "
                                          "vgchange -an, dmsetup remove)")
        check_shared_storage(device, tree, name, family, mounts, read_swaps(root))
        if tree.root == Path("/"):
            check_open_elsewhere(device, tree, name, family)
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


def device_bytes(fd):
    """Size in bytes of the block device open on fd, as the kernel sees it now."""
    return struct.unpack("Q", fcntl.ioctl(fd, BLKGETSIZE64, b"\0" * 8))[0]


def _majmin(st):
    return f"{os.major(st.st_rdev)}:{os.minor(st.st_rdev)}"


class DeviceClaim:
    """Exclusive opens of the card and of the block devices it rests on, held for the whole run.

    While they are held nothing can mount the card or make it a device-mapper or RAID member. The
    tools still open it: O_EXCL only excludes other exclusive openers, not plain opens.
    """

    def __init__(self, device, majmin):
        self.device = device
        self.majmin = majmin
        self.fds = []
        self.held = set()  # MAJ:MIN of every device held
        self.exclusive = True

    @property
    def fd(self):
        return self.fds[0]

    def close(self):
        while self.fds:
            os.close(self.fds.pop())
        self.held.clear()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    @property
    def tool_path(self):
        """A path that opens the held device itself, whatever its name leads to meanwhile: the
        collector's descriptor seen from its children (no ':' in it, no name to repoint)."""
        return f"/proc/{os.getpid()}/fd/{self.fd}"

    def _open(self, path, majmin, role="", exclusive=True):
        try:
            fd = os.open(path, os.O_RDONLY | (os.O_EXCL if exclusive else 0) | os.O_CLOEXEC)
        except OSError as exc:
            self.close()
            if exc.errno == errno.EBUSY:
                raise InUseError(self.device, f"{role}is {IN_USE}") from None
            if exc.errno in (errno.ENOMEDIUM, errno.ENXIO):
                raise MissingDeviceError(self.device, f"{role}has no medium ({exc.strerror}): is the card inserted?") \
                    from None
            raise MissingDeviceError(self.device, f"{role}cannot be opened: {exc.strerror}") from None
        self.fds.append(fd)
        self.held.add(majmin)
        if _majmin(os.fstat(fd)) != majmin:
            self.close()
            raise MissingDeviceError(self.device, "changed while it was being checked (another device took the "
                                                  "name?); check with lsblk and run again")
        return fd


def canonical_node(device, majmin, name):
    """The kernel's own node of the checked disk (/dev/sdb for /dev/disk/by-path/…:0:0), resolved once.

    Names given by the user may be symbolic links that udev or anyone else repoints, and fio splits a
    --filename at ':'; every later step uses this node, or a descriptor of it, instead.
    """
    for candidate in (f"/dev/{name}", os.path.realpath(device)):
        try:
            st = os.stat(candidate)
        except OSError:
            continue
        if stat.S_ISBLK(st.st_mode) and _majmin(st) == majmin:
            return candidate
    raise MissingDeviceError(device, f"changed while it was being checked: neither /dev/{name} nor the path it leads "
                                     "to is block device " + majmin + "; check with lsblk and run again")


def _claim_sharing(claim, tree, name):
    """Claim what disk `name` rests on and every other device reaching the same storage, but for what the
    claim already holds. A whole disk's exclusive open fails while a partition of it is held, and the other
    way round: whole disks are claimed, which covers their partitions. Devices without a node in this
    mount namespace are reached through a private one."""
    below = [(n, f"rests on /dev/{n}, which ") for n in sorted(tree.chain(name) - {name})]
    others = [(n, f"shares {via} with /dev/{n}, which ") for n, via in sorted(tree.co_users(name).items())]
    for other_name, role in below + others:
        other = tree.nodes[other_name]
        if other.is_partition or other.majmin in claim.held:
            continue
        try:
            with block_node(other.majmin, other_name) as path:
                claim._open(path, other.majmin, role=role)
        except OSError as exc:
            claim.close()
            raise InUseError(claim.device, f"{role}cannot be reached ({exc.strerror}); it is not written") from None


def claim_device(device, majmin, root="/", exclusive=True):
    """Claim the checked disk exclusively, every block device below it (a loop device's backing device) and
    every other device reaching the same storage, before anything is written. InUseError when the kernel
    says something else uses one.

    exclusive=False (the readonly profile, whose card is mounted) only holds a plain descriptor of the
    disk: the tools still reach the very device that was checked through DeviceClaim.tool_path."""
    claim = DeviceClaim(str(device), majmin)
    claim._open(device, majmin, exclusive=exclusive)
    claim.exclusive = exclusive
    if not exclusive:
        return claim
    tree = BlockTree(root)
    node = tree.node_for_majmin(majmin)
    if node is not None:
        _claim_sharing(claim, tree, node.name)
    return claim


def check_same_card(device, start, claim=None, root="/", before=""):
    """Stop before a test when the device is no longer the card identified at the start (start:
    DeviceInfo): the name leads elsewhere, the size changed, or the serial/CID differs."""
    nxt = f" before {before}" if before else ""
    try:
        now_majmin = _majmin(os.stat(device))
    except OSError:
        raise DeviceVanishedError(f"{device} disappeared{nxt} (card removed or reader reset)") from None
    changes = []
    if now_majmin != start.majmin:
        changes.append(f"{device} is now block device {now_majmin}, not {start.majmin}")
    else:
        sizes = []
        if claim is not None:
            try:
                sizes.append(device_bytes(claim.fd))
            except OSError:
                raise DeviceVanishedError(f"{device} disappeared{nxt} (card removed or reader reset)") from None
        try:
            fd = os.open(device, os.O_RDONLY | os.O_CLOEXEC)
            try:
                sizes.append(device_bytes(fd))
            finally:
                os.close(fd)
        except OSError as exc:
            raise DeviceVanishedError(f"{device} cannot be opened{nxt} ({exc.strerror}): card removed or reader "
                                      "reset") from None
        try:
            now = identify(device, start.majmin, root=root)
        except ValueError:
            raise DeviceVanishedError(f"{device} disappeared{nxt} (card removed or reader reset)") from None
        # The held descriptor, a fresh open of the name and sysfs: a reader that swapped its medium
        # shows a new size on all three; a new device under the old name only on the last two.
        for size in sorted({*sizes, now.size_bytes}):
            if size != start.size_bytes:
                changes.append(f"it holds {size} bytes, not {start.size_bytes}")
                break
        changes += identity_changes(start, now)
    if claim is not None and claim.exclusive and not changes:
        _check_still_alone(device, claim, root, nxt)
    if changes:
        raise CardChangedError(f"{device} is no longer the card this run started on ({'; '.join(changes)}); stopped"
                               f"{nxt}, nothing more was written: put that card back and run the same command again "
                               "to resume (finished tests are kept)")


def _check_still_alone(device, claim, root, nxt):
    """A loop device set up on the card's image after the start is not held by the claim, and could be
    mounted meanwhile; a process may open the image (fuse2fs): look again before each write, and hold the
    new loop devices too."""
    tree = BlockTree(root)
    node = tree.node_for_majmin(claim.majmin)
    if node is None:
        return
    more = DeviceClaim(claim.device, claim.majmin)
    more.held = set(claim.held)
    try:
        family = tree.family(node.name)
        check_shared_storage(device, tree, node.name, family, read_mounts(root), read_swaps(root))
        check_open_elsewhere(device, tree, node.name, family, devices=False)
        _claim_sharing(more, tree, node.name)
    except GuardError as exc:
        raise CardInUseError(f"{device_text(device)}: {exc.message}; stopped{nxt}, nothing more was written: "
                             "the finished tests are kept, run the same command again to resume") from None
    claim.fds += more.fds
    claim.held |= more.held


def confirmation_prompt(device, description):
    """Text the CLI shows before asking the user to type the device name."""
    return (f"ALL DATA on {device} ({description}) may be overwritten.\n"
            f"Type the device name ({Path(device).name}) to continue: ")


def check_confirmation(device, answer):
    """Accept 'sdb' or '/dev/sdb'; anything else refuses."""
    given = (answer or "").strip()
    if given and given in (str(device), Path(device).name):
        return
    shown = quoted(given) if given else "nothing"
    raise NotConfirmedError(device, f"not confirmed (typed {shown}, expected '{Path(device).name}'); "
                                    "nothing was written. Use --yes (make: YES=1) in scripts.")
