"""The package's source files as the structural checks read them: the folder, every module, a module's name, and
each module's text and syntax tree read once for all the checks."""

import ast
import functools
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "scripts" / "cardbench"
MODULES = sorted(PACKAGE.rglob("*.py"))


def relative(path):
    """A module's path inside the package (figures/stats.py): how the checks name it."""
    return str(path.relative_to(PACKAGE))


def modules_under(*folders):
    """The modules of some of the package's folders."""
    return sorted(path for folder in folders for path in (PACKAGE / folder).rglob("*.py"))


@functools.cache
def source_of(path):
    return path.read_text(encoding="utf-8")


@functools.cache  # a dozen checks read every module: each text is parsed once (no check changes a tree)
def syntax_tree(source):
    return ast.parse(source)


def breaches(finder, modules):
    """{module's path in the package: what `finder` reports in its text}, for the modules where it reports anything."""
    found = {}
    for path in modules:
        what = finder(source_of(path))
        if what:
            found[relative(path)] = what
    return found


def assert_no_breaches(finder, modules, says):
    """Fails naming each module of `modules` in which `finder` reports anything, in the words of `says` (with
    {where}, the module's path in the package, and {found}, what was reported)."""
    offenders = breaches(finder, modules)
    assert not offenders, "\n".join(says.format(where=where, found=found) for where, found in offenders.items())
