"""The page models the site is drawn from, checked against their JSON Schemas (pages/schemas/<name>.schema.json)
as cardbench aggregate writes them: a model that no longer has what the templates and scripts read stops
the build with the file and field named, instead of a page that quietly shows less.

Each schema is compiled once into a quick yes/no check (card/checks/schemacheck.py; its "$defs" put in place of
their "$ref"s first, as that check reads no references); only a model it refuses goes through jsonschema,
whose best match of its errors names the field.
"""

import json
from functools import lru_cache
from pathlib import Path

import jsonschema

from ..card.checks.schemacheck import compile_schema
from ..errors import CardbenchError

SCHEMA_DIR = Path(__file__).with_name("schemas")


class PageModelError(CardbenchError):
    """A page model the site writes does not match its schema; names the file and the field."""

    def __init__(self, where, field, message):
        super().__init__(where, field, message)  # the arguments again when unpickled from a worker process
        self.where, self.field, self.message = where, field, message

    def __str__(self):
        return f"{self.where}: {self.field}: {self.message}"


def inlined(schema, defs=None):
    """The schema with each {"$ref": "#/$defs/<name>"} replaced by that definition (definitions refer to
    no one recursively), and its $defs dropped."""
    if defs is None:
        defs = schema.get("$defs", {}) if isinstance(schema, dict) else {}
    if isinstance(schema, list):
        return [inlined(item, defs) for item in schema]
    if not isinstance(schema, dict):
        return schema
    if "$ref" in schema:
        return inlined(defs[schema["$ref"].removeprefix("#/$defs/")], defs)
    return {key: inlined(value, defs) for key, value in schema.items() if key != "$defs"}


@lru_cache(maxsize=None)
def _schema(name):
    schema = json.loads((SCHEMA_DIR / f"{name}.schema.json").read_text(encoding="utf-8"))
    return compile_schema(inlined(schema)), jsonschema.Draft202012Validator(schema)


def field_path(path):
    """A field's place in a model as written in messages: suites[0].subtests[2]."""
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out or "(the whole model)"


def check_model(name, model, where):
    """Raise PageModelError unless `model` matches schemas/<name>.schema.json; `where`: the file it is written to."""
    quick, validator = _schema(name)
    if quick(model):
        return
    error = jsonschema.exceptions.best_match(validator.iter_errors(model))
    if error is not None:
        raise PageModelError(where, field_path(error.absolute_path), error.message)


__all__ = ["check_model", "field_path", "PageModelError", "SCHEMA_DIR"]
