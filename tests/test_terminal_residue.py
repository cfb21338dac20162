"""Terminal residue (colour escapes, carriage returns, echo's leftovers) is taken out in one module,
parsers/text/terminal.py, which every tool module reading coloured logs asks."""

import re

import pytest

from cardbench.parsers.cdm import cdm_fio
from cardbench.parsers.text.terminal import echoed, shown

from conftest import ROOT

PARSERS = ROOT / "scripts" / "cardbench" / "parsers"
HOME = PARSERS / "text" / "terminal.py"
# An escape character written in a source: "\x1b", "\033", "\u001b", "\e[" (as a pattern for printed escapes).
_ESCAPE_IN_SOURCE = re.compile(r"\\(?:x1[bB]|0?33|u001[bB]|\\?e\\?\[)")


def escape_patterns(source):
    """The lines of a module's source that write an escape character: a pattern of its own for terminal residue."""
    return [line.strip() for line in source.splitlines() if _ESCAPE_IN_SOURCE.search(line)]


def test_only_the_terminal_module_writes_escape_patterns():
    found = {path.relative_to(PARSERS).as_posix(): escape_patterns(path.read_text(encoding="utf-8"))
             for path in PARSERS.rglob("*.py") if path != HOME}
    assert {name: lines for name, lines in found.items() if lines} == {}
    assert escape_patterns(HOME.read_text(encoding="utf-8"))


@pytest.mark.parametrize("planted", [
    '_ANSI = re.compile(r"\\x1b\\[[0-9;?]*[A-Za-z]")',
    '_ANSI = re.compile(r"\\\\033\\[[0-9;]*m|\\\\e\\[[0-9;]*m")',
    'line = line.replace("\\u001b[0m", "")',
])
def test_an_escape_pattern_of_a_parsers_own_is_reported(planted):
    assert escape_patterns(f"import re\n{planted}\n") == [planted]


@pytest.mark.parametrize("line, expected", [
    ("\x1b[1;33mSequential Read: 90MB/s\x1b[0m\r", "Sequential Read: 90MB/s"),
    ("-e \\033[1;34mSequential Write: 20MB/s\\e[0m", "Sequential Write: 20MB/s"),
    ("-e Configuration: Size:1024m", "Configuration: Size:1024m"),
    ("a\\tb -e x", "a\\tb -e x"),
])
def test_cdm_fio_lines_lose_their_residue(line, expected):
    assert cdm_fio.clean(line) == expected == echoed(shown(line)).strip()
