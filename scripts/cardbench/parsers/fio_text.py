"""fio's normal (text) output, fio 3.x and 2.x: what most people paste.

Units read: fio 3 prints each job's bandwidth binary first and decimal in brackets,
"BW=22.0MiB/s (23.0MB/s)": MiB/s = 2^20 B/s, KiB/s = 2^10 B/s (GiB/s and B/s are converted, exactly,
to MiB/s and KiB/s); the binary figure is kept in its unit, checked against the decimal one and
against io ÷ runtime. With kb_base=1000 fio swaps the two ("6175kB/s (6031KiB/s)"): the binary one is
still the one kept. fio 2.x prints "bw=22528KB/s": its "KB/s" is KiB/s and "MB/s" MiB/s (kb_base
1024), kept as KiB/s and MiB/s. IOPS as printed ("10.3k" = 10300). Latency: the mean of "clat
(nsec|usec|msec)" in µs.

parse(text) -> {"fio_version": "fio-3.33" or None, "date": "YYYY-MM-DD" or None, "jobs": [{
    "name", "rw", "op": "read"|"write", "bs_bytes", "iodepth", "numjobs",
    "test": CrystalDiskMark-style name (parsers.fio_naming), "mix_read_percent": None or the share
    of reads of a randrw/rw job, "value", "unit": "MiB/s"|"KiB/s", "iops", "lat_us": mean or None,
    "line"}]} — every job report in the text in order; several runs of the same jobs give the same
    test several times. A job's block size, rw and iodepth come from fio's first line for it
    ("name: (g=0): rw=randread, bs=(R) 4096B-4096B, …, ioengine=libaio, iodepth=32"); numjobs from
    "jobs=N" (group_reporting) or from N reports of the same job one after another. The read share of
    a mixed job is not printed: it comes from the logged command (--rwmixread=70, --rwmixwrite=30;
    none given: fio's 50) or a job file shown above ("rwmixread=70" in [global] or the job's section).

Refused, naming the line: a job report without fio's first line for it (its block size and depth
are not printed anywhere else; "paste the output from its first line"), only the group summary
("Run status group 0"), a block size range, a mixed job whose read share is nowhere, figures that
contradict each other, a cut-off line or a job line with no report after it (cut-off output).
Pasted shapes read: "> " quoting, mail-wrapped lines, ANSI colours, CRLF; prompts and fences are
taken off before by the importer.
"""

import datetime
import re

from ..errors import ParseError, quoted
from . import NAMED, NOT_MINE, SHAPED
from .entries import results_from_table
from .fields import SessionFields
from .fio_naming import RW_KINDS, mixed_test_name, test_name
from .terminal import plain, unquoted
from .tool import ToolInfo

TOOL = "fio"
INFO = ToolInfo(
    name="fio-text", programs=("fio",), family="suite",
    description="fio's normal text output (fio 3.x and 2.x), one or more runs",
    units={"MiB/s": "fio 3 BW, 2^20 bytes a second", "KiB/s": "fio 3 BW, 2^10 bytes a second",
           "KB/s": "fio 2.x bw: KiB/s", "MB/s": "fio 2.x bw: MiB/s; fio 3's bracketed decimal figure, "
                                                "10^6 bytes a second (a cross-check only)"})

_HEADER = re.compile(r"^(?P<name>\S[^\r\n]{0,200}?): \(g=(?P<group>\d{1,6})\): rw=(?P<rw>\w{1,20}), ")
_HEADER_END = re.compile(r"ioengine=(?P<engine>[^,\s]{1,40}), iodepth=(?P<depth>\d{1,6})\s*$")
_VERSION = re.compile(r"^(fio-\d{1,3}\.\d{1,4}[\w.\-]{0,40})\s*$")
_REPORT = re.compile(r"^(?P<name>\S[^\r\n]{0,200}?): \(groupid=(?P<group>\d{1,6}), jobs=(?P<jobs>\d{1,6})\): "
                     r"err=\s*(?P<err>\d{1,6})(?:[^:]*)?(?:: pid=\d+: (?P<when>.{24}))?")
_DIR_START = re.compile(r"^\s*+(?P<op>read|write|trim|mixed)\s*+: (?:IOPS=|io=)")
_RATE = r"(\d{1,12}(?:\.\d{1,6})?)([kKMGTP]?i?B)"
_DIR_END = re.compile(r"msec\)?")
_FIO3 = re.compile(rf"^\s*+(?P<op>read|write|trim|mixed)\s*+: IOPS=(?P<iops>\d{{1,12}}(?:\.\d{{1,6}})?[kMG]?), "
                   rf"BW={_RATE}/s \({_RATE}/s\)\({_RATE}/(?P<run>\d{{1,12}})msec\)")
_FIO2 = re.compile(rf"^\s*+(?P<op>read|write|trim|mixed)\s*+: io={_RATE}, bw={_RATE}/s, "
                   r"iops=(?P<iops>\d{1,12}(?:\.\d{1,6})?[KMG]?), runt=\s*+(?P<run>\d{1,12})msec")
_CLAT = re.compile(r"^\s*+clat \((?P<unit>nsec|usec|msec)\): min=[^,]*, max=[^,]*, avg=\s*+(?P<avg>\d+(?:\.\d+)?)")
_GROUP = re.compile(r"^\s*+Run status group \d+ \(all jobs\):")
_MIX_READ = re.compile(r"(?:^|[\s-])rwmixread\s*=\s*(\d{1,3})\b")
_MIX_WRITE = re.compile(r"(?:^|[\s-])rwmixwrite\s*=\s*(\d{1,3})\b")
_COMMAND = re.compile(r"^\$ (?:\S*/)?fio(?:\s|$)")

_BINARY = {"B": 1, "KiB": 1024, "MiB": 1024 ** 2, "GiB": 1024 ** 3, "TiB": 1024 ** 4, "PiB": 1024 ** 5}
_DECIMAL = {"B": 1, "kB": 1000, "KB": 1000, "MB": 1000 ** 2, "GB": 1000 ** 3, "TB": 1000 ** 4, "PB": 1000 ** 5}
_FIO2_UNITS = {"B": 1, "KB": 1024, "MB": 1024 ** 2, "GB": 1024 ** 3, "TB": 1024 ** 4, "PB": 1024 ** 5}
_COUNT = {"": 1, "k": 1000, "K": 1000, "M": 1000 ** 2, "G": 1000 ** 3}
SLACK = 0.01  # beyond the printed precision of two figures fio works out from the same counters


def detect(text):
    """NAMED when fio's job line or a job's read/write line stands beside a "fio-3.33" version line;
    SHAPED for either of them or fio's "Run status group N (all jobs):" alone."""
    shaped = named = False
    for raw in text.splitlines():
        line = _clean(raw)
        if _HEADER.match(line) or _FIO3.match(line) or _FIO2.match(line) or _GROUP.match(line):
            shaped = True
        elif _VERSION.match(line):
            named = True
        if shaped and named:
            return NAMED
    return SHAPED if shaped else NOT_MINE


def _clean(line):
    """A line without ANSI colours, "> " quoting and stray carriage returns."""
    line = plain(line).replace("\r", "")
    return unquoted(line)


def _logical(text):
    """(first line number, line) with mail-wrapped job and report lines joined again."""
    lines = [_clean(line) for line in text.splitlines()]
    out, index = [], 0
    while index < len(lines):
        number, line = index + 1, lines[index]
        index += 1
        for start, end in ((_HEADER, _HEADER_END), (_DIR_START, _DIR_END)):
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
    return round(float(match.group(1)) * 1024 ** " KMGT".index(match.group(2) or " "))


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


def _count(text):
    return float(text[:-1]) * _COUNT[text[-1]] if text[-1] in _COUNT and not text[-1].isdigit() else float(text)


def _precision(text):
    """Half the last printed digit of a figure, relative to it: '39.1' -> 0.00128."""
    digits = text.split(".")[1] if "." in text else ""
    value = float(text)
    return 0.5 * 10 ** -len(digits) / value if value else 1.0


def _rate(value, unit, line, number):
    """(figure, stored unit) of a binary rate: MiB/s and KiB/s as printed, GiB/s, TiB/s and B/s converted."""
    if unit in ("MiB", "KiB"):
        return float(value), f"{unit}/s"
    if unit in ("GiB", "TiB", "PiB"):
        return float(value) * _BINARY[unit] / _BINARY["MiB"], "MiB/s"
    if unit == "B":
        return float(value) / 1024, "KiB/s"
    raise ParseError(TOOL, f"bandwidth unit {quoted(unit)}/s not understood", line=number, text=line)


def _fio3_figures(match, line, number):
    """(value, unit, iops) of a fio 3 job line, its figures checked."""
    (bw, bw_unit), (dec, dec_unit) = match.group(3, 4), match.group(5, 6)
    if bw_unit in _DECIMAL and dec_unit in _BINARY and bw_unit not in _BINARY:  # kb_base=1000 swaps them
        (bw, bw_unit), (dec, dec_unit) = (dec, dec_unit), (bw, bw_unit)
    if bw_unit not in _BINARY or dec_unit not in _DECIMAL:
        raise ParseError(TOOL, f"bandwidth units {bw_unit}/s and {dec_unit}/s not understood", line=number, text=line)
    io_text, io_unit = match.group(7, 8)
    io_bytes = float(io_text) * (_BINARY.get(io_unit) or _DECIMAL.get(io_unit, 1))
    bw_bytes, dec_bytes = float(bw) * _BINARY[bw_unit], float(dec) * _DECIMAL[dec_unit]
    allowed = _precision(bw) + _precision(dec) + SLACK
    if dec_bytes and abs(bw_bytes / dec_bytes - 1) > allowed:
        raise ParseError(TOOL, f"{bw}{bw_unit}/s and {dec}{dec_unit}/s in brackets are not the same rate",
                         line=number, text=line)
    _check_io_runtime(bw_bytes, io_bytes, int(match.group("run")), _precision(bw) + _precision(io_text), line, number)
    value, unit = _rate(bw, bw_unit, line, number)
    return value, unit, _count(match.group("iops"))


def _fio2_figures(match, line, number):
    io_text, io_unit = match.group(2, 3)
    bw, bw_unit = match.group(4, 5)
    if bw_unit not in _FIO2_UNITS or io_unit not in _FIO2_UNITS:
        raise ParseError(TOOL, f"units {io_unit} and {bw_unit}/s not understood", line=number, text=line)
    io_bytes, bw_bytes = float(io_text) * _FIO2_UNITS[io_unit], float(bw) * _FIO2_UNITS[bw_unit]
    # fio 2.x prints a whole rate with at most 6 digits: its last digit is the precision.
    _check_io_runtime(bw_bytes, io_bytes, int(match.group("run")), _precision(bw) + _precision(io_text), line, number)
    binary = {"KB": "KiB", "MB": "MiB", "GB": "GiB", "TB": "TiB", "B": "B"}.get(bw_unit, bw_unit)
    value, unit = _rate(bw, binary, line, number)
    return value, unit, _count(match.group("iops"))


def _check_io_runtime(bw_bytes, io_bytes, runtime_ms, precision, line, number):
    if runtime_ms <= 0:
        raise ParseError(TOOL, "a runtime of 0 ms", line=number, text=line)
    measured = io_bytes * 1000 / runtime_ms
    if measured and abs(bw_bytes / measured - 1) > precision + SLACK:
        raise ParseError(TOOL, f"the bandwidth ({bw_bytes / 1e6:.6g} MB/s) is not io ÷ runtime "
                               f"({measured / 1e6:.6g} MB/s)", line=number, text=line)


class _ReadShares:
    """The read share of mixed jobs, from what the log shows around fio's output: the last fio command
    (--rwmixread=, --rwmixwrite=; a command giving --rw= without them: fio's 50) and a job file shown
    (rwmixread= under [global] or the job's own section; a job file without it: 50)."""

    def __init__(self):
        self.command, self.sections, self.section, self.job_file = None, {}, "global", False

    def see(self, line):
        """Take in a log line; True when it is a fio command (no output of fio)."""
        if _COMMAND.match(line):
            if re.search(r"\s--(?:rw|readwrite)=", line):  # a job on the command line
                self.command, self.sections, self.job_file = _mix_share(line, 50), {}, False
            else:  # a job file run: the file's shares, unless the command sets one
                self.command = _mix_share(line, None)
            return True
        section = re.match(r"^\s*\[([^\]\s]{1,200})\]\s*$", line)
        if section:
            self.section, self.job_file = section.group(1), True
        elif re.match(r"^\s*rwmix(?:read|write)\s*=", line):
            share = _mix_share(line, None)
            if share is not None:
                self.sections[self.section] = share
        return False

    def of(self, name):
        default = self.sections.get("global", 50 if self.job_file else None)
        return self.command if self.command is not None else self.sections.get(name, default)


def parse(text):
    version, date, headers, reports, job_lines = None, None, {}, [], []
    shares = _ReadShares()
    current = None  # the report whose lines are being read
    just_read = None  # the job line of the line before, if it was one
    for number, line in _logical(text):
        job_line_above, just_read = just_read, None
        if shares.see(line):
            continue
        if _VERSION.match(line):
            version = version or _VERSION.match(line).group(1)
        elif line.strip() == "..." and job_line_above is not None:
            job_line_above["clones"] = True  # numjobs > 1: fio prints the job line once
        elif _HEADER.match(line):
            job_lines.append(_job_line(line, number, shares))
            just_read = job_lines[-1]
            headers.setdefault(job_lines[-1]["name"], []).append(job_lines[-1])
        elif _REPORT.match(line):
            match = _REPORT.match(line)
            date = date or _day(match.group("when"))
            current = {"name": match.group("name"), "group": match.group("group"), "jobs": int(match.group("jobs")),
                       "error": int(match.group("err")), "run": len(job_lines), "line": number, "text": line,
                       "dirs": []}
            reports.append(current)
        elif _DIR_START.match(line):
            if current is None:
                raise ParseError(TOOL, "a job's read/write line without the job's report line above it "
                                       "('name: (groupid=0, jobs=1): err= 0: …'); paste fio's whole output",
                                 line=number, text=line)
            current["dirs"].append(_direction(line, number))
        elif _CLAT.match(line) and current is not None and current["dirs"] and current["dirs"][-1]["lat_us"] is None:
            match = _CLAT.match(line)
            scale = {"nsec": 1e-3, "usec": 1.0, "msec": 1e3}[match.group("unit")]
            current["dirs"][-1]["lat_us"] = round(float(match.group("avg")) * scale, 3)
        elif _GROUP.match(line) and not reports:
            raise ParseError(TOOL, "only fio's group summary: it names no block size, depth or jobs; paste fio's "
                                   "whole output, from its first line ('name: (g=0): rw=…, bs=…, iodepth=…')",
                             line=number, text=line)
    if not reports:
        first = next(iter(headers.values()))[0] if headers else None
        raise ParseError(TOOL, "no job results: the output is cut off after fio's job line"
                         if first else "no fio job results found", line=first["line"] if first else None,
                         text=first["text"] if first else None)
    jobs = _jobs(reports, headers)
    unreported = [h for queue in headers.values() for h in queue if not h.get("used")]
    if unreported:
        raise ParseError(TOOL, f"job {quoted(unreported[0]['name'])} has no results: the output is cut off",
                         line=unreported[0]["line"], text=unreported[0]["text"])
    return {"fio_version": version, "date": date, "jobs": jobs}


def _mix_share(line, default):
    """The read share a command or job file line sets (rwmixread=, rwmixwrite=), else default."""
    read, write = _MIX_READ.search(line), _MIX_WRITE.search(line)
    if read:
        return int(read.group(1))
    return 100 - int(write.group(1)) if write else default


def _job_line(line, number, shares):
    match, end = _HEADER.match(line), _HEADER_END.search(line)
    if not end:
        raise ParseError(TOOL, "fio's job line is cut off before its iodepth", line=number, text=line)
    rw = match.group("rw")
    if rw not in RW_KINDS:
        raise ParseError(TOOL, f"rw={quoted(rw)} is not a read/write pattern this site shows", line=number, text=line)
    read_bs, write_bs = _block_size(line, number)
    return {"name": match.group("name"), "rw": rw, "read_bs": read_bs, "write_bs": write_bs,
            "iodepth": int(end.group("depth")), "mix": shares.of(match.group("name")), "clones": False,
            "line": number, "text": line}


def _direction(line, number):
    fio3, fio2 = _FIO3.match(line), _FIO2.match(line)
    if not (fio3 or fio2):
        raise ParseError(TOOL, "a job's read/write line cut off or not understood", line=number, text=line)
    op = (fio3 or fio2).group("op")
    if op == "mixed":
        raise ParseError(TOOL, "unified_rw_reporting gives reads and writes as one figure; run fio without it",
                         line=number, text=line)
    value, unit, iops = (_fio3_figures if fio3 else _fio2_figures)(fio3 or fio2, line, number)
    return {"op": op, "value": value, "unit": unit, "iops": iops, "lat_us": None, "line": number, "text": line}


def _day(when):
    try:
        return datetime.datetime.strptime(" ".join((when or "").split()), "%a %b %d %H:%M:%S %Y").date().isoformat()
    except ValueError:
        return None


def _jobs(reports, headers):
    """One entry per job and direction: reports of the clones of a job (numjobs without group_reporting:
    fio's "..." below its job line, then one report each, one after another under one name) summed."""
    out, index = [], 0
    while index < len(reports):
        report = reports[index]
        queue = [h for h in headers.get(report["name"], []) if not h.get("used")]
        if not queue:
            raise ParseError(TOOL, f"job {quoted(report['name'])}: its block size and iodepth are printed only in "
                                   f"fio's first line for it ('{report['name']}: (g=0): rw=…, bs=…, iodepth=…'); "
                                   "paste the output from that line", line=report["line"], text=report["text"])
        header = queue[0]
        header["used"] = True
        clones = [report]
        while (header["clones"] and report["jobs"] == 1 and index + len(clones) < len(reports)
               and all(reports[index + len(clones)][key] == report[key] for key in ("name", "group", "run"))):
            clones.append(reports[index + len(clones)])
        numjobs = report["jobs"] if report["jobs"] > 1 else len(clones)
        out.extend(_entries(header, clones, numjobs))
        index += len(clones)
    return out


def _entries(header, clones, numjobs):
    rw = header["rw"]
    mix = None
    if len(RW_KINDS[rw][1]) > 1:
        if header["mix"] is None:
            raise ParseError(TOOL, f"job {quoted(header['name'])} mixes reads and writes (rw={rw}) but fio does not "
                                   "print its read share: paste the fio command or job file (rwmixread=)",
                             line=header["line"], text=header["text"])
        mix = header["mix"] if 0 < header["mix"] < 100 else None
    out = []
    for op in RW_KINDS[rw][1]:
        dirs = [d for clone in clones for d in clone["dirs"] if d["op"] == op]
        if not dirs:
            if len(RW_KINDS[rw][1]) > 1:
                continue  # a mix of 0 or 100 %: no figures in one direction
            error = max(clone["error"] for clone in clones)
            why = f"it stopped with fio error {error}" if error else "the output is cut off"
            raise ParseError(TOOL, f"job {quoted(header['name'])} has no {op} figures: {why}",
                             line=clones[-1]["line"], text=clones[-1]["text"])
        bs = header["read_bs"] if op == "read" else header["write_bs"]
        test = test_name(rw, bs, header["iodepth"], numjobs)
        if test is None:
            raise ParseError(TOOL, f"job {quoted(header['name'])}: a block size range or one not a whole number of KiB "
                                   "has no CrystalDiskMark-style name", line=header["line"], text=header["text"])
        unit = dirs[0]["unit"] if len({d["unit"] for d in dirs}) == 1 else "KiB/s"
        value = sum(d["value"] * (1024 if d["unit"] == "MiB/s" and unit == "KiB/s" else 1) for d in dirs)
        lats = [d["lat_us"] for d in dirs]
        iops = sum(d["iops"] for d in dirs)
        # clones' mean latency weighted by their I/Os, as fio's group_reporting merges it
        lat = (round(sum(d["lat_us"] * d["iops"] for d in dirs) / iops, 3)
               if None not in lats and iops else (lats[0] if len(lats) == 1 else None))
        out.append({"name": header["name"], "rw": rw, "op": op, "bs_bytes": bs, "iodepth": header["iodepth"],
                    "numjobs": numjobs, "test": mixed_test_name(test, mix) if mix else test,
                    "mix_read_percent": mix, "value": round(value, 6), "unit": unit,
                    "iops": round(iops, 3), "lat_us": lat, "line": dirs[0]["line"]})
    return out


def to_session(parsed, **hints):
    """Results per subtest, each run as fio printed it; a subtest printed in MiB/s in one run and KiB/s
    in another is kept in KiB/s (× 1024, exact)."""
    groups = {}
    for job in parsed["jobs"]:
        groups.setdefault((job["test"], job["op"]), []).append(job)
    results = []
    for jobs in groups.values():
        unit = jobs[0]["unit"] if len({j["unit"] for j in jobs}) == 1 else "KiB/s"
        rows = [[{"test": j["test"], "op": j["op"], "iops": j["iops"], "latency_us": j["lat_us"],
                  "value": j["value"] * (1024 if j["unit"] == "MiB/s" and unit == "KiB/s" else 1)}] for j in jobs]
        result, = results_from_table(rows, unit)
        if jobs[0]["mix_read_percent"] is not None:
            result["mix_read_percent"] = jobs[0]["mix_read_percent"]
        results.append(result)
    notes = []
    mixed = sorted({j["test"] for j in parsed["jobs"] if j["mix_read_percent"] is not None})
    if mixed:
        notes.append(f"fio job(s) mixing reads and writes kept apart from pure reads and writes: {', '.join(mixed)}.")
    return SessionFields(tools=[{"name": "fio", "version": parsed["fio_version"] or "unknown"}],
                         measurements={"results": results}, runs=max(len(jobs) for jobs in groups.values()),
                         notes=notes, date=parsed["date"])
