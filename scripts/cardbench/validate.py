"""Check card files: the JSON Schema, then the rules a schema cannot say.

Every problem is a Finding naming the file, line, field and rule, as an error (stops the build)
or a warning (shown, does not stop it).
"""

import datetime
import json
from dataclasses import dataclass
from pathlib import Path

import jsonschema

from .cardfile import format_field, load_card, non_finite_paths
from .errors import CardFileError

ROOT = Path(__file__).resolve().parents[2]
SCHEMA_PATH = ROOT / "data" / "schema" / "card.schema.json"
DATA_DIR = ROOT / "data"


@dataclass
class Finding:
    severity: str  # "error" or "warning"
    error: CardFileError

    def __str__(self):
        return f"{self.severity}: {self.error}"


_validator = None


def schema_validator():
    global _validator
    if _validator is None:
        schema = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
        _validator = jsonschema.Draft202012Validator(schema, format_checker=jsonschema.FormatChecker())
    return _validator


def _schema_message(err):
    if err.validator == "additionalProperties":
        return err.message.replace("Additional properties are not allowed", "unknown field(s)")
    if err.validator == "required":
        return f"missing required field: {err.message.split(' is a required property')[0]}"
    if err.validator in ("enum", "const"):
        allowed = err.validator_value if err.validator == "enum" else [err.validator_value]
        return f"{err.instance!r} is not allowed; allowed: {', '.join(map(str, allowed))}"
    if err.validator == "maxLength":
        return f"text is {len(err.instance)} characters; at most {err.validator_value}"
    if err.validator == "pattern":
        return f"{str(err.instance)[:80]!r} does not have the required form ({err.validator_value})"
    return err.message if len(err.message) < 300 else err.message[:300] + "…"


def schema_findings(card):
    findings = []
    for err in sorted(schema_validator().iter_errors(card.data), key=lambda e: list(map(str, e.absolute_path))):
        findings.append(Finding("error", card.error(list(err.absolute_path), _schema_message(err), rule=f"schema:{err.validator}")))
    return findings


def _sessions(card):
    sessions = card.data.get("sessions")
    return [(i, s) for i, s in enumerate(sessions) if isinstance(s, dict)] if isinstance(sessions, list) else []


def rule_findings(card, today=None, data_dir=DATA_DIR):
    """Rules beyond the schema. Each finding's rule name says which."""
    today = today or datetime.date.today()
    data = card.data
    out = []

    def err(path, msg, rule, severity="error"):
        out.append(Finding(severity, card.error(path, msg, rule=rule)))

    for path in non_finite_paths(data):
        err(path, "not a finite number (NaN or infinity)", "finite")

    slug = data.get("slug")
    if isinstance(slug, str) and card.path.suffix == ".yaml" and card.path.stem != slug:
        err(("slug",), f"slug '{slug}' does not match the file name '{card.path.name}'", "slug-equals-filename")

    def check_date(path, value):
        if isinstance(value, str):
            try:
                when = datetime.date.fromisoformat(value)
            except ValueError:
                return  # the schema reports the form
            if when > today:
                err(path, f"date {value} is in the future", "date-not-future")

    for key in ("source",):
        if isinstance(data.get(key), dict):
            check_date((key, "date"), data[key].get("date"))

    seen_ids = {}
    for index, session in _sessions(card):
        base = ("sessions", index)
        sid = session.get("id")
        if sid in seen_ids:
            err(base + ("id",), f"session id '{sid}' is used twice (also sessions[{seen_ids[sid]}])", "session-id-unique")
        seen_ids.setdefault(sid, index)
        check_date(base + ("date",), session.get("date"))
        _check_runs(session, base, err)
        _check_raw(session, base, err, data_dir)
    return out


def _check_runs(session, base, err):
    for kind in ("results", "dd"):
        for i, entry in enumerate(session.get(kind) or []):
            if not isinstance(entry, dict) or not isinstance(entry.get("runs"), list):
                continue
            path = base + (kind, i)
            runs = entry["runs"]
            for j, value in enumerate(runs):
                if isinstance(value, (int, float)) and not isinstance(value, bool) and value <= 0:
                    err(path + ("runs", j), f"run value {value} is not positive", "positive")
            parallel = {"iops": entry.get("iops"), "seconds": entry.get("seconds")}
            for stat, values in (entry.get("latency_us") or {}).items():
                parallel[f"latency_us.{stat}"] = values
            for name, values in parallel.items():
                if isinstance(values, list) and len(values) != len(runs):
                    err(path + tuple(name.split(".")), f"{len(values)} values for {len(runs)} runs", "runs-parallel")
            for j in entry.get("excluded_runs") or []:
                if isinstance(j, int) and j >= len(runs):
                    err(path + ("excluded_runs",), f"excluded run {j} does not exist ({len(runs)} runs)", "runs-parallel")


def _raw_paths(value, path=()):
    if isinstance(value, dict):
        for key, item in value.items():
            if key == "raw" and isinstance(item, list):
                for i, raw in enumerate(item):
                    if isinstance(raw, str):
                        yield path + (key, i), raw
            else:
                yield from _raw_paths(item, path + (key,))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from _raw_paths(item, path + (i,))


def _check_raw(session, base, err, data_dir):
    for path, raw in _raw_paths(session):
        target = (data_dir / raw).resolve()
        if data_dir.resolve() not in target.parents:
            err(base + path, f"raw path '{raw}' leaves the data folder", "raw-present")
        elif not target.is_file():
            err(base + path, f"raw file data/{raw} is missing", "raw-present")


def cross_card_findings(cards):
    """Rules across files: slugs unique (also ignoring case)."""
    out = []
    seen = {}
    for card in cards:
        slug = card.data.get("slug")
        if not isinstance(slug, str):
            continue
        key = slug.lower()
        if key in seen:
            out.append(Finding("error", card.error(("slug",), f"slug '{slug}' is also used by {seen[key]}", rule="slug-unique")))
        seen.setdefault(key, card.path.name)
    return out


def check_card(card, today=None, data_dir=DATA_DIR):
    findings = schema_findings(card)
    findings += rule_findings(card, today=today, data_dir=data_dir)
    return findings


def validate_paths(paths, today=None, data_dir=DATA_DIR):
    """Load and check files. Returns (valid LoadedCards, findings). A card with an error is not valid."""
    cards, findings = [], []
    for path in sorted(Path(p) for p in paths):
        try:
            card = load_card(path)
        except CardFileError as exc:
            findings.append(Finding("error", exc))
            continue
        own = check_card(card, today=today, data_dir=data_dir)
        findings += own
        if not any(f.severity == "error" for f in own):
            cards.append(card)
    cross = cross_card_findings(cards)
    findings += cross
    bad = {f.error.path for f in cross if f.severity == "error"}
    return [c for c in cards if str(c.path) not in bad], findings


def card_paths(cards_dir):
    return sorted(Path(cards_dir).glob("*.yaml"))


__all__ = ["Finding", "check_card", "validate_paths", "card_paths", "format_field", "schema_validator"]
