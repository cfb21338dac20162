"""Bandwidth against IOPS × block size, for every imported figure that carries both.

A tool prints both figures from one measurement (bytes and I/Os over the same seconds), so, read
in the right unit and with the right block size, they agree to the precision they were printed
with. Where they do not, the import read them wrongly: a unit taken for another (KDiskMark's "MB/s"
is 1000 KiB/s, 2.34 % off 10^6 B/s; cdm_fio.sh's is MiB/s, 4.86 % off) or a block size taken from a
wrong assumption (cdm_fio.sh's Size). The import is refused then, naming the subtest and what was
assumed, before anything is written.

The distance is measured as the card rule bw-iops (card/checks/figure_rules.py) measures it, allowing for
each figure's printed precision; beyond IMPORT_TOLERANCE it is refused. That is far tighter than
the card rule's 10 % warning, which allows for figures copied by hand and rounded; an import reads
the tool's own figures, and 10 % would let every unit mistake above through.
"""

import math

from ..core.figure_agreement import bandwidth_iops_deviation
from ..core.measurement_kinds import RUN_KINDS
from ..core.subtest_names import dd_test_name
from ..core.units import RATE_TO_MB_S, RATE_UNIT_BYTES, block_size_bytes, size_text_from_bytes
from ..errors import ParseError

IMPORT_TOLERANCE = 0.01  # beyond the printed precision of both figures
# Beyond these no storage device measures: PCIe 5.0 x16 moves 64 GB/s; a latency of a day is a hang.
PLAUSIBLE_MB_S = 100_000
PLAUSIBLE_IOPS = 100_000_000
PLAUSIBLE_LATENCY_US = 86_400e6

# How each stored unit reads the tool's "MB/s", for the message.
UNIT_READING = {
    "MB/s": "its figures read as MB/s = 10^6 bytes/s",
    "MiB/s": "its figures read as MiB/s = 2^20 bytes/s",
    "kKiB/s": "its figures read as kKiB/s = 1000 × 1024 bytes/s (KDiskMark's 'MB/s')",
}


# The most a run of each unit of tool_results may be (rates as PLAUSIBLE_MB_S in that unit).
PLAUSIBLE_RUN = {"IOPS": PLAUSIBLE_IOPS, "us": PLAUSIBLE_LATENCY_US}


def check_plausible(tool, measurements, file_name="the file"):
    """ParseError naming the first subtest (results, dd, tool_results) whose bandwidth, IOPS or latency
    is not a number a device measures: infinite, not a number, negative, or beyond the PLAUSIBLE bounds.
    (The parsers that know the line refuse such figures first; this catches the rest. A zero is the
    card's rule `positive` to refuse.)"""
    for kind in RUN_KINDS:
        for entry in measurements.get(kind) or []:
            name = f"{entry.get('test') or dd_test_name(entry)} {entry.get('op')}"
            unit = entry.get("unit")
            rate = RATE_TO_MB_S.get(unit)
            most = PLAUSIBLE_MB_S / rate if rate else PLAUSIBLE_RUN.get(unit, PLAUSIBLE_MB_S)
            series = [(f"{unit}", entry.get("runs"), most), ("IOPS", entry.get("iops"), PLAUSIBLE_IOPS)]
            series += [(f"µs latency ({key})", values, PLAUSIBLE_LATENCY_US)
                       for key, values in (entry.get("latency_us") or {}).items()]
            for what, values, most in series:
                for value in values or []:
                    if value is None or isinstance(value, bool) or not isinstance(value, (int, float)):
                        continue
                    if not (_finite(value) and 0 <= value <= most):
                        raise ParseError(tool, f"{name}: {_shown(value)} {what} read from {file_name} is not a "
                                               f"plausible figure (0 to {most:.6g})")


# The tool whose "MB/s" is each stored unit, and its --format: named when the figures agree only in
# another tool's unit (KDiskMark's body pasted without its header line reads as CrystalDiskMark's).
UNIT_TOOLS = {"kKiB/s": ("KDiskMark", "kdiskmark"), "MiB/s": ("cdm_fio.sh", "cdm-fio"),
              "MB/s": ("CrystalDiskMark", "crystaldiskmark")}


def _other_reading(value, unit, iops, block):
    """('. Read in <tool>'s unit they agree', how to say so) when the figures agree in another tool's "MB/s",
    else None."""
    for other, (tool, fmt) in UNIT_TOOLS.items():
        if other != unit and bandwidth_iops_deviation(value, other, iops, block) <= IMPORT_TOLERANCE:
            return (f". Read in {tool}'s unit ({other}) they agree",
                    f": if this is {tool} output, import it with --format={fmt} (FORMAT={fmt} on make import)")
    return None


def _shown(value):
    """A figure for a message, never hundreds of digits long."""
    try:
        return f"{value:.6g}"
    except OverflowError:  # an int beyond float range
        text = str(value)
        return text if len(text) <= 20 else f"{text[:6]}…({len(text)} digits)"


def check_bandwidth_iops(tool, measurements, assumption=None):
    """ParseError naming the first subtest run whose bandwidth and IOPS × block size disagree beyond
    IMPORT_TOLERANCE, with the unit and any other assumption the reading made."""
    for entry in measurements.get("results") or []:
        unit, block = entry.get("unit"), block_size_bytes(entry.get("test"))
        iops_runs = entry.get("iops") or []
        if unit not in RATE_UNIT_BYTES or block is None:
            continue
        for index, (value, iops) in enumerate(zip(entry.get("runs") or [], iops_runs)):
            if not value or not iops or not _finite(value, iops) or value <= 0 or iops <= 0:
                continue
            off = bandwidth_iops_deviation(value, unit, iops, block)
            if off <= IMPORT_TOLERANCE:
                continue
            expected = iops * block / RATE_UNIT_BYTES[unit]
            run = f" (run {index + 1})" if len(entry["runs"]) > 1 else ""
            assumed = UNIT_READING.get(unit, unit) + f", the block size {size_text_from_bytes(block)} from the name"
            if assumption:
                assumed += f"; {assumption}"
            reason = (f"{entry['test']} {entry['op']}{run}: bandwidth and IOPS disagree: {value:g} {unit} but {iops:g} "
                      f"IOPS × {size_text_from_bytes(block)} = {expected:.6g} {unit} ({off:.1%} apart, allowed "
                      f"{IMPORT_TOLERANCE:.0%}). Assumed: {assumed}. One of these is wrong for this file")
            other = _other_reading(value, unit, iops, block)
            if other is None:
                raise ParseError(tool, reason)
            raise ParseError(tool, reason + other[0] + other[1], asks=("format",), reason=reason + other[0])


def _finite(*values):
    """Whether every value is a finite number within float range (check_plausible words the rest)."""
    try:
        return all(math.isfinite(float(value)) for value in values)
    except (OverflowError, TypeError, ValueError):
        return False
