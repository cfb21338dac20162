"""The guard on real loop devices: mounted, partition mounted, missing, not a block device, not confirmed.

Each refusal must name the problem, exit non-zero, and leave the data folder empty.
"""

import hashlib
import mmap
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from cardbench.collect.guard import guard
from cardbench.collect.errors import MountedError, NotMountedError
from cardbench.collect.profiles import DdStep, FioJob, FioStep, FlashAlignStep, KiB, Profile
from cardbench.collect.runner import CollectRequest, collect
from loopcard import LoopCard, data_snapshot, run

ROOT = Path(__file__).resolve().parents[1]
MiB = 1024**2

pytestmark = pytest.mark.skipif(os.geteuid() != 0, reason="loop devices need root")


def collect_cli(device, data_dir, *extra, stdin="", card="guard-test-card"):
    argv = [sys.executable, "-m", "cardbench", "collect", str(device), "--card", card,
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


# --- what /proc/self/mountinfo cannot see --------------------------------------------------

SEED = "lexar-class-10-16gb-microsdhc"  # a shipped card with sessions and raw files
IN_USE = ("is in use by the kernel: mounted somewhere (maybe another mount namespace or container), or held by "
          "another device; unmount/detach it first")


@pytest.fixture
def seeded(tmp_path):
    """A data folder holding a shipped card and its raw files."""
    data = tmp_path / "seeded-data"
    (data / "cards").mkdir(parents=True)
    shutil.copy(ROOT / "data" / "cards" / f"{SEED}.yaml", data / "cards")
    shutil.copytree(ROOT / "data" / "raw" / SEED, data / "raw" / SEED)
    return data


def head_digest(device, size=8 * MiB):
    """What the device itself holds (O_DIRECT): a filesystem mounted elsewhere changes cached blocks a few
    seconds after its mount without writing them, which a read through the page cache would count."""
    buffer = mmap.mmap(-1, size)  # page-aligned, as O_DIRECT needs
    fd = os.open(device, os.O_RDONLY | os.O_DIRECT)
    try:
        os.readv(fd, [buffer])
    finally:
        os.close(fd)
    return hashlib.sha256(buffer).hexdigest()


def refused_everywhere(device, data_dir, expected):
    """The collector refuses device for an existing and for a new card, and data/ stays byte-identical."""
    before = data_snapshot(data_dir)
    for card in (SEED, "guard-test-card"):
        done = collect_cli(device, data_dir, "--yes", card=card)
        assert done.returncode == 2, done.stderr
        assert expected in done.stderr, done.stderr
        assert "Traceback" not in done.stderr
    assert data_snapshot(data_dir) == before


@pytest.mark.parametrize("partition", [False, True], ids=["whole card", "partition"])
def test_filesystem_mounted_in_another_namespace_is_refused(seeded, partition):
    with LoopCard(size=256 * MiB, partition=partition) as card:
        fs_device = card.partition_device if partition else card.device
        # No lazy initialisation: the mounted filesystem itself stays idle, so any write would be ours.
        run(["mkfs.ext4", "-q", "-F", "-E", "lazy_itable_init=0,lazy_journal_init=0", fs_device])
        with card.mounted_elsewhere(fs_device):
            assert fs_device not in Path("/proc/self/mountinfo").read_text()
            guard.check_device(card.device)  # invisible to every mountinfo rule
            before = card.write_sectors(), head_digest(card.device)
            refused_everywhere(card.device, seeded, f"{card.device}: {IN_USE}")
            assert (card.write_sectors(), head_digest(card.device)) == before
        fsck = subprocess.run(["e2fsck", "-f", "-n", fs_device], capture_output=True, text=True)
        assert fsck.returncode == 0, fsck.stdout + fsck.stderr


@pytest.mark.parametrize("where", ["here", "in another namespace"])
def test_loop_device_on_a_mounted_loop_device_is_refused(seeded, where):
    with LoopCard(size=256 * MiB) as card:
        if where == "here":
            mount_dir = card.make_fs_and_mount()
            upper = card.stack()
            refused_everywhere(upper, seeded, f"{upper}: rests on a mounted device ({card.device} on {mount_dir})")
            card.umount_all()
        else:
            run(["mkfs.ext4", "-q", "-F", card.device])
            upper = card.stack()
            with card.mounted_elsewhere():
                refused_everywhere(upper, seeded, f"{upper}: rests on {card.device}, which {IN_USE}")
        fsck = subprocess.run(["e2fsck", "-f", "-n", card.device], capture_output=True, text=True)
        assert fsck.returncode == 0, fsck.stdout + fsck.stderr


@pytest.mark.parametrize("upper_mounted", [False, True], ids=["idle", "mounted in another namespace"])
def test_backing_device_of_another_loop_device_is_refused(seeded, upper_mounted):
    with LoopCard(size=256 * MiB) as card:
        upper = card.stack()
        expected = (f"{card.device}: {card.name} is the backing device of {Path(upper).name}; detach it first "
                    f"(sudo losetup -d {upper})")
        if upper_mounted:
            run(["mkfs.ext4", "-q", "-F", upper])
            with card.mounted_elsewhere(upper):
                refused_everywhere(card.device, seeded, expected)
            fsck = subprocess.run(["e2fsck", "-f", "-n", upper], capture_output=True, text=True)
            assert fsck.returncode == 0, fsck.stdout + fsck.stderr
        else:
            refused_everywhere(card.device, seeded, expected)


@pytest.mark.parametrize("size,expected", [(0, "is 0 bytes: no card in the reader?"),
                                           (8 * MiB, "is only 8.0 MiB, smaller than any card (at least 64 MiB)")])
def test_device_smaller_than_a_card_is_refused(seeded, size, expected):
    with LoopCard(size=size) as card:
        refused_everywhere(card.device, seeded, f"{card.device}: {expected}")
        assert os.stat(card.image).st_blocks == 0  # not one block written


@pytest.mark.parametrize("kind", ["not confirmed", "mounted", "partition given", "missing", "folder"])
def test_other_refusals_leave_data_byte_identical(seeded, tmp_path, kind):
    with LoopCard(size=256 * MiB, partition=kind == "partition given") as card:
        device, stdin, extra = card.device, "", ("--yes",)
        if kind == "not confirmed":
            stdin, extra = "no\n", ()
        elif kind == "mounted":
            card.make_fs_and_mount()
        elif kind == "partition given":
            device = card.partition_device
        elif kind == "missing":
            device = "/dev/cardbench-no-such-card"
        elif kind == "folder":
            device = tmp_path
        before = data_snapshot(seeded)
        for slug in (SEED, "guard-test-card"):
            done = collect_cli(device, seeded, *extra, stdin=stdin, card=slug)
            assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
        assert data_snapshot(seeded) == before


def test_the_card_is_held_for_the_whole_run(tmp_path):
    """Nothing can mount the card while the collector runs; the tools still open it."""
    profile = Profile(name="quick", description="reads only", tools=("dd", "fio", "flashbench"),
                      steps=(DdStep("read", count=4, runs=1),
                             FioStep(FioJob("RND", 4 * KiB, 4, 2, "read", runtime=1, size=16 * MiB)),
                             FlashAlignStep(count=2)))
    with LoopCard(size=256 * MiB) as card:
        card.throttle(read_bps=40_000_000)  # figures a card can have
        mount_dir = card.make_fs_and_mount()
        card.umount_all()
        attempts = []

        def try_to_mount(event):
            if event.phase == "done":
                attempts.append(subprocess.run(["mount", card.device, str(mount_dir)], capture_output=True,
                                               text=True))
                if attempts[-1].returncode == 0:
                    subprocess.run(["umount", str(mount_dir)])

        request = CollectRequest(device=card.device, slug="loop-held", profile=profile, name="Loop Held Card",
                                 yes=True, data_dir=tmp_path / "data")
        with card.joined():
            report = collect(request, progress=try_to_mount)
        assert report.complete and len(report.ran) == 3, report.failed
        assert len(attempts) == 3 and all(a.returncode != 0 for a in attempts), [a.stderr for a in attempts]
        run(["mount", card.device, str(mount_dir)])  # released when the run ends
        card.mounts.append(mount_dir)
