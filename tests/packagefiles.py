"""The package's source files as the structural checks read them: the folder, every module, a module's name."""

from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "scripts" / "cardbench"
MODULES = sorted(PACKAGE.rglob("*.py"))


def relative(path):
    """A module's path inside the package (figures/stats.py): how the checks name it."""
    return str(path.relative_to(PACKAGE))


def modules_under(*folders):
    """The modules of some of the package's folders."""
    return sorted(path for folder in folders for path in (PACKAGE / folder).rglob("*.py"))
