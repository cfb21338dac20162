"""Which cardbench modules a source file imports, read from its syntax tree with relative imports resolved.

One reading for every test that checks imports (the package's floors, the importer's route through the
registry). `from ..parsers import cdm_fio` imports the module cardbench.parsers.cdm_fio when parsers/ holds
cdm_fio.py or a cdm_fio/ folder, and the package cardbench.parsers itself when cdm_fio is a name its
__init__.py defines: the package folder on disk decides which."""

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "scripts" / "cardbench"


def module_name(path, package=PACKAGE):
    """cardbench.x.y for x/y.py, cardbench.x for x/__init__.py (the package folder's own name first)."""
    parts = list(Path(path).relative_to(Path(package).parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" and len(parts) > 1 else parts)


def is_module(dotted, package=PACKAGE):
    """Whether a dotted name inside the package is a module or folder on disk (else a name a module defines)."""
    parts = dotted.split(".")
    if parts[0] != Path(package).name:
        return False
    where = Path(package).joinpath(*parts[1:])
    return where.is_dir() or where.with_suffix(".py").is_file()


def imports_in_source(source, name, is_package=False, package=PACKAGE):
    """(module, line) for each cardbench module a source imports; `name` is the module's own dotted name, and
    `is_package` says it is an __init__.py (its relative imports start from itself, not its folder)."""
    root = Path(package).name
    own = name.split(".")
    folder = own if is_package else own[:-1]
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = folder[: len(folder) - node.level + 1] if node.level else []
            target = ".".join(base + ([node.module] if node.module else []))
            # each imported name that is a module counts as that module; any other name is its package's
            targets = [f"{target}.{alias.name}" if is_module(f"{target}.{alias.name}", package) else target
                       for alias in node.names]
        else:
            continue
        yield from ((target, node.lineno) for target in targets if target.split(".")[0] == root)


def imported_modules(path, package=PACKAGE):
    """(module, line) for each cardbench module the file at `path` imports."""
    path = Path(path)
    return imports_in_source(path.read_text(encoding="utf-8"), module_name(path, package),
                             path.name == "__init__.py", package)
