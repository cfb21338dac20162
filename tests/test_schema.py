"""The card schema is complete, documented and bounded, names cannot hide characters, and bad files are
named with their line or field."""

import copy
import json

import pytest

from cardbench.card.dump import new_card_text
from cardbench.cli import main
from cardbench.errors import CardFileError
from cardbench.card.load import LoadedCard, format_field, parse_card_text
from cardbench.card.checks.schemacheck import quick_check
from cardbench.card.checks.validate import check_card, validate_paths
from cardbench.core.paths import SCHEMA_PATH

from carddata import card_data
from conftest import field_paths


def _walk_properties(schema, path="$"):
    if isinstance(schema, dict):
        for name, sub in (schema.get("properties") or {}).items():
            yield f"{path}.{name}", sub
            yield from _walk_properties(sub, f"{path}.{name}")
        for key in ("items", "additionalProperties"):
            if isinstance(schema.get(key), dict):
                yield from _walk_properties(schema[key], f"{path}[]")


def test_every_schema_field_has_a_description():
    schema = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    missing = [path for path, sub in _walk_properties(schema) if not sub.get("description")]
    assert missing == []


def test_minimal_card_is_valid(tmp_path):
    path = tmp_path / "acme-fast-64gb-microsdxc.yaml"
    path.write_text(new_card_text(card_data()), encoding="utf-8")
    cards, findings = validate_paths([path])
    assert [str(f) for f in findings] == []
    assert len(cards) == 1


@pytest.mark.parametrize("text, where, reason", [
    ("slug: a\nbrand: [unclosed\n", ":3:1:", "YAML"),
    ("slug: a\n  bad: indent\n", ":2:6:", "YAML"),
])
def test_yaml_syntax_error_names_line_and_column(tmp_path, text, where, reason):
    with pytest.raises(CardFileError) as info:
        parse_card_text(text, tmp_path / "x.yaml")
    message = str(info.value)
    assert "x.yaml" in message and where in message and reason in message


def test_wrong_type_names_field_and_line(tmp_path):
    text = new_card_text(card_data(capacity_gb="sixty-four"))
    card = parse_card_text(text, tmp_path / "acme-fast-64gb-microsdxc.yaml")
    messages = [str(f) for f in check_card(card)]
    line = next(i for i, row in enumerate(text.splitlines(), 1) if row.startswith("capacity_gb"))
    assert any(f"acme-fast-64gb-microsdxc.yaml:{line}:" in m and "capacity_gb" in m and "number" in m
               for m in messages), messages


def test_missing_required_field_is_named(tmp_path):
    card = card_data()
    del card["bus"]
    loaded = parse_card_text(new_card_text(card), tmp_path / "acme-fast-64gb-microsdxc.yaml")
    messages = [str(f) for f in check_card(loaded)]
    assert any("missing required field" in m and "bus" in m for m in messages), messages


def test_run_value_in_a_list_is_named_by_index(tmp_path):
    card = card_data()
    card["sessions"][0]["results"][0]["runs"] = [90.1, -3]
    loaded = parse_card_text(new_card_text(card), tmp_path / "acme-fast-64gb-microsdxc.yaml")
    messages = [str(f) for f in check_card(loaded)]
    assert any("sessions[0].results[0].runs[1]" in m for m in messages), messages


@pytest.mark.parametrize("breakage", ["syntax", "type", "missing"])
def test_bad_file_stops_validate_and_aggregate(tmp_path, capsys, breakage):
    cards = tmp_path / "cards"
    cards.mkdir()
    good = card_data()
    (cards / "acme-fast-64gb-microsdxc.yaml").write_text(new_card_text(good), encoding="utf-8")
    bad = card_data(slug="acme-bad-32gb-microsdhc")
    if breakage == "type":
        bad["sessions"][0]["results"][0]["runs"] = "fast"
    if breakage == "missing":
        del bad["brand"]
    text = new_card_text(bad)
    if breakage == "syntax":
        text = text.replace("model: Fast", "model: [Fast")
    (cards / "acme-bad-32gb-microsdhc.yaml").write_text(text, encoding="utf-8")
    out = tmp_path / "out"
    for command in (["validate", "--cards-dir", str(cards)],
                    ["aggregate", "--cards-dir", str(cards), "--out", str(out)]):
        # The command line's entry point in this process: an exception escaping it fails the test, as a traceback would.
        assert main(command) != 0
        err = capsys.readouterr().err
        assert "acme-bad-32gb-microsdhc.yaml:" in err
        assert "Traceback" not in err
    assert not out.exists(), "nothing is published from a bad file"


# --- bounds: no valid card can be large enough to stall the build ----------------------------------


SCHEMA = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))


def _subschemas(schema, path="$"):
    """Every schema node with the instance path it checks ([] for list items, {} for mapping values)."""
    yield path, schema
    for name, sub in (schema.get("properties") or {}).items():
        yield from _subschemas(sub, f"{path}.{name}")
    if isinstance(schema.get("items"), dict):
        yield from _subschemas(schema["items"], f"{path}[]")
    if isinstance(schema.get("additionalProperties"), dict):
        yield from _subschemas(schema["additionalProperties"], f"{path}{{}}")
    if isinstance(schema.get("propertyNames"), dict):
        yield from _subschemas({"type": "string", **schema["propertyNames"]}, f"{path}{{key}}")


def test_every_list_text_and_mapping_has_an_upper_bound():
    unbounded = []
    for path, node in _subschemas(SCHEMA):
        kinds = node.get("type") if isinstance(node.get("type"), list) else [node.get("type")]
        if "array" in kinds and "maxItems" not in node:
            unbounded.append(f"{path}: maxItems")
        if "string" in kinds and "maxLength" not in node and "enum" not in node and "const" not in node:
            unbounded.append(f"{path}: maxLength")
        if "object" in kinds and node.get("additionalProperties", True) is not False:
            if "maxProperties" not in node:
                unbounded.append(f"{path}: maxProperties")
            if "maxLength" not in (node.get("propertyNames") or {}):
                unbounded.append(f"{path}: propertyNames.maxLength")
    assert unbounded == []


def _schema_at(path):
    node = SCHEMA
    for part in path:
        if isinstance(part, int):
            node = node["items"]
        else:
            node = (node.get("properties") or {}).get(part) or node["additionalProperties"]
    return node


def _full_card():
    """A valid card with every list of the format present (the fuzz tests' card)."""
    from test_fuzz_validate import BASE

    card = copy.deepcopy(BASE)
    session = card["sessions"][0]
    session["dd_sweeps"][0]["flags"] = ["direct"]
    session["results"][0]["latency_us"] = {k: [100, 110] for k in ("mean", "p50", "p90", "p99", "p99_9", "max")}
    session["tool_results"] = [{"tool": "hdparm", "test": "hdparm -t", "op": "read", "unit": "MiB/s", "runs": [42.1],
                                "raw": ["raw/fuzz-card/h.out"]},
                               {"tool": "fio", "test": "fio randread 4k", "op": "read", "unit": "MB/s", "runs": [15.08],
                                "iops": [3770], "block_size": "4K"}]
    session["reading"] = ["The reviewer reads the runs as limited by the reader."]
    for kind in ("dd", "dd_sweeps", "flashbench_open_au", "flashbench_align", "flashbench_find_fat", "fill"):
        session[kind][0]["raw"] = ["raw/fuzz-card/c.out"]
    for kind in ("f3probe", "nvme"):
        session[kind]["raw"] = ["raw/fuzz-card/d.out"]
    session["f3probe"].update(verdict="counterfeit", fake_type="wraparound")
    session["capacity_check"] = {"tool": "h2testw", "verdict": "data lost",
                                 "verdict_text": "The media is likely to be defective.", "bytes_written": 1024,
                                 "bytes_ok": 512, "bytes_lost": 512, "files": 1,
                                 "sectors": {"ok": 1, "lost": 1, "overwritten": 0, "changed": 0, "corrupted": 1,
                                             "aliased": 0}, "raw": ["raw/fuzz-card/h2.out"]}
    return card


def _lists():
    card = _full_card()
    return [path for path in field_paths(card) if isinstance(_get(card, path), list)]


def _get(data, path):
    for part in path:
        data = data[part]
    return data


def _errors(data):
    card = LoadedCard(f"{data['slug']}.yaml", data, {}, "")
    return [f for f in check_card(card, data_dir="/nonexistent") if f.severity == "error" and f.rule != "raw-present"]


def test_the_full_card_reaches_every_bounded_list():
    reached = {"$" + "".join("[]" if isinstance(p, int) else f".{p}" for p in path) for path in _lists()}
    declared = {path for path, node in _subschemas(SCHEMA) if node.get("type") == "array"}
    assert declared - reached == set()


@pytest.mark.parametrize("path", _lists(), ids=format_field)
def test_a_list_one_over_its_bound_is_refused(path):
    card = _full_card()
    items = _get(card, path)
    most = _schema_at(path).get("maxItems")
    assert most is not None, "every list is bounded"
    assert _errors(card) == []
    items.extend(copy.deepcopy(items[-1]) for _ in range(most + 1 - len(items)))
    errors = _errors(card)
    assert any(f.rule == "schema:maxItems" and f.error.field == format_field(path)
               and f"the list has {most + 1} item(s); at most {most}" in f.error.message for f in errors), errors
    assert not quick_check(SCHEMA)(card)


def test_a_card_at_the_bounds_is_valid():
    card = _full_card()
    session = card["sessions"][0]
    result = session["results"][0]
    result["runs"] = [9.0 + (i % 5) * 0.1 for i in range(1000)]
    result["iops"] = [round(v * 1048576 / 4096) for v in result["runs"]]
    result["latency_us"] = {k: [100] * 1000 for k in result["latency_us"]}
    sequential = {key: value for key, value in result.items() if key != "iops"}
    session["results"] += [dict(sequential, test=f"SEQ{k + 1}M Q1T1") for k in range(99)]
    session["fill"][0]["points"] = [{"written_gb": i + 1, "value": 40, "seconds": i + 1} for i in range(10_000)]
    session["nvme"]["thresholds_c"] = {f"t{i}": 70 for i in range(20)}
    card["brand"] = "B" * 60
    assert _errors(card) == []


def test_too_many_thresholds_and_too_long_threshold_names_are_refused():
    card = _full_card()
    card["sessions"][0]["nvme"]["thresholds_c"] = {f"t{i}": 70 for i in range(21)}
    assert any(f.rule == "schema:maxProperties" and "21 entries; at most 20" in f.error.message for f in _errors(card))
    card["sessions"][0]["nvme"]["thresholds_c"] = {"t" * 41: 70}
    assert any(f.rule == "schema:maxLength" and f.error.field == "sessions[0].nvme.thresholds_c"
               for f in _errors(card))


# --- identity fields: no character that lets a name pose as another ---------------------------------

IDENTITY = [("brand",), ("model",), ("part_number",), ("controller",), ("price", "shop"), ("shops", 0, "name"),
            ("source", "name"), ("source", "author"), ("sessions", 0, "label"), ("sessions", 0, "card_label"),
            ("sessions", 0, "host"), ("sessions", 0, "reader"), ("sessions", 0, "source", "name"),
            ("sessions", 0, "source", "author")]

# one of each kind: C0 and C1 controls, zero-width space and joiners, direction marks, embeddings and overrides,
# isolates, byte order mark, word joiner, soft hyphen, line separator, variation selector, tag character
HIDDEN = {"\x1b": "U+001B (a control character)", "\x85": "U+0085 (a control character)",
          "\u200b": "U+200B ZERO WIDTH SPACE", "\u200c": "U+200C ZERO WIDTH NON-JOINER",
          "\u200d": "U+200D ZERO WIDTH JOINER", "\u200e": "U+200E LEFT-TO-RIGHT MARK",
          "\u200f": "U+200F RIGHT-TO-LEFT MARK", "\u202a": "U+202A LEFT-TO-RIGHT EMBEDDING",
          "\u202b": "U+202B RIGHT-TO-LEFT EMBEDDING", "\u202c": "U+202C POP DIRECTIONAL FORMATTING",
          "\u202d": "U+202D LEFT-TO-RIGHT OVERRIDE", "\u202e": "U+202E RIGHT-TO-LEFT OVERRIDE",
          "\u2066": "U+2066 LEFT-TO-RIGHT ISOLATE", "\u2067": "U+2067 RIGHT-TO-LEFT ISOLATE",
          "\u2068": "U+2068 FIRST STRONG ISOLATE", "\u2069": "U+2069 POP DIRECTIONAL ISOLATE",
          "\ufeff": "U+FEFF ZERO WIDTH NO-BREAK SPACE", "\u2060": "U+2060 WORD JOINER", "\u00ad": "U+00AD SOFT HYPHEN",
          "\u2028": "U+2028 LINE SEPARATOR", "\ufe0f": "U+FE0F VARIATION SELECTOR-16",
          "\U000e0041": "U+E0041 TAG LATIN CAPITAL LETTER A", "\n": "U+000A (a control character)",
          "\t": "U+0009 (a control character)"}


def _identity_card():
    card = card_data(part_number="AC-64", controller="Phison", price={"amount": 9, "currency": "EUR", "shop": "S"},
                        shops=[{"name": "Shop", "url": "https://shop.example/"}],
                        source={"name": "Review", "author": "Ann"})
    card["sessions"][0]["source"] = {"name": "Review", "author": "Ann"}
    return card


def _with(card, path, value):
    card = copy.deepcopy(card)
    _get(card, path[:-1])[path[-1]] = value
    return card


@pytest.mark.parametrize("path", IDENTITY, ids=format_field)
@pytest.mark.parametrize("char", sorted(HIDDEN), ids=lambda c: f"U+{ord(c):04X}")
def test_identity_fields_refuse_hidden_characters_by_name(path, char):
    card = _with(_identity_card(), path, f"San{char}Disk")
    errors = _errors(card)
    assert [(f.error.field, f.rule) for f in errors] == [(format_field(path), "schema:not")], errors
    assert errors[0].error.message == (f"contains {HIDDEN[char]} at position 3, which can make a name pose as "
                                       f"another; remove it")


def test_identity_fields_are_the_ones_described_as_such():
    guarded = {path for path, node in _subschemas(SCHEMA) if "not" in node}
    described = {path for path, node in _subschemas(SCHEMA) if "Identity field" in (node.get("description") or "")}
    expected = {"$" + "".join("[]" if isinstance(p, int) else f".{p}" for p in path) for path in IDENTITY}
    assert guarded == described == expected
    assert len({json.dumps(node["not"]) for path, node in _subschemas(SCHEMA) if "not" in node}) == 1


@pytest.mark.parametrize("name", ["SanDisk", "Extreme PRO", "Kioxia EXCERIA PLUS G2", "Lexar® PLAY PRO™",
                                  "サンディスク", "삼성 EVO Plus", "Kingston Canvas Go! Plus — 256 GB",
                                  "Ünïcødé “quoted” ‘name’",
                                  "بطاقة ذاكرة", "Gigastone 4K Camera Pro (V30)", "Tom's Hardware & <Friends>"])
def test_identity_fields_keep_every_script_and_symbol(name):
    for path in IDENTITY:
        assert _errors(_with(_identity_card(), path, name)) == [], path


def test_hidden_characters_elsewhere_are_still_text_control():
    """Free text (notes, conditions…) keeps its rule: direction controls refused, the name guard not applied."""
    card = card_data(notes="a \u202e b")
    card["sessions"][0]["conditions"] = "fan \u202efdp.exe"
    assert {(f.error.field, f.rule) for f in _errors(card)} == {("notes", "text-control"),
                                                                 ("sessions[0].conditions", "text-control")}


def test_new_card_asks_again_for_a_name_with_a_hidden_character():
    from cardbench.card.store.newcard import gather_answers

    replies = iter(["San\u200bDisk", "SanDisk", "Extreme", "64", "microSD", "UHS-I", ""])
    problems = []
    answers = gather_answers({}, ask=lambda prompt, problem: problems.append(problem) or next(replies))
    assert answers["brand"] == "SanDisk"
    assert "brand contains U+200B ZERO WIDTH SPACE" in problems[1]
