"""What each profile runs, and how long it takes.

Durations: `estimate_seconds` for a card writing 20 MB/s and reading 40 MB/s, and measured on
throttled loop-device cards (15 MB/s write, 30 MB/s read, 500/1500 IOPS, 16 GiB, unless noted);
tests/test_collect_units.py checks the quick budget.

  quick     estimate 1.4 min, measured 1 min 22 s (budget: 3 min). Every tool once: the
            CrystalDiskMark 8 default set (SEQ1M Q8T1, SEQ1M Q1T1, RND4K Q32T1, RND4K Q1T1; write
            then read; one 5-second run each over 1 GiB), one dd write and read (4 MiB blocks,
            256 MiB), a dd write sweep 4 KiB…4 MiB (6 sizes, 4 MiB each), flashbench -a, one
            --open-au sweep (2 AUs). No f3probe: it writes about 2 GB whatever the card (measured:
            2 min 23 s on the 15 MB/s card), more than the whole quick budget.
  standard  estimate 21 min (8 at 90 MB/s), measured 25 min 14 s. The CrystalDiskMark 8 default
            set and the cdm_fio.sh set (SEQ1G Q1T1, SEQ512K Q1T1, SEQ32M Q32T1, RND4K Q1T1,
            RND4K Q32T1, RND4K Q8T8), three runs each; dd 4 MiB x 256 write and read, five runs
            each; a dd write sweep 4 KiB…4 MiB (11 sizes, 16 MiB each); flashbench -a, -f, and
            --open-au sequential (1, 2, 4, 8 AUs) and --random (1, 2, 4 AUs).
  full      standard with five fio runs, longer open-AU sweeps down to 16 KiB, f3probe, and a
            sustained fill of the whole card (fio, bandwidth logged every 0.5 s: throughput
            against GB written, the SLC cache and the speeds after it). The fill dominates: card
            size / write speed, e.g. 53 minutes for 64 GB at 20 MB/s; estimate 90 min for a 64 GB card
            at 20 MB/s. Measured: 22 min 46 s on a 4 GiB card at 45 MB/s write, 90 MB/s read.
  fill      identification, then only the sustained fill of the full profile: card size / write
            speed. Measured: 48 s on a 1.375 GiB loop card writing 60 MB/s for its first 1 GiB and
            15 MB/s after (tests/test_fill_e2e.py).
  readonly  never writes the raw card: fio and dd reads on the device (fio --readonly), fio and
            dd writes to a 1 GiB file on the card's mounted filesystem, flashbench -a (reads).
            Estimate 9 min, measured 11 min 16 s (ext4).

Time-based fio runs keep durations fixed on slow cards; SEQ1G (one 1 GiB I/O) and SEQ32M Q32T1
(1 GiB in flight) cannot be cut short, so they cost 1 GiB at the card's speed per run.
"""

from dataclasses import dataclass, field

from ..core.subtest_names import cdm_test_name
from ..core.units import GB_BYTES, GIB_BYTES as GiB, KIB_BYTES as KiB, MB_BYTES, MIB_BYTES as MiB

# Speeds assumed before anything is measured (MB/s = 10^6 B/s); measured ones replace them.
DEFAULT_RATES = {"read": 40.0, "write": 20.0}
FIO_START_SECONDS = 1.0  # fio start-up and file layout check per run


def _seconds(nbytes, rates, op):
    return nbytes / (rates[op] * MB_BYTES)


@dataclass(frozen=True)
class FioJob:
    """One CrystalDiskMark subtest: SEQ/RND, block size, queue depth, threads, direction."""

    kind: str  # SEQ or RND
    bs: int
    iodepth: int
    numjobs: int
    op: str  # read or write
    runtime: int | None = 5  # seconds; None moves `size` bytes once
    size: int = GiB  # span covered, per thread
    ramp: int = 0

    @property
    def test(self):
        for suffix, factor in (("G", GiB), ("M", MiB), ("K", KiB)):
            if self.bs % factor == 0:
                return cdm_test_name(self.kind, f"{self.bs // factor}{suffix}", self.iodepth, self.numjobs)
        raise ValueError(self.bs)

    @property
    def key(self):
        return "fio-" + self.test.lower().replace(" ", "-") + "-" + self.op

    def estimate(self, rates):
        in_flight = self.bs * self.iodepth * self.numjobs
        if self.runtime is None:
            return FIO_START_SECONDS + _seconds(self.size, rates, self.op)
        # A run ends when its last I/O completes: at least everything in flight must move.
        return FIO_START_SECONDS + self.ramp + max(self.runtime, _seconds(min(in_flight, self.size), rates, self.op))


@dataclass(frozen=True)
class Step:
    """Base of every step. `key` names its raw files and marks it done when resuming."""

    @property
    def writes_device(self):
        return False

    @property
    def tool(self):
        raise NotImplementedError


@dataclass(frozen=True)
class FioStep(Step):
    job: FioJob
    runs: int = 1
    target: str = "device"  # device, or file (readonly profile: a test file on the card's filesystem)

    @property
    def key(self):
        return self.job.key + ("-file" if self.target == "file" else "")

    @property
    def label(self):
        return f"fio {self.job.test} {self.job.op}" + (" (file)" if self.target == "file" else "")

    @property
    def tool(self):
        return "fio"

    @property
    def writes_device(self):
        return self.job.op == "write" and self.target == "device"

    def estimate(self, rates):
        return self.runs * self.job.estimate(rates)


@dataclass(frozen=True)
class DdStep(Step):
    op: str
    bs: int = 4 * MiB
    count: int = 256
    runs: int = 5
    target: str = "device"

    @property
    def key(self):
        return f"dd-{self.op}-{self.bs // KiB}k-x{self.count}" + ("-file" if self.target == "file" else "")

    @property
    def label(self):
        return f"dd {self.op} bs={self.bs // MiB}M count={self.count}" + (" (file)" if self.target == "file" else "")

    @property
    def tool(self):
        return "dd"

    @property
    def writes_device(self):
        return self.op == "write" and self.target == "device"

    def estimate(self, rates):
        return self.runs * (0.2 + _seconds(self.bs * self.count, rates, self.op))


@dataclass(frozen=True)
class DdSweepStep(Step):
    """O_DIRECT dd writes at each block size; the same number of bytes per point."""

    sizes: tuple = (4 * KiB, 16 * KiB, 64 * KiB, 256 * KiB, MiB, 4 * MiB)
    bytes_per_point: int = 4 * MiB
    op: str = "write"

    @property
    def key(self):
        return f"dd-sweep-{self.op}"

    @property
    def label(self):
        return f"dd {self.op} sweep {self.sizes[0] // KiB}K…{self.sizes[-1] // MiB}M"

    @property
    def tool(self):
        return "dd"

    @property
    def writes_device(self):
        return self.op == "write"

    def estimate(self, rates):
        # Small blocks are slow on every card; assume 4 KiB writes reach a tenth of the speed.
        total = 0.0
        for size in self.sizes:
            slowdown = 10.0 if size <= 16 * KiB else 3.0 if size <= 256 * KiB else 1.0
            total += 0.2 + slowdown * _seconds(self.bytes_per_point, rates, self.op)
        return total


@dataclass(frozen=True)
class FlashAlignStep(Step):
    blocksize: int = KiB
    count: int = 8

    key = "flashbench-align"
    label = "flashbench -a (alignment)"
    tool = "flashbench"

    def estimate(self, rates):
        return 5.0


@dataclass(frozen=True)
class FlashOpenAuStep(Step):
    open_au: int = 2
    random: bool = False
    erasesize: int = 4 * MiB
    blocksize: int = 512 * KiB

    @property
    def key(self):
        return f"flashbench-open-au-{'random' if self.random else 'sequential'}-{self.open_au}"

    @property
    def label(self):
        return f"flashbench --open-au {self.open_au}{' --random' if self.random else ''}"

    @property
    def tool(self):
        return "flashbench"

    @property
    def writes_device(self):
        return True

    def rows(self):
        rows, size = 0, self.erasesize
        while size >= self.blocksize:
            rows, size = rows + 1, size // 2
        return rows

    def estimate(self, rates):
        slowdown = 3.0 if self.random else 1.5
        return 0.5 + slowdown * _seconds(self.open_au * self.erasesize * self.rows(), rates, "write")


@dataclass(frozen=True)
class FlashFindFatStep(Step):
    erasesize: int = 4 * MiB
    blocksize: int = 16 * KiB
    fat_nr: int = 6

    key = "flashbench-find-fat"
    label = "flashbench -f (find FAT)"
    tool = "flashbench"

    @property
    def writes_device(self):
        return True

    def estimate(self, rates):
        rows, size = 0, self.erasesize
        while size >= self.blocksize:
            rows, size = rows + 1, size // 2
        return 0.5 + 2.0 * _seconds(self.fat_nr * self.erasesize * rows, rates, "write")


@dataclass(frozen=True)
class F3ProbeStep(Step):
    key = "f3probe"
    label = "f3probe (real capacity)"
    tool = "f3probe"

    @property
    def writes_device(self):
        return True

    def estimate(self, rates):
        # Measured on a 16 GiB card: about 2.1 GB written in 512-byte and larger blocks.
        return 10.0 + _seconds(2.4e9, rates, "write")


@dataclass(frozen=True)
class FillStep(Step):
    """Sustained sequential write over the whole card (fio, direct I/O), its bandwidth logged every
    `log_ms` milliseconds: throughput against GB written, where an SLC cache shows as a step down.
    The card file keeps at most `max_points` points (a longer log is merged in equal runs, each
    keeping its bytes and time); the raw log keeps every sample."""

    bs: int = MiB
    iodepth: int = 4  # a few writes in flight keep the card busy between completions
    log_ms: int = 500
    max_points: int = 1000
    limit_bytes: int | None = None  # None: the whole device

    key = "fill-write"
    label = "sustained fill (fio)"
    tool = "fio"

    @property
    def writes_device(self):
        return True

    @property
    def log_name(self):
        """The bandwidth log fio writes for --write_bw_log=<key> with --per_job_logs=0."""
        return f"{self.key}_bw.log"

    def span(self, device_bytes):
        total = device_bytes if self.limit_bytes is None else min(device_bytes, self.limit_bytes)
        return total // self.bs * self.bs

    def estimate(self, rates, device_bytes=64 * GB_BYTES):
        return FIO_START_SECONDS + _seconds(self.span(device_bytes), rates, "write")


@dataclass(frozen=True)
class Profile:
    name: str
    description: str
    steps: tuple
    mode: str = "raw"  # raw: writes the device; filesystem: writes only a file on its mounted filesystem
    tools: tuple = field(default=())

    def estimate_seconds(self, rates=None, device_bytes=64 * GB_BYTES):
        rates = rates or DEFAULT_RATES
        total = 0.0
        for step in self.steps:
            total += step.estimate(rates, device_bytes) if isinstance(step, FillStep) else step.estimate(rates)
        return total


CDM8_DEFAULT = [("SEQ", MiB, 8, 1), ("SEQ", MiB, 1, 1), ("RND", 4 * KiB, 32, 1), ("RND", 4 * KiB, 1, 1)]
CDM_FIO_SH = [("SEQ", GiB, 1, 1), ("SEQ", 512 * KiB, 1, 1), ("SEQ", 32 * MiB, 32, 1), ("RND", 4 * KiB, 1, 1),
              ("RND", 4 * KiB, 32, 1), ("RND", 4 * KiB, 8, 8)]


def _fio_steps(shapes, runs, target="device", ops=("write", "read")):
    """Write before read, so reads cover written data; SEQ1G moves its 1 GiB once per run."""
    steps, seen = [], set()
    for kind, bs, depth, threads in shapes:
        if (kind, bs, depth, threads) in seen:
            continue
        seen.add((kind, bs, depth, threads))
        for op in ops:
            runtime = None if bs >= GiB else 5
            steps.append(FioStep(FioJob(kind, bs, depth, threads, op, runtime=runtime), runs=runs, target=target))
    return steps


def _open_au(seq, rnd, blocksize):
    return [FlashOpenAuStep(open_au=n, random=False, blocksize=blocksize) for n in seq] + \
           [FlashOpenAuStep(open_au=n, random=True, blocksize=blocksize) for n in rnd]


ALL_SIZES = tuple(4 * KiB * 2**i for i in range(11))  # 4 KiB … 4 MiB

QUICK = Profile(
    name="quick",
    description="every tool once, about 1.5 minutes on a 20 MB/s card",
    steps=tuple([DdStep("write", count=64, runs=1), DdStep("read", count=64, runs=1)]
                + _fio_steps(CDM8_DEFAULT, runs=1)
                + [DdSweepStep(), FlashAlignStep(), FlashOpenAuStep(open_au=2)]),
    tools=("fio", "dd", "flashbench"),
)

STANDARD = Profile(
    name="standard",
    description="CrystalDiskMark 8 and cdm_fio.sh sets x3, dd x5, dd sweep, flashbench; about 20 minutes at 20 MB/s",
    steps=tuple([DdStep("write"), DdStep("read")]
                + _fio_steps(CDM8_DEFAULT + CDM_FIO_SH, runs=3)
                + [DdSweepStep(sizes=ALL_SIZES, bytes_per_point=16 * MiB), FlashAlignStep(), FlashFindFatStep()]
                + _open_au((1, 2, 4, 8), (1, 2, 4), 64 * KiB)),
    tools=("fio", "dd", "flashbench"),
)

FULL = Profile(
    name="full",
    description="standard x5 runs, longer sweeps, f3probe and a sustained fill of the whole card",
    steps=tuple([DdStep("write"), DdStep("read")]
                + _fio_steps(CDM8_DEFAULT + CDM_FIO_SH, runs=5)
                + [DdSweepStep(sizes=ALL_SIZES, bytes_per_point=64 * MiB), FlashAlignStep(), FlashFindFatStep()]
                + _open_au((1, 2, 3, 4, 5, 6, 8, 12, 16), (1, 2, 3, 4, 6, 8), 16 * KiB)
                + [F3ProbeStep(), FillStep()]),
    tools=("fio", "dd", "flashbench", "f3probe"),
)

FILL = Profile(
    name="fill",
    description="identification and a sustained fill of the whole card only (the SLC cache and the speed after it)",
    steps=(FillStep(),),
    tools=("fio",),
)

READONLY = Profile(
    name="readonly",
    description="reads on the device, writes to a file on the card's mounted filesystem; never writes the raw card",
    steps=tuple([DdStep("write", target="file"), DdStep("read")]
                + [step for shape in CDM8_DEFAULT
                   for step in (_fio_steps([shape], runs=3, target="file", ops=("write",))
                                + _fio_steps([shape], runs=3, ops=("read",)))]
                + [FlashAlignStep()]),
    mode="filesystem",
    tools=("fio", "dd", "flashbench"),
)

PROFILES = {p.name: p for p in (QUICK, STANDARD, FULL, FILL, READONLY)}
