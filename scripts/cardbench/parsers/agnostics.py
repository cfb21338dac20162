"""The Raspberry Pi "SD Card Speed Test" (agnostics, Raspberry Pi OS: Accessories > Raspberry Pi
Diagnostics): its script's output, or the Diagnostics window's log (~/rpdiags.txt).

Units: the script runs a fio job file with --output-format=terse and prints, per fio job, the line
"<job>;<read KiB/s>;<read IOPS>;<write KiB/s>;<write IOPS>": bandwidths are fio's KiB/s (1024 bytes
a second), which its verdict lines call "KB/sec" (earlier "kb/s", or no unit). Random 4K figures are
IOPS. Figures are whole numbers as fio's terse output gives them.

The script's own verdict: a run passes when sequential write reaches 10000 KB/sec, random 4K write
500 IOPS and random 4K read 1500 IOPS (the Application Performance Class A1 figures, measured on a
file with direct I/O); the script runs up to three times and passes on the first run that passes.
TARGETS holds them; VERDICT_BASIS names them for a reader.

Versions read: one run (2020, with or without figures in the verdict lines), three runs ("Run 1"…,
"kb/s" then "KB/sec"), and the 2024 job file with a seq-read job. The job files' queue depths
differ between versions (4, later 32) and the output does not say which was run: the random 4K
figures are kept as the tool's own (tool_results), not as CrystalDiskMark-style subtests.

parse(text) -> {
    "runs": [{"jobs": {job: {"read_kib_s", "read_iops", "write_kib_s", "write_iops"}},
              "checks": {"seq-write"|"rand-4k-write"|"rand-4k-read": "PASS" | "FAIL"},
              "line": first line}],
    "verdict": "PASS" | "FAIL",    the window's "Test PASS"/"Test FAIL", else the script's rule
    "version": "0.5" | None,       the Diagnostics package version its log names
}
"""

import re

from ..errors import ParseError
from . import NAMED, NOT_MINE, SHAPED
from .card_entries import tool_result_entry
from .fields import SessionFields
from .text.numbers import refuse_long_numbers
from .text.pasted import lines as pasted_lines
from .tool import ToolInfo

TOOL = "agnostics"
INFO = ToolInfo(name="agnostics", programs=("agnostics",), family="suite",
                description="the Raspberry Pi SD Card Speed Test (agnostics): its output or its log",
                units={"KB/sec": "KiB/s (fio's terse bandwidth, 1024 bytes a second)", "IOPS": "IOPS"})
# job -> (test, op, figure kept, unit); the checks the verdict is made of are the first three.
JOBS = {"seq-write": ("write", "write_kib_s", "KiB/s"), "rand-4k-write": ("write", "write_iops", "IOPS"),
        "rand-4k-read": ("read", "read_iops", "IOPS"), "prepare-file": ("write", "write_kib_s", "KiB/s"),
        "seq-read": ("read", "read_kib_s", "KiB/s")}
TARGETS = {"seq-write": 10000, "rand-4k-write": 500, "rand-4k-read": 1500}
CHECKED = tuple(TARGETS)
BLOCK_SIZES = {"rand-4k-write": "4K", "rand-4k-read": "4K", "prepare-file": "512K"}  # the same in every job file
VERDICT_BASIS = ("the Raspberry Pi SD Card Speed Test's own verdict (its targets: sequential write 10000 KB/sec, "
                 "random 4K write 500 IOPS, random 4K read 1500 IOPS, on a file with direct I/O)")

_JOB_LINE = re.compile(r"^(prepare-file|seq-write|seq-read|rand-4k-write|rand-4k-read);(\d{1,12});(\d{1,12});"
                       r"(\d{1,12});(\d{1,12})$")
_SHORT_JOB_LINE = re.compile(r"^(prepare-file|seq-write|seq-read|rand-4k-write|rand-4k-read);[\d;.]{0,80}$")
_CHECK_START = re.compile(r"^(Sequential write|Random write|Random read) speed\b")
_CHECK = re.compile(r"^(Sequential write|Random write|Random read) speed(?: (\d{1,12})(?: (?:KB/sec|kb/s|IOPS))? "
                    r"\(target \d{1,6}\))? - (PASS|FAIL)$")
CHECK_JOBS = {"Sequential write": "seq-write", "Random write": "rand-4k-write", "Random read": "rand-4k-read"}
_RUN = re.compile(r"^Run (\d{1,2})$")
_HEADER = re.compile(r"^Raspberry Pi Diagnostics - version (\S{1,40})")
_TEST = re.compile(r"^Test : (.{1,200})$")
_OUTCOME = re.compile(r"^Test (PASS|FAIL|aborted)$")


def detect(text):
    """NAMED for the window's log or a verdict line with its target; SHAPED for the job lines alone."""
    head = text[:200_000]
    if "Test : SD Card Speed Test" in head or re.search(r"\(target (?:10000|500|1500)\) - (?:PASS|FAIL)", head):
        return NAMED
    found = {m.group(1) for m in re.finditer(r"(?m)^[ \t>]{0,16}(seq-write|rand-4k-write|rand-4k-read);\d", head)}
    return SHAPED if len(found) == 3 else NOT_MINE


def _new_run(number):
    return {"jobs": {}, "checks": {}, "line": number}


def parse(text):
    refuse_long_numbers(text, TOOL)
    runs, current, version, outcome, in_test = [], None, None, None, None
    last = 0
    for number, line in pasted_lines(text, _CHECK_START.match, _CHECK.match):
        if (m := _HEADER.match(line)):
            version = m.group(1)
        elif (m := _TEST.match(line)):
            in_test = m.group(1) == "SD Card Speed Test"
        elif (m := _OUTCOME.match(line)) and in_test:
            if m.group(1) == "aborted":
                raise ParseError(TOOL, "the test was cancelled before it finished", line=number, text=line)
            outcome, in_test = m.group(1), False
        elif in_test is False:
            continue  # another diagnostic's output in the same log
        elif (m := _RUN.match(line)):
            current = _new_run(number)
            current["run"] = int(m.group(1))
            runs.append(current)
        elif (m := _JOB_LINE.match(line)):
            if current is None or m.group(1) in current["jobs"] or current["checks"]:
                current = _new_run(number)  # a one-run script: no "Run N" lines
                runs.append(current)
            read_kib, read_iops, write_kib, write_iops = (int(m.group(i)) for i in range(2, 6))
            current["jobs"][m.group(1)] = {"read_kib_s": read_kib, "read_iops": read_iops, "write_kib_s": write_kib,
                                           "write_iops": write_iops}
            last = number
        elif _SHORT_JOB_LINE.match(line):
            raise ParseError(TOOL, "a job line of five fields was expected (job;read KB/sec;read IOPS;write KB/sec;"
                                   "write IOPS): the first version of the test (February 2020) is not read",
                             line=number, text=line)
        elif (m := _CHECK.match(line)):
            if current is None or m.group(1) in [k for k, v in CHECK_JOBS.items() if v in current["checks"]]:
                current = _new_run(number)
                runs.append(current)
            job = CHECK_JOBS[m.group(1)]
            current["checks"][job] = m.group(3)
            if m.group(2) is not None and job not in current["jobs"]:
                current.setdefault("stated", {})[job] = int(m.group(2))
            last = number
        elif line == "All tests passed" and current is not None:
            current["checks"].update({job: current["checks"].get(job, "PASS") for job in CHECKED})
            last = number
    if not runs:
        raise ParseError(TOOL, "no SD Card Speed Test figures (job lines or 'Sequential write speed … - PASS')",
                         line=len(text.splitlines()) or None)
    for run in runs:
        _complete(run, text)
    if in_test:
        raise ParseError(TOOL, "the log stops before the test's 'Test PASS' or 'Test FAIL': it is cut off", line=last,
                         text=text.splitlines()[last - 1] if last else None)
    passed = [all(run["checks"][job] == "PASS" for job in CHECKED) for run in runs]
    if "run" in runs[-1] and not passed[-1] and runs[-1]["run"] < 3 and outcome is None:
        raise ParseError(TOOL, f"run {runs[-1]['run']} failed and no further run follows: the output is cut off",
                         line=last, text=text.splitlines()[last - 1])
    verdict = outcome or ("PASS" if any(passed) else "FAIL")
    return {"runs": [{k: v for k, v in run.items() if k != "run"} for run in runs], "verdict": verdict,
            "version": version}


def _complete(run, text):
    """Each run's three checked figures (from its job lines, else its verdict lines) and verdicts."""
    stated = run.pop("stated", {})
    for job in CHECKED:
        figure = JOBS[job][1]
        if job not in run["jobs"] and job in stated:
            run["jobs"][job] = {figure: stated[job]}
        if job in run["jobs"] and job not in run["checks"]:
            run["checks"][job] = "PASS" if run["jobs"][job][figure] >= TARGETS[job] else "FAIL"
        if job not in run["checks"]:
            lines = text.splitlines()
            raise ParseError(TOOL, f"the run from this line on has no {job} result: the output is cut off",
                             line=run["line"], text=lines[run["line"] - 1])


def to_session(parsed, **hints):
    runs = parsed["runs"]
    entries = []
    for job, (op, figure, unit) in JOBS.items():
        values = [run["jobs"].get(job, {}).get(figure) for run in runs]
        if any(v is None for v in values):
            continue  # a figure only some runs (or no run) printed
        entries.append(tool_result_entry(TOOL, job, op, unit, values, block_size=BLOCK_SIZES.get(job), direct=True,
                                         target="file"))
    passed = sum(all(run["checks"][job] == "PASS" for job in CHECKED) for run in runs)
    note = (f"Raspberry Pi SD Card Speed Test verdict: {parsed['verdict']} ({passed} of {len(runs)} "
            f"run{'s' if len(runs) != 1 else ''} passed; targets 10000 KB/sec sequential write, 500 IOPS random 4K "
            "write, 1500 IOPS random 4K read).")
    tool = {"name": TOOL, "version": parsed["version"]} if parsed["version"] else {"name": TOOL}
    return SessionFields(tools=[tool], measurements={"tool_results": entries}, runs=len(runs), notes=[note])
