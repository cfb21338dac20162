"""Bandwidth against IOPS × block size, for every imported figure that carries both.

A tool prints both figures from one measurement (bytes and I/Os over the same seconds), so, read
in the right unit and with the right block size, they agree to the precision they were printed
with. Where they do not, the import read them wrongly: a unit taken for another (KDiskMark's "MB/s"
is 1000 KiB/s, 2.34 % off 10^6 B/s; cdm_fio.sh's is MiB/s, 4.86 % off) or a block size taken from a
wrong assumption (cdm_fio.sh's Size). The import is refused then, naming the subtest and what was
assumed, before anything is written.

The distance is measured as the card rule bw-iops (card.figure_rules) measures it, allowing for
each figure's printed precision; beyond IMPORT_TOLERANCE it is refused. That is far tighter than
the card rule's 10 % warning, which allows for figures copied by hand and rounded; an import reads
the tool's own figures, and 10 % would let every unit mistake above through.
"""

from ..card.figure_rules import _deviation, block_size_bytes
from ..core.units import RATE_UNIT_BYTES, size_text_from_bytes
from ..errors import ParseError

IMPORT_TOLERANCE = 0.01  # beyond the printed precision of both figures

# How each stored unit reads the tool's "MB/s", for the message.
UNIT_READING = {
    "MB/s": "its figures read as MB/s = 10^6 bytes/s",
    "MiB/s": "its figures read as MiB/s = 2^20 bytes/s",
    "kKiB/s": "its figures read as kKiB/s = 1000 × 1024 bytes/s (KDiskMark's 'MB/s')",
}


def check_bandwidth_iops(tool, measurements, assumption=None):
    """ParseError naming the first subtest run whose bandwidth and IOPS × block size disagree beyond
    IMPORT_TOLERANCE, with the unit and any other assumption the reading made."""
    for entry in measurements.get("results") or []:
        unit, block = entry.get("unit"), block_size_bytes(entry.get("test"))
        iops_runs = entry.get("iops") or []
        if unit not in RATE_UNIT_BYTES or block is None:
            continue
        for index, (value, iops) in enumerate(zip(entry.get("runs") or [], iops_runs)):
            if not value or not iops or value <= 0 or iops <= 0:
                continue
            off = _deviation(value, unit, iops, block)
            if off <= IMPORT_TOLERANCE:
                continue
            expected = iops * block / RATE_UNIT_BYTES[unit]
            run = f" (run {index + 1})" if len(entry["runs"]) > 1 else ""
            assumed = UNIT_READING.get(unit, unit) + f", the block size {size_text_from_bytes(block)} from the name"
            if assumption:
                assumed += f"; {assumption}"
            raise ParseError(tool, f"{entry['test']} {entry['op']}{run}: bandwidth and IOPS disagree: {value:g} {unit} "
                                   f"but {iops:g} IOPS × {size_text_from_bytes(block)} = {expected:.6g} {unit} "
                                   f"({off:.1%} apart, allowed {IMPORT_TOLERANCE:.0%}). Assumed: {assumed}. "
                                   "One of these is wrong for this file")
