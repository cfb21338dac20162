"""The tool output formats `cardbench import` reads, in the order format detection tries them.

Each format names its parser module; the module's detect(text) says how surely a text is its
own (NAMED, SHAPED or NOT_MINE) and its parse(text) reads it. detect_format(text) takes the
format that claims the text most surely, the earlier in FORMATS on a tie: so a file holding both
cdm_fio.sh and CrystalDiskMark result lines (but no CrystalDiskMark header) is cdm_fio.sh, and a
CrystalDiskMark export that quotes an nvme-cli threshold is still CrystalDiskMark.

Every format is a tool module (parsers/tool.py says its shape: INFO, detect, parse, to_session);
a new one is a line here, `tool_format(module)`. Format.parse_file(text) reads a whole file for
the import (the module's parse_file when a file holds more than parse() reads: several fio
documents, a log of dd commands with their output), and the module's to_session() makes the
session of it.
"""

from dataclasses import dataclass
from types import ModuleType

from . import (NAMED, NOT_MINE, agnostics, cdm_fio, crystaldiskmark, dd, f3probe, f3rw, fio_bwlog, fio_json,
               fio_text, flashbench, h2testw, hdparm, iozone, kdiskmark, microsd_benchmarks, nvme, pibenchmarks,
               result_table, sysbench)


@dataclass(frozen=True)
class Format:
    name: str  # the --format value
    module: ModuleType  # the tool module: INFO, detect(text), parse(text), to_session(parsed, **hints)
    description: str
    # Command names that run the tool in a logged session (the module's INFO.programs).
    programs: tuple = ()

    def parse_file(self, text):
        """The whole file read as the module's to_session() takes it."""
        return getattr(self.module, "parse_file", self.module.parse)(text)


def tool_format(module):
    """The Format of a tool module, from its INFO."""
    return Format(module.INFO.name, module, module.INFO.description, tuple(module.INFO.programs))


FORMATS = (
    tool_format(fio_json),
    tool_format(fio_bwlog),
    tool_format(kdiskmark),
    tool_format(cdm_fio),
    tool_format(crystaldiskmark),
    tool_format(fio_text),  # after fio-json (--output-format=normal,json) and the suites that quote fio
    tool_format(sysbench),
    tool_format(nvme),
    tool_format(pibenchmarks),  # the scripts before the tools their logs hold: their headings name them
    tool_format(microsd_benchmarks),
    tool_format(iozone),
    tool_format(hdparm),
    tool_format(dd),
    tool_format(flashbench),
    tool_format(f3probe),
    tool_format(f3rw),  # after f3probe: a log of both is f3probe's, which reads f3write/f3read's part too
    tool_format(h2testw),
    tool_format(agnostics),
)
# Formats never detected, only named: a result table needs its layout from a source's manifest.
NAMED_ONLY = (tool_format(result_table),)
NAMES = tuple(f.name for f in FORMATS)


def logged_tools():
    """{registry name: program names} of the formats whose commands a pasted log may hold, in FORMATS
    order: the tools a log of several tools is cut into. Two formats may share a program (fio's JSON
    and its text output): the one whose detect() claims a command's output reads it."""
    return {f.name: f.programs for f in FORMATS if f.programs}


def format_named(name):
    """The Format called `name`; KeyError when there is none."""
    for candidate in FORMATS + NAMED_ONLY:
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
