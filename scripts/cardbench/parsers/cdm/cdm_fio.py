"""cdm_fio.sh text output (the fio wrapper that imitates CrystalDiskMark), also as logged by users.

parse(text) -> {"unit": "MiB/s", "runs": [{"config": {...}, "line": N,
                                           "results": [{"test", "op", "value", "iops", "line"}]}]}

The script prints, per run:
    Configuration: Size:1024m Loops:5 Write Only Zeroes:0
    Running Benchmark on: /dev/nvme0n1, MODEL (1000GB), please wait...
    Results from /dev/nvme0n1, MODEL (1000GB):
    Sequential Read: 737MB/s IOPS=0
    ...
    4KB Q8T8 Write: 266MB/s IOPS=68096
Its "MB/s" is fio's KiB/s divided by 1024 and floored, i.e. whole MiB/s; the unit is kept as
"MiB/s". Names map to CrystalDiskMark style using the run's Size: "Sequential" -> SEQ<size> Q1T1
(1024m -> SEQ1G), "512KB" -> SEQ512K Q1T1, "Sequential Q32T1" -> SEQ<size/32> Q32T1 (SEQ32M),
"4KB" and "4KB Q1T1" -> RND4K Q1T1, "4KB Q32T1", "4KB Q8T8".

A log may hold many runs (`seq 10 | xargs -I{} ./cdm_fio.sh /mnt/`) with shell prompts, fio
progress lines, ANSI colours and headings in between; those lines are skipped. A new run starts
at a "Configuration:" line, or when a subtest repeats. Every run must have the same subtests,
each with Read and Write; a run that lacks some (cut off) is an error naming its last line.
A run without a Configuration line has no stated Size, on which the Sequential tests' names and
block sizes hang. The Size is then read from the Sequential lines, whose block is the Size
("Sequential") or Size/32 ("Sequential Q32T1"): bandwidth ÷ IOPS, both floored as printed, fits
only some sizes. One power of two from 16m to 64g fits: that Size (config["size_inferred"] = True,
config["size_basis"] says from which lines). Several fit, the script's default 1024m among them,
or no IOPS was printed: 1024m (config["size_assumed"] = True). Else the size is asked for (a
ParseError naming the assumption). A figure printed as 0 (below 1 MiB/s, floored) is recomputed
from IOPS when IOPS was printed (result["from_iops"] = True).

Its fiomark variant (hddtest.sh and others from unix.stackexchange answer 480191) prints the same names
with bracketed IOPS, "Sequential Q32T1 Read: 487MB/s [   14 IOPS]", its "MB/s" fio's KiB/s ÷ 1000, floored
(4KB Read: 25MB/s [   6308 IOPS] is 6308 × 4 KiB = 25.2 × 1000 KiB/s): such a log has unit "kKiB/s" and
"variant": "fiomark"; lines of both shapes in one log are refused.

Its "Sequential Read"/"Sequential Write" lines share their words with CrystalDiskMark 2 to 4
("           Sequential Read :    95.134 MB/s"), whose MB/s are 10^6 B/s: the line's own shape
tells them apart (line_shape). cdm_fio.sh writes the colon right after the name and its figure
either glued to "MB/s" ("737MB/s") or followed by "IOPS="; CrystalDiskMark leaves a space before
the colon. A line of CrystalDiskMark's shape, or any other CrystalDiskMark result line, in a
cdm_fio.sh log is an error naming it (its figures would be lost or misread).

detect(text) -> SHAPED when a line is a cdm_fio.sh result line of its own shape, or when the
    result lines could be either tool's and nothing else says CrystalDiskMark; else NOT_MINE
    (the script never prints its own name).
undecided_line(text) -> (line number, line) of the first result line that could be either
    tool's, when no line of the text tells which; else None (the import then asks for --format).
to_session(parsed) -> SessionFields (cdm/session.py): each run one run of every subtest.
"""

import re

from ...core.figure_agreement import bandwidth_iops_apart
from ...core.subtest_names import cdm_test_name
from ...core.units import KIB_BYTES, MIB_BYTES, RATE_UNIT_BYTES, binary_prefix, size_label_from_bytes
from ...errors import ParseError, quoted
from .. import NAMED, NOT_MINE, SHAPED
from . import crystaldiskmark
from .export_lines import is_result_line
from .session import cdm_fio_session
from ..text.numbers import refuse_long_numbers
from ..text.terminal import echoed, shown
from ..tool import ToolInfo

TOOL = "cdm_fio.sh"
INFO = ToolInfo(name="cdm-fio", programs=(), family="suite",
                description="cdm_fio.sh output, also a terminal log of many runs",
                units={"MB/s": "MiB/s (fio's KiB/s ÷ 1024, floored)"})
UNIT = "MiB/s"
# Its fiomark variant (hddtest.sh, from unix.stackexchange answer 480191) prints "487MB/s [   14 IOPS]": fio's
# bw in KiB/s ÷ 1000, floored, as KDiskMark's MB/s.
FIOMARK_UNIT = "kKiB/s"
RATE_BYTES = {UNIT: RATE_UNIT_BYTES[UNIT], FIOMARK_UNIT: RATE_UNIT_BYTES[FIOMARK_UNIT]}
DEFAULT_SIZE = "1024m"
# Sizes tried when the log does not state one: powers of two, 16 MiB to 64 GiB (in MiB).
CANDIDATE_SIZES_MIB = tuple(2**n for n in range(4, 17))

# Possessive quantifiers (*+, ++, ?+) keep what they matched, so runs of spaces or digits cannot make
# these backtrack in quadratic time.
_RESULT = re.compile(
    r"^(?P<name>Sequential Q32T1|Sequential|512KB|4KB Q32T1|4KB Q8T8|4KB Q1T1|4KB)\s++(?P<op>Read|Write)\s*+:\s*+"
    r"(?P<value>\S*?)\s*+(?P<unit>[KMGT]?i?B/s)\s*+"
    r"(?:IOPS\s*+=\s*+(?P<iops>\d*+(?:\.\d++)?+)|\[\s*+(?P<bracketed>\d++(?:\.\d++)?+)\s++IOPS\s*+\])?+\s*+$")
_RESULT_LOOSE = re.compile(r"^(Sequential|512KB|4KB)\b.*\b(Read|Write)\s*:")
# The size stops at ':' so that a search from each "Configuration:" ends where the next one starts.
_CONFIG = re.compile(r"Configuration:\s*+Size:\s*+(?P<size>[^\s:]++)\s++Loops:\s*+(?P<loops>\d++)"
                     r"(?:\s++Write Only Zeroes:\s*+(?P<zeroes>\d++))?+")
# "… /dev/nvme0n1, MODEL (1000GB)": the model and capacity are cut out by _device(), not a lazy
# pattern, which backtracks in cubic time over a run of spaces.
_DEVICE = re.compile(r"(?:Running Benchmark on|Results from):?\s*+(?P<device>/dev/[^\s,]++),")
_TARGET = re.compile(r"^(?:Testing in|Defaulting to)\s+(?P<target>\S+)")

# name -> (kind, how to get the block size, queue depth, threads)
NAMES = {
    "Sequential": ("SEQ", "size", 1, 1),
    "512KB": ("SEQ", 512 * KIB_BYTES, 1, 1),
    "Sequential Q32T1": ("SEQ", "size/32", 32, 1),
    "4KB": ("RND", 4096, 1, 1),
    "4KB Q1T1": ("RND", 4096, 1, 1),
    "4KB Q32T1": ("RND", 4096, 32, 1),
    "4KB Q8T8": ("RND", 4096, 8, 8),
}


def _device(line):
    """(device, model, capacity) of a 'Running Benchmark on:' / 'Results from' line, or None."""
    match = _DEVICE.search(line)
    if not match:
        return None
    rest = line[match.end():]
    opening = rest.find("(")
    closing = rest.find(")", opening + 1) if opening != -1 else -1
    if closing == -1:
        return None
    return match.group("device"), rest[:opening].strip(), rest[opening + 1:closing]


def clean(line):
    """A log line without ANSI colour codes, carriage returns and echo's stray '-e'."""
    return echoed(shown(line)).strip()


def size_bytes(size):
    """fio size as the script passes it ('1024m', '512m', '4g') -> bytes (binary)."""
    match = re.fullmatch(r"(\d+)([kmgt]?)(?:i?b)?", size.strip().lower())
    if not match:
        return None
    return int(match.group(1)) * binary_prefix(" kmgt".index(match.group(2) or " "))


def block_bytes(name, size):
    """Block size of a subtest for the run's Size: the Size itself for "Sequential", Size/32 in
    whole MiB for "Sequential Q32T1" (the script's QSIZE=$(($SIZE / 32))m), else fixed."""
    block = NAMES[name][1]
    total = size_bytes(size)
    if block == "size":
        return total
    if block == "size/32":
        if not total:
            return None
        return (total // MIB_BYTES // 32) * MIB_BYTES if total % MIB_BYTES == 0 else total // 32
    return block


def test_name(name, size):
    kind, _, queue, threads = NAMES[name]
    block = block_bytes(name, size)
    label = size_label_from_bytes(block) if block else None
    if not label:
        return None
    return cdm_test_name(kind, label, queue, threads)


def _fits(result, size_mib, unit_bytes=MIB_BYTES):
    """Whether a Sequential line's figures can come from a run of this Size: some bandwidth in
    [printed, printed + 1) units (MiB/s, or the variant's 1000 KiB/s) equals some IOPS in
    [printed, printed + 1) times the block."""
    block = block_bytes(result["name"], f"{size_mib}m")
    if not block:
        return False
    bandwidth = (result["value"] * unit_bytes, (result["value"] + 1) * unit_bytes)
    return bandwidth_iops_apart(bandwidth, (result["iops_printed"], result["iops_printed"] + 1), block) < 0


def _sizes_text(sizes):
    return " to ".join((sizes[0], sizes[-1])) if len(sizes) > 3 else " and ".join(sizes)


def size_from_figures(results, unit_bytes=MIB_BYTES):
    """(size, how, basis) for a run without a Configuration line: see the module's description. `how`
    is "inferred" or "assumed", `basis` says why; a ParseError when no size, or several sizes but not
    the default, fit."""
    telling = [r for r in results if r["name"] in ("Sequential", "Sequential Q32T1") and r["iops_printed"] is not None]
    if not telling:
        return DEFAULT_SIZE, "assumed", "no IOPS printed for the Sequential tests"
    fitting = [size for size in CANDIDATE_SIZES_MIB if all(_fits(r, size, unit_bytes) for r in telling)]
    # The lines with IOPS above 0 tell most (a block size, not only a lower bound): shown first.
    shown = "; ".join(f"{r['name']} {r['op'].title()}: {r['value']:g}MB/s IOPS={r['iops_printed']:g}"
                      for r in sorted(telling, key=lambda r: r["iops_printed"] == 0)[:2])
    if len(fitting) == 1:
        return f"{fitting[0]}m", "inferred", f"bandwidth ÷ IOPS of {shown}"
    default_mib = size_bytes(DEFAULT_SIZE) // MIB_BYTES
    others = [f"{s}m" for s in fitting if s != default_mib]
    if default_mib in fitting:
        return DEFAULT_SIZE, "assumed", f"{shown} fit it, and {_sizes_text(others)} too"
    fit = f"fit {_sizes_text([f'{s}m' for s in fitting])}" if fitting else "fit no test size from 16m to 64g"
    raise ParseError(TOOL, f"the log has no 'Configuration: Size:…' line, and the script's default Size "
                           f"{DEFAULT_SIZE} cannot be right: {shown} {fit}; the Sequential tests' names and block "
                           "sizes hang on it. Add the script's Configuration line (e.g. 'Configuration: Size:256m "
                           "Loops:5 Write Only Zeroes:0') above the results", line=results[0]["line"])


# What only cdm_fio.sh writes: the colon right after the name, and the figure glued to its unit or
# followed by IOPS=; CrystalDiskMark right-aligns its names and leaves a space before the colon.
_OWN_FIGURE = re.compile(r"\d(?:MB/s|[KMGT]?i?B/s)|IOPS\s*+=|\[\s*+\d++\s++IOPS\s*+\]")
_GLUED_FIGURE = re.compile(r"\d[KMGT]?i?B/s")


def line_shape(raw):
    """Whose result line this is: "cdm_fio" (its own shape, or a name only it prints: "512KB Read:"),
    "crystaldiskmark" (a space before the colon, or any other CrystalDiskMark result line), "either"
    ("Sequential Read: 95 MB/s": both print these words so), or None for any other line."""
    line = clean(raw)
    match = _RESULT.match(line)
    if match is None and _RESULT_LOOSE.match(line) and _GLUED_FIGURE.search(line):
        return "cdm_fio"  # its names and a figure glued to its unit, in a layout it does not print: refused as cut off
    if match is None:
        return "crystaldiskmark" if is_result_line(line) else None
    name = line[:match.end("op")]
    if line[len(name):].startswith((" ", "\t")):
        return "crystaldiskmark"
    if match.group("name") != "Sequential" or _OWN_FIGURE.search(line[match.start("value"):]):
        return "cdm_fio"
    return "either"


def _shapes(text):
    """(line number, line, shape) of every result line of either tool."""
    for line_no, raw in enumerate(text.splitlines(), start=1):
        shape = line_shape(raw)
        if shape:
            yield line_no, raw, shape


def undecided_line(text):
    """(line number, line) of the first result line that either tool could have printed, when no line
    of text is one only cdm_fio.sh or only CrystalDiskMark prints, and no CrystalDiskMark header or
    footer names it; else None."""
    shapes = list(_shapes(text))
    if any(shape != "either" for _, _, shape in shapes) or crystaldiskmark.detect(text) == NAMED:
        return None
    return next(((line_no, raw) for line_no, raw, _ in shapes), None)


def detect(text):
    """SHAPED when a line is a cdm_fio.sh result line of its own shape ("Sequential Read: 737MB/s
    IOPS=0"), or when every result line could be either tool's (undecided_line says which)."""
    shapes = {shape for _, _, shape in _shapes(text)}
    return SHAPED if "cdm_fio" in shapes or shapes == {"either"} else NOT_MINE


def _new_run(line_no):
    return {"config": {}, "line": line_no, "results": [], "_seen": set(), "_last": line_no}


def parse(text):
    refuse_long_numbers(text, TOOL)
    runs = []
    run = None
    shapes = set()
    pending_config = {}
    for line_no, raw in enumerate(text.splitlines(), start=1):
        line = clean(raw)
        if not line:
            continue
        config = _CONFIG.search(line)
        if config:
            if run and run["results"]:
                runs.append(run)
            run = _new_run(line_no)
            run["config"] = {"size": config.group("size"), "loops": int(config.group("loops"))}
            if config.group("zeroes") is not None:
                run["config"]["write_zeroes"] = int(config.group("zeroes"))
            run["config"].update(pending_config)
            pending_config = {}
            continue
        target = _TARGET.match(line)
        if target:
            pending_config["target"] = target.group("target")
            if run and run["results"]:
                runs.append(run)
                run = None
            continue
        device = _device(line)
        if device:
            holder = run["config"] if run and not run["results"] else pending_config
            holder.update(device=device[0], model=device[1], capacity=device[2])
            continue
        if line_shape(line) == "crystaldiskmark":
            reason = ("a CrystalDiskMark result line, not cdm_fio.sh's (which writes 'Sequential Read: 737MB/s "
                      "IOPS=0'): CrystalDiskMark prints MB/s = 10^6 bytes/s and other subtests")
            raise ParseError(TOOL, reason + "; import its output with --format=crystaldiskmark "
                                   "(FORMAT=crystaldiskmark)", line=line_no, text=raw, asks=("format",), reason=reason)
        match = _RESULT.match(line)
        if not match:
            if _RESULT_LOOSE.match(line):
                raise ParseError(TOOL, "result line not understood (cut off?)", line=line_no, text=raw)
            continue  # prompts, fio progress ("Jobs: …"), headings, separators
        if match.group("unit") != "MB/s":
            raise ParseError(TOOL, f"unit {match.group('unit')} where cdm_fio.sh prints MB/s (inconsistent units)",
                             line=line_no, text=raw)
        key = (match.group("name"), match.group("op"))
        if run is None or key in run["_seen"]:
            if run and run["results"]:
                runs.append(run)
            run = _new_run(line_no)
            run["config"].update(pending_config)
            pending_config = {}
        value_text = match.group("value")
        if not re.fullmatch(r"\d+(?:\.\d+)?", value_text or ""):
            raise ParseError(TOOL, f"figure {quoted(value_text)} is not a number (fio failed for this subtest?)",
                             line=line_no, text=raw)
        iops_text = match.group("iops") if match.group("iops") is not None else match.group("bracketed")
        shapes.add("bracketed" if match.group("bracketed") is not None else "plain")
        if len(shapes) > 1:
            raise ParseError(TOOL, "'[ N IOPS]' and 'IOPS=N' result lines in one log: two scripts whose MB/s differ "
                                   "(MiB/s, and fio's KiB/s ÷ 1000); import each script's output apart",
                             line=line_no, text=raw)
        run["_seen"].add(key)
        run["_last"] = line_no
        # IOPS is floored too: 0 (e.g. SEQ1G at < 1024 MiB/s) is no figure, though it bounds the block.
        printed = float(iops_text) if iops_text else None
        run["results"].append({"name": key[0], "op": key[1].lower(), "value": float(value_text),
                               "iops": printed if printed else None, "iops_printed": printed, "line": line_no})
    if run and run["results"]:
        runs.append(run)
    if not runs:
        lines = text.splitlines()
        raise ParseError(TOOL, "no cdm_fio.sh result lines ('Sequential Read: 737MB/s IOPS=0') found",
                         line=1 if lines else None, text=lines[0] if lines else None)
    wanted = set()
    for run in runs:
        wanted |= run["_seen"]
    for name in {name for name, _ in wanted}:
        wanted |= {(name, "Read"), (name, "Write")}
    unit = FIOMARK_UNIT if "bracketed" in shapes else UNIT
    parsed = {"unit": unit, "runs": [_finish(run, wanted, RATE_BYTES[unit]) for run in runs]}
    return {**parsed, "variant": "fiomark"} if "bracketed" in shapes else parsed


def _finish(run, wanted, unit_bytes=MIB_BYTES):
    """A run's results in CrystalDiskMark names; every subtest of `wanted` must be in it."""
    missing = sorted(wanted - run["_seen"])
    if missing:
        shown = ", ".join(f"{name} {op}" for name, op in missing)
        raise ParseError(TOOL, f"run starting at line {run['line']} lacks {shown} (cut off or interrupted)",
                         line=run["_last"])
    config = dict(run["config"])
    if "size" not in config:
        config["size"], how, basis = size_from_figures(run["results"], unit_bytes)
        config[f"size_{how}"] = True
        config["size_basis"] = basis
    results = []
    for result in run["results"]:
        test = test_name(result["name"], config["size"])
        if test is None:
            raise ParseError(TOOL, f"size {config['size']} gives {result['name']} no CrystalDiskMark name",
                             line=result["line"])
        value = result["value"]
        entry = {"test": test, "op": result["op"], "value": value, "iops": result["iops"], "line": result["line"]}
        if value == 0 and result["iops"]:
            entry["value"] = round(result["iops"] * block_bytes(result["name"], config["size"]) / unit_bytes, 3)
            entry["from_iops"] = True
        results.append(entry)
    return {"config": config, "line": run["line"], "results": results}


def to_session(parsed, **hints):
    return cdm_fio_session(parsed, TOOL)
