"""fio bandwidth logs (--write_bw_log=NAME, with --log_avg_msec=N averaging).

parse(text) -> {"samples": [{"ms": int, "kib_s": int, "op": "read"|"write"|"trim", "line": int}]}

One sample per line, in file order: "time, value, direction, block size, offset" and, from fio 3.x
with priorities, a sixth column. time is milliseconds since the job started; value is the average
bandwidth over the interval that ends then, in KiB/s (1024 bytes per second); direction is 0
read, 1 write, 2 trim. Blank lines are skipped; anything else is an error naming the line.

card.sessions.bwlog_spans() and fill_entry() turn a log's samples into a card's `fill` entry.

detect(text) -> SHAPED when every non-blank line of the first ones has that shape, else NOT_MINE.
"""

import re

from ..errors import ParseError
from . import NOT_MINE, SHAPED
from .numbers import refuse_long_numbers

TOOL = "fio bandwidth log"
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
