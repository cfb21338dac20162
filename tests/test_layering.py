"""The package's folders follow the data's way: each may import only the floors beneath it.

core (units, sizes, buses, titles, paths) → parsers → card → collect and imports; the site's stages, figures (the
arithmetic) → pages (what each page shows) → publish (the files Hugo reads, the build, the preview); cli and
bench sit on top.
A module that reaches upwards (a parser importing the site, the card importing the collector) would tie a low
floor to a high one, and the tree would stop telling a newcomer where things are. Which floors may convert units
(pages/ and publish/ none) is tests/test_one_home.py's rule."""

from pathlib import Path

import pytest

from importgraph import PACKAGE, imported_modules, module_name
from planted import planted_copy, with_lines

# Which folders (or top-level modules) each part of the package may import besides itself.
ALLOWED = {
    "core": set(),
    "errors": {"core"},
    "parsers": {"core", "errors"},
    "card": {"core", "errors", "parsers"},
    "collect": {"core", "errors", "parsers", "card"},
    "imports": {"core", "errors", "parsers", "card"},
    "figures": {"core", "errors", "parsers", "card"},
    "pages": {"core", "errors", "parsers", "card", "figures"},
    "publish": {"core", "errors", "parsers", "card", "figures", "pages"},
    "bench": {"core", "errors", "parsers", "card", "figures", "pages", "publish", "collect", "imports"},
    "cli": {"core", "errors", "parsers", "card", "figures", "pages", "publish", "collect", "imports", "bench",
            "__init__"},  # __version__
    "__main__": {"cli"},
    "__init__": set(),
}


def part_of(module):
    """The folder or top-level module a dotted module name (cardbench.x.y) belongs to."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


def sources(package):
    return sorted(p for p in Path(package).rglob("*.py") if "__pycache__" not in p.parts)


def reaches_above(path, package=PACKAGE):
    """'line N: module' for each import of a file that reaches above its part's floor."""
    own = part_of(module_name(path, package))
    allowed = ALLOWED.get(own, set()) | {own}
    return [f"line {line}: {target}" for target, line in imported_modules(path, package)
            if part_of(target) not in allowed]


def unplaced_parts(package):
    """Folders and top-level modules the order has no floor for."""
    return {part_of(module_name(path, package)) for path in sources(package)} - set(ALLOWED)


SOURCES = sources(PACKAGE)


def test_imports_only_lower_floors():
    wrong = {path: reaches_above(path) for path in SOURCES}
    assert not any(wrong.values()), "\n".join(
        f"{path.relative_to(PACKAGE)} ({part_of(module_name(path))}) reaches above its floor: {lines}"
        for path, lines in wrong.items() if lines)


def test_every_part_has_a_floor():
    assert not unplaced_parts(PACKAGE), f"folders with no place in the order: {unplaced_parts(PACKAGE)}"


@pytest.mark.parametrize("where, line, reached", [
    ("parsers/planted.py", "from ..pages import pagemodel", "cardbench.pages.pagemodel"),
    ("parsers/fio/planted.py", "from ...figures.stats import entry_stats", "cardbench.figures.stats"),
    ("card/planted.py", "from .. import collect", "cardbench.collect"),
    ("core/planted.py", "import cardbench.parsers.registry", "cardbench.parsers.registry"),
    ("figures/planted.py", "from cardbench.publish import sitedata", "cardbench.publish.sitedata"),
    ("pages/__init__.py", "from ..publish import serve", "cardbench.publish.serve"),
])
def test_an_import_from_above_planted_in_a_copy_is_reported(tmp_path, where, line, reached):
    package_copy = planted_copy(tmp_path, {where: with_lines(where, line)})
    wrong = reaches_above(package_copy / where, package_copy)
    assert wrong and wrong[-1].endswith(reached)


def test_a_folder_with_no_floor_planted_in_a_copy_is_reported(tmp_path):
    assert unplaced_parts(planted_copy(tmp_path, {"plugins/__init__.py": ""})) == {"plugins"}
