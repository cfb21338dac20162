"""The figures of one read/write line of fio's normal output, checked against each other (text_output.py's).

fio 3 prints "read: IOPS=85, BW=85.1MiB/s (89.3MB/s)(1024MiB/12026msec)": the bandwidth binary, the
same decimal in brackets, and the bytes moved over the runtime. fio 2.x prints "read : io=1024.0MB,
bw=43473KB/s, iops=42, runt= 24120msec", its KB and MB binary (kb_base 1024).

fio before 3.25 (lib/num2str.c, fixed by fio's commit c736b361, "fix precision loss bug when the fractional
part is close to 1") loses the carry of a figure whose fraction rounds up to 1: 10.97 MiB/s is printed
"10.0MiB/s", 9.996 GiB "9.00GiB". Such a figure reads one unit of its last whole digit low, its decimals all
zeros; where the two other figures of the line agree with it one unit higher, it is fio's misprint: the
bandwidth is then taken from io ÷ runtime (rounded as the fixed fio prints it), and the line's note says so.
Any other disagreement is refused, naming the line.

fio3_figures(match, line, number) / fio2_figures(...) -> (value, unit, iops, note or None); value in the
unit kept: MiB/s or KiB/s as printed (GiB/s, TiB/s and B/s converted exactly).
"""

from ...core.units import (GB_BYTES, GIB_BYTES, KB_BYTES, KIB_BYTES, MB_BYTES, MIB_BYTES, MS_IN_S, PB_BYTES, PIB_BYTES,
                           TB_BYTES, TIB_BYTES, decimal_prefix, kib_from_bytes, mb_from_bytes)
from ...errors import ParseError, quoted

TOOL = "fio"

BINARY = {"B": 1, "KiB": KIB_BYTES, "MiB": MIB_BYTES, "GiB": GIB_BYTES, "TiB": TIB_BYTES, "PiB": PIB_BYTES}
DECIMAL = {"B": 1, "kB": KB_BYTES, "KB": KB_BYTES, "MB": MB_BYTES, "GB": GB_BYTES, "TB": TB_BYTES, "PB": PB_BYTES}
FIO2_UNITS = {"B": 1, "KB": KIB_BYTES, "MB": MIB_BYTES, "GB": GIB_BYTES, "TB": TIB_BYTES, "PB": PIB_BYTES}
_COUNT = {"": 1, "k": decimal_prefix(1), "K": decimal_prefix(1), "M": decimal_prefix(2), "G": decimal_prefix(3)}
SLACK = 0.01  # beyond the printed precision of two figures fio works out from the same counters


def count(text):
    """An IOPS figure as fio prints it: '10.3k' = 10300."""
    return float(text[:-1]) * _COUNT[text[-1]] if text[-1] in _COUNT and not text[-1].isdigit() else float(text)


def precision(text):
    """Half the last printed digit of a figure, relative to it: '39.1' -> 0.00128."""
    digits = text.split(".")[1] if "." in text else ""
    value = float(text)
    return 0.5 * 10 ** -len(digits) / value if value else 1.0


def rate(value, unit, line, number):
    """(figure, stored unit) of a binary rate: MiB/s and KiB/s as printed, GiB/s, TiB/s and B/s converted."""
    if unit in ("MiB", "KiB"):
        return float(value), f"{unit}/s"
    if unit in ("GiB", "TiB", "PiB"):
        return float(value) * BINARY[unit] / BINARY["MiB"], "MiB/s"
    if unit == "B":
        return kib_from_bytes(float(value)), "KiB/s"
    raise ParseError(TOOL, f"bandwidth unit {quoted(unit)}/s not understood", line=number, text=line)


def _agree(a, a_text, b, b_text):
    return not b or abs(a / b - 1) <= precision(a_text) + precision(b_text) + SLACK


def _carry_lost(text, scale, others):
    """The figure fio meant when `text` (× scale bytes) is its num2str misprint and `others` ([(bytes, text)],
    the line's other figures) agree with that, else None."""
    whole, _, decimals = text.partition(".")
    if not decimals or set(decimals) != {"0"}:
        return None
    meant = (int(whole) + 1) * scale
    fixed = f"{int(whole) + 1}.{decimals}"
    return meant if all(_agree(meant, fixed, b, b_text) for b, b_text in others) else None


def fio3_figures(match, line, number, groups=(3, 4, 5, 6, 7, 8), iops="iops"):
    """(value, unit, iops, note) of a fio 3 read/write line (or, with the groups of its figures and iops None,
    of a group summary's line), its three rates checked against each other."""
    (bw, bw_unit), (dec, dec_unit) = match.group(*groups[0:2]), match.group(*groups[2:4])
    if bw_unit in DECIMAL and dec_unit in BINARY and bw_unit not in BINARY:  # kb_base=1000 swaps them
        (bw, bw_unit), (dec, dec_unit) = (dec, dec_unit), (bw, bw_unit)
    if bw_unit not in BINARY or dec_unit not in DECIMAL:
        raise ParseError(TOOL, f"bandwidth units {bw_unit}/s and {dec_unit}/s not understood", line=number, text=line)
    io_text, io_unit = match.group(*groups[4:6])
    io_scale = BINARY.get(io_unit) or DECIMAL.get(io_unit, 1)
    runtime_ms = int(match.group("run"))
    if runtime_ms <= 0:
        raise ParseError(TOOL, "a runtime of 0 ms", line=number, text=line)
    per_ms = MS_IN_S / runtime_ms
    bw_bytes, dec_bytes = float(bw) * BINARY[bw_unit], float(dec) * DECIMAL[dec_unit]
    io_rate = float(io_text) * io_scale * per_ms
    value, unit = rate(bw, bw_unit, line, number)
    iops = count(match.group(iops)) if iops else None
    if _agree(bw_bytes, bw, dec_bytes, dec) and _agree(bw_bytes, bw, io_rate, io_text):
        return value, unit, iops, None
    printed = f"BW={bw}{bw_unit}/s ({dec}{dec_unit}/s)({io_text}{io_unit}/{runtime_ms}msec)"
    misprint = "a figure fio before 3.25 prints one unit low (its number printing loses the carry)"
    if _carry_lost(bw, BINARY[bw_unit], [(dec_bytes, dec), (io_rate, io_text)]):
        scale = value / float(bw) if float(bw) else 1.0
        decimals = len(bw.partition(".")[2])
        value = round(io_rate / BINARY[bw_unit] * scale, decimals)
        return value, unit, iops, (f"fio printed {printed}: its BW is {misprint}; kept io ÷ runtime, "
                                   f"{value:.{decimals}f} {unit}.")
    if _carry_lost(dec, DECIMAL[dec_unit], [(bw_bytes, bw), (io_rate, io_text)]):
        return value, unit, iops, f"fio printed {printed}: the bracketed rate is {misprint}; kept BW."
    if _carry_lost(io_text, io_scale, [(bw_bytes / per_ms, bw), (dec_bytes / per_ms, dec)]):
        return value, unit, iops, f"fio printed {printed}: the size moved is {misprint}; kept BW."
    if not _agree(bw_bytes, bw, dec_bytes, dec):
        raise ParseError(TOOL, f"{bw}{bw_unit}/s and {dec}{dec_unit}/s in brackets are not the same rate",
                         line=number, text=line)
    check_io_runtime(bw_bytes, float(io_text) * io_scale, runtime_ms, precision(bw) + precision(io_text), line, number)
    return value, unit, iops, None


def fio2_figures(match, line, number, groups=(2, 3, 4, 5), iops="iops"):
    """(value, unit, iops, None) of a fio 2.x read/write line (or of a group summary's: io, aggrb, maxt),
    its bandwidth checked against io ÷ runtime."""
    io_text, io_unit = match.group(*groups[0:2])
    bw, bw_unit = match.group(*groups[2:4])
    if bw_unit not in FIO2_UNITS or io_unit not in FIO2_UNITS:
        raise ParseError(TOOL, f"units {io_unit} and {bw_unit}/s not understood", line=number, text=line)
    io_bytes, bw_bytes = float(io_text) * FIO2_UNITS[io_unit], float(bw) * FIO2_UNITS[bw_unit]
    # fio 2.x prints a whole rate with at most 6 digits: its last digit is the precision.
    check_io_runtime(bw_bytes, io_bytes, int(match.group("run")), precision(bw) + precision(io_text), line, number)
    binary = {"KB": "KiB", "MB": "MiB", "GB": "GiB", "TB": "TiB", "B": "B"}.get(bw_unit, bw_unit)
    value, unit = rate(bw, binary, line, number)
    return value, unit, count(match.group(iops)) if iops else None, None


def check_io_runtime(bw_bytes, io_bytes, runtime_ms, allowed, line, number):
    if runtime_ms <= 0:
        raise ParseError(TOOL, "a runtime of 0 ms", line=number, text=line)
    measured = io_bytes * MS_IN_S / runtime_ms
    if measured and abs(bw_bytes / measured - 1) > allowed + SLACK:
        raise ParseError(TOOL, f"the bandwidth ({mb_from_bytes(bw_bytes):.6g} MB/s) is not io ÷ runtime "
                               f"({mb_from_bytes(measured):.6g} MB/s)", line=number, text=line)
