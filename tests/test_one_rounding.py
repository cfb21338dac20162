"""A figure's decimals follow its size (none from 100 on, one from 10, two below) in one place:
figures/formatting.py format_by_size, which rounds as Hugo does. A second copy rounded with Python's format
(30.15 -> 30.1 where the page's table shows 30.2), so a finding's words could disagree with the table beside it.

The check reads each module's syntax tree: a choice of decimals (or of rounding) made by comparing a figure
with 10 or 100."""

import ast
import re

import pytest

from packagefiles import PACKAGE, assert_no_breaches, modules_under, syntax_tree
from planted import planted_copy, with_lines

HOME = PACKAGE / "figures" / "formatting.py"
CHECKED = modules_under("figures", "pages", "publish")
SIZES = {10, 100}
DECIMALS = re.compile(r"\.\d+f$")


def _compares_with_a_size(test):
    return isinstance(test, ast.Compare) and any(
        isinstance(side, ast.Constant) and side.value in SIZES and not isinstance(side.value, bool)
        for side in [test.left, *test.comparators])


def _chooses_decimals(branch):
    if isinstance(branch, ast.Constant) and branch.value in (0, 1, 2) and not isinstance(branch.value, bool):
        return True
    if any(isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "round"
           for node in ast.walk(branch)):
        return True
    return any(isinstance(node, ast.FormattedValue) and node.format_spec is not None
               and DECIMALS.search("".join(str(part.value) for part in node.format_spec.values
                                           if isinstance(part, ast.Constant)))
               for node in ast.walk(branch))


def size_roundings(source):
    """(line, what) of every choice of decimals by a figure's size in a module's source."""
    found = []
    for node in ast.walk(syntax_tree(source)):
        if isinstance(node, ast.IfExp) and _compares_with_a_size(node.test) \
                and (_chooses_decimals(node.body) or _chooses_decimals(node.orelse)):
            found.append((node.lineno, ast.unparse(node)))
    return sorted(set(found))


def test_no_rounding_by_size_outside_the_formatting():
    assert_no_breaches(size_roundings, [p for p in CHECKED if p != HOME],
                       "{where} picks decimals by size itself; use formatting.format_by_size: {found}")


def test_the_formatting_is_where_the_rounding_is():
    assert size_roundings(HOME.read_text(encoding="utf-8"))


PAST_COPIES = [
    'return f"{gb:.2f} GB" if gb < 10 else f"{gb:.1f} GB" if gb < 100 else f"{gb:.0f} GB"',
    'shown = (f"{value:,.0f}" if size >= 100 or whole else f"{value:.1f}" if size >= 10 else f"{value:.2f}")',
    'return f"{mb_s:.0f}" if mb_s >= 100 else f"{mb_s:.1f}" if mb_s >= 10 else f"{mb_s:.2f}"',
    "text = round(value, 0 if value >= 100 else 1 if value >= 10 else 2)",
    'return fmt(value) if value < 100 else f"{round(value):,}"',
]


@pytest.mark.parametrize("source", PAST_COPIES)
def test_past_copies_are_caught(source):
    assert size_roundings(source)


@pytest.mark.parametrize("source", ['"""no decimals from 100 on"""', 'ms = f"{v / 1000:.1f} ms" if v >= 10_000 else ""',
                                    "mix = share if 0 < share < 100 else None"])
def test_other_choices_are_not_roundings(source):
    assert not size_roundings(source)


def test_a_planted_copy_in_a_module_is_reported(tmp_path):
    findings = PACKAGE / "figures" / "findings"
    rounding = '\n\ndef tb_text(tb):\n    return f"{tb:.2f} TB" if tb < 10 else f"{tb:.0f} TB"'
    copy = planted_copy(tmp_path, {"finding.py": with_lines("finding.py", rounding, findings)}, findings)
    assert size_roundings((copy / "finding.py").read_text(encoding="utf-8"))
