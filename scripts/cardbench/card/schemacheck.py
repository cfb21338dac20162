"""A quick yes/no check of a card against the JSON Schema, compiled once into plain Python functions.

jsonschema walks the schema afresh for every value it checks; with thousands of cards that walk is
most of the time `cardbench aggregate` spends. compile_schema() turns the schema into nested
closures that answer only "valid or not", with jsonschema's own meaning of every keyword it
accepts (its equality for enum, const and uniqueItems, its format checker). It refuses a schema
with any other keyword (UnsupportedSchema), so a keyword added to the schema later is never
silently skipped. Only a card it calls valid skips jsonschema; for any other card jsonschema runs
and its messages are the ones reported.
"""

import operator
import re

import jsonschema
from jsonschema._utils import equal as _json_equal  # jsonschema's equality: true is not 1, 1 is 1.0

from .walk import is_number

ANNOTATIONS = {"$schema", "$id", "$comment", "title", "description", "default", "examples"}
SUPPORTED = ANNOTATIONS | {"type", "properties", "required", "additionalProperties", "items", "enum", "const",
                           "minLength", "maxLength", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum",
                           "pattern", "format", "minItems", "maxItems", "uniqueItems", "minProperties",
                           "maxProperties", "propertyNames", "not"}


class UnsupportedSchema(ValueError):
    """The schema uses a keyword the quick check does not implement."""


_TYPES = {
    "string": lambda v: isinstance(v, str),
    "number": is_number,
    "integer": lambda v: (isinstance(v, int) and not isinstance(v, bool)) or (isinstance(v, float) and v.is_integer()),
    "boolean": lambda v: isinstance(v, bool),
    "array": lambda v: isinstance(v, list),
    "object": lambda v: isinstance(v, dict),
    "null": lambda v: v is None,
}


def compile_schema(schema, format_checker=None, where="#"):
    """A function instance -> bool for `schema` (a dict, or a boolean schema)."""
    if schema is True:
        return lambda value: True
    if schema is False:
        return lambda value: False
    if not isinstance(schema, dict):
        raise UnsupportedSchema(f"{where}: a schema is a mapping or a boolean")
    unknown = set(schema) - SUPPORTED
    if unknown:
        raise UnsupportedSchema(f"{where}: keyword(s) {', '.join(sorted(unknown))} not supported")
    checks = []

    if "type" in schema:
        names = schema["type"] if isinstance(schema["type"], list) else [schema["type"]]
        tests = [_TYPES[name] for name in names]
        checks.append(lambda v, tests=tests: any(test(v) for test in tests))
    if "enum" in schema:
        options = list(schema["enum"])
        checks.append(lambda v: any(_json_equal(v, option) for option in options))
    if "const" in schema:
        checks.append(lambda v, const=schema["const"]: _json_equal(v, const))
    if "not" in schema:
        forbidden = compile_schema(schema["not"], format_checker, where + "/not")
        checks.append(lambda v: not forbidden(v))

    # text
    low, high = schema.get("minLength"), schema.get("maxLength")
    pattern = re.compile(schema["pattern"]).search if "pattern" in schema else None
    if low is not None or high is not None or pattern:
        def text(v):
            if not isinstance(v, str):
                return True
            if (low is not None and len(v) < low) or (high is not None and len(v) > high):
                return False
            return pattern is None or pattern(v) is not None
        checks.append(text)
    if "format" in schema and format_checker is not None:
        checks.append(lambda v, form=schema["format"]: format_checker.conforms(v, form))

    # numbers
    bounds = [(compare, schema[key]) for key, compare in (("minimum", operator.ge), ("maximum", operator.le),
                                                          ("exclusiveMinimum", operator.gt),
                                                          ("exclusiveMaximum", operator.lt)) if key in schema]
    if bounds:
        checks.append(lambda v: not is_number(v) or all(compare(v, bound) for compare, bound in bounds))

    # lists
    each = compile_schema(schema["items"], format_checker, where + "/items") if "items" in schema else None
    fewest, most, unique = schema.get("minItems"), schema.get("maxItems"), schema.get("uniqueItems", False)
    if each or fewest is not None or most is not None or unique:
        def array(v):
            if not isinstance(v, list):
                return True
            if (fewest is not None and len(v) < fewest) or (most is not None and len(v) > most):
                return False
            if unique and any(_json_equal(a, b) for i, a in enumerate(v) for b in v[i + 1:]):
                return False
            return each is None or all(each(item) for item in v)
        checks.append(array)

    # mappings
    props = {key: compile_schema(sub, format_checker, f"{where}/properties/{key}")
             for key, sub in (schema.get("properties") or {}).items()}
    required = list(schema.get("required") or [])
    extra = schema.get("additionalProperties", True)
    extra_check = None if extra is True else compile_schema(extra, format_checker, where + "/additionalProperties")
    names = compile_schema(schema["propertyNames"], format_checker, where + "/propertyNames") \
        if "propertyNames" in schema else None
    least, most_keys = schema.get("minProperties"), schema.get("maxProperties")
    if props or required or extra_check or names or least is not None or most_keys is not None:
        def mapping(v):
            if not isinstance(v, dict):
                return True
            if (least is not None and len(v) < least) or (most_keys is not None and len(v) > most_keys):
                return False
            if names is not None and not all(names(key) for key in v):
                return False
            for key in required:
                if key not in v:
                    return False
            for key, item in v.items():
                check = props.get(key, extra_check)
                if check is not None and not check(item):
                    return False
            return True
        checks.append(mapping)

    if len(checks) == 1:
        return checks[0]
    return lambda value: all(check(value) for check in checks)


def quick_check(schema):
    """compile_schema with jsonschema's format checker, as schema_validator() checks formats."""
    return compile_schema(schema, jsonschema.FormatChecker())


__all__ = ["compile_schema", "quick_check", "UnsupportedSchema", "SUPPORTED"]
