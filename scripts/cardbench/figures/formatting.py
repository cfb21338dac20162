"""Figures as the site prints them, for the findings' and class checks' words and for every page: numbers
rounded as Hugo rounds them, a dash for a figure that is missing, a raw file as a link."""

import functools
import math

from ..core.units import US_IN_MS, ms_from_us

DASH = "–"


# 10 ** digits and the format of each common number of decimals, made once (a page formats thousands of figures).
_POWERS = tuple(10.0 ** digits for digits in range(10))
_FORMATS = tuple(f",.{digits}f" for digits in range(10))


def format_number(value, digits):
    """Hugo's lang.FormatNumber for English: rounded half away from zero, thousands separated."""
    value = float(value)
    if digits.__class__ is int and 0 <= digits < 10:
        return _format_common(value, digits)
    scaled = abs(value) * 10.0 ** digits
    rounded = math.floor(scaled)
    if scaled - rounded >= 0.5:
        rounded += 1
    return ("-" if value < 0 else "") + f"{rounded / 10.0 ** digits:,.{digits}f}"


@functools.lru_cache(maxsize=1 << 16)  # a page's figures repeat: runs, means and their MiB/s twins, card after card
def _format_common(value, digits):
    """format_number of a float to 0–9 decimals, with the powers and formats made once."""
    power = _POWERS[digits]
    scaled = abs(value) * power
    rounded = math.floor(scaled)
    if scaled - rounded >= 0.5:
        rounded += 1
    text = format(rounded / power, _FORMATS[digits])
    return "-" + text if value < 0 else text


@functools.lru_cache(maxsize=1 << 16)  # a page's runs and their MiB/s twins repeat, card after card
def format_by_size(value):
    """A figure for reading: no decimals from 100 on, one from 10, two below; '–' when missing. (Equal
    numbers share a remembered text: 2, 2.0 and True, 0.0 and -0.0 give the same text anyway.)"""
    if value is None:
        return DASH
    size = abs(float(value))
    return format_number(value, 0 if size >= 100 else 1 if size >= 10 else 2)


def whole(value):
    """A count with thousands separators, rounded."""
    return format_number(value, 0)


def significant_digits(printed):
    """Significant digits of a figure as a tool printed it ({mean, decimals}): 13 -> 2, 201 -> 3, 0.85 -> 2."""
    text = f"{abs(float(printed['mean'])):.{int(printed.get('decimals') or 0)}f}".replace(".", "").lstrip("0")
    return max(len(text), 1)


def approx(value, significant):
    """A figure computed from a coarser one, to the precision its input allows: '≈3,300' (3,328 from a
    two-digit input); whole figures within that precision print as they are."""
    if not value:
        return whole(value)
    place = math.floor(math.log10(abs(value))) + 1 - significant
    if place <= 0:
        return whole(value)
    return "≈" + whole(round(value / 10 ** place) * 10 ** place)


def in_printed_unit(printed, unit):
    """True when a figure was recorded in `unit` and its `printed` block says how the tool wrote it."""
    return bool(printed) and printed.get("unit") == unit and printed.get("decimals") is not None


def mib_text(value, printed=None):
    """A MiB/s figure for reading; one the tool printed in MiB/s keeps the tool's decimals (13, not 13.0)."""
    if value is None:
        return DASH
    if in_printed_unit(printed, "MiB/s"):
        return format_number(value, int(printed["decimals"]))
    return format_by_size(value)


def latency_text(us, fmt=format_by_size):
    """A latency recorded in µs for reading: in ms from 10 ms on, else in µs."""
    return f"{fmt(ms_from_us(us))} ms" if us >= 10 * US_IN_MS else f"{fmt(us)} µs"


def derived_iops_text(iops, printed=None):
    """IOPS computed from a bandwidth, only as precise as the bandwidth was printed (≈3,300 from 13 MiB/s)."""
    if printed and printed.get("mean") and printed.get("decimals") is not None:
        return approx(iops, significant_digits(printed))
    return whole(iops)


def raw_link(ref):
    """A raw file a figure comes from: its name and its path under data/ (the site serves it there)."""
    return {"name": ref.rsplit("/", 1)[-1], "path": ref}


__all__ = ["DASH", "format_number", "format_by_size", "whole", "significant_digits", "approx", "in_printed_unit",
           "mib_text", "latency_text", "derived_iops_text", "raw_link"]
