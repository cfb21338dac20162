"""The format registry: every format is a tool module (INFO, detect, parse, to_session) whose parser
says whether a text is its own, detection picks the surest claim (the earlier format on a tie), the
importer reads every format through its module alone, and nothing outside a parser module reaches
into its private names."""

import ast
import json
from pathlib import Path

import pytest

from cardbench.errors import ParseError
from cardbench.imports import importer, several_tools
from cardbench.imports.read import decode_text
from cardbench.imports.transcript import unwrap
from cardbench.parsers import NAMED, NOT_MINE, SHAPED, registry
from cardbench.parsers.fields import SessionFields
from cardbench.parsers.tool import ToolInfo
from importgraph import imports_in_source

FIXTURES = Path(__file__).parent / "fixtures"
PACKAGE = Path(registry.__file__).resolve().parents[1]
FOLDER_FORMAT = {"fio": "fio-json", "cdm_fio": "cdm-fio", "crystaldiskmark": "crystaldiskmark",
                 "kdiskmark": "kdiskmark", "dd": "dd", "flashbench": "flashbench", "nvme": "nvme", "f3probe": "f3probe",
                 "fio_bwlog": "fio-bwlog", "fio_text": "fio-text"}


def test_every_format_is_a_tool_module_with_its_info_detect_parse_and_to_session():
    assert len(set(registry.NAMES)) == len(registry.FORMATS)
    for fmt in registry.FORMATS:
        module = fmt.module
        assert isinstance(module.INFO, ToolInfo) and fmt == registry.tool_format(module), fmt.name
        assert callable(module.detect) and callable(module.parse) and callable(module.to_session), fmt.name
        assert module.INFO.units and module.INFO.family, fmt.name
        assert fmt.description and "\n" not in fmt.description


def _corpus_cases(name):
    """Texts of the import corpus that land as format `name`, given nothing but the file."""
    for path in sorted((FIXTURES / "import-corpus").glob("*/*.out")):
        expected = json.loads(path.with_suffix(".json").read_text(encoding="utf-8"))
        if expected.get("format") == name and "refused" not in expected and not expected.get("options"):
            yield unwrap(decode_text(path.read_bytes()))


@pytest.mark.parametrize("fmt", registry.FORMATS, ids=lambda f: f.name)
def test_every_format_makes_a_session_through_its_tool_module(fmt):
    made = []
    for text in _corpus_cases(fmt.name):
        try:
            made.append(fmt.module.to_session(fmt.parse_file(text)))
        except ParseError:  # a log of several tools: the importer cuts it apart first
            continue
    assert made and all(isinstance(fields, SessionFields) and fields.entries > 0 for fields in made)


IMPORTS_OWN_HELPERS = {f"cardbench.imports.{own}" for own in ("figure_check", "logdate", "naming", "read", "result",
                                                                 "several_tools", "transcript")}


def format_tables(source):
    """Where an importer's source reads a format other than through the registry: (line, what) for each mapping
    keyed by format names and each handler named from_<format>."""
    names, found = set(registry.NAMES), []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Dict):
            keys = {key.value for key in node.keys if isinstance(key, ast.Constant)}
            if keys & names:
                found.append((node.lineno, "a table of formats"))
        if isinstance(node, (ast.FunctionDef, ast.Name)) and getattr(node, "name", getattr(node, "id", "")).startswith(
                "from_"):
            found.append((node.lineno, "a handler of one format"))
    return found


def imports_around_the_registry(source, name, package=PACKAGE):
    """(line, module) for each tool module, and each module of imports/ beyond the importer's own helpers, that
    the source of module `name` imports."""
    tool_modules = {fmt.module.__name__ for fmt in registry.FORMATS + registry.NAMED_ONLY}
    return [(line, target) for target, line in imports_in_source(source, name, package=package)
            if target in tool_modules
            or (target.startswith("cardbench.imports.") and target not in IMPORTS_OWN_HELPERS)]


def test_the_importer_holds_no_table_of_formats():
    """import_file() reads every format through its tool module: the importer imports no module of a
    tool, names no handler of one, and holds no mapping keyed by format names; a log of several tools
    is cut apart from the registry alone."""
    assert not format_tables(Path(importer.__file__).read_text(encoding="utf-8"))
    assert not hasattr(importer, "HANDLERS")
    for module in (importer, several_tools):
        assert not imports_around_the_registry(Path(module.__file__).read_text(encoding="utf-8"), module.__name__)
    assert not [p.name for p in Path(importer.__file__).parent.glob("*.py")
                if p.stem.replace("_", "-") in registry.NAMES], "a per-tool module left in imports/"


@pytest.mark.parametrize("line, reached", [
    ("from ..parsers.cdm import cdm_fio", "cardbench.parsers.cdm.cdm_fio"),
    ("from ..parsers import sysbench, registry", "cardbench.parsers.sysbench"),
    ("from ..parsers.fio import json_output as fio_json", "cardbench.parsers.fio.json_output"),
    ("import cardbench.parsers.dd.tool", "cardbench.parsers.dd.tool"),
    ("from . import submission", "cardbench.imports.submission"),
])
def test_a_tool_module_imported_by_the_importer_is_reported(line, reached):
    source = Path(importer.__file__).read_text(encoding="utf-8") + line + "\n"
    assert imports_around_the_registry(source, importer.__name__)[-1][1] == reached


def test_the_registrys_own_names_are_no_tool_module():
    assert not imports_around_the_registry("from ..parsers import NAMED, registry\nfrom ..parsers.registry import "
                                           "detect_format\n", importer.__name__)


@pytest.mark.parametrize("line", ['HANDLERS = {"dd": read_dd}', "def from_fio(text): ...", "parse = from_sysbench"])
def test_a_table_of_formats_in_the_importer_is_reported(line):
    assert format_tables(line)


@pytest.mark.parametrize("path", sorted(p for folder in FOLDER_FORMAT for p in (FIXTURES / folder).glob("*.out")),
                         ids=lambda p: p.name)
def test_each_fixture_is_detected_as_its_format(path):
    text = decode_text(path.read_bytes())
    assert registry.detect_format(text).name == FOLDER_FORMAT[path.parent.name]


def test_a_named_tool_wins_over_lines_shaped_like_another():
    cdm = (FIXTURES / "crystaldiskmark" / "crystaldiskmark--cdm6.out").read_text()
    nvme_line = "Thermal Management Temperature 1 (TMT1): 80°C (353 Kelvin)\n"
    assert registry.detect_format(nvme_line).name == "nvme"
    assert registry.detect_format(nvme_line + cdm).name == "crystaldiskmark"


def test_on_a_tie_the_earlier_format_wins():
    cdm_fio_line = "Sequential Read: 737MB/s IOPS=0\n"
    cdm_line = "  SEQ    1MiB (Q=  8, T= 1):   543.188 MB/s [    518.0 IOPS] < 15407.04 us>\n"  # no header
    dd_line = "1073741824 bytes (1.1 GB, 1.0 GiB) copied, 12.7332 s, 84.3 MB/s\n"
    assert registry.detect_format(cdm_line + cdm_fio_line).name == "cdm-fio"
    assert registry.detect_format(dd_line + cdm_line).name == "crystaldiskmark"
    # CrystalDiskMark 3/4's "Sequential Read :   561.237 MB/s" (a space before the colon) is its own shape
    assert registry.detect_format("Sequential Read :   561.237 MB/s\n").name == "crystaldiskmark"
    assert registry.detect_format("my card is fast\n") is None


def test_detect_answers_with_a_level():
    for fmt in registry.FORMATS:
        for text in ("", "1 2 3\n", "\x00" * 10):
            assert fmt.module.detect(text) in (NOT_MINE, SHAPED, NAMED)


def private_uses(source):
    """(line, name) where a module outside cardbench.parsers uses a parser's private name."""
    tree = ast.parse(source)
    modules, uses = set(), []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and "parsers" in (node.module or "").split("."):
            for alias in node.names:
                if alias.name.startswith("_"):
                    uses.append((node.lineno, f"{node.module}.{alias.name}"))
                modules.add(alias.asname or alias.name)
    uses += [(node.lineno, f"{node.value.id}.{node.attr}") for node in ast.walk(tree)
             if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
             and node.value.id in modules and node.attr.startswith("_")]
    return uses


def test_only_a_parser_uses_its_private_names():
    outside = [p for p in PACKAGE.rglob("*.py") if "parsers" not in p.relative_to(PACKAGE).parts]
    assert len(outside) > 10
    found = {str(p.relative_to(PACKAGE)): uses for p in outside
             if (uses := private_uses(p.read_text(encoding="utf-8")))}
    assert found == {}


@pytest.mark.parametrize("source", [
    "from ..parsers.dd.lines import _rate",
    "from ..parsers.fio import json_output\nx = json_output._job_figures(job)",
    "from ..parsers import sysbench as sb\nsb._size('1K', 1, 1)",
])
def test_a_private_name_used_outside_the_parsers_is_reported(source):
    assert private_uses(source)


# --- damaged lines: a NUL or another control character no tool prints -------------------------------

CORPUS = FIXTURES / "import-corpus"
LANDING = [p for p in sorted(CORPUS.glob("*/*.out")) if json.loads(p.with_suffix(".json").read_text(
    encoding="utf-8")).get("format") and "refused" not in p.with_suffix(".json").read_text(encoding="utf-8")]


@pytest.mark.parametrize("char", ["\x00", "\x7f"], ids=["NUL", "DEL"])
def test_a_damaged_line_of_any_tool_is_refused_by_name_or_changes_nothing(char):
    """Each corpus output that lands, with the character put into each of its first lines in turn: the
    file is refused naming that line, or it gives the very session it gives without it. Never a run
    left out unseen."""
    refused = 0
    for path in LANDING:
        expected = json.loads(path.with_suffix(".json").read_text(encoding="utf-8"))
        fmt = registry.format_named(expected["format"])
        text = unwrap(decode_text(path.read_bytes()))
        hints = {key: value for key, value in (expected.get("options") or {}).items() if key == "op"}
        try:
            clean = fmt.read_session(text, **hints)
        except ParseError:
            continue  # a log of several tools, read as one session by the importer only
        lines = text.splitlines(keepends=True)
        for index, line in [(i, line) for i, line in enumerate(lines) if line.strip()][:10]:
            middle = len(line.rstrip("\r\n")) // 2
            damaged = "".join(lines[:index]) + line[:middle] + char + line[middle:] + "".join(lines[index + 1:])
            try:
                assert fmt.read_session(damaged, **hints) == clean, f"{path.name} line {index + 1}"
            except ParseError as exc:
                assert exc.line == index + 1 and f"U+{ord(char):04X}" in exc.message, (path.name, str(exc))
                refused += 1
    assert refused > len(LANDING)  # most outputs have a figure among their first lines
