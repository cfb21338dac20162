"""The JSON Schema check of a card, with each schema error put in plain words as a Finding.

The schema runs first as a compiled yes/no check (schemacheck.py); only a card it refuses goes
through jsonschema, whose errors are translated here, one small function per schema keyword.
"""

import difflib
import json
import re

import jsonschema

from ...core.paths import SCHEMA_PATH
from .problems import Finding
from .schemacheck import UnsupportedSchema, quick_check
from ..wording import character_name, describe, shorten

_validator = None
_quick_valid = None
_guard = None


def schema_validator():
    global _validator
    if _validator is None:
        schema = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
        _validator = jsonschema.Draft202012Validator(schema, format_checker=jsonschema.FormatChecker())
    return _validator


def quick_schema_check():
    """The schema compiled to a yes/no check (schemacheck); a card it passes has no schema error."""
    global _quick_valid
    if _quick_valid is None:
        try:
            _quick_valid = quick_check(schema_validator().schema)
        except UnsupportedSchema:
            _quick_valid = _never_quick  # a keyword it does not know: jsonschema checks every card
    return _quick_valid


def _never_quick(data):
    """The quick check of a schema it cannot compile: no card passes quickly."""
    return False


def schema_findings(card):
    """Every schema error of a loaded card as a Finding with rule schema:<keyword>."""
    if quick_schema_check()(card.data):
        return []
    findings = []
    for err in schema_validator().iter_errors(card.data):
        for path, message in schema_error_messages(err):
            findings.append(Finding("error", card.error(path, message, rule=f"schema:{err.validator}")))
    return findings


def schema_error_messages(err):
    """One or more (field path, message) pairs for one jsonschema error."""
    path = list(err.absolute_path)
    if err.validator == "additionalProperties" and isinstance(err.instance, dict):
        return _unknown_fields(err, path)
    if err.validator == "required":
        match = re.match(r"^'(.*)' is a required property$", err.message)
        name = match.group(1) if match else shorten(err.message)
        return [(path + [name], f"missing required field '{name}'")]
    wording = _WORDING.get(err.validator)
    message = wording(err.validator_value, err.instance, err.schema) if wording else None
    return [(path, message or shorten(err.message, 200))]


def _unknown_fields(err, path):
    allowed = list((err.schema.get("properties") or {}).keys())
    out = []
    for key in err.instance:
        if key in allowed:
            continue
        guess = _closest(key, allowed)
        hint = f"did you mean '{guess}'?" if guess else f"allowed here: {', '.join(allowed)}"
        out.append((path + [key], f"unknown field '{shorten(key)}' ({hint})"))
    return out


def _closest(word, choices):
    if not isinstance(word, str):
        return None
    for choice in choices:
        if isinstance(choice, str) and choice.lower() == word.lower():
            return choice
    found = difflib.get_close_matches(word, [c for c in choices if isinstance(c, str)], n=1, cutoff=0.6)
    return found[0] if found else None


# --- one message per keyword: (the keyword's value in the schema, the value found, the subschema) ---

_TYPE_NAMES = {"string": "text", "number": "a number", "integer": "a whole number", "boolean": "true or false",
               "array": "a list", "object": "a mapping (key: value)", "null": "nothing"}


def _type(wanted, got, schema):
    wanted = wanted if isinstance(wanted, list) else [wanted]
    expected = " or ".join(_TYPE_NAMES.get(t, t) for t in wanted)
    message = f"expected {expected}, got {describe(got)}"
    if "string" in wanted and isinstance(got, bool):
        message += " (YAML reads yes/no/on/off/true/false as true or false: put the text in quotes)"
    elif "string" in wanted and isinstance(got, (int, float)):
        message += " (put it in quotes to keep it as text)"
    elif {"number", "integer"} & set(wanted) and isinstance(got, str):
        message += " (write the number alone, without quotes or a unit)"
    elif got is None:
        message += " (give a value or remove the field)"
    return message


def _enum(allowed, got, schema):
    guess = _closest(got, allowed)
    hint = f"; did you mean '{guess}'?" if guess else ""
    return f"{describe(got)} is not allowed; allowed: {', '.join(map(str, allowed))}{hint}"


def _pattern(pattern, got, schema):
    description = schema.get("description") if isinstance(schema, dict) else None
    what = f": {description}" if description else ""
    return f"{describe(got)} does not have the required form{what} (pattern {pattern})"


def _min_length(least, got, schema):
    if isinstance(got, str) and not got:
        return "empty text; give a value or remove the field"
    return f"text is {len(got)} characters; at least {least}"


def _not(refused, got, schema):
    """The schema refuses some characters in names with not/pattern; say which one and where."""
    if not (isinstance(got, str) and isinstance(refused, dict) and "pattern" in refused):
        return None
    found = re.search(refused["pattern"], got)
    return hidden_words(found) if found else None


def identity_guard():
    """The characters the schema refuses in every identity field (brand, model, label, host, reader…),
    as a compiled pattern: control, zero-width, format and text-direction characters."""
    global _guard
    if _guard is None:
        _guard = re.compile(schema_validator().schema["properties"]["brand"]["not"]["pattern"])
    return _guard


def hidden_words(found):
    """What the identity guard found (a match), for a message."""
    return (f"contains {character_name(found.group())} at position {found.start()}, which can make "
            f"a name pose as another; remove it")


def _min_items(least, got, schema):
    if isinstance(got, list) and not got:
        return f"the list is empty; at least {least} item(s) needed"
    return f"the list has {len(got)} item(s); at least {least} needed"


def _unique_items(_, got, schema):
    seen, repeated = [], None
    for item in got:
        if item in seen:
            repeated = item
            break
        seen.append(item)
    return f"{describe(repeated)} is listed more than once"


_FORMS = {"date": "date (YYYY-MM-DD, a real calendar day)", "uri": "http or https address"}


def _bound(words):
    return lambda limit, got, schema: f"must be {words} {limit}, got {describe(got)}"


_WORDING = {
    "type": _type,
    "enum": _enum,
    "const": lambda value, got, schema: f"must be {value!r}, got {describe(got)}",
    "pattern": _pattern,
    "minLength": _min_length,
    "maxLength": lambda most, got, schema: f"text is {len(got)} characters; at most {most}",
    "minimum": _bound("at least"),
    "exclusiveMinimum": _bound("greater than"),
    "maximum": _bound("at most"),
    "exclusiveMaximum": _bound("less than"),
    "not": _not,
    "maxItems": lambda most, got, schema: f"the list has {len(got)} item(s); at most {most}",
    "maxProperties": lambda most, got, schema: f"{len(got)} entries; at most {most}",
    "minItems": _min_items,
    "uniqueItems": _unique_items,
    "format": lambda form, got, schema: f"{describe(got)} is not a valid {_FORMS.get(form, form)}",
}
