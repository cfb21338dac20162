"""The figures of one direction of a fio JSON job (json_output.py's): which unit io_bytes is in, and the checks that
refuse figures no device gives or that contradict each other.

io_bytes_of(section, version) -> bytes moved: fio 2.21 and later print io_bytes in bytes with io_kbytes
    beside it; before, io_bytes was KiB.
check_figures(section, op, name, locate, version) -> None, or ParseError naming the figure's line.
"""

import math
import re

from ...core.units import KIB_BYTES, MS_IN_S, bytes_from_kib, kib_from_bytes
from ...errors import ParseError, quoted

TOOL = "fio"


# Beyond these, a figure is not a measurement of a storage device: PCIe 5.0 x16 moves 64 GB/s.
PLAUSIBLE = {"bw_bytes": 1e11, "bw": 1e8, "iops": 1e8, "io_bytes": 1e18, "io_kbytes": 1e15, "runtime": 1e10}
BYTES_SINCE = (2, 21)  # the first fio whose JSON io_bytes is bytes (io_kbytes added beside it)
BW_KIB_SLACK = KIB_BYTES  # fio's bw is bw_bytes ÷ 1024 rounded down
BW_RELATIVE_SLACK = 1e-6  # or a millionth of bw_bytes, when that is more
RATE_SLACK = 0.01  # io_bytes ÷ runtime against bw: fio divides the same two counters


def _version(text):
    """(major, minor) of a "fio-3.1" version string, None when it does not read."""
    match = re.match(r"\s*fio-(\d{1,3})\.(\d{1,4})", str(text or ""))
    return (int(match.group(1)), int(match.group(2))) if match else None


def io_bytes_of(section, version):
    """Bytes a job's `op` section moved. fio 2.21 and later print io_bytes in bytes with io_kbytes (KiB)
    beside it (fio's commit c12d597a, June 2017); before, io_bytes was KiB and there was no io_kbytes. So
    io_kbytes, or bw_bytes (fio 3.2 on), says io_bytes is bytes; without them the "fio version" decides."""
    io_bytes = section.get("io_bytes")
    if io_bytes is None:
        return None if section.get("io_kbytes") is None else bytes_from_kib(section["io_kbytes"])
    in_bytes = ("io_kbytes" in section or "bw_bytes" in section
                or (_version(version) is not None and _version(version) >= BYTES_SINCE))
    return io_bytes if in_bytes else bytes_from_kib(io_bytes)


def check_figures(section, op, name, locate, version=None):
    """ParseError naming the line of a figure of one job's `op` section that no device gives (infinite,
    negative, beyond PLAUSIBLE), or of figures that contradict each other: bw (KiB/s) against
    bw_bytes (B/s), and the bytes moved (io_bytes_of) over runtime (ms)
    against the bandwidth."""
    job = f"job {quoted(str(name))} {op}"
    figures = {}
    for key, most in PLAUSIBLE.items():
        value = section.get(key)
        if value is None:
            continue
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise ParseError(TOOL, f"{job}: {key} {quoted(str(value))} is not a number", line=locate(op, key))
        if not math.isfinite(value) or not 0 <= value <= most:
            raise ParseError(TOOL, f"{job}: {key} {_shown_number(value)} is not a plausible figure (0 to {most:g})",
                             line=locate(op, key))
        figures[key] = value
    bw, bw_bytes = figures.get("bw"), figures.get("bw_bytes")
    if bw is not None and bw_bytes is not None and \
            abs(bytes_from_kib(bw) - bw_bytes) > max(BW_KIB_SLACK, bw_bytes * BW_RELATIVE_SLACK):
        raise ParseError(TOOL, f"{job}: bw {_shown_number(bw)} KiB/s contradicts bw_bytes {_shown_number(bw_bytes)} "
                               f"B/s (= {kib_from_bytes(bw_bytes):.0f} KiB/s)", line=locate(op, "bw"))
    io_bytes, runtime = io_bytes_of(figures, version), figures.get("runtime")
    if io_bytes is None or runtime is None:
        return
    key = "io_bytes" if "io_bytes" in figures else "io_kbytes"
    if runtime == 0:
        if io_bytes or bw or bw_bytes:
            raise ParseError(TOOL, f"{job}: runtime 0 ms, yet {_shown_number(io_bytes)} bytes moved",
                             line=locate(op, "runtime"))
        return
    rate = bw_bytes if bw_bytes is not None else (bytes_from_kib(bw) if bw is not None else None)
    if rate is None:
        return
    low, high = io_bytes * MS_IN_S / (runtime + 1), io_bytes * MS_IN_S / max(runtime - 1, 0.5)  # runtime's ms rounded
    if not low * (1 - RATE_SLACK) <= rate <= high * (1 + RATE_SLACK):
        moved = "" if io_bytes == figures[key] else f" KiB ({_shown_number(io_bytes)} bytes)"
        said = "" if bw_bytes is not None else f" (bw {_shown_number(bw)} KiB/s)"
        raise ParseError(TOOL, f"{job}: {key} {_shown_number(figures[key])}{moved} "
                               f"in runtime {_shown_number(runtime)} ms "
                               f"is {io_bytes * MS_IN_S / runtime:.6g} B/s, but the bandwidth says "
                               f"{_shown_number(rate)} B/s{said}", line=locate(op, key))


def _shown_number(value):
    """A figure for a message: at most 12 significant digits (a JSON number may have a hundred)."""
    return f"{value:.12g}"
