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
        "runtime_ms", "io_bytes" (bytes: fio before 2.21 printed KiB), "threads" (job entries summed),
        "error" (fio's error code), "size" (the job's size option as written, or None), "options"
        (job options merged over the global ones), "line" (line of the job in the text),
    }],
}

fio 2.x documents import too: they give `bw` (KiB/s) without `bw_bytes`, and latencies as `clat` /
`lat` in µs instead of `clat_ns` / `lat_ns`. A job printed without any job options (fio 2.x may print
none) gives its pattern, block size and depth nowhere: each direction that moved data is an entry with
"stated": False and a test from fio_naming.not_stated_test, kept as a tool result in KiB/s.

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
import re

from ...core.units import bytes_from_kib, kib_from_bytes, mb_from_bytes
from ...errors import ParseError, quoted
from .. import NAMED, NOT_MINE
from ..text import safejson
from ..card_entries import results_from_fio, tool_result_entry
from ..fields import SessionFields
from .json_figures import check_figures as _check_figures
from .json_figures import io_bytes_of  # noqa: F401  (part of this module's interface)
from .json_keys import duplicate_unclear
from .latency import merged_latency, thread_latency
from ...core.subtest_names import mixed_test_name
from .naming import RW_KINDS, not_stated_test, test_name
from .options import block_sizes, fio_size  # noqa: F401  (fio_size: part of this module's interface)
from ..tool import ToolInfo

TOOL = "fio"
INFO = ToolInfo(name="fio-json", programs=("fio",), family="suite",
                description="fio --output-format=json or json+ output, one or more runs",
                units={"bw": "KiB/s (1024 bytes a second)", "bw_bytes": "bytes a second", "clat_ns": "ns, kept in µs"})


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
            raise ParseError(TOOL, f"job {quoted(str(job.get('jobname')))} is malformed "
                                   f"({type(exc).__name__}: {quoted(str(exc))})", line=line) from None
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


def _entries(group, options, line, locators, version=None):
    first = group[0]
    name = first["jobname"]
    if not options:  # fio 2.x may print no job options: the pattern, block size and depth are not stated
        return _not_stated(group, line, locators, version)
    rw = str(options.get("rw") or options.get("readwrite") or "read").split(":")[0].strip()
    if rw not in RW_KINDS:
        raise ParseError(TOOL, f"job {quoted(str(name))}: rw={quoted(rw)} is not a read/write pattern this site shows",
                         line=line)
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
        bw_bytes, mb_s = job_bandwidth(sections)
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
            "mb_s": mb_s,
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


def job_bandwidth(sections):
    """A job's bandwidth over its threads' sections of one direction: (bytes a second, MB/s). The one place a
    fio job's MB/s is worked out: the card's results entries take it as it is. fio before 3.x reports only
    "bw", in KiB/s."""
    bw_bytes = sum(float(s["bw_bytes"]) if "bw_bytes" in s else bytes_from_kib(float(s.get("bw", 0))) for s in sections)
    return bw_bytes, mb_from_bytes(bw_bytes)


def _not_stated(group, line, locators, version):
    """Entries of a job printed without any job options (fio 2.x): a direction for each that moved data,
    kept as fio figures whose block size and depth are not stated (test from fio_naming.not_stated_test)."""
    name = group[0]["jobname"]
    moved = []
    for op in ("read", "write"):
        sections = [job.get(op) if isinstance(job.get(op), dict) else {} for job in group]
        for section, locate in zip(sections, locators):
            _check_figures(section, op, name, locate, version)
        io_bytes = sum(int(io_bytes_of(s, version) or 0) for s in sections)
        if io_bytes:
            moved.append((op, sections, io_bytes))
    out = []
    for op, sections, io_bytes in moved:
        bw_bytes, mb_s = job_bandwidth(sections)
        out.append({"name": name, "rw": None, "op": op, "bs_bytes": None, "iodepth": None, "numjobs": len(group),
                    "test": not_stated_test(op, len(moved) > 1), "stated": False, "mix_read_percent": None,
                    "bw_bytes": bw_bytes, "mb_s": mb_s, "iops": sum(float(s.get("iops", 0)) for s in sections),
                    "lat_us": merged_latency([thread_latency(s) for s in sections]),
                    "runtime_ms": max(int(s.get("runtime", 0)) for s in sections), "io_bytes": io_bytes,
                    "threads": len(group), "error": max(int(job.get("error", 0) or 0) for job in group),
                    "size": None, "options": {}, "line": line})
    if not out:
        raise ParseError(TOOL, f"job {quoted(str(name))} measured no I/O and names no job options", line=line)
    return out


def parse_file(text):
    return {"runs": parse_all(text)}


def to_session(parsed, command=None, raw=None, **hints):
    """The results of every run (parse_file()'s documents), a run's jobs grouped by subtest; command and raw:
    the command's text and the raw files' paths, given to every entry (the collector knows them)."""
    docs = parsed["runs"]
    named = [{**doc, "jobs": [_named_job(job) for job in doc["jobs"] if job.get("stated", True)]} for doc in docs]
    results = results_from_fio([doc for doc in named if doc["jobs"]], command=command, raw=raw)
    unstated = {}
    for doc in docs:
        for job in doc["jobs"]:
            if not job.get("stated", True):
                unstated.setdefault((job["test"], job["op"]), []).append(job)
    tool_results = [tool_result_entry("fio", test, op, "KiB/s", [kib_from_bytes(job["bw_bytes"]) for job in jobs],
                                      threads=jobs[0]["threads"], command=command, raw=raw)
                    for (test, op), jobs in unstated.items()]
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
    if unstated:
        unstated_names = sorted({job["name"] for jobs in unstated.values() for job in jobs})
        notes.append("fio printed no job options (fio 2.x): the pattern, block size and depth of "
                     f"{', '.join(unstated_names)} are not stated; "
                     "its figures (bw, KiB/s) are kept as fio figures, never compared with a named subtest.")
    measurements = {"results": results} if results else {}
    if tool_results:
        measurements["tool_results"] = tool_results
    return SessionFields(tools=[{"name": "fio", "version": docs[0]["fio_version"] or "unknown"}],
                         measurements=measurements, runs=len(docs), notes=notes,
                         date=docs[0].get("date") or (days[0] if days else None))


def _named_job(job):
    share = job.get("mix_read_percent")
    if share is None or job.get("test") is None:
        return job
    return {**job, "test": mixed_test_name(job["test"], share)}
