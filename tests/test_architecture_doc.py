"""docs/architecture.md names every module of the package, and every path it names exists: a module added,
moved or split without its line there, or a line left behind for a module that is gone, fails here."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "scripts" / "cardbench"
DOC = ROOT / "docs" / "architecture.md"
GENERATED = ("build/", "public/")  # made by `make site`, never in the repository
MAX_LINE = 120


def named_paths(text):
    """Every `path` the text names: a token in backticks with a '/' in it, or a bare module name (x.py); tokens
    holding a placeholder (<slug>), a pattern or a space are not paths."""
    tokens = re.findall(r"`([^`]+)`", text)
    return sorted({t for t in tokens if not re.search(r"[<>*{}$\s(]", t) and ("/" in t or t.endswith(".py"))})


def missing_paths(text, root=ROOT, package=PACKAGE):
    """Named paths that are neither in the repository (from its root) nor in the package (from its folder)."""
    return [p for p in named_paths(text)
            if not p.startswith(GENERATED) and not (root / p).exists() and not (package / p).exists()]


def modules(package=PACKAGE):
    """Every module of the package as its path inside it; a folder's __init__.py is named by its folder."""
    return sorted(p.relative_to(package).as_posix() for p in package.rglob("*.py")
                  if p.name != "__init__.py" and "__pycache__" not in p.parts)


def unnamed_modules(text, package=PACKAGE):
    named = set(named_paths(text))
    return [m for m in modules(package) if m not in named]


def test_every_path_the_architecture_names_exists():
    assert missing_paths(DOC.read_text(encoding="utf-8")) == []


def test_every_module_has_its_line_in_the_architecture():
    assert unnamed_modules(DOC.read_text(encoding="utf-8")) == []


def test_the_architecture_keeps_its_lines_short():
    long = [n for n, line in enumerate(DOC.read_text(encoding="utf-8").splitlines(), 1) if len(line) > MAX_LINE]
    assert long == []


def test_a_path_that_is_gone_and_a_module_not_named_are_reported(tmp_path):
    package = tmp_path / "cardbench"
    (package / "card").mkdir(parents=True)
    for name in ("card/load.py", "card/dump.py", "card/__init__.py"):
        (package / name).write_text('"""x"""\n', encoding="utf-8")
    text = "- `card/load.py`: reading.\n- `card/sessions.py`: gone.\n- `data/cards/<slug>.yaml`, `build/hugo-data/`\n"
    assert missing_paths(text, root=tmp_path, package=package) == ["card/sessions.py"]
    assert unnamed_modules(text, package=package) == ["card/dump.py"]
