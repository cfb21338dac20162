"""Stops that keep the card and data/ safe, on loop-device cards with the real tools: another card
under the device's name, the collector killed with SIGKILL, a tool stopped with children of its own,
and a full disk under data/.
"""

import contextlib
import errno
import os
import stat
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from cardbench.collect.errors import CardChangedError, CollectInterrupted, DiskFullError
from cardbench.collect.profiles import DdStep, FioJob, FioStep, KiB, MiB, Profile
from cardbench.collect.progress import Tracker
from cardbench.collect.runner import CollectRequest, collect
from cardbench.collect.toolrun import Log, RunContext
from cardbench.card.checks.validate import validate_paths
from loopcard import GiB, LoopCard, data_snapshot, run

ROOT = Path(__file__).resolve().parents[1]
SLUG = "loop-stops"

pytestmark = pytest.mark.skipif(os.geteuid() != 0, reason="loop devices, mounts and cgroups need root")


def two_writes():
    return Profile(name="quick", description="two short writes", tools=("dd",),
                   steps=(DdStep("write", count=2, runs=1), DdStep("write", count=3, runs=1)))


def request(device, data_dir, profile, yes=True):
    return CollectRequest(device=device, slug=SLUG, profile=profile, name="Loop Stops Card", yes=yes,
                          data_dir=data_dir)


def card_speed(card):
    """Limits a card can have (an unthrottled loop device reads GB/s, above every bus ceiling); the
    calling test runs the collector inside card.joined()."""
    card.throttle(read_bps=40_000_000, write_bps=40_000_000)


def kept_session(data_dir):
    cards, findings = validate_paths([data_dir / "cards" / f"{SLUG}.yaml"], data_dir=data_dir)
    assert not [str(f) for f in findings if f.severity == "error"]
    return cards[0].data["sessions"][-1]


def new_medium(card, size):
    """What a reader does when its card is swapped: same device, new medium, new size."""
    os.truncate(card.image, size)
    run(["losetup", "--set-capacity", card.device])


# --- another card under the same name ------------------------------------------------------

def test_a_new_medium_in_the_reader_stops_the_run_before_the_next_write(tmp_path):
    data_dir = tmp_path / "data"
    with LoopCard(size=256 * MiB) as card:
        card_speed(card)
        device, written = card.device, {}

        def swap_after_the_first_test(event):
            if event.phase == "done" and event.index == 1:
                written["then"] = card.write_sectors()
                new_medium(card, 512 * MiB)

        with card.joined(), pytest.raises(CardChangedError) as err:
            collect(request(device, data_dir, two_writes()), progress=swap_after_the_first_test)
        assert card.write_sectors() == written["then"]  # not one sector after the swap
    message = str(err.value)
    assert message.startswith(f"{device} is no longer the card this run started on (it holds 536870912 bytes, not "
                              "268435456); stopped before dd write bs=4M count=3, nothing more was written")
    assert "put that card back and run the same command again" in message
    assert [label for label, _ in err.value.report.ran] == ["dd write bs=4M count=2"]
    session = kept_session(data_dir)
    assert session["complete"] is False and len(session["dd"]) == 1


def test_another_device_under_the_same_name_stops_the_run(tmp_path):
    data_dir = tmp_path / "data"
    with LoopCard(size=256 * MiB) as card, LoopCard(size=512 * MiB) as other:
        card_speed(card)
        node = os.stat(card.device)
        other_majmin, other_written = other.majmin, other.write_sectors()  # counters live as long as the device

        def rename_after_the_first_test(event):
            if event.phase == "done" and event.index == 1:
                os.unlink(card.device)
                os.mknod(card.device, stat.S_IFBLK | 0o600, os.stat(other.device).st_rdev)

        try:
            with card.joined(), pytest.raises(CardChangedError) as err:
                collect(request(card.device, data_dir, two_writes()), progress=rename_after_the_first_test)
        finally:
            if os.stat(card.device).st_rdev != node.st_rdev:
                os.unlink(card.device)
                os.mknod(card.device, node.st_mode, node.st_rdev)
        assert other.write_sectors() == other_written
        assert f"{card.device} is now block device {other_majmin}, not {card.majmin}" in str(err.value)
    assert kept_session(data_dir)["complete"] is False


def test_detaching_the_card_waits_for_the_run_and_no_other_file_is_written(tmp_path):
    """losetup -d while the collector holds the card only marks it to go on last close, so another
    image cannot take its name mid-run: the run finishes on the card it started on."""
    other_image = tmp_path / "other.img"
    with open(other_image, "wb") as handle:
        handle.truncate(512 * MiB)
    data_dir = tmp_path / "data"
    with LoopCard(size=256 * MiB) as card:
        card_speed(card)
        device, attempts = card.device, []

        def detach_and_attach_another(event):
            if event.phase == "done" and event.index == 1:
                attempts.append(subprocess.run(["losetup", "--detach", device], capture_output=True, text=True))
                attempts.append(subprocess.run(["losetup", device, str(other_image)], capture_output=True, text=True))

        backing = Path(f"/sys/block/{card.name}/loop/backing_file")
        try:
            with card.joined():
                report = collect(request(device, data_dir, two_writes()), progress=detach_and_attach_another)
            deadline = time.monotonic() + 5
            while backing.exists() and time.monotonic() < deadline:
                time.sleep(0.05)
            assert not backing.exists()  # detached once the collector let go
        finally:
            if not backing.exists():
                card.device = None  # the number may belong to someone else by now
    assert report.complete and len(report.ran) == 2
    assert attempts[0].returncode == 0
    assert attempts[1].returncode != 0 and "busy" in attempts[1].stderr.lower()
    assert os.stat(other_image).st_blocks == 0


def test_a_card_swapped_while_the_question_waits_is_refused_and_data_is_untouched(tmp_path):
    data_dir = tmp_path / "data"
    data_dir.mkdir()
    (data_dir / "README").write_text("kept as it is\n")
    before = data_snapshot(data_dir)
    with LoopCard(size=256 * MiB) as card:
        def answer_after_a_swap(prompt):
            new_medium(card, 512 * MiB)
            return card.name

        with pytest.raises(CardChangedError, match="is no longer the card this run started on"):
            collect(request(card.device, data_dir, two_writes(), yes=False), confirm=answer_after_a_swap)
        assert os.stat(card.image).st_blocks == 0
    assert data_snapshot(data_dir) == before


# --- no tool outlives the collector ----------------------------------------------------------

KILLED_COLLECTOR = textwrap.dedent("""
    import sys
    from pathlib import Path
    from cardbench.collect.profiles import FioJob, FioStep, MiB, Profile
    from cardbench.collect.runner import CollectRequest, collect

    profile = Profile(name="quick", description="one long fio write, two jobs", tools=("fio",),
                      steps=(FioStep(FioJob("SEQ", MiB, 4, 2, "write", runtime=120, size=64 * MiB)),))
    collect(CollectRequest(device=sys.argv[1], slug="loop-killed", profile=profile, name="Loop Killed Card",
                           yes=True, data_dir=Path(sys.argv[2])))
""")


def test_tools_stop_writing_when_the_collector_is_killed(tmp_path):
    with LoopCard(size=GiB) as card:
        # 20 MB/s with 2 jobs x 4 x 1 MiB in flight: the queue drains in 0.4 s once nothing adds to it.
        card.throttle(write_bps=20_000_000)
        env = {**os.environ, "PYTHONPATH": str(ROOT / "scripts")}
        start = card.write_sectors()  # counters live as long as the device, across images
        proc = card.popen([sys.executable, "-c", KILLED_COLLECTOR, card.device, str(tmp_path / "data")], cwd=ROOT,
                          env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        try:
            deadline = time.monotonic() + 60
            while not ([p for p in card.openers() if p != proc.pid] and card.write_sectors() - start > 32 * MiB // 512):
                assert proc.poll() is None, proc.stderr.read().decode()
                assert time.monotonic() < deadline, "fio did not start writing"
                time.sleep(0.05)
            proc.kill()
            killed = time.monotonic()
            proc.wait()
            closed, last, last_change = None, card.write_sectors(), killed
            while time.monotonic() - killed < 15:
                now = time.monotonic()
                if closed is None and not card.openers():
                    closed = now - killed
                sectors = card.write_sectors()
                if sectors != last:
                    last, last_change = sectors, now
                if closed is not None and now - last_change > 1.0:
                    break
                time.sleep(0.01)
        finally:
            proc.stderr.close()
        print(f"after SIGKILL: card closed by every process in {closed} s, last write {last_change - killed:.2f} s")
        assert closed is not None and closed < 2.0, closed
        assert last_change - killed < 2.0
        assert card.group_pids() == []


def _alive(pid):
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state not in ("Z", "X")


def test_a_stopped_tool_takes_its_own_children_with_it(tmp_path):
    """Ctrl-C during a tool: the tool's whole process group goes, not only the process started."""
    child_pid = tmp_path / "child.pid"

    def interrupt_once_the_child_runs(event):
        if event.phase == "tick" and child_pid.exists() and child_pid.read_text().strip():
            raise CollectInterrupted("SIGINT")

    ctx = RunContext("/dev/null", "1:3", tmp_path, "raw/x/y", {}, Log(tmp_path / "collect.log"),
                     Tracker(interrupt_once_the_child_runs, 1), 0)
    # A non-interactive shell's background job ignores SIGINT, like a worker that outlives its parent.
    with pytest.raises(CollectInterrupted):
        ctx.run_tool(["sh", "-c", "sleep 120 & echo $! > child.pid; wait"])
    pid = int(child_pid.read_text())
    deadline = time.monotonic() + 5
    while _alive(pid) and time.monotonic() < deadline:
        time.sleep(0.02)
    assert not _alive(pid)


# --- a full disk under data/ ---------------------------------------------------------------

@contextlib.contextmanager
def small_tmpfs(folder, size):
    folder.mkdir(parents=True, exist_ok=True)
    run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(folder)])
    try:
        yield folder
    finally:
        subprocess.run(["umount", "--lazy", str(folder)], capture_output=True)


def fill(path):
    """Write path until its filesystem is full."""
    with open(path, "wb", buffering=0) as handle:
        block = b"\0" * (64 * KiB)
        try:
            while True:
                handle.write(block)
        except OSError as exc:
            assert exc.errno == errno.ENOSPC
    for size in (4 * KiB, 512, 1):  # and the last partial block
        try:
            with open(path, "ab", buffering=0) as handle:
                while True:
                    handle.write(b"\0" * size)
        except OSError:
            pass


def read_steps():
    return Profile(name="quick", description="dd, fio, dd", tools=("dd", "fio"),
                   steps=(DdStep("read", count=4, runs=1),
                          FioStep(FioJob("RND", 4 * KiB, 4, 1, "read", runtime=2, size=16 * MiB)),
                          DdStep("read", bs=MiB, count=16, runs=1)))


@pytest.mark.parametrize("when", ["as the next test starts", "while fio runs"])
def test_a_full_disk_under_data_stops_the_run_and_the_same_command_resumes(tmp_path, when):
    data_dir = tmp_path / "data"
    with LoopCard(size=256 * MiB) as card, small_tmpfs(data_dir, "4m"):
        card_speed(card)
        filler = data_dir / "filler.bin"

        def fill_up(event):
            if event.index != 2 or filler.exists():
                return
            if (when == "as the next test starts" and event.phase == "start") or \
                    (when == "while fio runs" and event.phase == "tick" and event.step_elapsed > 0.5):
                fill(filler)

        with card.joined(), pytest.raises(DiskFullError) as err:
            collect(request(card.device, data_dir, read_steps()), progress=fill_up)
        assert str(err.value) == (f"no space left on the filesystem at {data_dir} holding data/: the finished tests "
                                  "are saved; free space and run the same command again to resume")
        assert [label for label, _ in err.value.report.ran] == ["dd read bs=4M count=4"]
        assert err.value.report.failed == []  # not a broken fio JSON
        filler.unlink()
        session = kept_session(data_dir)
        assert session["complete"] is False and len(session["dd"]) == 1 and "results" not in session

        with card.joined():
            report = collect(request(card.device, data_dir, read_steps()))
    assert report.resumed and report.complete and report.skipped == ["dd read bs=4M count=4"]


def test_a_full_disk_for_the_card_file_changes_nothing_under_data(tmp_path):
    data_dir = tmp_path / "data"
    cards = data_dir / "cards"
    profile = Profile(name="quick", description="one read", tools=("dd",), steps=(DdStep("read", count=4, runs=1),))
    with LoopCard(size=256 * MiB) as card, small_tmpfs(cards, "64k"):
        card_speed(card)
        fill(cards / "filler.bin")
        before = data_snapshot(data_dir)
        with card.joined(), pytest.raises(DiskFullError) as err:
            collect(request(card.device, data_dir, profile))
        assert data_snapshot(data_dir) == before
    assert str(err.value).startswith(f"no space left on the filesystem at {cards} holding data/: no finished test "
                                     "could be saved, so nothing was kept")
