"""Figures of the benchmark report as text: seconds, milliseconds, sizes, and Markdown tables."""

from ..core.units import KB_BYTES, mb_from_bytes


def seconds_text(seconds):
    return "–" if seconds is None else (f"{seconds:.2f} s" if seconds < 10 else f"{seconds:.1f} s")


def ms_text(ms):
    return "–" if ms is None else f"{ms:,.0f} ms"


def mib_text(mib):
    return "–" if mib is None else f"{mib:,.0f} MiB"


def kb_text(n):
    return f"{n / KB_BYTES:,.1f} kB"  # page weights in kB, as browsers' network panels show them


def mb_text(n):
    return f"{mb_from_bytes(n):,.1f} MB"


def _row(cells):
    return "| " + " | ".join(str(c) for c in cells) + " |"


def markdown_table(header, rows):
    return "\n".join([_row(header), _row(["---"] * len(header))] + [_row(r) for r in rows])
