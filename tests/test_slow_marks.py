"""The tables in conftest.py that say what a test needs, or that it is slow, name modules and tests that exist:
a misspelt name would leave a slow test in `make check` or a browser test where no browser is."""

import ast

import conftest
from conftest import ROOT

TESTS = ROOT / "tests"


def unknown_names(needs, tables, tests=TESTS):
    """`module` or `module::test` for each name of the tables that is no module of `tests` or no test of its module."""
    unknown = sorted(module for modules in needs.values() for module in modules
                     if not (tests / f"{module}.py").is_file())
    for table in tables:
        for module, names in table.items():
            path = tests / f"{module}.py"
            defined = ({node.name for node in ast.parse(path.read_text(encoding="utf-8")).body
                        if isinstance(node, ast.FunctionDef)} if path.is_file() else set())
            unknown += sorted(f"{module}::{name}" for name in names if name not in defined)
    return unknown


def test_every_module_and_test_marked_exists():
    assert unknown_names(conftest.NEEDS, [conftest.SLOW_TESTS, conftest.SLOW_SWEEPS]) == []


def test_a_misspelt_module_or_test_is_reported():
    needs = {"slow": {"test_fuzz_parser"}}
    tables = [{"test_schema": {"test_a_card_at_the_bound_is_valid"}}, {"test_no_such_module": {"test_x"}}]
    assert unknown_names(needs, tables) == ["test_fuzz_parser", "test_schema::test_a_card_at_the_bound_is_valid",
                                            "test_no_such_module::test_x"]


def test_make_checks_expression_leaves_out_the_modules_it_deselects_and_no_other_form_does():
    assert conftest.left_out_by("not browser and not device and not build and not slow") == {
        "browser", "device", "build", "slow"}
    for other in ("", "slow", "not slow or build", "browser and not slow", "not (browser or slow)"):
        assert conftest.left_out_by(other) == set(), other
