"""CONTRIBUTING.md stays true to the schema and the validator: every schema field is in its field
tables with its description and allowed values, every rule the validator can report is explained,
and its sample card file validates."""

import json
import re
from pathlib import Path

from cardbench.card.store.checksums import update_sha256sums
from cardbench.card.load import parse_card_text
from cardbench.card.checks.problems import RULES
from cardbench.card.checks.validate import check_card
from cardbench.core.paths import SCHEMA_PATH

ROOT = Path(__file__).resolve().parents[1]
CONTRIBUTING = (ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8")
SCHEMA = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))


def schema_fields(schema, path=""):
    """(field path, schema) for every property, as CONTRIBUTING writes paths: sessions[].results[].runs."""
    for name, sub in (schema.get("properties") or {}).items():
        field = f"{path}.{name}" if path else name
        yield field, sub
        if sub.get("type") == "object":
            yield from schema_fields(sub, field)
            if isinstance(sub.get("additionalProperties"), dict):
                yield f"{field}.<name>", sub["additionalProperties"]
        if sub.get("type") == "array" and isinstance(sub.get("items"), dict):
            yield from schema_fields(sub["items"], field + "[]")


def table_rows():
    """{field path: row text} from the '| `path` | … |' rows of CONTRIBUTING's field tables."""
    start = CONTRIBUTING.index("### Every field")
    section = CONTRIBUTING[start:CONTRIBUTING.index("\n## ", start)]
    rows = {}
    for line in section.splitlines():
        match = re.match(r"^\| `([^`]+)` \|", line)
        if match:
            rows[match.group(1)] = line.replace("\\|", "|")
    return rows


def test_every_schema_field_is_documented_with_its_description():
    rows = table_rows()
    missing, stale = [], []
    for field, sub in schema_fields(SCHEMA):
        row = rows.get(field)
        if row is None:
            missing.append(field)
        elif sub.get("description") and sub["description"] not in row:
            stale.append(field)
    assert missing == [] and stale == [], f"not in CONTRIBUTING.md: {missing}; description differs: {stale}"


def test_no_documented_field_is_missing_from_the_schema():
    fields = {field for field, _ in schema_fields(SCHEMA)}
    assert [f for f in table_rows() if f not in fields] == []


def test_allowed_values_are_listed():
    rows = table_rows()
    for field, sub in schema_fields(SCHEMA):
        values = sub.get("enum") or (sub.get("items") or {}).get("enum") or []
        for value in values:
            assert f"`{value}`" in rows[field], (field, value)
        if "pattern" in sub:
            assert sub["pattern"] in rows[field], field


def test_every_rule_is_explained_with_its_severity():
    rows = {}
    for line in CONTRIBUTING.splitlines():
        for rule in re.findall(r"`([a-z:<>-]+)`", line.split("|")[1] if line.startswith("| `") else ""):
            rows[rule] = line
    for rule, severity in RULES.items():
        assert rule in rows, f"rule {rule} is not in CONTRIBUTING.md's rule table"
        for word in severity.split(" or "):
            assert word in rows[rule], (rule, word)
    assert "schema:<keyword>" in rows


def test_sample_card_validates(tmp_path):
    sample = re.search(r"```yaml\n(.*?)```", CONTRIBUTING, re.S).group(1)
    card = parse_card_text(sample, tmp_path / "cards" / "sandisk-extreme-256gb-microsdxc.yaml")
    for raw in (r for s in card.data["sessions"] for e in s.get("results", []) for r in e.get("raw", [])):
        path = tmp_path / raw
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("{}\n")
        folder = tmp_path / "raw" / card.data["slug"]
        update_sha256sums(folder, [path.relative_to(folder).as_posix()])
    assert [str(f) for f in check_card(card, data_dir=tmp_path)] == []


def test_documented_limits_are_the_loader_limits():
    from cardbench.card import load

    row = next(line for line in CONTRIBUTING.splitlines() if line.startswith("| `aliases`"))
    assert f"at most {load.MAX_ALIASES} `*aliases`" in row
    assert f"{load.MAX_NODES:,} values" in row
    assert f"{load.MAX_DEPTH} levels of nesting" in row
    assert f"{load.MAX_FILE_BYTES // 2**20} MiB per file" in row
    assert f"{load.MAX_NUMBER_CHARS} characters per number" in row
