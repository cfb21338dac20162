"""The package's folders follow the data's way: each may import only the floors beneath it.

core (units, sizes, buses, titles, paths) → parsers → card → collect and imports; the site's stages, figures (the
arithmetic) → pages (what each page shows) → publish (the files Hugo reads, the build, the preview); cli and
bench sit on top.
A module that reaches upwards (a parser importing the site, the card importing the collector) would tie a low
floor to a high one, and the tree would stop telling a newcomer where things are."""

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "scripts" / "cardbench"

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


def module_name(path):
    """cardbench.x.y for x/y.py, cardbench.x for x/__init__.py."""
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" and len(parts) > 1 else parts)


def _is_module(name):
    """Whether cardbench.<name> is a folder or module of the package (else a name its __init__ defines)."""
    return (PACKAGE / name).is_dir() or (PACKAGE / f"{name}.py").is_file()


def imported_modules(path):
    """The cardbench modules a file imports, with their lines; relative imports resolved."""
    name = module_name(path).split(".")
    package = name if path.name == "__init__.py" else name[:-1]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else []
            target = ".".join(base + ([node.module] if node.module else []))
            # `from . import x` and `from cardbench import x` name modules: each one counts; a name that is no
            # module (`from cardbench import __version__`) is the package's own __init__
            targets = ([f"{target}.{a.name}" if _is_module(a.name) else target for a in node.names]
                       if target.count(".") < 1 else [target])
        else:
            continue
        yield from ((t, node.lineno) for t in targets if t.split(".")[0] == "cardbench")


SOURCES = sorted(p for p in PACKAGE.rglob("*.py") if "__pycache__" not in p.parts)


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_imports_only_lower_floors(path):
    own = part_of(module_name(path))
    allowed = ALLOWED[own] | {own}
    wrong = [f"line {line}: {target}" for target, line in imported_modules(path) if part_of(target) not in allowed]
    assert not wrong, f"{path.relative_to(PACKAGE)} ({own}) reaches above its floor: {wrong}"


def test_every_part_has_a_floor():
    parts = {part_of(module_name(path)) for path in SOURCES}
    assert parts <= set(ALLOWED), f"folders with no place in the order: {parts - set(ALLOWED)}"
