"""Throttled loop-device "cards" for collector tests: a sparse file on a loop device, with blkio
limits from a cgroup (v1 blkio.throttle.* or v2 io.max) that the collector runs inside.

    with LoopCard(size=16 * GiB) as card:
        card.throttle(read_bps=30_000_000, write_bps=15_000_000)
        proc = card.popen([...])      # runs inside the card's cgroup

Everything is removed on exit, also after a failure: processes left in the group are killed,
mounts of the device are unmounted, the group, the loop device and the file are deleted.
"""

import contextlib
import itertools
import os
import signal
import struct
import subprocess
import tempfile
import threading
import time
from pathlib import Path

GiB = 1024**3
CGROUP_V1 = Path("/sys/fs/cgroup/blkio")
CGROUP_V2 = Path("/sys/fs/cgroup/unified")
_serial = itertools.count(1)


def run(argv, **kwargs):
    return subprocess.run(argv, check=True, capture_output=True, text=True, **kwargs)


def cgroup_v2_io_available(base=CGROUP_V2):
    """True when the v2 hierarchy has the io controller (false when blkio is bound to v1)."""
    try:
        return "io" in (base / "cgroup.controllers").read_text().split()
    except OSError:
        return False


def write_mbr(path, start_sector=2048, sectors=None, part_type=0x83):
    """A DOS partition table with one partition, written straight into the image (no sfdisk needed)."""
    size = os.path.getsize(path)
    sectors = sectors or size // 512 - start_sector
    entry = struct.pack("<B3sB3sII", 0x00, b"\xfe\xff\xff", part_type, b"\xfe\xff\xff", start_sector, sectors)
    with open(path, "r+b") as handle:
        handle.seek(446)
        handle.write(entry + b"\x00" * 48 + b"\x55\xaa")


def device_openers(device):
    """PIDs that have the device open, from /proc/<pid>/fd links."""
    pids = []
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            links = [os.readlink(fd) for fd in (proc / "fd").iterdir()]
        except OSError:
            continue  # gone, or a kernel thread
        if device in links:
            pids.append(int(proc.name))
    return pids


def wait_until_free(device, seconds=10.0):
    """Wait until nothing holds the device exclusively (a mount ends a little after its namespace)."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            os.close(os.open(device, os.O_RDONLY | os.O_EXCL))
            return
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.05)


def data_snapshot(folder):
    """Every folder and file under folder with its bytes: equal snapshots mean nothing changed."""
    folder = Path(folder)
    if not folder.exists():
        return None
    return {str(p.relative_to(folder)): (p.read_bytes() if p.is_file() else "<folder>")
            for p in sorted(folder.rglob("*"))}


class WriteLimitDrop:
    """Watches a throttled card's written-sector count and lowers its write limit past a threshold."""

    def __init__(self, card, written_bytes, write_bps, poll_seconds):
        if card.group is None:
            raise RuntimeError("throttle the card first: the drop changes its cgroup's write limit")
        self.card = card
        self.threshold = written_bytes
        self.write_bps = int(write_bps)
        self.poll_seconds = poll_seconds
        self.switched_at = None
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._watch, daemon=True)

    def _write_limit(self):
        if self.card.cgroup_version == 1:
            (self.card.group / "blkio.throttle.write_bps_device").write_text(f"{self.card.majmin} {self.write_bps}\n")
        else:
            (self.card.group / "io.max").write_text(f"{self.card.majmin} wbps={self.write_bps}\n")

    def _watch(self):
        start = self.card.write_sectors() * 512
        while not self._stop.is_set():
            written = self.card.write_sectors() * 512 - start
            if written >= self.threshold:
                self._write_limit()
                self.switched_at = written
                return
            time.sleep(self.poll_seconds)

    def __enter__(self):
        self._thread.start()
        return self

    def __exit__(self, *exc):
        self._stop.set()
        self._thread.join(timeout=5)


class LoopCard:
    def __init__(self, size=16 * GiB, direct_io=True, partition=False, cgroup_version=1, workdir=None):
        self.size = size
        self.direct_io = direct_io
        self.partition = partition
        self.cgroup_version = cgroup_version
        self._tmp = tempfile.TemporaryDirectory(prefix="loopcard-", dir=workdir)
        self.image = Path(self._tmp.name) / "card.img"
        self.device = None
        self.majmin = None
        self.group = None
        self.mounts = []
        self.stacked = []  # loop devices set up on top of this one

    # --- set-up -----------------------------------------------------------------------------
    def __enter__(self):
        try:
            self.create()
        except BaseException:
            self.close()
            raise
        return self

    def __exit__(self, *exc):
        self.close()

    def create(self):
        with open(self.image, "wb") as handle:
            handle.truncate(self.size)  # sparse: no disk space until written
        if self.partition:
            write_mbr(self.image)
        argv = ["losetup", "--find", "--show"]
        if self.direct_io:
            argv.append("--direct-io=on")
        if self.partition:
            argv.append("--partscan")
        self.device = run(argv + [str(self.image)]).stdout.strip()
        self.majmin = Path(f"/sys/class/block/{self.name}/dev").read_text().strip()
        if self.partition:
            try:
                self._wait_for(Path(self.partition_device), seconds=1.0)
            except TimeoutError:
                # Kernels without the DOS partition parser: util-linux reads the table and adds the
                # partition through the BLKPG ioctl.
                run(["partx", "--add", self.device])
                self._wait_for(Path(self.partition_device))
        return self

    @property
    def name(self):
        return os.path.basename(self.device)

    @property
    def partition_device(self):
        return f"{self.device}p1"

    def _wait_for(self, path, seconds=5.0):
        deadline = time.monotonic() + seconds
        while not path.exists():
            if time.monotonic() > deadline:
                raise TimeoutError(f"{path} did not appear")
            time.sleep(0.05)

    # --- cgroup -----------------------------------------------------------------------------
    def throttle(self, read_bps=None, write_bps=None, read_iops=None, write_iops=None):
        """Limit the device for processes in this card's cgroup (bps in bytes/s, decimal)."""
        name = f"cardbench-loopcard-{os.getpid()}-{next(_serial)}"
        if self.cgroup_version == 1:
            self.group = CGROUP_V1 / name
            self.group.mkdir()
            for key, value in (("read_bps", read_bps), ("write_bps", write_bps), ("read_iops", read_iops),
                               ("write_iops", write_iops)):
                if value:
                    (self.group / f"blkio.throttle.{key}_device").write_text(f"{self.majmin} {int(value)}\n")
        else:
            self.group = CGROUP_V2 / name
            self.group.mkdir()
            limits = [f"{key}={int(value)}" for key, value in (("rbps", read_bps), ("wbps", write_bps),
                                                               ("riops", read_iops), ("wiops", write_iops)) if value]
            if limits and (self.group / "io.max").exists():
                (self.group / "io.max").write_text(f"{self.majmin} {' '.join(limits)}\n")
        return self.group

    @property
    def throttled(self):
        """Whether limits are in force (v2 without the io controller only groups processes)."""
        if self.group is None:
            return False
        return self.cgroup_version == 1 or (self.group / "io.max").exists()

    def _enter_group(self):
        # Runs in the child between fork and exec: join the group before the tool starts.
        if self.group is not None:
            with open(self.group / "cgroup.procs", "w") as handle:
                handle.write(str(os.getpid()))

    def popen(self, argv, **kwargs):
        return subprocess.Popen(argv, preexec_fn=self._enter_group, **kwargs)

    def run(self, argv, **kwargs):
        return subprocess.run(argv, preexec_fn=self._enter_group, **kwargs)

    @contextlib.contextmanager
    def joined(self):
        """Run the calling process itself inside the card's group for a while (in-process tests)."""
        procs = self.group / "cgroup.procs"
        home = (CGROUP_V1 if self.cgroup_version == 1 else CGROUP_V2) / "cgroup.procs"
        procs.write_text(str(os.getpid()))
        try:
            yield self
        finally:
            home.write_text(str(os.getpid()))

    def group_pids(self):
        if self.group is None or not self.group.exists():
            return []
        return [int(p) for p in (self.group / "cgroup.procs").read_text().split()]

    # --- filesystems ------------------------------------------------------------------------
    def make_fs_and_mount(self, device=None, mount_dir=None):
        device = device or self.device
        run(["mkfs.ext4", "-q", "-F", "-E", "lazy_itable_init=1,lazy_journal_init=1", device])
        target = Path(mount_dir or tempfile.mkdtemp(prefix="loopcard-mnt-", dir=self._tmp.name))
        target.mkdir(parents=True, exist_ok=True)
        run(["mount", device, str(target)])
        self.mounts.append(target)
        return target

    def umount_all(self):
        for target in reversed(self.mounts):
            subprocess.run(["umount", str(target)], capture_output=True)
        self.mounts = []

    @contextlib.contextmanager
    def mounted_elsewhere(self, device=None):
        """Mount the device in a private mount namespace kept alive by a sleeping process: invisible
        in this namespace's /proc/self/mountinfo, yet the kernel holds the device."""
        device = device or self.device
        target = Path(tempfile.mkdtemp(prefix="loopcard-ns-", dir=self._tmp.name))
        proc = subprocess.Popen(["unshare", "--mount", "--propagation", "private", "sh", "-c",
                                 'mount "$1" "$2" && exec sleep 3600', "sh", device, str(target)],
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        try:
            deadline = time.monotonic() + 10
            while str(target) not in Path(f"/proc/{proc.pid}/mountinfo").read_text():
                if proc.poll() is not None:
                    raise RuntimeError(f"mount in a new namespace failed: {proc.stderr.read().decode()}")
                if time.monotonic() > deadline:
                    raise TimeoutError("the mount in the other namespace did not appear")
                time.sleep(0.05)
            yield proc.pid
        finally:
            proc.kill()
            proc.wait()
            proc.stderr.close()
            wait_until_free(device)

    def stack(self, device=None):
        """A loop device whose backing file is this card's device (or the given one)."""
        upper = run(["losetup", "--find", "--show", device or self.device]).stdout.strip()
        self.stacked.append(upper)
        return upper

    def write_sectors(self, name=None):
        """512-byte sectors written to the device since it was set up (/sys/block/<name>/stat)."""
        return int(Path(f"/sys/block/{name or self.name}/stat").read_text().split()[6])

    def drop_write_limit_after(self, written_bytes, write_bps, poll_seconds=0.005):
        """An emulated SLC cache: a watcher thread that lowers the write limit to write_bps once
        written_bytes more have been written to the device (sectors written in /sys/block/<name>/stat).
        Use as a context manager; `switched_at` holds the bytes written when the limit changed."""
        return WriteLimitDrop(self, written_bytes, write_bps, poll_seconds)

    def openers(self):
        """PIDs with the device open (their /proc/<pid>/fd)."""
        return device_openers(self.device)

    # --- clean-up ---------------------------------------------------------------------------
    def close(self):
        for pid in self.group_pids():
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        for upper in reversed(self.stacked):
            subprocess.run(["umount", upper], capture_output=True)
            subprocess.run(["losetup", "--detach", upper], capture_output=True)
        self.stacked = []
        self.umount_all()
        if self.group is not None:
            deadline = time.monotonic() + 5
            while self.group.exists():
                try:
                    self.group.rmdir()
                except OSError:
                    if time.monotonic() > deadline:
                        break
                    time.sleep(0.05)
            self.group = None
        if self.device:
            subprocess.run(["losetup", "--detach", self.device], capture_output=True)
            self.device = None
        self._tmp.cleanup()
