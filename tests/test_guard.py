"""Guard rules on a fixture tree that looks like '/': never on this computer's real disks."""

from pathlib import Path

import pytest

from cardbench.collect import guard
from cardbench.collect.errors import (HolderError, MountedError, NotConfirmedError, NotMountedError,
                                      PartitionGivenError, ReadOnlyDeviceError, SwapError, SystemDiskError)
from cardbench.collect.sysfs import BlockTree, read_mounts, unescape

HOST = Path(__file__).parent / "fixtures" / "guard" / "host"


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
