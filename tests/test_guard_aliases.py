"""The guard on other names for a mounted filesystem: a second loop device on the same image file, a
loop device stacked on a mounted one through a device node since deleted or one only another mount
namespace has, a card holding a lazily unmounted filesystem, an image in use as swap. Real loop devices
and mounts.

Each refusal must come before anything is written: the mounted filesystem and data/ stay untouched.
"""

import os
import subprocess
from pathlib import Path

import pytest

from cardbench.collect.guard import guard, sysfs
from cardbench.collect.errors import InUseError, SwapError, UnknownBackingError
from cardbench.collect.guard.loopinfo import block_node, loop_status
from loopcard import LoopCard, run
from test_guard_loop import IN_USE, head_digest, refused_everywhere, seeded  # noqa: F401 (fixture)

MiB = 1024**2

pytestmark = [pytest.mark.device, pytest.mark.skipif(os.geteuid() != 0, reason="loop devices need root")]


def second_loop(card, path=None):
    """Another loop device on the card's image file (or on path), detached with the card."""
    device = run(["losetup", "--find", "--show", str(path or card.image)]).stdout.strip()
    card.stacked.append(device)
    return device


def assert_filesystem_intact(device):
    fsck = subprocess.run(["e2fsck", "-f", "-n", device], capture_output=True, text=True)
    assert fsck.returncode == 0, fsck.stdout + fsck.stderr


def idle_filesystem(device):
    # No lazy initialisation: the mounted filesystem stays idle, so any write would be the collector's.
    run(["mkfs.ext4", "-q", "-F", "-E", "lazy_itable_init=0,lazy_journal_init=0", device])


# --- two loop devices on one image file -----------------------------------------------------

def test_the_kernel_reports_the_backing_file_itself():
    with LoopCard(size=128 * MiB) as card:
        other = second_loop(card, f"/proc/self/root{card.image}")  # another path to the same file
        st = os.stat(card.image)
        mine, theirs = loop_status(card.majmin, card.name), loop_status(guard.block_majmin(other), Path(other).name)
        assert mine.file_id == theirs.file_id == (f"{os.major(st.st_dev)}:{os.minor(st.st_dev)}", st.st_ino)
        assert mine.backing_device is None
        assert sysfs.BlockTree().sharing_backing_file(card.name) == [Path(other).name]


def mount_here(card, device, *options):
    mount_dir = Path(card._tmp.name) / "mnt"
    mount_dir.mkdir(exist_ok=True)
    run(["mount", *options, device, str(mount_dir)])
    card.mounts.append(mount_dir)
    return mount_dir


def untouched(card):
    """What the card's device holds and has written: equal before and after means nothing was written."""
    return card.write_sectors(), head_digest(card.device)


@pytest.mark.parametrize("where", ["here", "in another namespace"])
def test_second_loop_device_on_a_mounted_image_is_refused(seeded, where):  # noqa: F811
    with LoopCard(size=256 * MiB) as card:
        idle_filesystem(card.device)
        other = second_loop(card)
        if where == "here":
            mount_dir = mount_here(card, card.device)
            before = untouched(card)
            refused_everywhere(other, seeded, f"{other}: shares its backing file {card.image} with {card.name}, "
                                              f"which is mounted ({card.device} on {mount_dir})")
            assert untouched(card) == before
            card.umount_all()
        else:
            with card.mounted_elsewhere():
                before = untouched(card)
                guard.check_device(other)  # no mount in this namespace shows it
                with pytest.raises(InUseError):
                    guard.claim_device(other, guard.block_majmin(other))
                refused_everywhere(other, seeded, f"{other}: shares its backing file {card.image} with "
                                                  f"{card.device}, which {IN_USE}")
                assert untouched(card) == before
        assert_filesystem_intact(card.device)


def test_image_mounted_with_an_offset_is_refused_on_a_second_loop_device(seeded, tmp_path):  # noqa: F811
    image, mount_dir = tmp_path / "card.img", tmp_path / "mnt"
    image.touch()
    os.truncate(image, 256 * MiB)
    fs_image = tmp_path / "fs.img"
    fs_image.touch()
    os.truncate(fs_image, 64 * MiB)
    idle_filesystem(str(fs_image))
    run(["dd", f"if={fs_image}", f"of={image}", "bs=1M", "seek=1", "conv=notrunc,sparse", "status=none"])
    mount_dir.mkdir()
    # mount -o loop makes a loop device of its own, here 1 MiB into the image as for a partition; losetup
    # then gives the whole image another one, without a word about the first.
    run(["mount", "-o", f"loop,offset={MiB}", str(image), str(mount_dir)])
    device = None
    try:
        source = next(m.source for m in sysfs.read_mounts() if m.mount_point == str(mount_dir))
        device = run(["losetup", "--find", "--show", str(image)]).stdout.strip()
        refused_everywhere(device, seeded, f"{device}: shares its backing file {image} with {Path(source).name}, "
                                           f"which is mounted ({source} on {mount_dir})")
        run(["umount", str(mount_dir)])
        guard.check_device(device)  # once unmounted, the card is free again
    finally:
        subprocess.run(["umount", str(mount_dir)], capture_output=True)
        if device:
            subprocess.run(["losetup", "--detach", device], capture_output=True)


def test_an_idle_second_loop_device_does_not_stop_the_card():
    with LoopCard(size=128 * MiB) as card:
        second_loop(card)
        assert guard.check_device(card.device).name == card.name
        with guard.claim_device(card.device, card.majmin) as claim:
            assert len(claim.fds) == 2  # the other loop device is held too: it cannot be mounted meanwhile
            assert subprocess.run(["mount", card.stacked[0], "/mnt"], capture_output=True).returncode != 0


# --- a loop device on a deleted device node -----------------------------------------------

def stacked_through_deleted_node(card):
    node = Path(card._tmp.name) / "card-node"
    major, minor = (int(n) for n in card.majmin.split(":"))
    os.mknod(node, 0o600 | 0o060000, os.makedev(major, minor))
    upper = card.stack(str(node))
    node.unlink()
    assert Path(f"/sys/block/{Path(upper).name}/loop/backing_file").read_text().strip().endswith("(deleted)")
    return upper


@pytest.mark.parametrize("where", ["here", "in another namespace"])
def test_loop_device_on_a_deleted_node_of_a_mounted_device_is_refused(seeded, where):  # noqa: F811
    with LoopCard(size=256 * MiB) as card:
        idle_filesystem(card.device)
        upper = stacked_through_deleted_node(card)
        assert loop_status(guard.block_majmin(upper), Path(upper).name).backing_device == card.majmin
        if where == "here":
            mount_dir = mount_here(card, card.device)
            before = untouched(card)
            refused_everywhere(upper, seeded, f"{upper}: rests on a mounted device ({card.device} on {mount_dir})")
            assert untouched(card) == before
            card.umount_all()
        else:
            with card.mounted_elsewhere():
                before = untouched(card)
                refused_everywhere(upper, seeded, f"{upper}: rests on {card.device}, which {IN_USE}")
                assert untouched(card) == before
        assert_filesystem_intact(card.device)


def test_a_loop_device_the_kernel_will_not_describe_is_refused(monkeypatch):
    def unknown(majmin, name):
        raise sysfs.LoopUnknown(f"the kernel does not say what {name} rests on (Permission denied)")

    with LoopCard(size=128 * MiB) as card:
        monkeypatch.setattr(sysfs, "loop_status", unknown)
        with pytest.raises(UnknownBackingError) as err:
            guard.check_device(card.device)
        assert str(err.value) == (f"{card.device}: cannot tell what {card.name} rests on: the kernel does not say "
                                  f"what {card.name} rests on (Permission denied); it could be another name for a "
                                  "mounted disk, so it is not written")


def test_loop_device_set_up_in_another_namespace_on_a_node_this_one_lacks_is_refused(seeded, tmp_path):  # noqa: F811
    with LoopCard(size=256 * MiB) as card:
        idle_filesystem(card.device)
        private = tmp_path / "private"
        private.mkdir()
        major, minor = card.majmin.split(":")
        # A tmpfs seen only in that namespace holds the node the loop device is set up on.
        setup = subprocess.run(["unshare", "--mount", "--propagation", "private", "sh", "-c",
                                'mount -t tmpfs none "$1" && mknod "$1/card" b "$2" "$3" && losetup --find --show '
                                '"$1/card"', "sh", str(private), major, minor], capture_output=True, text=True)
        assert setup.returncode == 0, setup.stderr
        upper = setup.stdout.strip()
        card.stacked.append(upper)
        assert not (private / "card").exists()
        mount_dir = mount_here(card, card.device)
        before = untouched(card)
        refused_everywhere(upper, seeded, f"{upper}: rests on a mounted device ({card.device} on {mount_dir})")
        assert untouched(card) == before


# --- a card holding a filesystem in use, a backing file in use as swap -----------------------

def test_card_holding_the_image_of_a_loop_device_is_refused_after_a_lazy_unmount(seeded):  # noqa: F811
    with LoopCard(size=256 * MiB) as card:
        mount_dir = card.make_fs_and_mount()
        inner = mount_dir / "inner.img"
        inner.touch()
        os.truncate(inner, 64 * MiB)
        upper = second_loop(card, inner)
        run(["umount", "--lazy", str(mount_dir)])  # no mount table shows it; the loop device keeps it alive
        assert card.device not in Path("/proc/self/mountinfo").read_text()
        refused_everywhere(card.device, seeded, f"{card.device}: holds /inner.img, the backing file of "
                                                f"{Path(upper).name}: a filesystem on it is in use")
        guard.check_device(upper)  # the image inside is a card of its own


def test_image_in_use_as_swap_is_refused(tmp_path):
    image = tmp_path / "swap.img"
    with open(image, "wb") as handle:  # swap needs every block allocated
        handle.write(b"\0" * 64 * MiB)
    image.chmod(0o600)
    run(["mkswap", "-q", str(image)])
    run(["swapon", str(image)])
    device = None
    try:
        device = run(["losetup", "--find", "--show", str(image)]).stdout.strip()
        with pytest.raises(SwapError) as err:
            guard.check_device(device)
        assert str(err.value) == (f"{device}: its backing file {image} is in use as swap ({image}); run sudo swapoff "
                                  f"{image} first")
    finally:
        subprocess.run(["swapoff", str(image)], capture_output=True)
        if device:
            subprocess.run(["losetup", "--detach", device], capture_output=True)


def test_a_private_node_reaches_a_device_this_namespace_has_no_node_for():
    with LoopCard(size=128 * MiB) as card:
        with block_node(card.majmin, "cardbench-no-such-node") as path:
            assert not path.startswith("/dev/") and guard.block_majmin(path) == card.majmin
        assert not Path(path).exists() and not Path(path).parent.exists()


def test_a_loop_device_on_a_partition_holds_the_whole_disk_under_it():
    """An exclusive open of a partition fails while its disk is held, and the other way round: the claim
    holds the disk, which keeps every partition of it from being mounted as well."""
    with LoopCard(size=256 * MiB, partition=True) as card:
        upper = card.stack(card.partition_device)
        checked = guard.check_device(upper)
        with guard.claim_device(upper, checked.majmin) as claim:
            assert claim.held == {checked.majmin, card.majmin}
            assert subprocess.run(["mount", card.partition_device, "/mnt"], capture_output=True).returncode != 0
