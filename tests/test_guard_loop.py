"""The guard on real loop devices: mounted, partition mounted, missing, not a block device, not confirmed.

Each refusal must name the problem, exit non-zero, and leave the data folder empty.
"""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from cardbench.collect import guard
from cardbench.collect.errors import MountedError, NotMountedError
from loopcard import LoopCard

ROOT = Path(__file__).resolve().parents[1]
MiB = 1024**2

pytestmark = pytest.mark.skipif(os.geteuid() != 0, reason="loop devices need root")


def collect_cli(device, data_dir, *extra, stdin=""):
    argv = [sys.executable, "-m", "cardbench", "collect", str(device), "--card", "guard-test-card",
            "--name", "Guard Test 1GB", "--profile", "quick", "--data-dir", str(data_dir), *extra]
    return subprocess.run(argv, cwd=ROOT, input=stdin, capture_output=True, text=True, timeout=60)


def assert_nothing_written(data_dir):
    assert not data_dir.exists() or not any(data_dir.rglob("*")), sorted(data_dir.rglob("*"))


@pytest.fixture
def data_dir(tmp_path):
    return tmp_path / "data"


def test_mounted_device_is_refused(data_dir):
    with LoopCard(size=256 * MiB) as card:
        mount_dir = card.make_fs_and_mount()
        done = collect_cli(card.device, data_dir, "--yes")
        assert done.returncode == 2
        assert f"{card.device}: is mounted ({card.device} on {mount_dir})" in done.stderr
        assert f"sudo umount {mount_dir}" in done.stderr
        # The readonly profile is the one that may use it: it writes only inside the mount.
        assert guard.check_device(card.device, mode=guard.FILESYSTEM).test_dir == str(mount_dir)
    assert_nothing_written(data_dir)


def test_mounted_partition_is_refused(data_dir):
    with LoopCard(size=256 * MiB, partition=True) as card:
        mount_dir = card.make_fs_and_mount(card.partition_device)
        done = collect_cli(card.device, data_dir, "--yes")
        assert done.returncode == 2
        assert f"is mounted ({card.partition_device} on {mount_dir})" in done.stderr
        with pytest.raises(MountedError):
            guard.check_device(card.device)
        given = collect_cli(card.partition_device, data_dir, "--yes")
        assert given.returncode == 2 and f"give the whole card, {card.device}" in given.stderr
        card.umount_all()
        with pytest.raises(NotMountedError):
            guard.check_device(card.device, mode=guard.FILESYSTEM)
    assert_nothing_written(data_dir)


def test_missing_path_is_refused(data_dir):
    done = collect_cli("/dev/cardbench-no-such-card", data_dir, "--yes")
    assert done.returncode == 2
    assert "/dev/cardbench-no-such-card: no such device; check the name with lsblk" in done.stderr
    assert_nothing_written(data_dir)


@pytest.mark.parametrize("kind", ["file", "folder", "character device"])
def test_non_block_path_is_refused(data_dir, tmp_path, kind):
    path = {"file": tmp_path / "card.img", "folder": tmp_path, "character device": Path("/dev/null")}[kind]
    if kind == "file":
        path.write_bytes(b"\0" * 4096)
    done = collect_cli(path, data_dir, "--yes")
    assert done.returncode == 2
    assert "not a block device" in done.stderr and kind.split()[0] in done.stderr
    assert_nothing_written(data_dir)


@pytest.mark.parametrize("answer", ["no\n", "loop\n", "/dev/sda\n", ""])
def test_missing_confirmation_is_refused(data_dir, answer):
    with LoopCard(size=256 * MiB) as card:
        done = collect_cli(card.device, data_dir, stdin=answer)
        assert done.returncode == 2
        # The prompt names the device with its model and size before asking.
        assert f"ALL DATA on {card.device} (Loop device, 0.3 GB (0.2 GiB)" in done.stderr
        assert f"Type the device name ({card.name})" in done.stderr
        assert f"not confirmed (typed {repr(answer.strip()) if answer.strip() else 'nothing'}" in done.stderr
        assert "nothing was written" in done.stderr
    assert_nothing_written(data_dir)
