"""The guard on processes and devices that reach a card's storage without a mount this namespace shows, and
the collector on ones that appear during the run: a process holding the image or the device open (fuse2fs,
in another namespace too), a FUSE filesystem that stops answering, a loop device set up on the image or on
the card after the start. Real loop devices, mounts and processes.
"""

import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from cardbench.collect.guard import guard
from cardbench.collect.errors import CardInUseError
from cardbench.collect.profiles import DdStep, Profile
from cardbench.collect.runner import CollectRequest, collect
from loopcard import LoopCard, device_openers, run
from test_guard_aliases import assert_filesystem_intact, idle_filesystem, mount_here, second_loop
from test_guard_loop import refused_everywhere, seeded  # noqa: F401 (fixture)

MiB = 1024**2
ROOT = Path(__file__).resolve().parents[1]

pytestmark = [pytest.mark.device, pytest.mark.skipif(os.geteuid() != 0, reason="loop devices need root")]


def read_then_write():
    return Profile(name="quick", description="a read, then a write", tools=("dd",),
                   steps=(DdStep("read", count=4, runs=1), DdStep("write", count=4, runs=1)))


# --- another loop device on the image during the run ----------------------------------------

def test_a_loop_device_set_up_on_the_image_during_the_run_and_mounted_stops_it(tmp_path):
    profile = read_then_write()
    data_dir = tmp_path / "data"
    with LoopCard(size=256 * MiB) as card:
        card.throttle(read_bps=40_000_000, write_bps=40_000_000)  # figures a card can have
        idle_filesystem(card.device)
        mounted = {}

        def mount_another_after_the_read(event):
            if event.phase == "done" and event.index == 1:
                mounted["device"] = second_loop(card)
                mounted["at"] = mount_here(card, mounted["device"])

        request = CollectRequest(device=card.device, slug="loop-shared", profile=profile, name="Loop Shared Card",
                                 yes=True, data_dir=data_dir)
        with card.joined(), pytest.raises(CardInUseError) as err:
            collect(request, progress=mount_another_after_the_read)
        assert str(err.value).startswith(
            f"{card.device}: shares its backing file {card.image} with {Path(mounted['device']).name}, which is "
            f"mounted ({mounted['device']} on {mounted['at']})")
        assert "stopped before dd write bs=4M count=4, nothing more was written" in str(err.value)
        assert len(err.value.report.ran) == 1
        card.umount_all()
        assert_filesystem_intact(mounted["device"])


@pytest.mark.parametrize("what", ["image", "device"])
def test_image_or_card_open_in_another_process_is_refused(seeded, what):  # noqa: F811
    """fuse2fs mounts an image or a device without a loop device or a claim; so may a virtual machine use
    it. Either keeps it open."""
    with LoopCard(size=128 * MiB) as card:
        path = card.image if what == "image" else card.device
        with open(path, "rb") as held:
            holder = subprocess.Popen(["sleep", "600"], stdin=held)
        try:
            shown = f"its backing file {card.image}" if what == "image" else card.device
            refused_everywhere(card.device, seeded, f"{card.device}: {shown} is open in process {holder.pid} (sleep), "
                                                    "which may be using it without mounting it here")
        finally:
            holder.kill()
            holder.wait()
        guard.check_device(card.device)


@pytest.mark.skipif(not shutil.which("fuse2fs"), reason="fuse2fs (Debian package fuse2fs) is not installed")
def test_image_mounted_by_fuse2fs_in_another_namespace_is_refused(seeded, tmp_path):  # noqa: F811
    image, mount_dir = tmp_path / "card.img", tmp_path / "fuse"
    image.touch()
    os.truncate(image, 128 * MiB)
    idle_filesystem(str(image))
    mount_dir.mkdir()
    fuse = subprocess.Popen(["unshare", "--mount", "--propagation", "private", "fuse2fs", "-f", str(image),
                             str(mount_dir), "-o", "fakeroot"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    device = None
    try:
        pid = wait_for_opener(str(image))
        device = run(["losetup", "--find", "--show", str(image)]).stdout.strip()
        refused_everywhere(device, seeded, f"{device}: its backing file {image} is open in process {pid} (fuse2fs)")
    finally:
        fuse.terminate()
        fuse.wait()
        if device:
            subprocess.run(["losetup", "--detach", device], capture_output=True)


def wait_for_opener(path, seconds=10.0):
    deadline = time.monotonic() + seconds
    while not device_openers(path):
        assert time.monotonic() < deadline, f"{path} was not opened"
        time.sleep(0.05)
    return device_openers(path)[0]


@pytest.mark.skipif(not shutil.which("fuse2fs"), reason="fuse2fs (Debian package fuse2fs) is not installed")
def test_a_file_open_on_a_stalled_fuse_filesystem_does_not_hang_the_guard(tmp_path):
    """Following a descriptor into a FUSE filesystem whose daemon is stopped waits forever."""
    image, mount_dir = tmp_path / "fuse.img", tmp_path / "fuse"
    image.touch()
    os.truncate(image, 64 * MiB)
    idle_filesystem(str(image))
    mount_dir.mkdir()
    fuse = subprocess.Popen(["fuse2fs", "-f", str(image), str(mount_dir), "-o", "fakeroot,attr_timeout=0"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    reader = None
    try:
        wait_for_opener(str(image))
        deadline = time.monotonic() + 10
        while not os.path.ismount(mount_dir):
            assert time.monotonic() < deadline, "fuse2fs did not mount"
            time.sleep(0.05)
        (mount_dir / "held").write_text("x")
        with open(mount_dir / "held") as held:
            reader = subprocess.Popen(["sleep", "600"], stdin=held)
        fuse.send_signal(signal.SIGSTOP)
        with LoopCard(size=128 * MiB) as card:
            check = subprocess.run([sys.executable, "-c", "import sys; from cardbench.collect.guard import guard; "
                                    "guard.check_device(sys.argv[1])", card.device],
                                   env={**os.environ, "PYTHONPATH": str(ROOT / "scripts")}, capture_output=True,
                                   text=True, timeout=20)
            assert check.returncode == 0, check.stderr
    finally:
        fuse.send_signal(signal.SIGCONT)
        if reader:
            reader.kill()
            reader.wait()
        subprocess.run(["umount", str(mount_dir)], capture_output=True)
        fuse.terminate()
        fuse.wait()


def test_the_image_opened_by_a_process_during_the_run_stops_it(tmp_path):
    profile = read_then_write()
    with LoopCard(size=256 * MiB) as card:
        card.throttle(read_bps=40_000_000, write_bps=40_000_000)  # figures a card can have
        holder = {}

        def open_the_image_after_the_read(event):
            if event.phase == "done" and event.index == 1:
                with open(card.image, "rb") as image:
                    holder["process"] = subprocess.Popen(["sleep", "600"], stdin=image)

        request = CollectRequest(device=card.device, slug="loop-opened", profile=profile, name="Loop Opened Card",
                                 yes=True, data_dir=tmp_path / "data")
        try:
            with card.joined(), pytest.raises(CardInUseError) as err:
                collect(request, progress=open_the_image_after_the_read)
        finally:
            if "process" in holder:
                holder["process"].kill()
                holder["process"].wait()
        assert str(err.value).startswith(f"{card.device}: its backing file {card.image} is open in process "
                                         f"{holder['process'].pid} (sleep)")
        assert "stopped before dd write bs=4M count=4, nothing more was written" in str(err.value)


@pytest.mark.skipif(not shutil.which("fuse2fs"), reason="fuse2fs (Debian package fuse2fs) is not installed")
def test_a_loop_device_on_a_stalled_fuse_filesystem_is_named_not_waited_for(tmp_path):
    """The kernel asks the backing file's filesystem what it is: a stopped FUSE daemon never answers."""
    image, mount_dir = tmp_path / "fuse.img", tmp_path / "fuse"
    image.touch()
    os.truncate(image, 200 * MiB)
    idle_filesystem(str(image))
    mount_dir.mkdir()
    fuse = subprocess.Popen(["fuse2fs", "-f", str(image), str(mount_dir), "-o", "fakeroot,attr_timeout=0"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    stalled = None
    try:
        deadline = time.monotonic() + 10
        while not os.path.ismount(mount_dir):
            assert time.monotonic() < deadline, "fuse2fs did not mount"
            time.sleep(0.05)
        inner = mount_dir / "inner.img"
        inner.touch()
        os.truncate(inner, 100 * MiB)
        stalled = run(["losetup", "--find", "--show", str(inner)]).stdout.strip()
        fuse.send_signal(signal.SIGSTOP)
        with LoopCard(size=128 * MiB) as card:
            check = subprocess.run([sys.executable, "-c",
                                    "import sys; from cardbench.collect.guard import guard, loopinfo; "
                                    "loopinfo.ANSWER_SECONDS = 0.5; guard.check_device(sys.argv[1])", card.device],
                                   env={**os.environ, "PYTHONPATH": str(ROOT / "scripts")}, capture_output=True,
                                   text=True, timeout=20)
            name = Path(stalled).name
            assert (f"UnknownBackingError: {card.device}: cannot tell what {name} rests on: {name} does not answer "
                    "within 0.5 s: the filesystem holding its backing file does not respond") in check.stderr
    finally:
        fuse.send_signal(signal.SIGCONT)
        if stalled:
            subprocess.run(["losetup", "--detach", stalled], capture_output=True)
        subprocess.run(["umount", str(mount_dir)], capture_output=True)
        fuse.terminate()
        fuse.wait()


def test_a_loop_device_set_up_on_the_card_during_the_run_and_mounted_stops_it(tmp_path):
    """A loop device on a block device does not claim it: the card's own claim does not keep it out."""
    profile = read_then_write()
    with LoopCard(size=256 * MiB) as card:
        card.throttle(read_bps=40_000_000, write_bps=40_000_000)  # figures a card can have
        idle_filesystem(card.device)
        mounted = {}

        def mount_through_a_loop_device_after_the_read(event):
            if event.phase == "done" and event.index == 1:
                mounted["device"] = card.stack()
                mounted["at"] = mount_here(card, mounted["device"])

        request = CollectRequest(device=card.device, slug="loop-stacked", profile=profile, name="Loop Stacked Card",
                                 yes=True, data_dir=tmp_path / "data")
        with card.joined(), pytest.raises(CardInUseError) as err:
            collect(request, progress=mount_through_a_loop_device_after_the_read)
        assert str(err.value).startswith(
            f"{card.device}: shares its storage with {Path(mounted['device']).name}, which is mounted "
            f"({mounted['device']} on {mounted['at']})")
        card.umount_all()
        assert_filesystem_intact(mounted["device"])
