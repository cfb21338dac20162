"""Figures of the benchmark report as text: seconds, milliseconds, sizes, and Markdown tables."""

KB = 1000  # page weights in kB = 1000 bytes, as browsers' network panels show them


def seconds_text(seconds):
    return "–" if seconds is None else (f"{seconds:.2f} s" if seconds < 10 else f"{seconds:.1f} s")


def ms_text(ms):
    return "–" if ms is None else f"{ms:,.0f} ms"


def mib_text(mib):
    return "–" if mib is None else f"{mib:,.0f} MiB"


def kb_text(n):
    return f"{n / KB:,.1f} kB"


def mb_text(n):
    return f"{n / 1e6:,.1f} MB"


def _row(cells):
    return "| " + " | ".join(str(c) for c in cells) + " |"


def markdown_table(header, rows):
    return "\n".join([_row(header), _row(["---"] * len(header))] + [_row(r) for r in rows])
