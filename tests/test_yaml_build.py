"""The one-pass reading of plain card files (card/yaml_build.py) gives what the careful loader gives."""

import random

import pytest
import yaml

from cardbench.card import load
from cardbench.bench.synth import card_data, card_text

from conftest import ROOT

YAML_1_1_EDGES = [
    "yes", "Yes", "YES", "no", "on", "On", "off", "y", "n", "true", "True", "TRUE", "false", "~", "null", "Null",
    "NULL", "", "0x10", "0o17", "017", "08", "0b11", "1_000", "1_0.5", ".5", "-.5", "+.5", "1.", "1.e+3", "1e3",
    "1E3", "1e+3", "1.5e3", "1.5e-3", "1.5E+03", "-0", "+0", "0", "00", "-1", "+1", "1:30", "190:20:30.15", ".inf",
    "-.inf", ".NaN", "2025-05-17", "2001-12-14t21:59:43.10-05:00", "<<", "=", "-", "+", ".", "e3", "1e", "0.0",
    "-0.0", "12345678901234567890", "0e0", "00.5", "01.5", "1.5.5", "+-1", "1e3e3", "sessions", "name", "op",
]


def careful(text, path="t.yaml"):
    original = load._parse_fast
    load._parse_fast = lambda *_: None
    try:
        return load.parse_card_text(text, path)
    finally:
        load._parse_fast = original


def outcome(read, text, path="t.yaml"):
    """What reading `text` gives: its data, or the error's message."""
    try:
        return repr(read(text, path).data)
    except load.CardFileError as exc:
        return str(exc)


def pyyaml_tag(value, implicit=(True, False)):
    return yaml.resolver.BaseResolver.resolve(load._FastLoader(""), yaml.ScalarNode, value, implicit)


def test_fast_resolver_tags_every_yaml_1_1_form_as_pyyaml_does():
    loader = load._FastLoader("")
    texts = YAML_1_1_EDGES + ["".join(random.Random(n).choice("0123456789+-.eE_:xobn~yYtTfFl<= ")
                                      for _ in range(n % 7)) for n in range(20_000)]
    for text in texts:
        for implicit in ((True, False), (False, True)):
            assert loader.resolve(yaml.ScalarNode, text, implicit) == pyyaml_tag(text, implicit), text


def test_yaml_1_1_edges_read_alike_in_a_card():
    text = "slug: edge\n" + "".join(f"k{i}: {value}\n" for i, value in enumerate(YAML_1_1_EDGES) if value)
    assert outcome(load.parse_card_text, text) == outcome(careful, text)


def card_files():
    return sorted((ROOT / "data" / "cards").glob("*.yaml")) + sorted((ROOT / "tests").rglob("*.yaml"))


def test_every_card_file_reads_alike_with_its_lines():
    built = 0
    for path in card_files():
        try:
            text = path.read_bytes().decode("utf-8")
        except UnicodeDecodeError:
            continue
        try:
            slow = careful(text, path)
        except load.CardFileError as exc:
            with pytest.raises(load.CardFileError) as raised:
                load.parse_card_text(text, path)
            assert str(raised.value) == str(exc)
            continue
        fast = load.parse_card_text(text, path)
        assert repr(fast.data) == repr(slow.data), path
        built += fast._positions is None
        for field in list(slow.positions)[:200] + [("sessions", 0, "none"), ("sessions", 99), ("sessions", -1)]:
            assert fast.position(field) == slow.position(field), (path, field)
        assert fast.positions == slow.positions, path
    assert built >= 10  # the shipped cards take the one pass


def test_lines_are_found_only_when_asked():
    card = load.parse_card_text(card_text(card_data(3)), "synthetic.yaml")
    assert card._positions is None
    assert card.position(("slug",)) == careful(card.text).position(("slug",))
    assert card._positions is None  # the slug's line is kept while parsing
    assert card.position(("sessions", 0, "results", 1, "runs", 2)) == \
        careful(card.text).position(("sessions", 0, "results", 1, "runs", 2))


@pytest.mark.parametrize("text", [
    "a: &x [1]\nb: *x\n",            # anchors: load.py's walk
    "a: !!int '5'\n", "a: !!str 5\n", "'a': 1\n1: 2\n", "a: 0x10\n", "a: 1_000\n", "a: 1\na: 2\n",
    "a: <<\n", "<<: {b: 1}\n", "- 1\n", "a: !!float 1\n", "a: .inf\n", "a: " + "9" * 41 + "\n",
])
def test_anything_unusual_is_left_to_the_loaders_walk(text):
    assert outcome(load.parse_card_text, text) == outcome(careful, text)


# --- every card file the project holds, and limits ---------------------------------------------

def yaml_files():
    hostile = ROOT / "tests" / "hostile"
    return (sorted((ROOT / "data" / "cards").glob("*.yaml")) + sorted(hostile.rglob("*.yaml"))
            + sorted(hostile.rglob("*.yml")))


@pytest.mark.parametrize("path", yaml_files(), ids=lambda p: p.name)
def test_fast_yaml_path_reads_what_the_careful_loader_reads(path):
    """libyaml only ever accepts: same data, same positions; anything else is the careful loader's."""
    try:
        text = path.read_bytes().decode("utf-8")
    except UnicodeDecodeError:
        pytest.skip("not UTF-8: load_card rejects it before parsing")
    fast = load._parse_fast(text, path)
    try:
        slow = careful(text, path)
    except load.CardFileError as exc:
        assert fast is None, f"fast path accepted what the careful loader rejects: {exc}"
        with pytest.raises(load.CardFileError) as raised:
            load.parse_card_text(text, path)
        assert str(raised.value) == str(exc)
        return
    if fast is not None:
        assert repr(fast.data) == repr(slow.data)
        assert fast.positions == slow.positions


@pytest.mark.parametrize("text", [
    "a: &x [1]\nb: *x\nc: *x\n",                         # aliases: counted, within the limit
    "".join(f"k{i}: &a{i} [1]\n" for i in range(120)) + "".join(f"r{i}: *a{i}\n" for i in range(120)),
    "a:" + " [" * 40 + " ]" * 40 + "\n",                 # nesting beyond the limit
    "a: 1\na: 2\n",
    "a:\n\t- 1\n",
])
def test_fast_path_leaves_limits_and_errors_to_the_careful_loader(text):
    assert outcome(load.parse_card_text, text) == outcome(careful, text)
