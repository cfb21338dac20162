"""The throttled loop-device card itself: dd through it shows the limits; clean-up leaves nothing behind.

cgroup v1 (blkio.throttle.*) and v2 (io.max) are both supported. On hosts where the io controller
is bound to the v1 hierarchy (hybrid mode), the v2 group still holds the process but cannot
limit it; the test then checks the grouping and that the card reports itself unthrottled.
"""

import os
import re
import subprocess
from pathlib import Path

import pytest

from loopcard import GiB, LoopCard, cgroup_v2_io_available

pytestmark = pytest.mark.skipif(os.geteuid() != 0, reason="loop devices and cgroups need root")
MiB = 1024**2


def dd_mb_s(card, *args):
    done = card.run(["dd", *args], capture_output=True, text=True, env={"LANG": "C", "PATH": os.environ["PATH"]},
                    check=True)
    return float(re.search(r"copied, [\d.]+ s, ([\d.]+) MB/s", done.stderr).group(1))


def test_v1_throttle_holds_within_one_percent_for_direct_io():
    with LoopCard(size=16 * GiB) as card:
        assert Path(f"/sys/block/{card.name}/loop/dio").read_text().strip() == "1"
        card.throttle(read_bps=30_000_000, write_bps=15_000_000)
        write = dd_mb_s(card, "if=/dev/zero", f"of={card.device}", "bs=4M", "count=32", "oflag=direct")
        read = dd_mb_s(card, f"if={card.device}", "of=/dev/null", "bs=4M", "count=64", "iflag=direct")
        group, device, image = card.group, card.device, card.image
    # 128 and 256 MiB: long enough that the throttle's first-slice allowance (~0.1 s) stays near 1 %.
    assert abs(write - 15.0) <= 0.02 * 15.0, write
    assert abs(read - 30.0) <= 0.02 * 30.0, read
    assert not group.exists() and not image.exists()
    assert device not in subprocess.run(["losetup", "--list"], capture_output=True, text=True).stdout


def test_v2_group():
    with LoopCard(size=GiB, cgroup_version=2) as card:
        card.throttle(read_bps=30_000_000, write_bps=15_000_000)
        cgroup = card.run(["cat", "/proc/self/cgroup"], capture_output=True, text=True, check=True).stdout
        assert f"0::/{card.group.name}" in cgroup.splitlines()
        if cgroup_v2_io_available():
            assert card.throttled
            assert (card.group / "io.max").read_text().startswith(f"{card.majmin} rbps=30000000 wbps=15000000")
            write = dd_mb_s(card, "if=/dev/zero", f"of={card.device}", "bs=4M", "count=32", "oflag=direct")
            assert abs(write - 15.0) <= 0.02 * 15.0, write
        else:
            assert not card.throttled  # io is bound to the v1 hierarchy here
        group = card.group
    assert not group.exists()


def test_clean_up_after_a_failure_kills_what_runs_in_the_group():
    with pytest.raises(RuntimeError):
        with LoopCard(size=GiB) as card:
            card.throttle(write_bps=1_000_000)
            sleeper = card.popen(["sleep", "60"])
            group, device = card.group, card.device
            raise RuntimeError("test failed half-way")
    assert sleeper.wait(timeout=5) == -9
    assert not group.exists()
    assert device not in subprocess.run(["losetup", "--list"], capture_output=True, text=True).stdout
