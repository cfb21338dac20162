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
session of it: Format.read_session(text) does both, refusing a damaged line that changes what is read.
The collector, which runs the tools, reads their output the same way (Format.read_session, read_runs;
Format.session_of for nvme-cli's outputs, which it reads one by one as it runs them), giving to_session()
what it knows that the output does not say: the command, the raw files' paths.
"""

from dataclasses import dataclass
from types import ModuleType

from ..errors import ParseError

from . import (NAMED, NOT_MINE, agnostics, f3probe, f3_write_read as f3rw, flashbench, h2testw, hdparm, iozone,
               microsd_benchmarks, nvme, pibenchmarks, result_table, sysbench)
from .cdm import cdm_fio, crystaldiskmark, kdiskmark
from .dd import tool as dd
from .fio import bwlog as fio_bwlog, json_output as fio_json, text_output as fio_text
from .text.terminal import damaged_lines, undamaged


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

    def read_session(self, text, **hints):
        """SessionFields of a whole file: parse_file(), then the module's to_session(). A line holding a
        NUL or another control character no terminal capture holds is refused, naming it, when the
        session would differ without it: the line no longer reads as what it was (a run's figure) and
        would be left out unseen."""
        def session_of(of):
            return self.module.to_session(self.parse_file(of), **hints)

        damaged = damaged_lines(text)
        if not damaged:
            return session_of(text)
        result, refusal = _outcome(session_of, text)
        as_read = _said(result, refusal)
        if _said(*_outcome(session_of, _mended(text, {number for number, _ in damaged}))) != as_read:
            number, line = next(((number, line) for number, line in damaged[:MAX_DAMAGED_TRIED]
                                 if _said(*_outcome(session_of, _mended(text, {number}))) != as_read), damaged[0])
            char = next(c for c in line if not undamaged(c))
            what = "NUL" if char == "\x00" else "a control character"
            raise ParseError(self.name, f"this line holds U+{ord(char):04X} ({what}), which no tool prints, "
                                        "and without it the file reads otherwise: the file is damaged; "
                                        "remove it or copy the output again", line=number, text=line)
        if refusal is not None:
            raise refusal
        return result


    def session_of(self, parsed, **hints):
        """SessionFields of outputs already read as parse_file() gives them (nvme-cli's, which the collector
        reads one at a time while the tests run): the module's to_session()."""
        return self.module.to_session(parsed, **hints)

    def read_runs(self, texts, **hints):
        """SessionFields of one test run several times, each run's output in a file of its own (the
        collector's <step>-run1.json, -run2.json, …): read as one file holding them all, as an import reads it."""
        return self.read_session("".join(text if text.endswith("\n") else text + "\n" for text in texts), **hints)


MAX_DAMAGED_TRIED = 20  # damaged lines tried one by one to name the one that matters; beyond, the first is named


def _outcome(read, text):
    """(what read(text) gives, None), or (None, the ParseError it raises)."""
    try:
        return read(text), None
    except ParseError as exc:
        return None, exc


def _said(result, refusal):
    """An outcome as it can be compared: the result, or what the refusal says and where."""
    return (result, None) if refusal is None else (None, (refusal.tool, refusal.message, refusal.line))


def _mended(text, numbers):
    """The text with the damaged characters taken out of the lines numbered `numbers`, line ends kept."""
    lines = text.splitlines(keepends=True)
    return "".join(undamaged(line) if number in numbers else line for number, line in enumerate(lines, start=1))


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

# Formats whose output may stand in one file together, besides the logged tools (logged_tools(), whose log
# the importer cuts apart): fio's JSON, its bandwidth log and its text; the lines of CrystalDiskMark,
# KDiskMark and cdm_fio.sh; a script's log and the tools it runs. The one table of them. (fio's
# --output-format=normal,json prints its text and JSON both; the JSON is read.)
FIO_FILES = ("fio-json", "fio-bwlog", "fio-text")
READ_TOGETHER = (FIO_FILES, ("kdiskmark", "cdm-fio", "crystaldiskmark"),
                 ("pibenchmarks", "hdparm", "dd", "iozone"), ("microsd-benchmarks", "hdparm", "dd", "iozone"))


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


def format_claims(text):
    """How surely each format's parser claims text, in FORMATS' order: [(Format, score)]. An import reads
    the text with every detector once, and both picks the format and looks for other tools' output in it."""
    return [(candidate, candidate.module.detect(text)) for candidate in FORMATS]


def undecided_line(text, found):
    """(line number, line) of a result line that the detected format `found` shares with another format
    and no other line of the text tells apart (cdm_fio.sh's MiB/s or CrystalDiskMark 2 to 4's MB/s);
    None when the text says which."""
    if found is None or found.name not in ("cdm-fio", "crystaldiskmark"):
        return None
    return cdm_fio.undecided_line(text)


def detect_format(text, claims=None):
    """The Format whose parser claims text most surely (the earlier in FORMATS on a tie); None
    when none claims it. claims: format_claims(text), when the caller has them."""
    best, best_score = None, NOT_MINE
    scored = claims if claims is not None else ((candidate, candidate.module.detect(text)) for candidate in FORMATS)
    for candidate, score in scored:
        if score > best_score:
            best, best_score = candidate, score
            if score == NAMED:  # nothing later can claim it more surely
                break
    return best
