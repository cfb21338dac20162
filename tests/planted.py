"""A copy of part of the project with a violation planted in it: how a guard test shows that it can fail,
without touching the project's own files.

    copy = planted_copy(tmp_path, {"parsers/planted.py": "from ..pages import pagemodel\\n"})
    assert reaches_above(copy / "parsers" / "planted.py", copy)
"""

import shutil

from packagefiles import PACKAGE


def planted_copy(tmp_path, plants, tree=PACKAGE):
    """Copies `tree` (a folder of the project, the package unless told) to tmp_path/<its name>, then gives each
    path of `plants` (relative to the tree) its text: a file made where there was none, folders too, a file
    removed where the text is None. Returns the copy's folder."""
    copy = tmp_path / tree.name
    shutil.copytree(tree, copy, ignore=shutil.ignore_patterns("__pycache__"))
    for relative_path, text in plants.items():
        target = copy / relative_path
        if text is None:
            target.unlink()
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    return copy


def with_lines(relative_path, lines, tree=PACKAGE):
    """The text of the tree's file at `relative_path` (none if there is no such file) with `lines` added at its end."""
    path = tree / relative_path
    return (path.read_text(encoding="utf-8") if path.is_file() else "") + lines.rstrip("\n") + "\n"


def breaches_in_copy(tmp_path, finder, where, lines):
    """{module's path in the copy: what `finder` reports in its text} over a copy of the package with `lines` planted
    at the end of its module `where`: the check run as over the package itself, every module read."""
    copy = planted_copy(tmp_path, {where: with_lines(where, lines)})
    found = {}
    for path in sorted(copy.rglob("*.py")):
        what = finder(path.read_text(encoding="utf-8"))
        if what:
            found[path.relative_to(copy).as_posix()] = what
    return found
