"""fio bandwidth logs (--write_bw_log=NAME, with --log_avg_msec=N averaging).

parse(text) -> {"samples": [{"ms": int, "kib_s": int, "op": "read"|"write"|"trim", "line": int}]}

One sample per line, in file order: "time, value, direction, block size, offset" and, from fio 3.x
with priorities, a sixth column. time is milliseconds since the job started; value is the average
bandwidth over the interval that ends then, in KiB/s (1024 bytes per second); direction is 0
read, 1 write, 2 trim. Blank lines are skipped; anything else is an error naming the line.

fill_points(samples, ...) turns a write log into throughput against data written, as a card's
`fill` points.

detect(text) -> SHAPED when every non-blank line of the first ones has that shape, else NOT_MINE.
"""

import math
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


def fill_points(samples, op="write", total_bytes=None, total_seconds=None, max_points=1000):
    """[{written_gb, value (MB/s), seconds}] from one direction's samples: each sample's bytes are
    its rate times its interval. total_bytes/total_seconds (fio's JSON summary) add the last partial
    interval that the log leaves out. More than max_points samples are merged in equal runs, each
    keeping its bytes and time, so the rate of a merged point is exact."""
    spans, previous_ms = [], 0
    for sample in samples:
        if sample["op"] != op or sample["ms"] <= previous_ms:
            continue
        seconds = (sample["ms"] - previous_ms) / 1000.0
        spans.append((sample["kib_s"] * 1024.0 * seconds, seconds))
        previous_ms = sample["ms"]
    written = sum(b for b, _ in spans)
    if total_bytes is not None and total_seconds is not None:
        rest_bytes, rest_seconds = total_bytes - written, total_seconds - previous_ms / 1000.0
        if rest_bytes > 0 and rest_seconds > 0:
            spans.append((float(rest_bytes), rest_seconds))
    size = max(1, math.ceil(len(spans) / max_points))
    points, done_bytes, done_seconds = [], 0.0, 0.0
    for start in range(0, len(spans), size):
        chunk = spans[start:start + size]
        chunk_bytes, chunk_seconds = sum(b for b, _ in chunk), sum(s for _, s in chunk)
        done_bytes += chunk_bytes
        done_seconds += chunk_seconds
        if round(done_bytes / 1e9, 4) <= 0:
            continue  # nothing written yet (a stall at the start): no point at 0 GB
        points.append({"written_gb": round(done_bytes / 1e9, 4), "value": round(chunk_bytes / chunk_seconds / 1e6, 3),
                       "seconds": round(done_seconds, 3)})
    return points
