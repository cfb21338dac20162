"""Whether a bandwidth and an IOPS figure agree: the bandwidth against IOPS × block size, each figure
taken as the range its printed digits stand for. The card's checks, the importer and the reading of
cdm_fio.sh's Size all ask it here."""

import math

from .units import RATE_UNIT_BYTES


def printed_step(value):
    """Precision a figure was printed with: 1 for 42, 0.1 for 42.5, 0.01 for 42.25."""
    try:
        text = repr(float(value))
    except OverflowError:  # an int beyond float range: a whole number
        return 0.0
    if "e" in text or "." not in text:
        return 0.0
    decimals = len(text.split(".")[1].rstrip("0"))
    return 10.0 ** -decimals


def bandwidth_iops_apart(bandwidth_bytes, iops, block):
    """Bytes a second between a bandwidth range and an IOPS range × block, each (low, high): above 0 they
    are that far apart, at 0 they touch, below 0 they overlap."""
    return max(iops[0] * block - bandwidth_bytes[1], bandwidth_bytes[0] - iops[1] * block)


def bandwidth_iops_deviation(value, unit, iops, block):
    """Relative distance between a bandwidth and IOPS × block size, allowing for each figure's
    printed precision (cdm_fio.sh floors MiB/s to whole numbers)."""
    try:
        value_step, iops_step = printed_step(value), printed_step(iops)
        bandwidth = (max(value - value_step, 0) * RATE_UNIT_BYTES[unit], (value + value_step) * RATE_UNIT_BYTES[unit])
        gap = max(0.0, bandwidth_iops_apart(bandwidth, (max(iops - iops_step, 0), iops + iops_step), block))
        off = gap / (iops * block)
    except (OverflowError, ZeroDivisionError):  # a figure beyond float range: as far apart as can be
        return math.inf
    return off if math.isfinite(off) else math.inf
