"""A spread of runs or samples is computed in one place each: the standard deviation of an entry's runs in
figures/stats.py (the statistics every page and finding reads), the robust standard deviation (MAD × 1.4826)
in figures/findings/finding.py. A second copy drifts: one counted excluded runs, or rounded otherwise.

The check reads each module's syntax tree, so a copy named in a docstring or comment is not counted."""

import ast

import pytest

from packagefiles import MODULES, PACKAGE, assert_no_breaches, syntax_tree
from planted import planted_copy, with_lines

STATS_HOME = PACKAGE / "figures" / "stats.py"
ROBUST_HOME = PACKAGE / "figures" / "findings" / "finding.py"

STDEV_CALLS = {"stdev", "pstdev", "variance", "pvariance", "std", "var", "nanstd", "nanvar"}
MAD_TO_SD = 1.4826


def _called_name(call):
    func = call.func
    return func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else None


def standard_deviations(source):
    """(line, what) of every standard deviation (or variance) a module's source computes."""
    found = []
    for node in ast.walk(syntax_tree(source)):
        if isinstance(node, ast.Call):
            if _called_name(node) in STDEV_CALLS:
                found.append((node.lineno, ast.unparse(node)))
            elif any(keyword.arg == "ddof" for keyword in node.keywords):
                found.append((node.lineno, ast.unparse(node)))
    return sorted(set(found))


def _absolute_differences(node):
    return any(isinstance(inner, ast.Call) and _called_name(inner) in {"abs", "absolute", "fabs"}
               and any(isinstance(arg, ast.BinOp) and isinstance(arg.op, ast.Sub) for arg in ast.walk(inner))
               for inner in ast.walk(node))


def robust_spreads(source):
    """(line, what) of every robust standard deviation a module's source computes: the MAD factor, a median
    of absolute differences, or a function named for either."""
    found = []
    for node in ast.walk(syntax_tree(source)):
        if isinstance(node, ast.Constant) and isinstance(node.value, float) and abs(node.value - MAD_TO_SD) < 1e-3:
            found.append((node.lineno, repr(node.value)))
        elif isinstance(node, ast.Call) and _called_name(node) in {"median", "nanmedian"} \
                and any(_absolute_differences(arg) for arg in node.args):
            found.append((node.lineno, ast.unparse(node)))
        elif isinstance(node, ast.Call) and _called_name(node) == "median_abs_deviation":  # scipy.stats
            found.append((node.lineno, ast.unparse(node)))
        elif isinstance(node, ast.FunctionDef) and (
                "robust_sd" in node.name or node.name.strip("_") in {"mad", "median_absolute_deviation"}):
            found.append((node.lineno, f"def {node.name}"))
    return sorted(set(found))


def test_no_standard_deviation_outside_the_statistics():
    assert_no_breaches(standard_deviations, [p for p in MODULES if p != STATS_HOME],
                       "{where} computes a standard deviation; read figures/stats.py's (value_std): {found}")


def test_no_robust_spread_outside_its_home():
    assert_no_breaches(robust_spreads, [p for p in MODULES if p != ROBUST_HOME],
                       "{where} computes a robust spread; import findings/finding.py's robust_sd: {found}")


def test_the_homes_hold_what_the_checks_look_for():
    assert standard_deviations(STATS_HOME.read_text(encoding="utf-8"))
    assert robust_spreads(ROBUST_HOME.read_text(encoding="utf-8"))


# Copies the site's modules once held: each must be caught.
PAST_STANDARD_DEVIATIONS = [
    "cv = statistics.stdev(used) / statistics.fmean(used)",
    "spread = np.std(values, ddof=1)",
    "spread = frame['mb_s'].std()",
    "spread = np.nanstd(values, axis=0)",
    "from statistics import pstdev\nspread = pstdev(values)",
]
PAST_ROBUST_SPREADS = [
    "def _robust_sd(values, median):\n    return 1.4826 * statistics.median(abs(v - median) for v in values)",
    "noise = 1.4826 * np.median(np.abs(values - np.median(values)))",
    "mad = statistics.median([abs(v - centre) for v in values])",
    "def mad(values):\n    return values",
    "noise = scipy.stats.median_abs_deviation(values, scale='normal')",
]


@pytest.mark.parametrize("source", PAST_STANDARD_DEVIATIONS)
def test_past_standard_deviations_are_caught(source):
    assert standard_deviations(source)


@pytest.mark.parametrize("source", PAST_ROBUST_SPREADS)
def test_past_robust_spreads_are_caught(source):
    assert robust_spreads(source)


@pytest.mark.parametrize("source", ['"""MAD x 1.4826"""', "# np.std(values)", "variance = (n * (n - 1)) / 18.0",
                                    "middle = statistics.median(values)", "gap = abs(value - median)"])
def test_words_and_other_figures_are_not_spreads(source):
    assert not standard_deviations(source) and not robust_spreads(source)


def test_a_planted_copy_in_a_module_is_reported(tmp_path):
    findings = PACKAGE / "figures" / "findings"
    spreads = ("\n\ndef _spread(values):\n    return 1.4826 * statistics.median(abs(v - 1) for v in values)\n"
               "\n\ndef _cv(values):\n    return statistics.stdev(values) / statistics.fmean(values)\n")
    copy = planted_copy(tmp_path, {"stability.py": with_lines("stability.py", spreads, findings)}, findings)
    source = (copy / "stability.py").read_text(encoding="utf-8")
    assert robust_spreads(source) and standard_deviations(source)
