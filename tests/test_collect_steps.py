"""Steps the quick profile does not run, with the real tools on small throttled loop cards:
f3probe, the sustained fill, flashbench -f and --open-au --random (full profile), and the readonly
profile's file-only writes. Small custom profiles keep them short. Plus the SD Express (NVMe)
temperature monitor, fed by a stand-in for nvme-cli since no NVMe card is attached here.
"""

import hashlib
import json
import os
import subprocess
import time

import pytest

from cardbench.collect import nvmemon
from cardbench.collect.profiles import (DdStep, F3ProbeStep, FillStep, FioJob, FioStep, FlashAlignStep,
                                        FlashFindFatStep, FlashOpenAuStep, KiB, MiB, Profile)
from cardbench.collect.errors import DeviceVanishedError
from cardbench.collect.nvmemon import NvmeMonitor
from cardbench.collect.runner import CollectRequest, collect
from cardbench.card.checks.schema_findings import schema_validator
from cardbench.card.checks.validate import validate_paths
from loopcard import GiB, LoopCard

pytestmark = pytest.mark.skipif(os.geteuid() != 0, reason="loop devices and cgroups need root")


def run_profile(card, data_dir, profile, slug):
    events = []
    request = CollectRequest(device=card.device, slug=slug, profile=profile, name="Loop Test Card", yes=True,
                             data_dir=data_dir)
    with card.joined():
        report = collect(request, progress=events.append)
    path = data_dir / "cards" / f"{slug}.yaml"
    cards, findings = validate_paths([path], data_dir=data_dir)
    assert not [str(f) for f in findings if f.severity == "error"]
    return report, cards[0].data["sessions"][-1], events


def test_full_profile_steps(tmp_path):
    profile = Profile(name="full", description="full-profile steps on a small card",
                      tools=("fio", "flashbench", "f3probe"),
                      steps=(FlashFindFatStep(fat_nr=3, blocksize=256 * KiB), FlashOpenAuStep(open_au=2, random=True),
                             F3ProbeStep(), FillStep(limit_bytes=128 * MiB)))
    with LoopCard(size=256 * MiB) as card:
        # 20 MB/s keeps the throttle's first-slice allowance (bps x 0.1 s) below one 4 MiB write, so no
        # burst reaches flashbench's 1 G/s figures, which it prints cut to 7 characters ("1.462G/").
        card.throttle(read_bps=20_000_000, write_bps=20_000_000)
        report, session, events = run_profile(card, tmp_path / "data", profile, "loop-full-steps")
    assert report.complete and not report.failed, report.failed
    assert session["f3probe"]["fake"] is False and session["f3probe"]["usable_bytes"] == 256 * MiB
    fill = session["fill"][0]
    # fio's bandwidth log every 0.5 s: 128 MiB at 20 MB/s is about 13 points, the last at all 128 MiB.
    assert 8 <= len(fill["points"]) <= 20 and fill["points"][-1]["written_gb"] == 0.1342
    assert all(0 < p["value"] <= 25 for p in fill["points"]) and "--write_bw_log=fill-write" in fill["command"]
    assert session["flashbench_open_au"][0]["mode"] == "random"
    assert session["flashbench_open_au"][0]["command"].startswith("flashbench --open-au --open-au-nr=2 ")
    assert session["flashbench_find_fat"][0]["command"].startswith("flashbench -f --fat-nr=3 ")
    assert len(session["flashbench_find_fat"][0]["rows"]) == 5
    assert all(len(row["values"]) == 3 for row in session["flashbench_find_fat"][0]["rows"])
    assert {e.phase for e in events} >= {"start", "tick", "done", "finish"}


def test_readonly_profile_writes_only_inside_the_filesystem(tmp_path):
    profile = Profile(name="readonly", description="readonly steps, short", mode="filesystem",
                      tools=("fio", "dd", "flashbench"),
                      steps=(DdStep("write", count=8, runs=1, target="file"), DdStep("read", count=8, runs=1),
                             FioStep(FioJob("RND", 4 * KiB, 1, 1, "write", runtime=1, size=16 * MiB), target="file"),
                             FioStep(FioJob("RND", 4 * KiB, 1, 1, "read", runtime=1, size=16 * MiB)),
                             FlashAlignStep(count=2)))
    with LoopCard(size=4 * GiB, partition=True) as card:
        card.throttle(read_bps=30_000_000, write_bps=30_000_000)
        mount_dir = card.make_fs_and_mount(card.partition_device)
        device = card.device
        with open(card.device, "rb") as dev:
            before = hashlib.sha256(dev.read(MiB)).hexdigest()  # partition table and the gap before the partition
        report, session, _ = run_profile(card, tmp_path / "data", profile, "loop-readonly")
        assert not list(mount_dir.glob(".cardbench-test*"))
        card.umount_all()
        with open(card.device, "rb") as dev:
            assert hashlib.sha256(dev.read(MiB)).hexdigest() == before
        fsck = subprocess.run(["e2fsck", "-f", "-n", card.partition_device], capture_output=True, text=True)
        assert fsck.returncode == 0, fsck.stdout + fsck.stderr
    assert report.complete
    assert session["target"] == "ext4 filesystem" and session["compare"] is False
    assert [(d["op"], d["target"]) for d in session["dd"]] == [("write", "file"), ("read", "device")]
    assert f"of={mount_dir}/.cardbench-test-" in session["dd"][0]["command"]
    write, read = session["results"]
    assert f"--filename={mount_dir}/.cardbench-test-" in write["command"]
    assert f"--filename={device}" in read["command"] and "--readonly" in read["command"]


def test_a_figure_above_the_guessed_bus_raises_the_new_cards_bus(tmp_path):
    profile = Profile(name="quick", description="one fast read", tools=("dd",),
                      steps=(DdStep("read", count=32, runs=1),))
    with LoopCard(size=GiB) as card:
        card.throttle(read_bps=150_000_000)  # above UHS-I (104 MB/s), below UHS-II (312 MB/s)
        report, session, _ = run_profile(card, tmp_path / "data", profile, "loop-fast-card")
    assert report.complete and "bus set to UHS-II" in report.notes[0]
    assert 104 < session["dd"][0]["runs"][0] < 312
    card_text = (tmp_path / "data" / "cards" / "loop-fast-card.yaml").read_text()
    assert "bus: UHS-II" in card_text


STAND_IN = """\
#!/bin/sh
# Stand-in for nvme-cli: answers like an SD Express card would.
case "$1" in
  id-ctrl) echo '{"vid":4660,"sn":"SN0123456789 ","mn":"SD Express card ADATA SD71 ","fr":"W0926A  ",'
           echo '"wctemp":356,"cctemp":358}' ;;
  smart-log) n=$(cat "$STATE" 2>/dev/null || echo 0); echo $((n + 1)) > "$STATE"
             echo "{\\"critical_warning\\":0,\\"temperature\\":$((303 + n)),\\"avail_spare\\":100}" ;;
  get-feature) case "$3" in
      --feature-id=0x04) echo "get-feature:0x04 (Temperature Threshold), Current value:0x000164"
                         echo "	Threshold Type Select         (THSEL): 0 - Over Temperature Threshold"
                         echo "	Temperature Threshold         (TMPTH): 83°C (356 Kelvin)" ;;
      *) exit 2 ;;
    esac ;;
  *) exit 1 ;;
esac
"""


class _Ctx:
    def __init__(self, raw_dir):
        self.raw_dir = raw_dir

    def rel(self, name):
        return f"raw/loop-nvme/2025-01-01-test/{name}"

    def log(self, text):
        pass


def test_nvme_monitor_records_thresholds_and_temperatures(tmp_path, monkeypatch):
    nvme = tmp_path / "nvme"
    nvme.write_text(STAND_IN)
    nvme.chmod(0o755)
    monkeypatch.setenv("STATE", str(tmp_path / "state"))
    monkeypatch.setattr(nvmemon, "SAMPLE_SECONDS", 0.05)
    monitor = NvmeMonitor(str(nvme), "/dev/nvme0", _Ctx(tmp_path), time.monotonic())
    monitor.begin()
    deadline = time.monotonic() + 10
    while len(monitor.samples) < 3 and time.monotonic() < deadline:
        time.sleep(0.05)
    monitor.end()
    entry = monitor.entry("PCIe Gen3 x1")
    temps = entry["temperature_c"]
    assert temps["before"] == 30 and temps["after"] > temps["before"] and temps["max"] == temps["after"]
    assert len(temps["samples"]) >= 3 and all(s["seconds"] >= 0 for s in temps["samples"])
    assert entry["firmware"] == "W0926A" and entry["model"] == "SD Express card ADATA SD71"
    assert entry["thresholds_c"] == {"wctemp": 83, "cctemp": 85, "tmpth": 83}
    assert entry["pcie_link"] == "PCIe Gen3 x1"
    names = sorted(r.rsplit("/", 1)[1] for r in entry["raw"])
    assert names == ["nvme-features.txt", "nvme-id-ctrl.json", "nvme-smart-log-after.json",
                     "nvme-smart-log-before.json", "nvme-smart-log-samples.txt"]
    assert all((tmp_path / name).is_file() for name in names)
    samples = (tmp_path / "nvme-smart-log-samples.txt").read_text().splitlines()
    assert len(samples) == len(temps["samples"]) and json.loads(samples[0])["temperature"] >= 304
    nvme_schema = schema_validator().schema["properties"]["sessions"]["items"]["properties"]["nvme"]
    assert not list(schema_validator().evolve(schema=nvme_schema).iter_errors(entry))


def test_vanished_device_keeps_finished_tests(tmp_path):
    """A reader that drops the card removes its device node: the run stops before the next tool,
    and what finished stays in the card file (complete: false)."""
    profile = Profile(name="quick", description="two reads", tools=("dd",),
                      steps=(DdStep("read", count=4, runs=1), DdStep("read", bs=MiB, count=4, runs=1)))
    data_dir = tmp_path / "data"
    with LoopCard(size=GiB) as card:
        card.throttle(read_bps=30_000_000)
        node = os.stat(card.device)

        def pull_the_card(event):
            if event.phase == "done" and event.index == 1:
                os.unlink(card.device)

        request = CollectRequest(device=card.device, slug="loop-vanishing", profile=profile, name="Loop Vanishing Card",
                                 yes=True, data_dir=data_dir)
        try:
            with card.joined(), pytest.raises(DeviceVanishedError,
                                              match="disappeared before dd read bs=1M count=4") as err:
                collect(request, progress=pull_the_card)
        finally:
            if not os.path.exists(card.device):
                os.mknod(card.device, node.st_mode, node.st_rdev)
    assert [label for label, _ in err.value.report.ran] == ["dd read bs=4M count=4"]
    cards, findings = validate_paths([data_dir / "cards" / "loop-vanishing.yaml"], data_dir=data_dir)
    assert not [f for f in findings if f.severity == "error"]
    session = cards[0].data["sessions"][0]
    assert session["complete"] is False and len(session["dd"]) == 1


def test_a_fio_tests_progress_line_writes_iops_as_a_whole_number():
    from cardbench.collect.steps import fio_summary

    assert fio_summary(14.63, 3661.4) == "14.6 MB/s, 3,661 IOPS"
    assert "e+" not in fio_summary(900.0, 123456.0)
