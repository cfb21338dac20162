"""The card schema is complete and documented, and bad files are named with their line or field."""

import json
import subprocess
import sys

import pytest

from cardbench.cardfile import new_card_text, parse_card_text
from cardbench.errors import CardFileError
from cardbench.validate import SCHEMA_PATH, check_card, validate_paths

from conftest import ROOT


def minimal_card(**overrides):
    card = {
        "schema_version": 1, "slug": "acme-fast-64gb-microsdxc", "brand": "Acme", "model": "Fast",
        "capacity_gb": 64, "form_factor": "microSD", "bus": "UHS-I", "source": {"name": "test"},
        "sessions": [{"id": "s1", "label": "Reader", "results": [
            {"test": "SEQ1M Q8T1", "op": "read", "unit": "MB/s", "runs": [90.1, 91.2]}]}],
    }
    card.update(overrides)
    return card


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
    path.write_text(new_card_text(minimal_card()), encoding="utf-8")
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
    text = new_card_text(minimal_card(capacity_gb="sixty-four"))
    card = parse_card_text(text, tmp_path / "acme-fast-64gb-microsdxc.yaml")
    messages = [str(f) for f in check_card(card)]
    line = next(i for i, l in enumerate(text.splitlines(), 1) if l.startswith("capacity_gb"))
    assert any(f"acme-fast-64gb-microsdxc.yaml:{line}:" in m and "capacity_gb" in m and "number" in m for m in messages), messages


def test_missing_required_field_is_named(tmp_path):
    card = minimal_card()
    del card["bus"]
    loaded = parse_card_text(new_card_text(card), tmp_path / "acme-fast-64gb-microsdxc.yaml")
    messages = [str(f) for f in check_card(loaded)]
    assert any("missing required field" in m and "bus" in m for m in messages), messages


def test_run_value_in_a_list_is_named_by_index(tmp_path):
    card = minimal_card()
    card["sessions"][0]["results"][0]["runs"] = [90.1, -3]
    loaded = parse_card_text(new_card_text(card), tmp_path / "acme-fast-64gb-microsdxc.yaml")
    messages = [str(f) for f in check_card(loaded)]
    assert any("sessions[0].results[0].runs[1]" in m for m in messages), messages


@pytest.mark.parametrize("breakage", ["syntax", "type", "missing"])
def test_bad_file_stops_validate_and_aggregate(tmp_path, breakage):
    cards = tmp_path / "cards"
    cards.mkdir()
    good = minimal_card()
    (cards / "acme-fast-64gb-microsdxc.yaml").write_text(new_card_text(good), encoding="utf-8")
    bad = minimal_card(slug="acme-bad-32gb-microsdhc")
    if breakage == "type":
        bad["sessions"][0]["results"][0]["runs"] = "fast"
    if breakage == "missing":
        del bad["brand"]
    text = new_card_text(bad)
    if breakage == "syntax":
        text = text.replace("model: Fast", "model: [Fast")
    (cards / "acme-bad-32gb-microsdhc.yaml").write_text(text, encoding="utf-8")
    out = tmp_path / "out"
    for command in (["validate", "--cards-dir", str(cards)], ["aggregate", "--cards-dir", str(cards), "--out", str(out)]):
        run = subprocess.run([sys.executable, "-m", "cardbench", *command], capture_output=True, text=True, cwd=ROOT)
        assert run.returncode != 0
        assert "acme-bad-32gb-microsdhc.yaml:" in run.stderr
        assert "Traceback" not in run.stderr
    assert not out.exists(), "nothing is published from a bad file"
