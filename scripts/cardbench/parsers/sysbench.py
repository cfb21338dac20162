"""sysbench fileio output, sysbench 1.x and 0.4.

Units read: sysbench 1.x prints "read, MiB/s" and "written, MiB/s" (2^20 bytes a second) and
"reads/s", "writes/s" (requests a second); sysbench 0.4 prints sizes with K/M/G/T suffixes of 1024
("Read 1.5625Gb", "Block size 16Kb") and its rate "(26.667Mb/sec)" is MiB/s of reads and writes
together, "Requests/sec executed" reads and writes a second. Rates are kept in MiB/s as printed.

parse(text) -> {"version": "1.0.20" | "0.4.12" | None, "runs": [{
    "mode": "seqwr" | "seqrewr" | "seqrd" | "rndrd" | "rndwr" | "rndrw", "block_size_bytes",
    "threads", "direct": True | False | None (not printed), "io_mode": "synchronous" | …,
    "read_mib_s", "write_mib_s", "read_iops", "write_iops" (None where sysbench 0.4 gives only
    the sum: a r/w run), "seconds" (total time), "line"}]}: every run in the text, in order.
The options come from sysbench's own lines: "Number of threads: 1", "Extra file open flags: directio"
(1.0.0 to 1.0.12: "3", the fourth choice; 0.4: the open flags in hex, O_DIRECT 0x4000 on x86, 0x10000 on
Arm, 0x8000, 0x20000 elsewhere),
"Block size 16KiB", "Doing random read test".

Figures pasted without the options above them (the results alone) are read too: the test mode,
block size and threads come from a logged sysbench command where there is one, else are not stated
("fileio (test mode not stated)"), with a note. 0.4.12 and before print "Read"/"Write" and the open
flags in decimal ("16384" is O_DIRECT on x86); the 0.4 branch after it and 0.5 "reads"/"writes" and hex.

to_session: a random read or write run in synchronous mode with O_DIRECT and its block size printed
is the CrystalDiskMark-style subtest "RND16K Q1T1" (threads as T: each thread has one request in
flight); every other run (sequential, r/w, buffered, asynchronous) is kept as tool_results "fileio
<mode>" in MiB/s, with its block size, threads and whether it was direct.
"""

import re

from ..core.units import binary_prefix, mib_from_bytes, size_label_from_bytes
from ..errors import ParseError, quoted
from . import NAMED, NOT_MINE, SHAPED
from .card_entries import results_from_table, tool_result_entry
from .fields import SessionFields
from .text.terminal import shown, unquoted
from .tool import ToolInfo

TOOL = "sysbench"
INFO = ToolInfo(
    name="sysbench", programs=("sysbench",), family="suite",
    description="sysbench fileio output (1.x and 0.4), one or more runs",
    units={"MiB/s": "sysbench 1.x throughput, 2^20 bytes a second",
           "Mb/sec": "sysbench 0.4: MiB/s (2^20 bytes a second), reads and writes together"})

MODES = {"sequential write (creation)": "seqwr", "sequential rewrite": "seqrewr", "sequential read": "seqrd",
         "random read": "rndrd", "random write": "rndwr", "random r/w": "rndrw"}
O_DIRECT_BITS = 0x4000 | 0x8000 | 0x10000 | 0x20000  # O_DIRECT on x86 and most others, MIPS, Arm, PowerPC
KNOWN_FLAGS = O_DIRECT_BITS | 0x101000 | 0x1000  # and O_SYNC, O_DSYNC (x86): what --file-extra-flags sets
# sysbench 1.0.0 to 1.0.12 print --file-extra-flags as its choice, 0 to 3: none, sync, dsync, direct
DIRECTIO_CHOICE = 3
_HEADER = re.compile(r"^sysbench (\d{1,3}\.\d{1,3}(?:\.\d{1,4})?)")
_START = re.compile(r"^Running the test with following options:")
_THREADS = re.compile(r"^Number of threads: (\d{1,6})\s*$")
_FLAGS = re.compile(r"^Extra file open flags: ?(.*)$")
_BLOCK = re.compile(r"^Block size (\d{1,12}(?:\.\d{1,6})?)([KMGT]?)i?[Bb]\s*$")
_IO_MODE = re.compile(r"^Using (\w{1,20}) I/O mode")
_DOING = re.compile(r"^Doing (.{1,40}) test\s*$")
_V1_FIGURE = re.compile(r"^\s*+(reads/s|writes/s|fsyncs/s|read, MiB/s|written, MiB/s):\s*+(\d{1,15}(?:\.\d{1,6})?)\s*$")
_V04_OPS = re.compile(r"^Operations performed:\s*+(\d{1,15}) [Rr]eads?, (\d{1,15}) [Ww]rites?, (\d{1,15}) Other")
_V04_BYTES = re.compile(r"^Read (\S{1,20})b\s++Written (\S{1,20})b\s++Total transferred (\S{1,20})b\s++"
                        r"\((\S{1,20})b/sec\)\s*$")
_V04_REQUESTS = re.compile(r"^\s*+(\d{1,15}(?:\.\d{1,6})?) Requests/sec executed")
_TOTAL_TIME = re.compile(r"^\s*+total time:\s*+(\d{1,12}(?:\.\d{1,6})?)s\s*$")
_COMMAND = re.compile(r"^\$ (?:\S*/)?sysbench\s")
SLACK = 0.01  # beyond printed precision: two figures sysbench works out from the same counters


def detect(text):
    """NAMED for sysbench's header beside fileio's figures ("File operations:" of 1.x, "Operations
    performed:" of 0.4); SHAPED for the figures alone."""
    figures = header = False
    for line in text.splitlines():
        line = unquoted(shown(line)).strip()
        if line.startswith("File operations:") or _V04_OPS.match(line) or line.lstrip().startswith("read, MiB/s:"):
            figures = True
        elif _HEADER.match(line):
            header = True
    return NAMED if figures and header else SHAPED if figures else NOT_MINE


def _size(text, line, number):
    """Bytes of a sysbench 0.4 size: '1.5625G', '16K', '0'."""
    match = re.fullmatch(r"(\d{1,15}(?:\.\d{1,6})?)([KMGT]?)", text)
    if not match:
        raise ParseError(TOOL, f"size {quoted(text)} not understood", line=number, text=line)
    return float(match.group(1)) * binary_prefix(" KMGT".index(match.group(2) or " "))


def _precision(text):
    digits = text.split(".")[1] if "." in text else ""
    value = float(text) if re.fullmatch(r"[\d.]+", text) else 0
    return 0.5 * 10 ** -len(digits) / value if value else 1.0


def parse(text):
    version, runs, run, command = None, [], None, {}
    for number, raw in enumerate(text.splitlines(), start=1):
        line = unquoted(shown(raw)).strip()
        if _COMMAND.match(line) or re.match(r"^(?:[^\s$#%]{0,120}(?: [^\s$#%]{1,80})? ?[$#%]\s+)?(?:sudo\s+)?"
                                            r"(?:\S*/)?sysbench\s.*\s(?:run|--test=fileio)\b", line):
            command = _command(line)
            continue
        if _HEADER.match(line):
            version = version or _HEADER.match(line).group(1)
        if _HEADER.match(line) or _START.match(line):
            if run is None or run["figures"]:
                run = _new_run(number, command)
                runs.append(run)
            continue
        if run is None:
            if not (_V1_FIGURE.match(line) or _V04_OPS.match(line)):
                continue
            run = _new_run(number, command)  # figures pasted without sysbench's options above them
            run["stated"] = False
            runs.append(run)
        _read_line(run, line, number, version)
    runs = [r for r in runs if r["figures"] or r["mode"]]
    if not runs:
        raise ParseError(TOOL, "no sysbench fileio results found", line=None)
    return {"version": version, "runs": [_finished(r) for r in runs]}


def _command(line):
    """The options a logged sysbench command gives: test mode, block size, threads, O_DIRECT."""
    def option(*names):
        found = re.search(rf"--(?:{'|'.join(names)})=(\S{{1,40}})(?!\S)", line)
        return found.group(1) if found else None
    mode, block, threads = option("file-test-mode"), option("file-block-size"), option("threads", "num-threads")
    return {"mode": mode if mode in MODES.values() else None,
            "block_size_bytes": int(_size(block.upper().rstrip("B").replace("I", ""), line, None)) if block and
            re.fullmatch(r"\d{1,12}[KkMmGg]?(?:i?[Bb])?", block) else None,
            "threads": int(threads) if threads and threads.isdigit() and len(threads) <= 6 else None,
            "direct": True if re.search(r"--file-extra-flags=\S*direct", line) else None}


def _new_run(number, command):
    return {"line": number, "mode": None, "block_size_bytes": None, "threads": None, "direct": command.get("direct"),
            "io_mode": None, "figures": {}, "last": number, "text": None, "command": command, "stated": True}


def _read_line(run, line, number, version=None):
    for pattern, key in ((_THREADS, "threads"), (_IO_MODE, "io_mode")):
        if pattern.match(line):
            value = pattern.match(line).group(1)
            run[key] = int(value) if key == "threads" else value
            return
    if _FLAGS.match(line):
        flags = _FLAGS.match(line).group(1).strip()
        if re.fullmatch(r"[0-9a-fA-F]{1,8}", flags):  # a number: 0.4's open flags, or 0.5 to 1.0.12's choice
            # 0.4.12 and before print the flags in decimal ("16384": O_DIRECT on x86), the 0.4 branch after it hex
            decimal = int(flags) if flags.isdigit() and _old_04(version) else None
            value = decimal if decimal and not decimal & ~KNOWN_FLAGS else int(flags, 16)
            run["direct"] = value == DIRECTIO_CHOICE if value <= DIRECTIO_CHOICE else bool(value & O_DIRECT_BITS)
        else:
            run["direct"] = "directio" in flags.split()
    elif _BLOCK.match(line):
        match = _BLOCK.match(line)
        run["block_size_bytes"] = int(float(match.group(1)) * binary_prefix(" KMGT".index(match.group(2) or " ")))
    elif _DOING.match(line):
        mode = _DOING.match(line).group(1)
        if mode not in MODES:
            raise ParseError(TOOL, f"test mode {quoted(mode)} is not one sysbench fileio runs", line=number, text=line)
        run["mode"] = MODES[mode]
    elif _V1_FIGURE.match(line):
        key, value = _V1_FIGURE.match(line).groups()
        run["figures"][key] = value
    elif _V04_OPS.match(line):
        run["figures"]["ops"] = tuple(int(v) for v in _V04_OPS.match(line).groups())
    elif _V04_BYTES.match(line):
        run["figures"]["bytes"] = (_V04_BYTES.match(line).groups(), line, number)
    elif _V04_REQUESTS.match(line):
        run["figures"]["requests/s"] = _V04_REQUESTS.match(line).group(1)
    elif _TOTAL_TIME.match(line):
        run["figures"]["seconds"] = float(_TOTAL_TIME.match(line).group(1))
    else:
        return
    run["last"], run["text"] = number, line


def _old_04(version):
    """Whether a sysbench version prints its open flags in decimal: 0.4.12 and before."""
    match = re.fullmatch(r"0\.4(?:\.(\d{1,3}))?", version or "")
    return bool(match) and int(match.group(1) or 0) <= 12


def _finished(run):
    figures, number, line = run["figures"], run["last"], run["text"]
    for key, value in run["command"].items():  # what sysbench did not print, its logged command may give
        if run.get(key) is None and value is not None:
            run[key] = value
    if run["mode"] is None and run["stated"]:
        raise ParseError(TOOL, "no 'Doing … test' line: sysbench's options are cut off", line=run["line"])
    out = {key: run[key] for key in ("mode", "block_size_bytes", "threads", "direct", "io_mode", "line", "stated")}
    out["seconds"] = figures.get("seconds")
    if "read, MiB/s" in figures or "reads/s" in figures:  # 1.x
        needed = ("read, MiB/s", "written, MiB/s") + (() if "reads/s" not in figures else ("reads/s", "writes/s"))
        missing = [k for k in needed if k not in figures]
        if missing:
            raise ParseError(TOOL, f"sysbench's figures are cut off: no {', '.join(missing)}", line=number, text=line)
        rates = {"reads/s": None, "writes/s": None, **figures}  # a paste of its throughput alone gives no requests
        out.update(read_mib_s=float(figures["read, MiB/s"]), write_mib_s=float(figures["written, MiB/s"]),
                   read_iops=_float(rates["reads/s"]), write_iops=_float(rates["writes/s"]))
        if rates["reads/s"] is not None:
            _check_requests_against_rate(out, figures, number, line)
    elif "bytes" in figures and "ops" in figures:  # 0.4
        _v04(out, figures)
    else:
        raise ParseError(TOOL, "sysbench's results are cut off", line=number, text=line)
    return out


def _float(text):
    return None if text is None else float(text)


def _check_requests_against_rate(out, figures, number, line):
    """reads/s × block size against read MiB/s (and writes): the same counters over the same time."""
    block = out["block_size_bytes"]
    if not block or out["mode"] in ("seqwr", "seqrewr", "seqrd"):  # sequential requests may be merged
        return
    for count_key, rate_key in (("reads/s", "read, MiB/s"), ("writes/s", "written, MiB/s")):
        rate = float(figures[rate_key])
        if rate >= 1 and abs(mib_from_bytes(float(figures[count_key]) * block) / rate - 1) > \
                _precision(figures[rate_key]) + SLACK:
            raise ParseError(TOOL, f"{count_key} {figures[count_key]} × {block} bytes is not {rate_key} {rate}",
                             line=number, text=line)


def _v04(out, figures):
    (read, written, total, rate), line, number = figures["bytes"]
    reads, writes, _ = figures["ops"]
    read_bytes, written_bytes = _size(read, line, number), _size(written, line, number)
    mib_s = mib_from_bytes(_size(rate, line, number))
    seconds = figures.get("seconds")
    if seconds and abs(mib_from_bytes((read_bytes + written_bytes) / seconds) / mib_s - 1) > _precision(rate) + SLACK:
        raise ParseError(TOOL, f"{total}b in {seconds} s is not {rate}b/sec", line=number, text=line)
    if reads and writes:  # 0.4 prints one rate for both: each direction's bytes over the run's time
        if not seconds:
            raise ParseError(TOOL, "a r/w run without its total time: the output is cut off", line=number, text=line)
        out.update(read_mib_s=mib_from_bytes(read_bytes / seconds), write_mib_s=mib_from_bytes(written_bytes / seconds),
                   read_iops=None, write_iops=None)
        return
    requests = float(figures["requests/s"]) if "requests/s" in figures else None
    out.update(read_mib_s=mib_s if reads else 0.0, write_mib_s=mib_s if writes else 0.0,
               read_iops=requests if reads else 0.0, write_iops=requests if writes else 0.0)


def _subtest(run):
    """The CrystalDiskMark-style name of a run that has one: random, synchronous, direct, block size known."""
    label = size_label_from_bytes(run["block_size_bytes"]) if run["block_size_bytes"] else None
    if run["mode"] not in ("rndrd", "rndwr") or run["direct"] is not True or label is None \
            or run["io_mode"] != "synchronous":
        return None
    return f"RND{label} Q1T{run['threads'] or 1}"


def to_session(parsed, **hints):
    results, tool_results, order = {}, {}, []
    for run in parsed["runs"]:
        test = _subtest(run)
        for op, rate, iops in (("read", run["read_mib_s"], run["read_iops"]),
                               ("write", run["write_mib_s"], run["write_iops"])):
            if not rate:
                continue
            label = size_label_from_bytes(run["block_size_bytes"]) if run["block_size_bytes"] else None
            if test:
                key = ("results", test, op)
                results.setdefault(key, []).append({"test": test, "op": op, "value": rate, "iops": iops})
            else:
                mode = run["mode"] or "(test mode not stated)"
                key = ("tool_results", f"fileio {mode}", op, label, run["threads"], run["direct"])
                tool_results.setdefault(key, []).append(rate)
            if key not in order:
                order.append(key)
    measurements, notes = {}, []
    for key in order:
        if key[0] == "results":
            rows = results[key]
            keep_iops = all(row["iops"] for row in rows)
            measurements.setdefault("results", []).extend(results_from_table(
                [[{**row, "iops": row["iops"] if keep_iops else None}] for row in rows], "MiB/s"))
        else:
            _, test, op, label, threads, direct = key
            measurements.setdefault("tool_results", []).append(tool_result_entry(
                TOOL, test, op, "MiB/s", tool_results[key], block_size=label, queue_depth=None, threads=threads,
                direct=direct, target="file"))
    if any(r["mode"] == "rndrw" and r["read_iops"] is None for r in parsed["runs"]):
        notes.append("sysbench 0.4 prints one rate for reads and writes together: each direction of its r/w run is "
                     "its bytes over the run's total time.")
    unstated = [r["line"] for r in parsed["runs"] if not r["stated"]]
    if unstated:
        notes.append(f"sysbench's figures from line {unstated[0]} are pasted without its options above them (test "
                     "mode, block size, threads): kept as sysbench figures with what its logged command gives, "
                     "'not stated' for the rest.")
    if "tool_results" in measurements:
        notes.append("sysbench runs that are not random, synchronous, direct I/O with their block size printed are "
                     "kept as sysbench figures, not CrystalDiskMark-style subtests.")
    version = parsed["version"]
    return SessionFields(tools=[{"name": "sysbench", "version": version or "unknown"}], measurements=measurements,
                         runs=max(len(v) for v in list(results.values()) + list(tool_results.values())), notes=notes)
