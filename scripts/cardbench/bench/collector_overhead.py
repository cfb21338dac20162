"""Collector overhead: `cardbench collect --profile quick` on a throttled loop-device card.

The card is a sparse 16 GiB file on a loop device, limited by a cgroup (v1 blkio throttle) that the
collector runs in; the group's own byte counters say how much it read and wrote. Were the
collector nothing but I/O at the throttle, it would take read bytes ÷ read limit + written bytes ÷
write limit; its wall time over that is its overhead (tool start-up, fio file layout, checks,
writing the card file). Uses the loop-card helper of the tests (tests/loopcard.py) and needs root.
"""

import importlib.util
import os
import time
from dataclasses import dataclass
from pathlib import Path

from .measure import PYTHON, run
from .project import ROOT

LOOPCARD = ROOT / "tests" / "loopcard.py"
READ_BPS = 30_000_000
WRITE_BPS = 15_000_000
SLUG = "bench-loop-16gb"


@dataclass
class CollectorResult:
    seconds: float = 0.0
    read_bytes: int = 0
    written_bytes: int = 0
    returncode: int | None = None
    not_measured: str | None = None  # why, when it could not be measured
    log_tail: str = ""

    @property
    def io_seconds(self):
        return self.read_bytes / READ_BPS + self.written_bytes / WRITE_BPS

    @property
    def ratio(self):
        return self.seconds / self.io_seconds if self.io_seconds else None


def _service_bytes(group, majmin):
    """Bytes read and written on the device by the group's processes (cgroup v1 blkio counters)."""
    read = written = 0
    for name in ("blkio.throttle.io_service_bytes_recursive", "blkio.throttle.io_service_bytes"):
        path = Path(group) / name
        if not path.exists():
            continue
        for line in path.read_text().splitlines():
            parts = line.split()
            if len(parts) == 3 and parts[0] == majmin:
                if parts[1] == "Read":
                    read = int(parts[2])
                elif parts[1] == "Write":
                    written = int(parts[2])
        return read, written
    raise OSError("no blkio.throttle.io_service_bytes counters in the card's group")


def _load_loopcard():
    spec = importlib.util.spec_from_file_location("cardbench_bench_loopcard", LOOPCARD)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def why_not(collect_available=True):
    """Reason the collector cannot be measured here, or None."""
    if os.geteuid() != 0:
        return "needs root (loop devices and cgroups)"
    if not LOOPCARD.exists():
        return "the loop-card helper tests/loopcard.py is missing"
    if not Path("/sys/fs/cgroup/blkio").is_dir():
        return "no cgroup v1 blkio hierarchy for the throttle"
    try:
        from ..collect import PROFILES
    except ImportError as exc:
        return f"the collector does not import yet ({exc})"
    if "quick" not in PROFILES:
        return "the collector has no quick profile yet"
    return None


def measure_collector(work_dir, timeout=1800):
    """Run the quick profile once on a throttled loop card; returns a CollectorResult."""
    reason = why_not()
    if reason:
        return CollectorResult(not_measured=reason)
    loopcard = _load_loopcard()
    data_dir = Path(work_dir) / "collector-data"
    with loopcard.LoopCard(size=16 * loopcard.GiB, workdir=work_dir) as card:
        card.throttle(read_bps=READ_BPS, write_bps=WRITE_BPS)
        argv = [PYTHON, "-m", "cardbench", "collect", card.device, "--card", SLUG, "--name", "Bench Loop 16GB",
                "--profile", "quick", "--yes", "--data-dir", str(data_dir)]
        # Join the card's group from this process for the child to inherit, then leave again.
        with card.joined():
            start = time.perf_counter()
            measured = run(argv, cwd=ROOT)
        seconds = time.perf_counter() - start
        read, written = _service_bytes(card.group, card.majmin)
    result = CollectorResult(seconds=seconds, read_bytes=read, written_bytes=written, returncode=measured.returncode,
                             log_tail=measured.tail(15))
    if not measured.ok:
        result.not_measured = f"`cardbench collect` exited with {measured.returncode}"
    return result
