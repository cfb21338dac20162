"""The tool output formats `cardbench import` reads, in the order format detection tries them.

Each format names its parser module; the module's detect(text) says how surely a text is its
own (NAMED, SHAPED or NOT_MINE) and its parse(text) reads it. detect_format(text) takes the
format that claims the text most surely, the earlier in FORMATS on a tie: so a file holding both
cdm_fio.sh and CrystalDiskMark result lines (but no CrystalDiskMark header) is cdm_fio.sh, and a
CrystalDiskMark export that quotes an nvme-cli threshold is still CrystalDiskMark.

A new format: a tool module (parsers/tool.py says its shape: INFO, detect, parse, to_session)
and a line here, `tool_format(module)`. The older formats still have their handler in
cardbench.imports.
"""

from dataclasses import dataclass
from types import ModuleType

from . import (NAMED, NOT_MINE, agnostics, cdm_fio, crystaldiskmark, dd, f3probe, f3rw, fio_bwlog, fio_json,
               fio_text, flashbench, h2testw, hdparm, iozone, kdiskmark, microsd_benchmarks, nvme, pibenchmarks,
               sysbench)


@dataclass(frozen=True)
class Format:
    name: str  # the --format value
    module: ModuleType  # the parser: detect(text), parse(text)
    description: str
    # Command names that run the tool in a logged session (a tool module says it in INFO.programs).
    programs: tuple = ()


def tool_format(module):
    """The Format of a tool module, from its INFO."""
    return Format(module.INFO.name, module, module.INFO.description, tuple(module.INFO.programs))


FORMATS = (
    Format("fio-json", fio_json, "fio --output-format=json or json+ output, one or more runs", programs=("fio",)),
    Format("fio-bwlog", fio_bwlog, "fio bandwidth log (--write_bw_log): a sustained fill"),
    Format("kdiskmark", kdiskmark, "KDiskMark text export, one or more"),
    Format("cdm-fio", cdm_fio, "cdm_fio.sh output, also a terminal log of many runs"),
    Format("crystaldiskmark", crystaldiskmark, "CrystalDiskMark 3 to 8 text export (UTF-8 or UTF-16), one or more"),
    tool_format(fio_text),  # after fio-json (--output-format=normal,json) and the suites that quote fio
    tool_format(sysbench),
    Format("nvme", nvme, "nvme-cli id-ctrl, smart-log, thermal get-feature and list output", programs=("nvme",)),
    tool_format(pibenchmarks),  # the scripts before the tools their logs hold: their headings name them
    tool_format(microsd_benchmarks),
    tool_format(iozone),
    tool_format(hdparm),
    Format("dd", dd, "dd summaries, each below its logged dd command", programs=("dd",)),
    Format("flashbench", flashbench, "flashbench -a, --open-au and -f output, with the logged commands", programs=("flashbench",)),
    Format("f3probe", f3probe, "f3probe output: real against announced capacity", programs=("f3probe",)),
    tool_format(f3rw),  # after f3probe: a log of both is f3probe's, which reads f3write/f3read's part too
    tool_format(h2testw),
    tool_format(agnostics),
)
NAMES = tuple(f.name for f in FORMATS)


def logged_tools():
    """{registry name: program names} of the formats whose commands a pasted log may hold, in FORMATS
    order: the tools a log of several tools is cut into. Two formats may share a program (fio's JSON
    and its text output): the one whose detect() claims a command's output reads it."""
    return {f.name: f.programs for f in FORMATS if f.programs}


def format_named(name):
    """The Format called `name`; KeyError when there is none."""
    for candidate in FORMATS:
        if candidate.name == name:
            return candidate
    raise KeyError(name)


def detect_format(text):
    """The Format whose parser claims text most surely (the earlier in FORMATS on a tie); None
    when none claims it."""
    best, best_score = None, NOT_MINE
    for candidate in FORMATS:
        score = candidate.module.detect(text)
        if score > best_score:
            best, best_score = candidate, score
            if score == NAMED:  # nothing later can claim it more surely
                break
    return best
