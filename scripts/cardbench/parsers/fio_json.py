"""fio `--output-format=json` (and `json+`) output.

parse(text) -> {
    "fio_version": "fio-3.33",
    "date": "2020-01-29" (the day fio's "time" line names, else its "timestamp" as a UTC day; None),
    "jobs": [{
        "name", "rw", "op": "read"|"write", "bs_bytes", "iodepth", "numjobs",
        "test": CrystalDiskMark-style name ("SEQ1M Q8T1", "RND4K Q32T1"), or None when the block
                size has no such name (not a whole number of KiB, or bsrange/bssplit),
        "mix_read_percent": share of reads of a job mixing reads and writes (rw, readwrite, randrw:
                  rwmixread, else 100 - rwmixwrite, else fio's 50), None for a pure job (or a
                  mix of 0 or 100 %); its figures are not those of pure reads or writes,
        "bw_bytes" (B/s), "mb_s" (= bw_bytes / 1e6), "iops",
        "lat_us": {"mean", "p50", "p90", "p99", "p99_9", "max"} (completion latency; a value is
                  None when fio did not report it),
        "runtime_ms", "io_bytes" (bytes: fio before 2.21 printed KiB), "threads" (job entries summed), "error" (fio's error code),
        "size" (the job's size option as written, or None), "options" (job options merged over
        the global ones), "line" (line of the job in the text),
    }],
}

fio 2.x documents import too: they give `bw` (KiB/s) without `bw_bytes`, and latencies as `clat` /
`lat` in µs instead of `clat_ns` / `lat_ns`.

Text before the JSON (fio warnings, shell lines) and after it is ignored. A job with reads and
writes (rw, randrw) gives one entry per direction. A job with numjobs=N reported without
group_reporting appears N times in fio's output; those entries are summed into one (bandwidth,
IOPS and bytes added; latency mean weighted by I/O count; percentiles merged exactly from json+
histogram bins when present, else the I/O-weighted mean of the threads' percentiles, an
approximation).

parse_all(text) -> [parse result, ...] for text holding several fio JSON documents in a row.
parse_file(text) -> {"runs": parse_all(text)}; to_session(parsed) -> SessionFields: each document one run,
    dated the day fio ran. A job mixing reads and writes (randrw, rw) is stored under its own test name,
    "RND4K Q1T1 mix 35/65" (reads/writes in percent), with `mix_read_percent` beside it: its figures are
    never those of pure reads or writes, so it is never compared or pooled with them.
detect(text) -> NAMED for text holding fio JSON, else NOT_MINE.
"""

import bisect
import datetime
import json
import math
import re

from ..errors import ParseError, quoted
from . import NAMED, NOT_MINE, safejson
from .entries import results_from_fio
from .fields import SessionFields
from .fio_json_keys import duplicate_unclear
from .fio_latency import merged_latency, thread_latency
from .fio_naming import RW_KINDS, mixed_test_name, test_name
from .fio_options import block_sizes, fio_size  # noqa: F401  (fio_size: part of this module's interface)
from .tool import ToolInfo

TOOL = "fio"
INFO = ToolInfo(name="fio-json", programs=("fio",), family="suite",
                description="fio --output-format=json or json+ output, one or more runs",
                units={"bw": "KiB/s (1024 bytes a second)", "bw_bytes": "bytes a second", "clat_ns": "ns, kept in µs"},
                logs_with=("fio-bwlog", "fio-text"))


def detect(text):
    """NAMED when the text holds fio's "fio version" key and a line opening a JSON object."""
    if '"fio version"' in text and any(line.lstrip().startswith("{") for line in text.splitlines()):
        return NAMED
    return NOT_MINE


def parse(text):
    """The first fio JSON document in text."""
    docs = parse_all(text, limit=1)
    return docs[0]


def parse_all(text, limit=None):
    """Every fio JSON document in text, in order."""
    lines = text.splitlines(True)
    offsets = []
    pos = 0
    for line in lines:
        offsets.append(pos)
        pos += len(line)

    def line_at(offset):
        """1-based number of the line holding text[offset], counted as splitlines() counts."""
        return bisect.bisect_right(offsets, offset)

    docs = []
    index = 0
    while index < len(lines) and (limit is None or len(docs) < limit):
        if not lines[index].lstrip().startswith("{"):
            index += 1
            continue
        start = offsets[index] + (len(lines[index]) - len(lines[index].lstrip()))
        try:
            data, end = safejson.raw_decode(text, start, TOOL, refused=duplicate_unclear)
        except json.JSONDecodeError as exc:
            bad_line = line_at(exc.pos)
            shown = lines[bad_line - 1].rstrip("\r\n") if bad_line <= len(lines) else None
            raise ParseError(TOOL, f"JSON starting at line {index + 1} is broken or cut off ({exc.msg})",
                             line=bad_line, text=shown) from None
        if not isinstance(data, dict) or "jobs" not in data:
            raise ParseError(TOOL, "JSON without a 'jobs' list; not fio --output-format=json output",
                             line=index + 1, text=lines[index].rstrip("\r\n"))
        docs.append(_document(data, text, start, end, index + 1, line_at))
        index = line_at(end - 1)  # the line after the document's last character: always forward
    if not docs:
        raise ParseError(TOOL, "no JSON found; run fio with --output-format=json", line=1 if lines else None,
                         text=lines[0].rstrip("\r\n") if lines else None)
    return docs


_JOBNAME = re.compile(r'"jobname"\s*:')


def _job_starts(text, start, end):
    """Offset of every '"jobname"' key within the document, in order (fio writes it first in a job)."""
    return [match.start() for match in _JOBNAME.finditer(text, start, end)]


def _field_locator(text, starts, end, line_at):
    """locate(job index, op, key) -> line of `"key" :` in that job's `op` section (the job's first
    line when not found): where a figure of the job is named in a message."""
    def locate(index, op, key):
        if index >= len(starts):
            return None
        stop = starts[index + 1] if index + 1 < len(starts) else end
        section = re.compile(rf'"{re.escape(op)}"\s*:\s*\{{').search(text, starts[index], stop)
        found = re.compile(rf'"{re.escape(key)}"\s*:').search(text, section.end(), stop) if section else None
        return line_at(found.start()) if found else line_at(starts[index])
    return locate


def _document(data, text, start, end, first_line, line_at):
    global_opts = data.get("global options") or {}
    if not isinstance(global_opts, dict):
        raise ParseError(TOOL, "'global options' is not an object", line=first_line)
    raw_jobs = data["jobs"]
    if not isinstance(raw_jobs, list) or not raw_jobs:
        raise ParseError(TOOL, "fio output has no jobs", line=first_line)
    job_starts = _job_starts(text, start, end)
    job_lines = [line_at(offset) for offset in job_starts]
    locate = _field_locator(text, job_starts, end, line_at)
    entries = []
    index = 0
    while index < len(raw_jobs):
        job = raw_jobs[index]
        line = job_lines[index] if index < len(job_lines) else first_line
        if not isinstance(job, dict) or "jobname" not in job:
            raise ParseError(TOOL, "a job without 'jobname'", line=line)
        try:
            options = {**global_opts, **(job.get("job options") or {})}
            numjobs = _int_option(options, "numjobs", 1, line)
            # Clones of one job (numjobs without group_reporting) follow each other with the same name.
            group = [job]
            while (len(group) < numjobs and index + len(group) < len(raw_jobs)
                   and isinstance(raw_jobs[index + len(group)], dict)
                   and raw_jobs[index + len(group)].get("jobname") == job["jobname"]
                   and raw_jobs[index + len(group)].get("job options") == job.get("job options")):
                group.append(raw_jobs[index + len(group)])
            entries.extend(_entries(group, options, line, [
                lambda op, key, at=index + k: locate(at, op, key) for k in range(len(group))], data.get("fio version")))
        except (KeyError, TypeError, ValueError, AttributeError, OverflowError) as exc:
            # JSON of the right shape but with a field of the wrong type or missing.
            raise ParseError(TOOL, f"job {quoted(str(job.get('jobname')))} is malformed ({type(exc).__name__}: {quoted(str(exc))})",
                             line=line) from None
        index += len(group)
    return {"fio_version": str(data.get("fio version", "")), "date": _run_day(data), "jobs": entries}


def _run_day(data):
    """The day fio ran: the date of its "time" line ("Wed Jan 29 10:00:00 2020", the machine's
    local time), else its "timestamp" (seconds since 1970) as a UTC day; None when neither reads."""
    text = data.get("time")
    if isinstance(text, str):
        try:
            return datetime.datetime.strptime(" ".join(text.split()), "%a %b %d %H:%M:%S %Y").date().isoformat()
        except ValueError:
            pass
    stamp = data.get("timestamp")
    if isinstance(stamp, (int, float)) and not isinstance(stamp, bool) and 0 < stamp < 253402300800:
        return datetime.datetime.fromtimestamp(int(stamp), datetime.timezone.utc).date().isoformat()
    return None


def _mix_read_percent(rw, options, line):
    """Share of reads of a mixed job (rw, readwrite, randrw), None for a pure one."""
    if len(RW_KINDS[rw][1]) < 2:
        return None
    if options.get("rwmixread") not in (None, ""):
        share = _int_option(options, "rwmixread", 50, line)
    elif options.get("rwmixwrite") not in (None, ""):
        share = 100 - _int_option(options, "rwmixwrite", 50, line)
    else:
        share = 50
    if not 0 <= share <= 100:
        raise ParseError(TOOL, f"rwmixread={share} is not a share between 0 and 100", line=line)
    return None if share in (0, 100) else share  # all reads or all writes: a pure job after all


def _int_option(options, name, default, line):
    value = options.get(name)
    if value in (None, ""):
        return default
    try:
        return int(str(value).strip())
    except ValueError:
        raise ParseError(TOOL, f"option {name}={quoted(str(value))} is not a whole number", line=line) from None


# Beyond these, a figure is not a measurement of a storage device: PCIe 5.0 x16 moves 64 GB/s.
PLAUSIBLE = {"bw_bytes": 1e11, "bw": 1e8, "iops": 1e8, "io_bytes": 1e18, "io_kbytes": 1e15, "runtime": 1e10}
BYTES_SINCE = (2, 21)  # the first fio whose JSON io_bytes is bytes (io_kbytes added beside it)
BW_KIB_SLACK = 1024  # fio's bw is bw_bytes ÷ 1024 rounded down
RATE_SLACK = 0.01  # io_bytes ÷ runtime against bw: fio divides the same two counters


def _version(text):
    """(major, minor) of a "fio-3.1" version string, None when it does not read."""
    match = re.match(r"\s*fio-(\d{1,3})\.(\d{1,4})", str(text or ""))
    return (int(match.group(1)), int(match.group(2))) if match else None


def io_bytes_of(section, version):
    """Bytes a job's `op` section moved. fio 2.21 and later print io_bytes in bytes with io_kbytes (KiB)
    beside it (fio's commit c12d597a, June 2017); before, io_bytes was KiB and there was no io_kbytes. So
    io_kbytes, or bw_bytes (fio 3.2 on), says io_bytes is bytes; without them the "fio version" decides."""
    io_bytes = section.get("io_bytes")
    if io_bytes is None:
        return None if section.get("io_kbytes") is None else section["io_kbytes"] * 1024
    in_bytes = ("io_kbytes" in section or "bw_bytes" in section
                or (_version(version) is not None and _version(version) >= BYTES_SINCE))
    return io_bytes if in_bytes else io_bytes * 1024


def _check_figures(section, op, name, locate, version=None):
    """ParseError naming the line of a figure of one job's `op` section that no device gives (infinite,
    negative, beyond PLAUSIBLE), or of figures that contradict each other: bw (KiB/s) against
    bw_bytes (B/s), and the bytes moved (io_bytes_of) over runtime (ms)
    against the bandwidth."""
    job = f"job {quoted(str(name))} {op}"
    figures = {}
    for key, most in PLAUSIBLE.items():
        value = section.get(key)
        if value is None:
            continue
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise ParseError(TOOL, f"{job}: {key} {quoted(str(value))} is not a number", line=locate(op, key))
        if not math.isfinite(value) or not 0 <= value <= most:
            raise ParseError(TOOL, f"{job}: {key} {_shown_number(value)} is not a plausible figure (0 to {most:g})",
                             line=locate(op, key))
        figures[key] = value
    bw, bw_bytes = figures.get("bw"), figures.get("bw_bytes")
    if bw is not None and bw_bytes is not None and abs(bw * 1024 - bw_bytes) > max(BW_KIB_SLACK, bw_bytes * 1e-6):
        raise ParseError(TOOL, f"{job}: bw {_shown_number(bw)} KiB/s contradicts bw_bytes {_shown_number(bw_bytes)} "
                               f"B/s (= {bw_bytes / 1024:.0f} KiB/s)", line=locate(op, "bw"))
    io_bytes, runtime = io_bytes_of(figures, version), figures.get("runtime")
    if io_bytes is None or runtime is None:
        return
    key = "io_bytes" if "io_bytes" in figures else "io_kbytes"
    if runtime == 0:
        if io_bytes or bw or bw_bytes:
            raise ParseError(TOOL, f"{job}: runtime 0 ms, yet {_shown_number(io_bytes)} bytes moved",
                             line=locate(op, "runtime"))
        return
    rate = bw_bytes if bw_bytes is not None else (bw * 1024 if bw is not None else None)
    if rate is None:
        return
    low, high = io_bytes * 1000 / (runtime + 1), io_bytes * 1000 / max(runtime - 1, 0.5)  # runtime's ms rounded
    if not low * (1 - RATE_SLACK) <= rate <= high * (1 + RATE_SLACK):
        moved = "" if io_bytes == figures[key] else f" KiB ({_shown_number(io_bytes)} bytes)"
        said = "" if bw_bytes is not None else f" (bw {_shown_number(bw)} KiB/s)"
        raise ParseError(TOOL, f"{job}: {key} {_shown_number(figures[key])}{moved} in runtime {_shown_number(runtime)} ms "
                               f"is {io_bytes * 1000 / runtime:.6g} B/s, but the bandwidth says {_shown_number(rate)} "
                               f"B/s{said}", line=locate(op, key))


def _shown_number(value):
    """A figure for a message: at most 12 significant digits (a JSON number may have a hundred)."""
    return f"{value:.12g}"


def _entries(group, options, line, locators, version=None):
    first = group[0]
    name = first["jobname"]
    rw = str(options.get("rw") or options.get("readwrite") or "read").split(":")[0].strip()
    if rw not in RW_KINDS:
        raise ParseError(TOOL, f"job {quoted(str(name))}: rw={quoted(rw)} is not a read/write pattern this site shows", line=line)
    directions = RW_KINDS[rw][1]
    read_bs, write_bs = block_sizes(options, line)
    iodepth = _int_option(options, "iodepth", 1, line)
    numjobs = _int_option(options, "numjobs", 1, line)
    mix = _mix_read_percent(rw, options, line)
    out = []
    for op in directions:
        sections = []
        for job in group:
            section = job.get(op)
            if not isinstance(section, dict):
                raise ParseError(TOOL, f"job {quoted(str(name))} has no '{op}' section", line=line)
            sections.append(section)
        for section, locate in zip(sections, locators):
            _check_figures(section, op, name, locate, version)
        io_bytes = sum(int(io_bytes_of(s, version) or 0) for s in sections)
        if len(directions) > 1 and io_bytes == 0:
            continue  # e.g. randrw with rwmixread=100: no writes to report
        if "bw_bytes" in sections[0]:
            bw_bytes = sum(float(s.get("bw_bytes", 0)) for s in sections)
        else:  # fio before 3.x reports only "bw" in KiB/s
            bw_bytes = sum(float(s.get("bw", 0)) * 1024 for s in sections)
        bs = read_bs if op == "read" else write_bs
        out.append({
            "name": name,
            "rw": rw,
            "op": op,
            "bs_bytes": bs,
            "iodepth": iodepth,
            "numjobs": numjobs,
            "test": test_name(rw, bs, iodepth, numjobs),
            "mix_read_percent": mix,
            "bw_bytes": bw_bytes,
            "mb_s": bw_bytes / 1e6,
            "iops": sum(float(s.get("iops", 0)) for s in sections),
            "lat_us": merged_latency([thread_latency(s) for s in sections]),
            "runtime_ms": max(int(s.get("runtime", 0)) for s in sections),
            "io_bytes": io_bytes,
            "threads": len(group),
            "error": max(int(job.get("error", 0) or 0) for job in group),
            "size": options.get("size"),
            "options": options,
            "line": line,
        })
    return out


def parse_file(text):
    return {"runs": parse_all(text)}


def to_session(parsed, **hints):
    docs = parsed["runs"]
    named = [{**doc, "jobs": [_named_job(job) for job in doc["jobs"]]} for doc in docs]
    results = results_from_fio(named)
    shares = {(job["test"], job["op"]): job["mix_read_percent"] for doc in named for job in doc["jobs"]
              if job.get("mix_read_percent") is not None}
    for result in results:
        if (result["test"], result["op"]) in shares:
            result["mix_read_percent"] = shares[(result["test"], result["op"])]
    notes = []
    if shares:
        mixed = sorted({test for test, _ in shares})
        notes.append(f"fio job(s) mixing reads and writes kept apart from pure reads and writes: {', '.join(mixed)}.")
    days = sorted({doc["date"] for doc in docs if doc.get("date")})
    if len(days) > 1:
        notes.append(f"fio ran from {days[0]} to {days[-1]}; the session is dated {docs[0]['date'] or days[0]}.")
    return SessionFields(tools=[{"name": "fio", "version": docs[0]["fio_version"] or "unknown"}],
                         measurements={"results": results}, runs=len(docs), notes=notes,
                         date=docs[0].get("date") or (days[0] if days else None))


def _named_job(job):
    share = job.get("mix_read_percent")
    if share is None or job.get("test") is None:
        return job
    return {**job, "test": mixed_test_name(job["test"], share)}
