"""A bar's log scale has one home, pages/bars.py: the /readers/ page's bars and the link-preview image's are drawn
by it, and the leaderboard's bars, drawn in the browser (assets/js/leaderboard.js), keep its values. Two copies of
the scale drift apart, and the same figure would fill one bar on the leaderboard and another on /readers/.

The check reads each module's syntax tree for a log10 kept between bounds (max or min around it): the scale."""

import ast
import re
from pathlib import Path

import pytest

from packagefiles import MODULES, PACKAGE, assert_no_breaches, syntax_tree
from planted import breaches_in_copy

from cardbench.pages.bars import BAR_DECADES, SHORTEST_BAR, bar_share

HOME = PACKAGE / "pages" / "bars.py"
LEADERBOARD_JS = Path(__file__).resolve().parents[1] / "assets" / "js" / "leaderboard.js"


def _called(node):
    func = node.func
    return func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else None


def log_scales(source):
    """(line, code) of every log10 a module's source keeps between bounds: a bar's log scale."""
    found = set()
    for node in ast.walk(syntax_tree(source)):
        if not (isinstance(node, ast.Call) and _called(node) in ("max", "min")):
            continue
        inside = [inner for arg in node.args for inner in ast.walk(arg)]
        if any(isinstance(inner, ast.Call) and _called(inner) == "log10" for inner in inside):
            found.add((node.lineno, ast.unparse(node)))
    return sorted(found)


def test_a_bars_log_scale_is_worked_out_in_one_place():
    assert_no_breaches(log_scales, [p for p in MODULES if p != HOME],
                       "{where} works out a bar's log scale itself: {found}; use pages/bars.bar_share")


def test_the_home_holds_the_scale():
    assert log_scales(HOME.read_text(encoding="utf-8"))
    assert (bar_share(1000, 1000), bar_share(100, 1000), bar_share(0.001, 1000), bar_share(None, 1000)) == \
        (1.0, pytest.approx(2 / 3), SHORTEST_BAR, 0)


def test_the_leaderboards_bars_keep_the_homes_scale():
    script = LEADERBOARD_JS.read_text(encoding="utf-8")
    decades = re.search(r"var DECADES = (\d+);", script)
    shortest = re.search(r"Math\.max\(([0-9.]+), Math\.min\(1, share\)\)", script)
    assert decades and shortest, "leaderboard.js no longer draws its bars as this test reads them"
    assert (int(decades.group(1)), float(shortest.group(1))) == (BAR_DECADES, SHORTEST_BAR)


@pytest.mark.parametrize("line", [
    "share = max(0.02, min(1.0, 1 + math.log10(mb_s / TOP_MB_S) / DECADES))",
    "share = round(max(0.02, min(1.0, 1 + math.log10(value / top) / 3)), 3)",
    "share = min(1, max(0, 1 + np.log10(value / top) / 3))",
])
def test_a_scale_planted_in_a_copy_is_reported(tmp_path, line):
    where = "pages/preview_image.py"
    assert where in breaches_in_copy(tmp_path, log_scales, where, line)


def test_a_log_axis_position_is_no_bar():
    assert not log_scales('annotation = {"x": math.log10(f["value"]), "y": 1}')
