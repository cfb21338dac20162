"""The collector writes only the card it checked, on loop-device cards with the real tools: a device
name with ':' in it (udev's /dev/disk/by-path links), a link repointed while a test runs, a name taken
by another device between two runs of a tool, a link planted where the readonly profile writes its
test file, and an import landing in the card file while the collector runs.
"""

import os
import stat

import pytest

from cardbench.card.checks.validate import validate_paths
from cardbench.collect.errors import (CardChangedError, CardMismatchError, CollectInterrupted, GuardError,
                                     device_text)
from cardbench.collect.profiles import DdStep, FioJob, FioStep, KiB, MiB, Profile
from cardbench.collect.runner import CollectRequest, collect
from cardbench.imports.importer import import_file
from loopcard import LoopCard

SLUG = "loop-pinned"
BY_PATH = "pci-0000:00:14.0-usb-0:1:1.0-scsi-0:0:0:0"  # the shape of a /dev/disk/by-path name

pytestmark = pytest.mark.skipif(os.geteuid() != 0, reason="loop devices, mounts and cgroups need root")


def request(device, data_dir, profile, slug=SLUG):
    return CollectRequest(device=str(device), slug=slug, profile=profile, name="Loop Pinned Card", yes=True,
                          data_dir=data_dir)


def kept_session(data_dir, slug=SLUG, index=-1):
    cards, findings = validate_paths([data_dir / "cards" / f"{slug}.yaml"], data_dir=data_dir)
    assert not [str(f) for f in findings if f.severity == "error"]
    return cards[0].data["sessions"][index]


def written_bytes(card):
    return card.write_sectors() * 512


# --- ':' in the device name ------------------------------------------------------------

def test_a_device_link_with_colons_is_measured_on_the_card_itself(tmp_path):
    """fio reads 'a:b' in --filename as two files: it must get a path without ':', never the link."""
    links = tmp_path / "by-path"
    links.mkdir()
    data_dir = tmp_path / "data"
    profile = Profile(name="quick", description="fio write and read, dd write", tools=("fio", "dd"),
                      steps=(FioStep(FioJob("SEQ", MiB, 2, 1, "write", runtime=None, size=16 * MiB)),
                             FioStep(FioJob("SEQ", MiB, 2, 1, "read", runtime=None, size=16 * MiB)),
                             DdStep("write", count=2, runs=1)))
    with LoopCard(size=256 * MiB) as card:
        card.throttle(read_bps=40_000_000, write_bps=40_000_000)
        link = links / BY_PATH
        link.symlink_to(card.device)
        before = written_bytes(card)
        with card.joined():
            report = collect(request(link, data_dir, profile))
        # 16 MiB by fio and 8 MiB by dd reached the card (the loop device counts what it was given).
        assert written_bytes(card) - before >= 24 * MiB
        device = card.device
    assert report.complete, report.failed
    assert sorted(p.name for p in links.iterdir()) == [BY_PATH]  # no file made beside the link
    session = kept_session(data_dir)
    raw = data_dir / "raw" / SLUG / session["id"]
    assert not [p.name for p in raw.iterdir() if ":" in p.name or p.name.startswith(("pci-", "usb-", "scsi-"))]
    assert all(f"--filename={device} " in r["command"] for r in session["results"])
    assert f"of={device} " in session["dd"][0]["command"]


# --- the device's name changes while a test runs ---------------------------------------

def test_a_link_repointed_during_a_test_never_sends_a_write_to_the_other_device(tmp_path):
    """The name is resolved once; every dd run writes through the descriptor the collector holds."""
    data_dir = tmp_path / "data"
    profile = Profile(name="quick", description="dd five runs", tools=("dd",),
                      steps=(DdStep("write", count=2, runs=5),))
    with LoopCard(size=256 * MiB) as card, LoopCard(size=256 * MiB) as other:
        card.throttle(write_bps=40_000_000)
        link = tmp_path / "card-link"
        link.symlink_to(card.device)
        other_before, card_before = other.write_sectors(), written_bytes(card)

        def repoint_as_the_first_run_starts(event):
            if event.phase == "tick" and event.detail == "run 1/5" and os.readlink(link) == card.device:
                link.unlink()
                link.symlink_to(other.device)

        with card.joined():
            report = collect(request(link, data_dir, profile), progress=repoint_as_the_first_run_starts)
        assert os.readlink(link) == other.device  # the repointing did happen
        assert other.write_sectors() == other_before  # not one sector reached the other device
        assert written_bytes(card) - card_before >= 5 * 2 * 4 * MiB
    assert report.complete and len(kept_session(data_dir)["dd"][0]["runs"]) == 5


def test_another_device_taking_the_name_between_two_runs_stops_before_the_next_run(tmp_path):
    data_dir = tmp_path / "data"
    profile = Profile(name="quick", description="dd three runs", tools=("dd",),
                      steps=(DdStep("write", count=2, runs=3),))
    with LoopCard(size=256 * MiB) as card, LoopCard(size=512 * MiB) as other:
        card.throttle(write_bps=40_000_000)
        node = os.stat(card.device)
        other_before = other.write_sectors()

        def rename_during_run_two(event):
            if event.phase == "tick" and event.detail == "run 2/3" and os.stat(card.device).st_rdev == node.st_rdev:
                os.unlink(card.device)
                os.mknod(card.device, stat.S_IFBLK | 0o600, os.stat(other.device).st_rdev)

        try:
            with card.joined(), pytest.raises(CardChangedError) as err:
                collect(request(card.device, data_dir, profile), progress=rename_during_run_two)
        finally:
            if os.stat(card.device).st_rdev != node.st_rdev:
                os.unlink(card.device)
                os.mknod(card.device, node.st_mode, node.st_rdev)
        assert other.write_sectors() == other_before
    assert "stopped before dd in dd write bs=4M count=2, nothing more was written" in str(err.value)
    assert err.value.report.ran == []


# --- the readonly profile's test file ---------------------------------------------------

def readonly_profile():
    # The device read is 128 MiB, over 3 s at the throttle: a first read the throttle lets through at memory speed
    # (seen as 4,400 MB/s for 8 MiB) then cannot make its mean pass a bus ceiling and refuse the session.
    return Profile(name="readonly", description="a file write and a device read", mode="filesystem",
                   tools=("dd", "fio"),
                   steps=(DdStep("write", count=2, runs=1, target="file"), DdStep("read", count=32, runs=1),
                          FioStep(FioJob("RND", 4 * KiB, 1, 1, "write", runtime=1, size=8 * MiB), target="file")))


def test_the_readonly_test_file_never_follows_a_planted_link_nor_touches_a_users_file(tmp_path):
    data_dir = tmp_path / "data"
    with LoopCard(size=512 * MiB) as card, LoopCard(size=256 * MiB) as other:
        card.throttle(read_bps=40_000_000, write_bps=40_000_000)
        mount_dir = card.make_fs_and_mount()
        # Whoever can write to the card's filesystem plants links at the names a test file could take.
        (mount_dir / ".cardbench-test.bin").symlink_to(other.device)
        (mount_dir / "notes.txt").write_text("the user's own file\n")
        other_before = other.write_sectors()
        with card.joined():
            report = collect(request(card.device, data_dir, readonly_profile()))
        assert other.write_sectors() == other_before
        assert os.readlink(mount_dir / ".cardbench-test.bin") == other.device
        assert (mount_dir / "notes.txt").read_text() == "the user's own file\n"
        assert sorted(p.name for p in mount_dir.iterdir()) == [".cardbench-test.bin", "lost+found", "notes.txt"]
    assert report.complete, report.failed
    session = kept_session(data_dir)
    assert f"of={mount_dir}/.cardbench-test-" in session["dd"][0]["command"]
    assert f"--filename={mount_dir}/.cardbench-test-" in session["results"][0]["command"]


# --- an import while the collector runs ---------------------------------------------------



def dd_log(folder):
    """A dd write log someone imports into the same card (its rate agrees with its bytes and seconds)."""
    path = folder / "dd-imported.txt"
    path.write_text("$ dd if=/dev/zero of=/dev/sdc bs=4M count=8 oflag=direct\n8+0 records in\n8+0 records out\n"
                    "33554432 bytes (34 MB, 32 MiB) copied, 1.63627 s, 20.5 MB/s\n")
    return path


def two_reads(count=4, count_1m=16):
    return Profile(name="quick", description="two short reads", tools=("dd",),
                   steps=(DdStep("read", count=count, runs=1), DdStep("read", bs=MiB, count=count_1m, runs=1)))


def test_an_import_during_the_run_does_not_disturb_the_collectors_session(tmp_path):
    data_dir = tmp_path / "data"
    with LoopCard(size=256 * MiB) as card:
        card.throttle(read_bps=40_000_000)

        def import_after_the_first_test(event):
            if event.phase == "done" and event.index == 1:
                import_file(dd_log(tmp_path), data_dir / "cards", SLUG, data_dir=data_dir)

        with card.joined():
            report = collect(request(card.device, data_dir, two_reads()), progress=import_after_the_first_test)
    assert report.complete and len(report.ran) == 2
    mine, imported = kept_session(data_dir, index=0), kept_session(data_dir, index=1)
    assert mine["id"] == report.session_id and mine["complete"] is True and len(mine["dd"]) == 2
    assert imported["source"]["name"] != "cardbench collector"
    listed = {raw for entry in mine["dd"] for raw in entry["raw"]}
    assert len(listed) == 2 and all((data_dir / raw).is_file() for raw in listed)


@pytest.mark.parametrize("when", [1, 2], ids=["before the first save", "after it"])
def test_an_import_does_not_stop_a_run_whose_figures_raise_the_new_cards_bus(tmp_path, when):
    """Reads faster than UHS-I allows: the collector raises the bus of the card it creates, and keeps
    saving its own session by its id while an imported one lands in the same card file."""
    data_dir = tmp_path / "data"
    # 64 MiB reads: long enough for the throttle to set the figure. 60 MB/s is below the UHS-I ceiling
    # (104 MB/s), 150 MB/s above it and below the SD Express one.
    fast = 150_000_000
    with LoopCard(size=256 * MiB) as card:
        card.throttle(read_bps=fast if when == 1 else 60_000_000)

        def import_during_a_test(event):
            if event.phase == "start" and event.index == when:  # the first creates the card, as UHS-I
                import_file(dd_log(tmp_path), data_dir / "cards", SLUG, name="Loop Pinned 1GB", data_dir=data_dir)
                (card.group / "blkio.throttle.read_bps_device").write_text(f"{card.majmin} {fast}\n")

        with card.joined():
            report = collect(request(card.device, data_dir, two_reads(count=16, count_1m=64)),
                             progress=import_during_a_test)
    assert report.complete and len(report.ran) == 2, report.failed
    cards, _ = validate_paths([data_dir / "cards" / f"{SLUG}.yaml"], data_dir=data_dir)
    found = cards[0].data["sessions"]
    assert cards[0].data["bus"] in ("UHS-II", "UHS-III", "SD Express") and len(found) == 2
    mine = next(s for s in found if s["id"] == report.session_id)
    assert mine["complete"] is True and len(mine["dd"]) == 2
    assert [s["source"]["name"] != "cardbench collector" for s in found].count(True) == 1


def test_the_same_command_resumes_its_session_after_an_import_landed(tmp_path):
    data_dir = tmp_path / "data"
    with LoopCard(size=256 * MiB) as card:
        card.throttle(read_bps=40_000_000)

        def stop_after_the_first_test(event):
            if event.phase == "done" and event.index == 1:
                raise CollectInterrupted("SIGINT")

        with card.joined(), pytest.raises(CollectInterrupted):
            collect(request(card.device, data_dir, two_reads()), progress=stop_after_the_first_test)
        import_file(dd_log(tmp_path), data_dir / "cards", SLUG, data_dir=data_dir)
        with card.joined():
            report = collect(request(card.device, data_dir, two_reads()))
    assert report.resumed and report.complete and report.skipped == ["dd read bs=4M count=4"]
    cards, _ = validate_paths([data_dir / "cards" / f"{SLUG}.yaml"], data_dir=data_dir)
    found = cards[0].data["sessions"]
    assert len(found) == 2 and found[0]["id"] == report.session_id and found[0]["complete"] is True
    assert len(found[0]["dd"]) == 2


# --- names the card file would refuse ------------------------------------------------------------

@pytest.mark.parametrize("name, label, message", [
    ("SanDisk " + "Extreme " * 40, None, r"--name \(make: NAME=\): text is 319 characters; at most 100"),
    ("SanDisk\u202eExtreme 64GB", None, r"--name \(make: NAME=\): contains U\+202E"),
    ("SanDisk Extreme 64GB", "bell\x07", r"--label \(make: LABEL=\): contains U\+0007"),
])
def test_a_name_or_label_the_card_file_refuses_stops_before_any_test(tmp_path, name, label, message):
    with LoopCard(size=256 * MiB) as card:
        before = card.write_sectors()
        given = CollectRequest(device=card.device, slug=SLUG, profile=two_reads(), name=name, label=label, yes=True,
                               data_dir=tmp_path / "data")
        with pytest.raises(CardMismatchError, match=message):
            collect(given)
        assert card.write_sectors() == before and not card.openers()
    assert not (tmp_path / "data").exists()


# --- messages about the device name ------------------------------------------------------------

def test_a_device_name_in_a_message_is_one_short_line(tmp_path):
    assert device_text("/dev/sdb") == "/dev/sdb"
    long_name = "/dev/" + "x" * 5000
    for given in ("/dev/sdb\nfake: all is well", long_name):
        with pytest.raises(GuardError) as err:
            collect(request(given, tmp_path / "data", two_reads()))
        message = str(err.value)
        assert "\n" not in message and len(message) < 300, message
    assert not (tmp_path / "data").exists()
