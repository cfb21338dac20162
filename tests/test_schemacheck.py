"""The compiled quick schema check never passes what jsonschema rejects (and agrees on real cards)."""

import copy
import json

import pytest
from hypothesis import given, settings, strategies as st

from cardbench.bench.synth import card_data
from cardbench.card.load import load_card
from cardbench.errors import CardbenchError
from cardbench.card.checks.schemacheck import UnsupportedSchema, compile_schema, quick_check
from cardbench.card.checks.schema_findings import schema_validator
from cardbench.card.checks.validate import card_paths

from conftest import ROOT, field_paths

SCHEMA = schema_validator().schema
QUICK = quick_check(SCHEMA)
HOSTILE = ROOT / "tests" / "hostile"


def agrees(data):
    assert QUICK(data) == schema_validator().is_valid(data)


@pytest.mark.parametrize("path", card_paths(ROOT / "data" / "cards"), ids=lambda p: p.name)
def test_shipped_cards_pass_both(path):
    data = load_card(path).data
    assert QUICK(data) and schema_validator().is_valid(data)


def loadable(paths):
    """The files the loader reads (the others never reach a schema check)."""
    out = []
    for path in paths:
        try:
            load_card(path)
        except CardbenchError:
            continue
        out.append(path)
    return out


@pytest.mark.parametrize("path", loadable(sorted(HOSTILE.glob("*.yaml"))), ids=lambda p: p.name)
def test_hostile_cards_get_the_same_verdict(path):
    agrees(load_card(path).data)


# Values that break one keyword or another: wrong types, bounds, patterns, formats, enum members.
ODD_VALUES = st.one_of(st.none(), st.booleans(), st.integers(-3, 10**6), st.floats(allow_nan=True),
                       st.sampled_from(["", "x" * 300, "2024-02-30", "2024-02-29", "not a date", "MB/s", "MiB/s",
                                        "IOPS", "read", "write", "SD", "microSD", "UHS-I", "https://x.example/",
                                        "ftp://x", "Bad Slug", "ok-slug", 1.0, 0, -1, True, "San\u200bDisk",
                                        "\u202eksi", "\ufeffAcme", "a\x85b", "Acme\n", "Tag\U000e0041", "x" * 2001,
                                        "サンディスク"]),
                       st.lists(st.integers(0, 3), max_size=3), st.dictionaries(st.sampled_from(["a", "unit"]),
                                                                                st.integers(0, 2), max_size=2),
                       # one over each kind of bound: runs and raw lists, per-session lists, fills, thresholds
                       st.sampled_from([[50.0] * 1001, [50.0] * 101, [{"written_gb": 1, "value": 1}] * 10_001,
                                        {f"t{i}": 1 for i in range(21)}, {"t" * 41: 1}]))


@settings(max_examples=400, deadline=None, derandomize=True)
@given(index=st.integers(0, 40), where=st.integers(0, 10**6), value=ODD_VALUES, drop=st.booleans())
def test_one_changed_value_gets_the_same_verdict(index, where, value, drop):
    data = copy.deepcopy(card_data(index))
    paths = [p for p in field_paths(data) if p]
    path = paths[where % len(paths)]
    parent = data
    for part in path[:-1]:
        parent = parent[part]
    if drop and isinstance(parent, dict):
        del parent[path[-1]]
    else:
        parent[path[-1]] = value
    agrees(json.loads(json.dumps(data)) if value == value else data)


def test_unknown_keywords_are_refused_not_skipped():
    with pytest.raises(UnsupportedSchema, match="oneOf"):
        compile_schema({"type": "object", "properties": {"a": {"oneOf": [{"type": "string"}]}}})


def test_keywords_mean_what_jsonschema_means():
    check = compile_schema({"type": "object", "required": ["n"], "additionalProperties": False,
                            "properties": {"n": {"type": "integer", "minimum": 1}, "e": {"enum": [1, "a"]},
                                           "u": {"type": "array", "uniqueItems": True}}})
    assert check({"n": 1.0}) and not check({"n": True}) and not check({"n": 0})
    assert check({"n": 2, "e": 1.0}) and not check({"n": 2, "e": True})
    assert not check({"n": 2, "u": [1, 1.0]}) and check({"n": 2, "u": [1, True]})
    assert not check({"n": 2, "x": 1}) and not check({})


@pytest.mark.parametrize("schema, instances", [
    ({"not": {"type": "string", "pattern": "[\u200b-\u200f]"}},
     ["Acme", "Ac\u200bme", "\u200f", 5, None, ["\u200b"]]),
    ({"type": "object", "maxProperties": 2, "minProperties": 1},
     [{}, {"a": 1}, {"a": 1, "b": 2}, {"a": 1, "b": 2, "c": 3}, [1, 2, 3], "abc"]),
    ({"type": "object", "propertyNames": {"maxLength": 3, "pattern": "^[a-z]"}},
     [{}, {"abc": 1}, {"abcd": 1}, {"Abc": 1}, {"a": 1, "bcdef": 2}, "abcdef"]),
    ({"type": "array", "maxItems": 2, "items": {"not": {"const": 0}}}, [[], [1, 2], [1, 2, 3], [0], [False]]),
])
def test_added_keywords_mean_what_jsonschema_means(schema, instances):
    import jsonschema

    check = compile_schema(schema)
    reference = jsonschema.Draft202012Validator(schema)
    assert [check(i) for i in instances] == [reference.is_valid(i) for i in instances]


@pytest.mark.parametrize("schema, instances", [
    ({"enum": [[1, True], {"a": [0]}, None]},
     [[1, True], [1.0, True], [True, True], [1, 1], {"a": [0]}, {"a": [False]}, {"a": [0.0]}, None, 0, [1]]),
    ({"const": {"a": [1, "x"], "b": False}},
     [{"a": [1, "x"], "b": False}, {"a": [1.0, "x"], "b": False}, {"a": [True, "x"], "b": False},
      {"a": [1, "x"], "b": 0}, {"a": [1, "x"]}, {"a": [1, "x"], "c": False}]),
    ({"type": "array", "uniqueItems": True},
     [[[1], [True]], [[1], [1.0]], [{"a": 1}, {"a": True}], [{"a": 1}, {"a": 1.0}], [False, 0], ["1", 1]]),
])
def test_nested_values_are_equal_as_jsonschema_reads_them(schema, instances):
    import jsonschema

    check = compile_schema(schema)
    reference = jsonschema.Draft202012Validator(schema)
    assert [check(i) for i in instances] == [reference.is_valid(i) for i in instances]


def built_cards():
    """The cards the tests build: the synthetic set the benchmarks and fuzz tests start from, and the small
    valid card of the card-file tests with each of its fields left out in turn."""
    from carddata import card_data as small_card

    cards = [card_data(index) for index in range(60)] + [small_card()]
    cards += [{key: value for key, value in small_card().items() if key != left_out} for left_out in small_card()]
    return cards


@pytest.mark.parametrize("data", built_cards(), ids=lambda data: str(data.get("slug", "no slug")))
def test_built_cards_get_the_same_verdict(data):
    agrees(data)


def private_imports(source):
    """The imports of a library's private modules (a leading underscore) in one module's source."""
    import ast

    names = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.append(node.module)
    return [name for name in names if any(part.startswith("_") and not part.endswith("__") for part in name.split("."))]


def test_no_module_imports_a_librarys_private_parts():
    found = {path.name: private_imports(path.read_text(encoding="utf-8"))
             for path in (ROOT / "scripts" / "cardbench").rglob("*.py")}
    assert {name: imports for name, imports in found.items() if imports} == {}


def test_a_private_import_is_reported():
    planted = ("from __future__ import annotations\nfrom jsonschema._utils import equal\n"
               "import yaml._yaml as y\nfrom . import _x\n")
    assert private_imports(planted) == ["jsonschema._utils", "yaml._yaml"]
