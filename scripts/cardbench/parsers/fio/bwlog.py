"""fio bandwidth logs (--write_bw_log=NAME, with --log_avg_msec=N averaging).

parse(text) -> {"samples": [{"ms": int, "kib_s": int, "op": "read"|"write"|"trim", "line": int}]}

One sample per line, in file order: "time, value, direction, block size, offset" and, from fio 3.x
with priorities, a sixth column. time is milliseconds since the job started; value is the average
bandwidth over the interval that ends then, in KiB/s (1024 bytes per second); direction is 0
read, 1 write, 2 trim. Blank lines are skipped; anything else is an error naming the line.

to_session(parsed, totals=None, command=None, raw=None, max_points=…) -> SessionFields: one `fill` entry
    (card_entries.bwlog_spans, fill_entry) for each
    direction the log holds: a sustained fill, throughput against data written over a whole card.

detect(text) -> SHAPED when every non-blank line of the first ones has that shape, else NOT_MINE.
"""

import re

from ...errors import ParseError
from .. import NOT_MINE, SHAPED
from ..card_entries import FILL_MAX_POINTS, bwlog_spans, fill_entry
from ..fields import SessionFields
from ..text.numbers import refuse_long_numbers
from ..tool import ToolInfo

TOOL = "fio bandwidth log"
INFO = ToolInfo(name="fio-bwlog", programs=(), family="sustained",
                description="fio bandwidth log (--write_bw_log): a sustained fill",
                units={"KiB/s": "KiB/s (1024 bytes a second)"})
DIRECTIONS = {0: "read", 1: "write", 2: "trim"}
_LINE = re.compile(r"^\s*(\d{1,15}),\s*(\d{1,15}),\s*([012]),\s*\d{1,15},\s*\d{1,20}(?:,\s*\d{1,10})?\s*$")


def detect(text):
    lines = [line for line in text.splitlines()[:20] if line.strip()]
    return SHAPED if lines and all(_LINE.match(line) for line in lines) else NOT_MINE


def parse(text):
    refuse_long_numbers(text, TOOL)
    samples = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        match = _LINE.match(line)
        if not match:
            raise ParseError(TOOL, "not a 'time, value, direction, block size, offset' line", line=number,
                             text=line[:120])
        ms = int(match.group(1))
        if samples and ms < samples[-1]["ms"]:
            raise ParseError(TOOL, f"time goes back from {samples[-1]['ms']} ms", line=number, text=line[:120])
        samples.append({"ms": ms, "kib_s": int(match.group(2)), "op": DIRECTIONS[int(match.group(3))],
                        "line": number})
    if not samples:
        raise ParseError(TOOL, "no samples")
    return {"samples": samples}


def to_session(parsed, totals=None, command=None, raw=None, max_points=FILL_MAX_POINTS, **hints):
    """One `fill` entry for each direction the log holds. The log alone has no command and no summary, so
    the interval after its last sample (under one averaging period) is not counted, unless `totals` gives
    it: {direction: (bytes, seconds)} of fio's summary of the same job (the collector reads it). command and
    raw: the command's text and the raw files' paths; max_points: the most points an entry keeps."""
    samples = parsed["samples"]
    entries = []
    for op in ("write", "read"):
        if any(sample["op"] == op for sample in samples):
            total_bytes, total_seconds = (totals or {}).get(op, (None, None))
            spans = bwlog_spans(samples, op=op, total_bytes=total_bytes, total_seconds=total_seconds)
            try:
                entries.append(fill_entry(op, spans, command=command, raw=raw, max_points=max_points))
            except ValueError:
                raise ParseError(TOOL, f"every {op} sample is 0 KiB/s: nothing written to chart",
                                 line=next(s["line"] for s in samples if s["op"] == op)) from None
    if not entries:
        raise ParseError(TOOL, "only trim samples (direction 2): no data written or read",
                         line=samples[0]["line"])
    shown = ", ".join(f"{e['op']} {e['points'][-1]['written_gb']:g} GB in {e['points'][-1]['seconds']:g} s"
                      for e in entries)
    notes = [f"fio bandwidth log of {len(samples)} samples ({shown}); the log holds neither the fio command nor its "
             "summary, so the time after the last sample is not counted."]
    return SessionFields(tools=[{"name": "fio"}], measurements={"fill": entries}, runs=1, notes=notes)
