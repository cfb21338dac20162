"""A card's leaderboard row is built in one place, figures/aggregate.py (_leader_row): the home page's model
(pages/pagemodel.py leader_row) shows it and `cardbench import` / `collect` read it (figures/session_standing.py,
through aggregate()). A second builder would rank a card one way on the site and say another after an import.

The check reads each module's syntax tree for a dict that writes the row's placing (rank_group, stated_cells,
other_test_cells, runs_stated) or a call of the builder outside its home."""

import ast

import pytest

from packagefiles import MODULES, PACKAGE, assert_no_breaches, syntax_tree
from planted import planted_copy, with_lines

HOME = PACKAGE / "figures" / "aggregate.py"
PLACING = {"rank_group", "stated_cells", "other_test_cells", "runs_stated"}


def _copied(key, value):
    """A value read from a row under the same key (shown["rank_group"]): passed on, not worked out."""
    return isinstance(value, ast.Subscript) and isinstance(value.slice, ast.Constant) and value.slice.value == key


def row_builders(source):
    """(line, what) of every place a module's source builds a leaderboard row's placing."""
    found = []
    for node in ast.walk(syntax_tree(source)):
        if isinstance(node, ast.Dict):
            keys = {key.value for key, value in zip(node.keys, node.values)
                    if isinstance(key, ast.Constant) and key.value in PLACING and not _copied(key.value, value)}
            if keys:
                found.append((node.lineno, ", ".join(sorted(keys))))
        elif isinstance(node, ast.Call) and ast.unparse(node.func).split(".")[-1] == "_leader_row":
            found.append((node.lineno, ast.unparse(node.func)))
        elif isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Store) \
                and isinstance(node.slice, ast.Constant) and node.slice.value in PLACING:
            found.append((node.lineno, f"[{node.slice.value!r}] ="))
    return sorted(set(found))


def test_no_leaderboard_row_built_outside_the_aggregate():
    assert_no_breaches(row_builders, [p for p in MODULES if p != HOME],
                       "{where} builds a leaderboard row; read aggregate()'s 'leaderboard' rows: {found}")


def test_the_aggregate_builds_the_row():
    assert row_builders(HOME.read_text(encoding="utf-8"))


def test_the_standing_reads_the_aggregates_row():
    source = (PACKAGE / "figures" / "session_standing.py").read_text(encoding="utf-8")
    assert 'aggregate([card], data_dir)["leaderboard"]' in source


@pytest.mark.parametrize("source", [
    'row["leaderboard"] = {"rank_group": "measured" if seq_read else "none", "stated_cells": cells}',
    'placing["other_test_cells"] = [bool(pick) and key.startswith("rnd4k_") for key, pick in picks.items()]',
    "row = aggregate_module._leader_row(card, card_json, picks)",
])
def test_past_builders_are_caught(source):
    assert row_builders(source)


@pytest.mark.parametrize("source", ['hidden = row["leaderboard"]["other_test_cells"][0]',
                                    'group = {"measured": 0, "stated": 1}[shown["rank_group"]]',
                                    '"""rank_group: measured or stated"""',
                                    'parts = {"rank_group": shown["rank_group"]}'])
def test_reading_a_row_is_not_building_one(source):
    assert not row_builders(source)


def test_a_planted_builder_in_a_module_is_reported(tmp_path):
    builder = '\n\ndef _row(picks):\n    return {"rank_group": "measured" if picks["seq_read"] else "none"}'
    figures = PACKAGE / "figures"
    copy = planted_copy(tmp_path, {"session_standing.py": with_lines("session_standing.py", builder, figures)}, figures)
    assert row_builders((copy / "session_standing.py").read_text(encoding="utf-8"))
