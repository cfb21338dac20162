"""Guard rules on a fixture tree that looks like '/': never on this computer's real disks."""

import shutil

import pytest

from cardbench.collect.guard import guard
from cardbench.collect.guard.device import identify, identity_changes
from cardbench.collect.errors import (HolderError, MountedError, NotConfirmedError, NotMountedError,
                                      PartitionGivenError, ReadOnlyDeviceError, SwapError, SystemDiskError,
                                      TooSmallError)
from cardbench.collect.guard.sysfs import BlockTree, read_mounts, unescape

from guardhost import host_tree

HOST = host_tree()


def check(name, majmin, mode=guard.RAW):
    return guard.check_disk(f"/dev/{name}", majmin, mode=mode, root=HOST)


@pytest.mark.parametrize("mode", [guard.RAW, guard.FILESYSTEM])
def test_disk_holding_root_is_refused(mode):
    with pytest.raises(SystemDiskError, match=r"holds the system path / \(on /dev/vda\)"):
        check("vda", "254:0", mode)


def test_disk_holding_boot_efi_and_lvm_home_is_refused():
    with pytest.raises(SystemDiskError, match="/boot/efi"):
        check("sda", "8:0")


def test_logical_volume_on_the_system_disk_is_refused():
    with pytest.raises(SystemDiskError):
        check("dm-0", "253:0")


def test_disk_holding_a_path_below_var_is_refused():
    with pytest.raises(SystemDiskError, match="/var/lib/docker"):
        check("sdh", "8:112")


def test_mounted_partition_is_refused_with_the_umount_command():
    with pytest.raises(MountedError) as err:
        check("sdb", "8:16")
    assert "/dev/sdb1 on /media/user/CARD" in str(err.value)
    assert "sudo umount /media/user/CARD" in str(err.value)


def test_whole_disk_filesystem_mounted_is_refused():
    with pytest.raises(MountedError, match="/dev/sdf on /media/ro"):
        check("sdf", "8:80")


def test_mount_with_anonymous_device_number_is_found_by_its_source():
    with pytest.raises(MountedError, match="/media/user/MY CARD"):
        check("sdg", "8:96")


def test_swap_partition_is_refused():
    with pytest.raises(SwapError, match="swapoff /dev/sdc2"):
        check("sdc", "8:32")


def test_raid_member_is_refused():
    with pytest.raises(HolderError, match=r"md0 \(software RAID\)"):
        check("sdd", "8:48")


def test_lvm_member_partition_is_named():
    tree_holders = BlockTree(HOST).nodes["sda2"].holders
    assert tree_holders == ["dm-0"]


def test_write_protected_card_is_refused():
    with pytest.raises(ReadOnlyDeviceError, match="lock switch"):
        check("sde", "8:64")


def test_partition_given_instead_of_card():
    with pytest.raises(PartitionGivenError, match="give the whole card, /dev/mmcblk0"):
        check("mmcblk0p1", "179:1")


@pytest.mark.parametrize("name,majmin", [("mmcblk0", "179:0"), ("nvme0n1", "259:0")])
def test_unused_cards_pass(name, majmin):
    result = check(name, majmin)
    assert result.name == name and result.test_dir is None


def test_readonly_profile_uses_the_mounted_filesystem():
    result = check("sdb", "8:16", guard.FILESYSTEM)
    assert result.test_dir == "/media/user/CARD"
    assert check("sdg", "8:96", guard.FILESYSTEM).test_dir == "/media/user/MY CARD"


def test_readonly_profile_needs_a_mount():
    with pytest.raises(NotMountedError, match="udisksctl mount -b /dev/mmcblk0p1"):
        check("mmcblk0", "179:0", guard.FILESYSTEM)


def test_readonly_profile_needs_a_writable_mount():
    with pytest.raises(NotMountedError, match="mounted read-only"):
        check("sdf", "8:80", guard.FILESYSTEM)


def test_mountinfo_escapes_are_decoded():
    assert unescape(r"/media/a\040b\011c\134d") == "/media/a b\tc\\d"
    points = [m.mount_point for m in read_mounts(HOST)]
    assert "/media/user/MY CARD" in points


@pytest.mark.parametrize("answer", ["mmcblk0", "/dev/mmcblk0", "  mmcblk0\n"])
def test_confirmation_accepts_the_device_name(answer):
    guard.check_confirmation("/dev/mmcblk0", answer)


@pytest.mark.parametrize("answer", ["", "no", "y", "yes", "sdb", "mmcblk", None])
def test_confirmation_refuses_anything_else(answer):
    with pytest.raises(NotConfirmedError, match="expected 'mmcblk0'"):
        guard.check_confirmation("/dev/mmcblk0", answer)


def test_prompt_shows_device_model_and_size():
    text = guard.confirmation_prompt("/dev/sdb", "Generic- SD/MMC, 63.9 GB (59.5 GiB)")
    assert "/dev/sdb" in text and "63.9 GB" in text and "Type the device name (sdb)" in text


# --- size floor, stacked loop devices, card identity ---------------------------------------

@pytest.mark.parametrize("mode", [guard.RAW, guard.FILESYSTEM])
def test_reader_without_a_card_is_refused(mode):
    with pytest.raises(TooSmallError, match="is 0 bytes: no card in the reader"):
        check("sdi", "8:128", mode)


def test_device_smaller_than_any_card_is_refused():
    with pytest.raises(TooSmallError, match=r"only 8\.0 MiB, smaller than any card \(at least 64 MiB\)"):
        check("sdj", "8:144")
    assert guard.MIN_CARD_BYTES == 64 * 1024**2


def test_loop_device_on_a_mounted_loop_device_is_refused():
    with pytest.raises(MountedError, match=r"rests on a mounted device \(/dev/loop1 on /mnt/image\)"):
        check("loop0", "7:0")


def test_backing_device_of_a_loop_device_is_refused():
    with pytest.raises(HolderError, match=r"loop3 is the backing device of loop2; detach it first "
                                          r"\(sudo losetup -d /dev/loop2\)"):
        check("loop3", "7:3")
    assert check("loop2", "7:2").name == "loop2"  # nothing on loop3 is mounted


def test_loop_device_on_a_file_of_the_system_disk_passes():
    assert check("loop4", "7:4").name == "loop4"


def test_loop_device_on_the_system_disk_is_refused():
    with pytest.raises(SystemDiskError, match="holds the system path /"):
        check("loop5", "7:5")


def test_loop_backing_shows_as_slave_and_holder():
    tree = BlockTree(HOST)
    assert tree.nodes["loop0"].slaves == ["loop1"] and tree.nodes["loop1"].holders == ["loop0"]
    assert tree.nodes["loop4"].slaves == [] and tree.chain("loop5") == {"loop5", "vda"}


def test_another_card_in_the_same_slot_is_told_apart(tmp_path):
    """Size aside, the serial and the CID register tell two cards apart (check_same_card uses this)."""
    start = identify("/dev/mmcblk0", "179:0", root=HOST)
    assert identity_changes(start, identify("/dev/mmcblk0", "179:0", root=HOST)) == []
    other = tmp_path / "host"
    shutil.copytree(HOST, other, symlinks=True)
    card = other / "sys/devices/platform/fe320000.mmc/mmc_host/mmc0/mmc0:aaaa"
    (card / "serial").write_text("0x11111111\n")
    (card / "cid").write_text((card / "cid").read_text().replace("db5a62b2", "11111111"))
    now = identify("/dev/mmcblk0", "179:0", root=other)
    assert now.size_bytes == start.size_bytes
    assert identity_changes(start, now) == ["its serial number differs", "its CID register differs"]


def test_the_host_tree_comes_out_the_same_every_time(tmp_path):
    from guardhost import build_host_tree, tree_listing

    again = tree_listing(build_host_tree(tmp_path))
    assert again == tree_listing(HOST)
    assert again["sys/class/block/sdb"].startswith("-> ../../devices/") and again["proc/swaps"].startswith("Filename")


def test_the_host_tree_generator_wants_a_folder(tmp_path):
    import subprocess
    import sys

    from guardhost import GENERATOR

    for args in ([], ["--help"]):
        done = subprocess.run([sys.executable, str(GENERATOR), *args], capture_output=True, text=True, cwd=tmp_path)
        assert done.returncode != 0 and "usage: make_host_tree.py FOLDER" in done.stderr
    assert list(tmp_path.iterdir()) == []
