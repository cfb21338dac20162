"""A tool's output becomes card entries by one route: the registry (parsers/registry.py) names the tool
module, whose parse_file() and to_session() make the entries, for `cardbench import` and the collector
alike. A collector building its entries itself (its own parse calls, its own entry builders) made entries
an import of the same output would not. The command line names the tools from the registry too, so a new
tool module is never left out of its help.

Both checks read syntax trees, so a name in a docstring or comment is not counted."""

import ast
import re

import pytest

from packagefiles import PACKAGE, modules_under, relative
from planted import planted_copy, with_lines

from cardbench.parsers.registry import FORMATS, NAMED_ONLY

COLLECTOR = modules_under("collect")
# The SD Express monitor reads nvme-cli's temperature every few seconds while the tests run, a series no imported
# file holds: it reads each output with the tool module's own readers as it comes, and leaves the session's nvme
# block to the registry (Format.session_of, the module's to_session()). What each known module may do of its own.
KNOWN = {PACKAGE / "collect" / "nvmemon.py": {"imports parsers.nvme"}}

TOOL_MODULES = {f.module.__name__.split("cardbench.", 1)[1] for f in FORMATS + NAMED_ONLY}  # parsers.fio.json_output
PACKAGES_OF_TOOLS = {name.rsplit(".", 1)[0] for name in TOOL_MODULES if name.count(".") > 1}  # parsers.fio


def _builders_made_by_tool_modules():
    """The entry builders (parsers/card_entries.py) some tool module's to_session() calls."""
    called = set()
    for name in TOOL_MODULES | {"parsers.dd.session", "parsers.dd.fill"}:
        path = PACKAGE.joinpath(*name.split(".")).with_suffix(".py")
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and (node.module or "").endswith("card_entries"):
                called |= {alias.name for alias in node.names}
    return called


BUILT_BY_TOOL_MODULES = _builders_made_by_tool_modules()


def _absolute(module, level, here):
    """'parsers.fio.json_output' of a relative import in the module at `here` (a path under PACKAGE)."""
    parts = list(here.relative_to(PACKAGE).with_suffix("").parts[:-1])
    base = parts[:len(parts) - (level - 1)] if level else []
    return ".".join(base + ([module] if module else []))


def own_routes(source, here):
    """(line, what) of every place a collector module reads a tool's output or builds its entries itself:
    an import of a tool module (or of a name from one), a call of an entry builder a tool module makes."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom):
            origin = _absolute(node.module, node.level, here)
            names = [f"{origin}.{alias.name}" for alias in node.names]
            for name in [origin, *names]:
                if name in TOOL_MODULES or name in PACKAGES_OF_TOOLS:
                    found.append((node.lineno, f"imports {name}"))
                    break
        elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) \
                and node.value.id == "card_entries" and node.attr in BUILT_BY_TOOL_MODULES:
            found.append((node.lineno, f"card_entries.{node.attr}"))
    return sorted(set(found))


def unexcused_routes(source, here):
    """own_routes() of a collector module less what KNOWN lets it do."""
    return [(line, what) for line, what in own_routes(source, here) if what not in KNOWN.get(here, set())]


@pytest.mark.parametrize("path", COLLECTOR, ids=relative)
def test_the_collector_reads_output_through_the_registry(path):
    found = unexcused_routes(path.read_text(encoding="utf-8"), path)
    assert not found, (f"{relative(path)} reads a tool's output or builds its entries itself; use parsers.registry's "
                       f"format_named(…).read_session / read_runs: {found}")


def test_the_known_exceptions_are_still_needed():
    for path, allowed in KNOWN.items():
        found = {what for _, what in own_routes(path.read_text(encoding="utf-8"), path)}
        assert allowed <= found, f"{relative(path)} no longer does {allowed - found}: take it out of KNOWN"


def test_the_nvme_monitor_building_its_entry_itself_is_reported():
    monitor = PACKAGE / "collect" / "nvmemon.py"
    planted = monitor.read_text(encoding="utf-8") + (
        "\n\ndef _entry(monitor, pcie_link):\n"
        "    return card_entries.nvme_entry(id_ctrl=monitor.id_ctrl, pcie_link=pcie_link)\n")
    assert unexcused_routes(planted, monitor) == [(planted.count("\n"), "card_entries.nvme_entry")]


STEPS = PACKAGE / "collect" / "steps.py"
PAST_ROUTES = [
    "from ..parsers.dd import tool as dd_parser",
    "from ..parsers import f3probe as f3probe_parser",
    "from ..parsers.fio import json_output as fio_json",
    "from ..parsers.fio import bwlog as fio_bwlog",
    "from ..parsers import flashbench as flashbench_parser",
    "from ..parsers.flashbench import parse_align",
    "results = card_entries.results_from_fio(parsed, command=command, raw=raw)",
    "entry = card_entries.dd_entry(step.op, block, runs, count=step.count)",
    "entry = card_entries.f3probe_entry(parsed, raw=[name])",
]


@pytest.mark.parametrize("source", PAST_ROUTES)
def test_past_routes_are_caught(source):
    assert own_routes(source, STEPS)


@pytest.mark.parametrize("source", ["from ..parsers.registry import format_named", "from ..parsers import card_entries",
                                    "entry = card_entries.dd_sweep_entry(op, points)", "from . import tools"])
def test_the_registry_and_builders_no_tool_module_makes_are_allowed(source):
    assert not own_routes(source, STEPS)


def test_a_planted_route_in_the_collector_is_reported(tmp_path):
    route = ("\n\nfrom ..parsers import f3probe\n\n\ndef _entry(text):\n"
             "    return card_entries.f3probe_entry(f3probe.parse(text))\n")
    collect = planted_copy(tmp_path, {STEPS.name: with_lines(STEPS.name, route, STEPS.parent)}, STEPS.parent)
    assert len(own_routes((collect / STEPS.name).read_text(encoding="utf-8"), STEPS)) == 2


# --- the command line's tool names ------------------------------------------------------------------------

CLI = PACKAGE / "cli.py"
TOOL_NAMES = {name.lower() for f in FORMATS + NAMED_ONLY for name in (f.name, *f.programs)} | {
    "crystaldiskmark", "kdiskmark", "cdm_fio.sh", "nvme-cli"}
_WORDS = re.compile(r"[a-z0-9][a-z0-9_.\-]*[a-z0-9]|[a-z0-9]")


def _tools_in(text):
    words = set(_WORDS.findall(text.lower()))
    return {name for name in TOOL_NAMES if name in words or any(word.split("-")[0] == name for word in words)}


def written_out_tools(source):
    """(line, tools) of every string or list of strings in a module's source that names two tools or more:
    a list of the tools written out by hand."""
    found = []
    tree = ast.parse(source)
    docstrings = {id(node.body[0].value) for node in ast.walk(tree)
                  if isinstance(node, (ast.Module, ast.FunctionDef, ast.ClassDef)) and node.body
                  and isinstance(node.body[0], ast.Expr) and isinstance(node.body[0].value, ast.Constant)}
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
            named = _tools_in(node.value)
        elif isinstance(node, (ast.List, ast.Tuple, ast.Set)):
            named = {e.value.lower() for e in node.elts
                     if isinstance(e, ast.Constant) and isinstance(e.value, str) and e.value.lower() in TOOL_NAMES}
        else:
            continue
        if len(named) >= 2:
            found.append((node.lineno, sorted(named)))
    return found


def test_the_command_line_names_no_tools_by_hand():
    found = written_out_tools(CLI.read_text(encoding="utf-8"))
    assert not found, f"cli.py names tools by hand; take them from parsers.registry (FORMATS) or the profiles: {found}"


@pytest.mark.parametrize("source", [
    'p = sub.add_parser("collect", help="benchmark a card (fio, dd, flashbench, f3probe) into its card file")',
    'help="add existing benchmark output (fio JSON, cdm_fio.sh, CrystalDiskMark, KDiskMark, dd, flashbench, "',
    'p.add_argument("--format", choices=["auto", "fio-json", "dd"])',
    'help="nvme-cli and hdparm output"',
])
def test_past_tool_lists_are_caught(source):
    assert written_out_tools(source)


@pytest.mark.parametrize("source", ['help="dd log without its command: the block size, e.g. 4M"',
                                    '"""fio, dd and flashbench: named in a docstring"""',
                                    'choices=["quick", "standard", "full"]'])
def test_one_tool_or_none_is_not_a_list(source):
    assert not written_out_tools(source)


def test_a_planted_list_in_the_command_line_is_reported(tmp_path):
    package = planted_copy(tmp_path, {CLI.name: with_lines(CLI.name, '\n\nHELP = "reads fio, dd and iozone output"')})
    assert written_out_tools((package / CLI.name).read_text(encoding="utf-8"))
