"""Terminal residue (colour escapes, carriage returns, echo's leftovers) is taken out in one module,
parsers/text/terminal.py, which every module reading a tool's output or a pasted log asks: the tool modules,
and the importer, the card's checks, the collector and the figures reading what they saved. No other module
of the package writes an escape pattern of its own but those named in WRITING_ESCAPES, with the reason."""

import re
from pathlib import Path

import pytest

from cardbench.parsers.cdm import cdm_fio
from cardbench.parsers.text.terminal import echoed, shown

from packagefiles import PACKAGE
from planted import planted_copy, with_lines

HOME = Path("parsers") / "text" / "terminal.py"
# Modules that write escapes to a terminal themselves (output, no residue taken out): module -> why.
WRITING_ESCAPES = {
    Path("cli.py"): "its progress line goes back to the line's start and clears it (\\r\\033[K) on a terminal",
}
# An escape character written in a source: "\x1b", "\033", "\u001b", "\N{ESCAPE}", chr(27), the one-byte CSI
# "\x9b", "\e[" (as a pattern for printed escapes).
_ESCAPE_IN_SOURCE = re.compile(r"\\(?:x1[bB]|x9[bB]|0?33|u001[bB]|N\{ESC(?:APE)?\}|\\?e\\?\[)"
                               r"|\bchr\(\s*(?:27|0x1[bB]|0o33)\s*\)")


def escape_patterns(source):
    """The lines of a module's source that write an escape character: a pattern of its own for terminal residue."""
    return [line.strip() for line in source.splitlines() if _ESCAPE_IN_SOURCE.search(line)]


def residue_findings(package=PACKAGE):
    """{module path: escape lines} of every module of a copy of the package, but the home and WRITING_ESCAPES,
    that writes an escape pattern of its own."""
    found = {}
    for path in sorted(Path(package).rglob("*.py")):
        where = path.relative_to(package)
        if where != HOME and where not in WRITING_ESCAPES and "__pycache__" not in where.parts:
            lines = escape_patterns(path.read_text(encoding="utf-8"))
            if lines:
                found[where.as_posix()] = lines
    return found


def test_only_the_terminal_module_writes_escape_patterns():
    assert residue_findings() == {}
    assert escape_patterns((PACKAGE / HOME).read_text(encoding="utf-8"))


@pytest.mark.parametrize("where", sorted(WRITING_ESCAPES))
def test_each_module_let_write_escapes_still_does(where):
    assert escape_patterns((PACKAGE / where).read_text(encoding="utf-8")), f"{where}: drop it from WRITING_ESCAPES"


@pytest.mark.parametrize("planted", [
    '_ANSI = re.compile(r"\\x1b\\[[0-9;?]*[A-Za-z]")',
    '_ANSI = re.compile(r"\\\\033\\[[0-9;]*m|\\\\e\\[[0-9;]*m")',
    'line = line.replace("\\u001b[0m", "")',
])
def test_an_escape_pattern_of_a_parsers_own_is_reported(planted):
    assert escape_patterns(f"import re\n{planted}\n") == [planted]


@pytest.mark.parametrize("planted", [
    'line = line.replace("\\N{ESCAPE}[0m", "")',
    'line = line.replace(chr(27), "")',
    '_CSI = re.compile("\\x9b[0-9;]*m")',
])
def test_other_spellings_of_an_escape_are_reported(planted):
    assert escape_patterns(planted) == [planted]


def test_line_endings_and_other_characters_are_no_escape_pattern():
    assert not escape_patterns('lines = body.replace("\\r\\n", "\\n")\n_SPACES = re.compile(r"[\\x1c-\\x1f]")\n'
                               'text = chr(int(match.group(1), 8))')


@pytest.mark.parametrize("where, planted", [
    ("imports/transcript.py", '_COLOUR = re.compile(r"\\x1b\\[[0-9;]*m")'),
    ("card/checks/raw_files.py", 'text = text.replace("\\033[0m", "")'),
    ("collect/toolrun.py", "line = re.sub('\\u001b\\\\[[0-9;]*m', '', line)"),
    ("figures/findings/devicefacts.py", 'line = line.replace(chr(27), "")'),
    ("publish/raw_copies.py", 'RESIDUE = "\\e[0m"'),
    ("parsers/dd/lines.py", 'line = line.replace("\\x1b[K", "")'),
])
def test_an_escape_pattern_planted_in_a_copy_is_reported(tmp_path, where, planted):
    assert list(residue_findings(planted_copy(tmp_path, {where: with_lines(where, planted)}))) == [where]


@pytest.mark.parametrize("line, expected", [
    ("\x1b[1;33mSequential Read: 90MB/s\x1b[0m\r", "Sequential Read: 90MB/s"),
    ("-e \\033[1;34mSequential Write: 20MB/s\\e[0m", "Sequential Write: 20MB/s"),
    ("-e Configuration: Size:1024m", "Configuration: Size:1024m"),
    ("a\\tb -e x", "a\\tb -e x"),
])
def test_cdm_fio_lines_lose_their_residue(line, expected):
    assert cdm_fio.clean(line) == expected == echoed(shown(line)).strip()
