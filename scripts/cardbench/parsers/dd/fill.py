"""dd runs that become sustained fills: throughput against data written over a whole card, where an
SLC cache shows as a step down (the card page's fill chart and its cache findings read them).

is_fill(series) -> whether dd_fills makes fills of them.
dd_fills(series, op, flags, command, first_line) -> (entries, notes), or None: the `fill` entries of one
    logged dd command whose status=progress updates (parsers.dd.progress) make a series of at least
    MIN_PROGRESS_UPDATES; dd/session.py hands each command's output over before reading its summary.
with_fills(fields, fills, notes) -> the SessionFields of a dd log with those fills added.

A dd run that becomes a fill gives no `dd` entry: its summary is the mean of the whole series, cache
and slower part together, so among dd entries (pooled by block size, a candidate for the card's
sequential-write headline) it would be compared with short runs that never leave the cache. The
collector's fill keeps no fio result for the same reason. The summary's figure goes into the notes.
"""

from ...core.units import gb_from_bytes, mb_from_bytes
from ...errors import ParseError
from ..card_entries import fill_entry, progress_spans
from ..fields import SessionFields
from ..text.terminal import printable

# dd prints an update a second: 30 updates are 30 s of copying, room for a cache level and the speed
# after it, each several points long. A shorter copy is the usual dd speed test, whose one figure
# is what it measures.
MIN_PROGRESS_UPDATES = 30
SYNCED_FLAGS = ("direct", "dsync", "sync")  # dd flags under which progress counts what reached the card


def _updates(series):
    return sum(1 for point in series["points"] if not point["final"])


def is_fill(series):
    """True when one of a dd command's runs (parsers.dd.progress) printed MIN_PROGRESS_UPDATES updates."""
    return max((_updates(s) for s in series), default=0) >= MIN_PROGRESS_UPDATES


def dd_fills(series, op, flags, command, first_line):
    """Each series of at least MIN_PROGRESS_UPDATES updates as a fill entry of `op`; None when none is
    that long (the copy stays a dd entry). The series' lines count from first_line, the first line
    of the command's output in the file."""
    if not is_fill(series):
        return None
    entries, notes = [], []
    for each in series:
        count, line = _updates(each), each["points"][0]["line"] + first_line - 1
        if count < MIN_PROGRESS_UPDATES:
            notes.append(f"dd progress from line {line}: a run of {count} updates left out (fewer than "
                         f"{MIN_PROGRESS_UPDATES} make no fill).")
            continue
        try:
            entries.append(fill_entry(op, progress_spans(each["points"]), command=command))
        except ValueError:
            raise ParseError("dd", "progress updates without any data copied", line=line) from None
        notes.append(_dd_note(each, count, op, flags, line, first_line))
    return entries, notes


def _dd_note(series, count, op, flags, line, first_line):
    last = series["points"][-1]
    mean = mb_from_bytes(last["bytes"] / last["seconds"]) if last["seconds"] else 0.0
    note = (f"dd progress from line {line}: {count} status=progress updates kept as a sustained {op} of "
            f"{gb_from_bytes(last['bytes']):.3g} GB in {last['seconds']:g} s ({mean:.3g} MB/s on average, dd's "
            f"{'summary' if last['final'] else 'last update'}), not as a dd entry.")
    if series["error"] is not None:
        error_line, message = series["error"]
        note += (f" It ended with dd's message \"{printable(message[:200])}\" (line {error_line + first_line - 1}): "
                 "a write over the whole card ends so at its end (\"No space left on device\"); another "
                 "error means the card failed there.")
    if op == "write" and not set(flags or ()) & set(SYNCED_FLAGS):
        note += (" Without oflag=direct (or dsync), dd's progress counts what the page cache took in, not "
                 "what reached the card.")
    return note


def with_fills(fields, fills, notes):
    """A dd log's SessionFields with the fills found in it (and no empty `dd` list when every run was one)."""
    if not fills:
        return fields
    measurements = {key: value for key, value in fields.measurements.items() if value}
    measurements["fill"] = list(fills)
    return SessionFields(tools=fields.tools, measurements=measurements, runs=max(fields.runs, 1),
                         notes=list(fields.notes) + list(notes), date=fields.date, host=fields.host,
                         assumption=fields.assumption)
