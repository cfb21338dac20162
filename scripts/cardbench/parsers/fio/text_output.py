"""fio's normal (text) output, fio 3.x and 2.x: what most people paste.

Units read: fio 3 prints each job's bandwidth binary first and decimal in brackets,
"BW=22.0MiB/s (23.0MB/s)": MiB/s = 2^20 B/s, KiB/s = 2^10 B/s (GiB/s and B/s are converted, exactly,
to MiB/s and KiB/s); the binary figure is kept in its unit, checked against the decimal one and
against io ÷ runtime. With kb_base=1000 fio swaps the two ("6175kB/s (6031KiB/s)"): the binary one is
still the one kept. fio 2.x prints "bw=22528KB/s": its "KB/s" is KiB/s and "MB/s" MiB/s (kb_base
1024), kept as KiB/s and MiB/s. IOPS as printed ("10.3k" = 10300). Latency: the mean of "clat
(nsec|usec|msec)" in µs.

parse(text) -> {"fio_version": "fio-3.33" or None, "date": "YYYY-MM-DD" or None, "notes": [...], "jobs": [{
    "name", "rw", "op": "read"|"write", "bs_bytes", "iodepth", "numjobs",
    "test": CrystalDiskMark-style name (fio/naming.py), "mix_read_percent": None or the share
    of reads of a randrw/rw job, "value", "unit": "MiB/s"|"KiB/s", "iops", "lat_us": mean or None,
    "line"}]} — every job report in the text in order; several runs of the same jobs give the same
    test several times. A job's block size, rw and iodepth come from fio's first line for it
    ("name: (g=0): rw=randread, bs=(R) 4096B-4096B, …, ioengine=libaio, iodepth=32"); numjobs from
    "jobs=N" (group_reporting) or from N reports of the same job one after another. The read share of
    a mixed job is not printed: it comes from the logged command (--rwmixread=70, --rwmixwrite=30;
    none given: fio's 50), a job file shown above ("rwmixread=70" in [global] or the job's section),
    else from the I/Os fio issued ("issued rwts: total=785920,262656", to the nearest 5 %, with a note).

Pasted without fio's first line for a job (from its report line on, or only the "Run status group"
summary): the job's rw, bs and iodepth come from the fio command logged above it (text_log.py), else its
figures are kept as fio tool results with the block size and depth not stated ("fio read (block size and
depth not stated)", never a named subtest; text_jobs.py). A group summary alone gives no IOPS.
A figure fio before 3.25 misprinted one unit low ("BW=10.0MiB/s (11.5MB/s)(54.9MiB/5003msec)") is taken
from io ÷ runtime with a note (text_figures.py).

Refused, naming the line: a block size range, figures that contradict each other (other than fio's
misprint), a cut-off line or a job line with no report after it (cut-off output).
Pasted shapes read: "> " quoting, mail-wrapped lines, ANSI colours, CRLF, indentation; prompts and fences
are taken off before by the importer.
"""

import datetime
import re

from ...core.units import US_IN_MS, US_IN_NS, binary_prefix
from ...errors import ParseError, quoted
from .. import NAMED, NOT_MINE, SHAPED
from ..card_entries import results_from_table, tool_result_entry
from ..fields import SessionFields
from .naming import RW_KINDS
from .text_figures import fio2_figures, fio3_figures
from .text_jobs import jobs_of
from .text_log import Logged
from ..text.terminal import shown, unquoted
from ..tool import ToolInfo

TOOL = "fio"
INFO = ToolInfo(
    name="fio-text", programs=("fio",), family="suite",
    description="fio's normal text output (fio 3.x and 2.x), one or more runs",
    units={"MiB/s": "fio 3 BW, 2^20 bytes a second", "KiB/s": "fio 3 BW, 2^10 bytes a second",
           "KB/s": "fio 2.x bw: KiB/s", "MB/s": "fio 2.x bw: MiB/s; fio 3's bracketed decimal figure, "
                                                "10^6 bytes a second (a cross-check only)"})

_HEADER = re.compile(r"^\s*+(?P<name>\S[^\r\n]{0,200}?): \(g=(?P<group>\d{1,6})\): rw=(?P<rw>\w{1,20}), ")
_HEADER_END = re.compile(r"ioengine=(?P<engine>[^,\s]{1,40}), iodepth=(?P<depth>\d{1,6})\s*$")
_VERSION = re.compile(r"^\s*+(fio[- ]\d{1,3}\.\d{1,4}[\w.\-]{0,40})\s*$")  # fio 1.x printed "fio 1.57"
_REPORT = re.compile(r"^\s*+(?P<name>\S[^\r\n]{0,200}?): \(groupid=(?P<group>\d{1,6}), jobs=(?P<jobs>\d{1,6})\): "
                     r"err=\s*(?P<err>\d{1,6})(?:[^:]*)?(?:: pid=\d+: (?P<when>.{24}))?")
_DIR_START = re.compile(r"^\s*+(?P<op>read|write|trim|mixed)\s*+: (?:IOPS=|io=)")
_RATE = r"(\d{1,12}(?:\.\d{1,6})?) ?([kKMGTP]?i?B)"
_DIR_END = re.compile(r"msec\)?")
_FIO3 = re.compile(rf"^\s*+(?P<op>read|write|trim|mixed)\s*+: IOPS=(?P<iops>\d{{1,12}}(?:\.\d{{1,6}})?[kMG]?), "
                   rf"BW={_RATE}/s \({_RATE}/s\)\({_RATE}/(?P<run>\d{{1,12}})msec\)")
# fio 1.x and early 2.x: "iops=7118 , runt= 10481msec", "bw=286105 B/s" (a space before a unit of bytes)
_FIO2 = re.compile(rf"^\s*+(?P<op>read|write|trim|mixed)\s*+: io={_RATE}, bw={_RATE}/s, "
                   r"iops=(?P<iops>\d{1,12}(?:\.\d{1,6})?[KMG]?) ?+, runt=\s*+(?P<run>\d{1,12})msec")
_CLAT = re.compile(r"^\s*+clat \((?P<unit>nsec|usec|msec)\): min=[^,]*, max=[^,]*, avg=\s*+(?P<avg>\d+(?:\.\d+)?)")
_ISSUED = re.compile(r"^\s*+issued[ \w]{0,8}:\s*total=(?:r=)?(?P<r>\d{1,15})[,/](?:w=)?(?P<w>\d{1,15})")
_GROUP = re.compile(r"^\s*+Run status group (?P<group>\d+) \(all jobs\):")
# A group's line: fio 3 "READ: bw=16.5MiB/s (17.3MB/s), …, io=1024MiB (1074MB), run=62019-62019msec",
# fio 2.x "READ: io=1024.0MB, aggrb=43473KB/s, minb=…, maxb=…, mint=24120msec, maxt=24120msec".
_GROUP_START = re.compile(r"^\s*+(?P<op>READ|WRITE|TRIM|MIXED): (?:bw|io)=")
_GROUP3 = re.compile(rf"^\s*+(?P<op>READ|WRITE|TRIM|MIXED): bw={_RATE}/s \({_RATE}/s\), .*?"
                     rf"io={_RATE} \([^)]{{0,40}}\), run=\d{{1,12}}-(?P<run>\d{{1,12}})msec")
_GROUP2 = re.compile(rf"^\s*+(?P<op>READ|WRITE|TRIM|MIXED): io={_RATE}, aggrb={_RATE}/s, .*?"
                     r"maxt=\s*+(?P<run>\d{1,12})msec")


def detect(text):
    """NAMED when fio's job line or a job's read/write line stands beside a "fio-3.33" version line;
    SHAPED for either of them or fio's "Run status group N (all jobs):" alone."""
    shaped = named = False
    for raw in text.splitlines():
        line = _clean(raw)
        if _HEADER.match(line) or _FIO3.match(line) or _FIO2.match(line) or _GROUP.match(line) or _REPORT.match(line):
            shaped = True
        elif _VERSION.match(line):
            named = True
        if shaped and named:
            return NAMED
    return SHAPED if shaped else NOT_MINE


def _clean(line):
    """A line without ANSI colours, "> " quoting and stray carriage returns."""
    return unquoted(shown(line))


def _logical(text):
    """(first line number, line) with mail-wrapped job and report lines joined again."""
    lines = [_clean(line) for line in text.splitlines()]
    out, index = [], 0
    while index < len(lines):
        number, line = index + 1, lines[index]
        index += 1
        for start, end in ((_HEADER, _HEADER_END), (_DIR_START, _DIR_END), (_GROUP_START, _DIR_END)):
            joined = 0
            while start.match(line) and not end.search(line) and joined < 3 and index < len(lines) \
                    and lines[index].strip() and not _HEADER.match(lines[index]) and not _REPORT.match(lines[index]):
                line = line.rstrip() + " " + lines[index].strip()
                index += 1
                joined += 1
        out.append((number, line))
    return out


def _size(text, line, where):
    """Bytes of a size in fio's job line: '4096B', '1024KiB', '64.0KiB' (a range's end), '4K' (fio 2.x), '1M'."""
    match = re.fullmatch(r"(\d{1,12}(?:\.\d{1,6})?)([KMGT]?)(i?B)?", text.strip())
    if not match:
        raise ParseError(TOOL, f"block size {quoted(text)} not understood", line=where, text=line)
    return round(float(match.group(1)) * binary_prefix(" KMGT".index(match.group(2) or " ")))


def _block_size(line, number):
    """The job's read and write block sizes from its job line; None for a direction with a range."""
    # A size holds no '-' and no ',' (4096B, 4.00KiB): possessive, each is read once, never split again.
    fio3 = re.search(r"bs=\(R\) ([^\s-]++)-([^\s,]++), \(W\) ([^\s-]++)-([^,\s]++)", line)
    fio2 = re.search(r"bs(?:\(seq/rand\))?=([^-/\s]+)-([^-/\s]+)/([^-/\s]+)-([^-/,\s]+)", line)
    found = fio3 or fio2
    if not found:
        raise ParseError(TOOL, "no block size (bs=) in fio's job line", line=number, text=line)
    low_r, high_r, low_w, high_w = (_size(found.group(k), line, number) for k in range(1, 5))
    return (low_r if low_r == high_r else None), (low_w if low_w == high_w else None)


def parse(text):
    version, date, headers, reports, groups, notes = None, None, {}, [], [], []
    logged = Logged()
    current = None  # the report whose lines are being read
    group = None  # the "Run status group" whose lines are being read
    just_read = None  # the job line of the line before, if it was one
    clones_of = None  # the job line above a "..." line, until the next line
    job_lines = []
    for number, line in _logical(text):
        job_line_above, just_read = just_read, None
        if line.strip() != "..." and not _HEADER.match(line):
            clones_of = None
        if logged.see(line):
            continue
        if _VERSION.match(line):
            version = version or _VERSION.match(line).group(1)
        elif line.strip() == "..." and job_line_above is not None:
            job_line_above["clones"] = True  # numjobs > 1: fio prints the job line once
            clones_of = job_line_above
        elif _HEADER.match(line) and clones_of is not None and line.strip() == clones_of["text"].strip():
            clones_of = None  # fio 1.x prints a cloned job's line again below its "...": the same job
        elif _HEADER.match(line):
            job_lines.append(_job_line(line, number, logged))
            just_read = job_lines[-1]
            headers.setdefault(job_lines[-1]["name"], []).append(job_lines[-1])
        elif _REPORT.match(line):
            match = _REPORT.match(line)
            date = date or _day(match.group("when"))
            name = match.group("name")
            current = {"name": name, "group": match.group("group"), "jobs": int(match.group("jobs")),
                       "error": int(match.group("err")), "run": len(job_lines), "line": number, "text": line,
                       "dirs": [], "issued": None, "options": logged.options(name), "share": logged.share(name)}
            reports.append(current)
        elif _DIR_START.match(line):
            if current is None:
                raise ParseError(TOOL, "a job's read/write line without the job's report line above it "
                                       "('name: (groupid=0, jobs=1): err= 0: …'); paste fio's whole output",
                                 line=number, text=line)
            current["dirs"].append(_direction(line, number))
        elif _CLAT.match(line) and current is not None and current["dirs"] and current["dirs"][-1]["lat_us"] is None:
            match = _CLAT.match(line)
            scale = {"nsec": US_IN_NS, "usec": 1.0, "msec": US_IN_MS}[match.group("unit")]
            current["dirs"][-1]["lat_us"] = round(float(match.group("avg")) * scale, 3)
        elif _ISSUED.match(line) and current is not None:
            current["issued"] = tuple(int(x) for x in _ISSUED.match(line).group("r", "w"))
        elif _GROUP.match(line):
            group = {"group": _GROUP.match(line).group("group"), "line": number, "text": line, "dirs": [],
                     "before": len(job_lines), "options": logged.options(None), "share": logged.share(None)}
            groups.append(group)
        elif _GROUP_START.match(line) and group is not None:
            group["dirs"].append((line, number))  # read only when no job report holds the figures
    if not reports:
        reports = _reports_of_groups(groups, job_lines)
    if not reports:
        first = job_lines[0] if job_lines else None
        if groups:
            raise ParseError(TOOL, "only fio's group summary, its figures cut off or not understood; paste fio's whole "
                                   "output, from its first line ('name: (g=0): rw=…, bs=…, iodepth=…')",
                             line=groups[0]["line"], text=groups[0]["text"])
        raise ParseError(TOOL, "no job results: the output is cut off after fio's job line"
                         if first else "no fio job results found", line=first["line"] if first else None,
                         text=first["text"] if first else None)
    jobs = jobs_of(reports, headers)
    unreported = [h for queue in headers.values() for h in queue if not h.get("used")]
    if unreported:
        raise ParseError(TOOL, f"job {quoted(unreported[0]['name'])} has no results: the output is cut off",
                         line=unreported[0]["line"], text=unreported[0]["text"])
    for job in jobs:
        notes.extend(note for note in job.pop("notes") if note not in notes)
    return {"fio_version": version, "date": date, "jobs": jobs, "notes": notes}


def _reports_of_groups(groups, job_lines):
    """Reports made of fio's group summaries, for a paste holding those alone: each group's figures are
    its job's when fio's job line above names one job in that group (no IOPS, no latency: the summary
    prints none), else figures whose block size and depth are not stated."""
    reports, used = [], set()
    for group in groups:
        if not group["dirs"]:
            continue
        group["dirs"] = [_group_direction(line, number) for line, number in group["dirs"]]
        mine = [h for h in job_lines[:group["before"]] if h["group"] == group["group"] and id(h) not in used]
        used.update(id(h) for h in mine)
        header = mine[0] if len(mine) == 1 and not mine[0]["clones"] else None
        if len(mine) > 1 or (mine and mine[0]["clones"]):
            for other in mine:
                other["used"] = True  # several jobs in one group: their sum only
        name = header["name"] if header else None
        reports.append({"name": name, "group": group["group"], "jobs": 1, "error": 0, "run": group["before"],
                        "line": group["line"], "text": group["text"], "dirs": group["dirs"], "issued": None,
                        "options": group["options"] if header is None else None, "share": group["share"],
                        "header": header, "summary": True,
                        "several": len(mine) > 1 or bool(mine and mine[0]["clones"])})
    return reports


def _job_line(line, number, logged):
    match, end = _HEADER.match(line), _HEADER_END.search(line)
    if not end:
        raise ParseError(TOOL, "fio's job line is cut off before its iodepth", line=number, text=line)
    rw = match.group("rw")
    if rw not in RW_KINDS:
        raise ParseError(TOOL, f"rw={quoted(rw)} is not a read/write pattern this site shows", line=number, text=line)
    read_bs, write_bs = _block_size(line, number)
    return {"name": match.group("name"), "group": match.group("group"), "rw": rw, "read_bs": read_bs,
            "write_bs": write_bs, "iodepth": int(end.group("depth")), "mix": logged.share(match.group("name")),
            "clones": False, "line": number, "text": line}


def _direction(line, number):
    fio3, fio2 = _FIO3.match(line), _FIO2.match(line)
    if not (fio3 or fio2):
        raise ParseError(TOOL, "a job's read/write line cut off or not understood", line=number, text=line)
    op = (fio3 or fio2).group("op")
    if op == "mixed":
        raise ParseError(TOOL, "unified_rw_reporting gives reads and writes as one figure; run fio without it",
                         line=number, text=line)
    value, unit, iops, note = (fio3_figures if fio3 else fio2_figures)(fio3 or fio2, line, number)
    return {"op": op, "value": value, "unit": unit, "iops": iops, "lat_us": None, "line": number, "text": line,
            "note": note}


def _group_direction(line, number):
    """A direction of fio's group summary, its figures checked as a job's are (no IOPS printed)."""
    fio3, fio2 = _GROUP3.match(line), _GROUP2.match(line)
    if not (fio3 or fio2):
        raise ParseError(TOOL, "a line of fio's group summary cut off or not understood", line=number, text=line)
    op = (fio3 or fio2).group("op").lower()
    if op == "mixed":
        raise ParseError(TOOL, "unified_rw_reporting gives reads and writes as one figure; run fio without it",
                         line=number, text=line)
    if fio3:
        value, unit, _, note = fio3_figures(fio3, line, number, groups=(2, 3, 4, 5, 6, 7), iops=None)
    else:
        value, unit, _, note = fio2_figures(fio2, line, number, groups=(1, 2, 3, 4), iops=None)
    return {"op": op, "value": value, "unit": unit, "iops": None, "lat_us": None, "line": number, "text": line,
            "note": note}


def _day(when):
    try:
        return datetime.datetime.strptime(" ".join((when or "").split()), "%a %b %d %H:%M:%S %Y").date().isoformat()
    except ValueError:
        return None


def to_session(parsed, **hints):
    """Results per subtest, each run as fio printed it; a subtest printed in MiB/s in one run and KiB/s
    in another is kept in KiB/s (× 1024, exact). Figures whose block size and depth are not stated go to
    the session's tool results, as printed."""
    groups = {}
    for job in parsed["jobs"]:
        groups.setdefault((job["test"], job["op"]), []).append(job)
    results, tool_results = [], []
    for jobs in groups.values():
        unit = jobs[0]["unit"] if len({j["unit"] for j in jobs}) == 1 else "KiB/s"
        values = [j["value"] * (1024 if j["unit"] == "MiB/s" and unit == "KiB/s" else 1) for j in jobs]
        if jobs[0].get("stated") is False:
            threads = {j["numjobs"] for j in jobs}
            tool_results.append(tool_result_entry("fio", jobs[0]["test"], jobs[0]["op"], unit, values,
                                                  threads=threads.pop() if len(threads) == 1 else None))
            continue
        rows = [[{"test": j["test"], "op": j["op"], "iops": j["iops"], "latency_us": j["lat_us"], "value": value}]
                for j, value in zip(jobs, values)]
        result, = results_from_table(rows, unit)
        if jobs[0]["mix_read_percent"] is not None:
            result["mix_read_percent"] = jobs[0]["mix_read_percent"]
        results.append(result)
    notes = list(parsed.get("notes") or [])
    mixed = sorted({j["test"] for j in parsed["jobs"] if j["mix_read_percent"] is not None})
    if mixed:
        notes.append(f"fio job(s) mixing reads and writes kept apart from pure reads and writes: {', '.join(mixed)}.")
    measurements = {"results": results} if results else {}
    if tool_results:
        measurements["tool_results"] = tool_results
    return SessionFields(tools=[{"name": "fio", "version": parsed["fio_version"] or "unknown"}],
                         measurements=measurements, runs=max(len(jobs) for jobs in groups.values()),
                         notes=notes, date=parsed["date"])
