"""A quick yes/no check of a card against the JSON Schema, compiled once into plain Python.

jsonschema walks the schema afresh for every value it checks; with thousands of cards that walk is
most of the time `cardbench aggregate` spends. compile_schema() writes the schema out once as the
source of one Python function of straight-line tests (a loop per list, a guard per type) and runs
it, answering only "valid or not", with jsonschema's own meaning of every keyword it accepts (its
equality for enum, const and uniqueItems, its format checker). It refuses a schema with any other
keyword (UnsupportedSchema), so a keyword added to the schema later is never silently skipped. Only
a card it calls valid skips jsonschema; for any other card jsonschema runs and its messages are the
ones reported.

Why not fastjsonschema (2.22.3), which compiles schemas too: on the 135 shipped cards its yes/no took about
790 µs of CPU a card, this check 60 to 90 µs and jsonschema's full validation 1,770 µs (best of five passes).
Its code raises and catches an exception for every "not" a value passes, and it reads a pattern's "$" as the
end of the text only, where jsonschema (Python's re) also matches before a final newline.
"""

import math
import re
from collections.abc import Mapping

import jsonschema

ANNOTATIONS = {"$schema", "$id", "$comment", "title", "description", "default", "examples"}
SUPPORTED = ANNOTATIONS | {"type", "properties", "required", "additionalProperties", "items", "enum", "const",
                           "minLength", "maxLength", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum",
                           "pattern", "format", "minItems", "maxItems", "uniqueItems", "minProperties",
                           "maxProperties", "propertyNames", "not"}


class UnsupportedSchema(ValueError):
    """The schema uses a keyword the quick check does not implement."""


# Each JSON type as a Python test of the value named {v}: true and false are no numbers; 2.0 is an integer.
_TYPES = {
    "string": "isinstance({v}, str)",
    "number": "(isinstance({v}, (int, float)) and not isinstance({v}, bool))",
    "integer": "((isinstance({v}, int) and not isinstance({v}, bool))"
               " or (isinstance({v}, float) and {v}.is_integer()))",
    "boolean": "isinstance({v}, bool)",
    "array": "isinstance({v}, list)",
    "object": "isinstance({v}, dict)",
    "null": "{v} is None",
}
_GUARDS = {"string": "str", "array": "list", "object": "dict"}
_BOUNDS = (("minimum", ">="), ("maximum", "<="), ("exclusiveMinimum", ">"), ("exclusiveMaximum", "<"))
_MAX_DEPTH = 12  # nested blocks in one function (Python allows 20); deeper parts become functions of their own
_ABSENT = object()


def _json_equal(one, two):
    """Equality as jsonschema reads JSON (enum, const, uniqueItems): true is not 1, 1 is 1.0, lists and
    mappings item by item."""
    if one is two:
        return True
    if isinstance(one, str) or isinstance(two, str):
        return one == two
    if isinstance(one, (list, tuple)) and isinstance(two, (list, tuple)):
        return len(one) == len(two) and all(_json_equal(a, b) for a, b in zip(one, two))
    if isinstance(one, Mapping) and isinstance(two, Mapping):
        return len(one) == len(two) and all(key in two and _json_equal(value, two[key]) for key, value in one.items())
    if isinstance(one, bool) or isinstance(two, bool):
        return False  # true is not 1; two equal booleans are the same object, caught above
    return one == two


def _has_equal_items(items):
    return any(_json_equal(a, b) for i, a in enumerate(items) for b in items[i + 1:])


class _Source:
    """The lines of one generated function and the values its code names (_k0, _k1…)."""

    def __init__(self, format_checker):
        self.format_checker = format_checker
        self.lines, self.count = [], 0
        self.names = {"_eq": _json_equal, "_has_equal_items": _has_equal_items, "_ABSENT": _ABSENT}

    def value(self, value):
        if value.__class__ in (str, int) or (value.__class__ is float and math.isfinite(value)):
            return repr(value)  # a literal: read faster than a name
        name = f"_k{len(self.names)}"
        self.names[name] = value
        return name

    def variable(self):
        self.count += 1
        return f"v{self.count}"

    def add(self, depth, line):
        self.lines.append("    " * depth + line)


def _emit(src, schema, v, depth, where):
    """Lines that return False from the function when the value named `v` does not match `schema`."""
    if schema is True:
        return
    if schema is False:
        src.add(depth, "return False")
        return
    if not isinstance(schema, dict):
        raise UnsupportedSchema(f"{where}: a schema is a mapping or a boolean")
    unknown = set(schema) - SUPPORTED
    if unknown:
        raise UnsupportedSchema(f"{where}: keyword(s) {', '.join(sorted(unknown))} not supported")
    if depth >= _MAX_DEPTH:
        src.add(depth, f"if not {src.value(compile_schema(schema, src.format_checker, where))}({v}): return False")
        return
    known = None  # the one type the value has past the type test
    if "type" in schema:
        names = schema["type"] if isinstance(schema["type"], list) else [schema["type"]]
        src.add(depth, f"if not ({' or '.join(_TYPES[name].format(v=v) for name in names)}): return False")
        known = names[0] if len(names) == 1 else None
    if "enum" in schema:
        options = list(schema["enum"])
        if all(option.__class__ is str for option in options):  # the same verdict as _eq: text equals only text
            src.add(depth, f"if {v}.__class__ is str:")
            src.add(depth + 1, f"if {v} not in {src.value(frozenset(options))}: return False")
            src.add(depth, f"elif not any(_eq({v}, o) for o in {src.value(options)}): return False")
        else:
            src.add(depth, f"if not any(_eq({v}, o) for o in {src.value(options)}): return False")
    if "const" in schema:
        src.add(depth, f"if not _eq({v}, {src.value(schema['const'])}): return False")
    if "not" in schema:
        forbidden = compile_schema(schema["not"], src.format_checker, where + "/not")
        src.add(depth, f"if {src.value(forbidden)}({v}): return False")
    inner = _guarded(src, known, "string", v, depth)
    start = len(src.lines)
    if "minLength" in schema:
        src.add(inner, f"if len({v}) < {src.value(schema['minLength'])}: return False")
    if "maxLength" in schema:
        src.add(inner, f"if len({v}) > {src.value(schema['maxLength'])}: return False")
    if "pattern" in schema:
        src.add(inner, f"if {src.value(re.compile(schema['pattern']).search)}({v}) is None: return False")
    _close(src, start, inner > depth)
    if "format" in schema and src.format_checker is not None:
        src.add(depth, f"if not {src.value(src.format_checker)}.conforms({v}, {src.value(schema['format'])}):"
                       " return False")
    bounds = [(op, schema[key]) for key, op in _BOUNDS if key in schema]
    if bounds:
        test = " and ".join(f"{v} {op} {src.value(bound)}" for op, bound in bounds)
        if known in ("number", "integer"):  # the type test made sure it is a number
            src.add(depth, f"if not ({test}): return False")
        else:
            src.add(depth, f"if {_TYPES['number'].format(v=v)} and not ({test}): return False")
    _emit_array(src, schema, v, depth, where, _guarded(src, known, "array", v, depth))
    _emit_mapping(src, schema, v, depth, where, _guarded(src, known, "object", v, depth))


def _guarded(src, known, kind, v, depth):
    """Opens `if isinstance(v, <kind>):` unless the type test already made sure; returns the depth inside."""
    if known == kind:
        return depth
    src.add(depth, f"if isinstance({v}, {_GUARDS[kind]}):")
    return depth + 1


def _close(src, start, opened):
    """Drops a guard that got nothing inside it."""
    if opened and len(src.lines) == start:
        src.lines.pop()


def _emit_size(src, schema, v, inner, least, most):
    """The checks of a length bound pair (minItems/maxItems, minProperties/maxProperties)."""
    if least in schema:
        src.add(inner, f"if len({v}) < {src.value(schema[least])}: return False")
    if most in schema:
        src.add(inner, f"if len({v}) > {src.value(schema[most])}: return False")


def _emit_each(src, schema, collection, inner, where):
    """The checks of every element of `collection` (a list's items, a mapping's keys) against `schema`."""
    item = src.variable()
    src.add(inner, f"for {item} in {collection}:")
    loop = len(src.lines)
    _emit(src, schema, item, inner + 1, where)
    _close(src, loop, True)


def _emit_array(src, schema, v, depth, where, inner):
    start = len(src.lines)
    _emit_size(src, schema, v, inner, "minItems", "maxItems")
    if schema.get("uniqueItems", False):
        src.add(inner, f"if _has_equal_items({v}): return False")
    if "items" in schema:
        _emit_each(src, schema["items"], v, inner, where + "/items")
    _close(src, start, inner > depth)


def _emit_mapping(src, schema, v, depth, where, inner):
    # subschemas in the order the closures compiled them, so an unsupported keyword is reported at the same place
    start = len(src.lines)
    _emit_size(src, schema, v, inner, "minProperties", "maxProperties")
    properties = schema.get("properties") or {}
    required = list(schema.get("required") or [])
    if len(required) == 1:
        src.add(inner, f"if {src.value(required[0])} not in {v}: return False")
    elif required:
        src.add(inner, f"if not {v}.keys() >= {src.value(frozenset(required))}: return False")
    for name, sub in properties.items():
        item = src.variable()
        src.add(inner, f"{item} = {v}.get({src.value(name)}, _ABSENT)")
        src.add(inner, f"if {item} is not _ABSENT:")
        opened = len(src.lines)
        _emit(src, sub, item, inner + 1, f"{where}/properties/{name}")
        if len(src.lines) == opened:
            del src.lines[-2:]
    extra = schema.get("additionalProperties", True)
    if extra is False:
        src.add(inner, f"if not {src.value(frozenset(properties))}.issuperset({v}): return False")
    elif extra is not True:
        key, item = src.variable(), src.variable()
        src.add(inner, f"for {key}, {item} in {v}.items():")
        src.add(inner + 1, f"if {key} not in {src.value(frozenset(properties))}:")
        opened = len(src.lines)
        _emit(src, extra, item, inner + 2, where + "/additionalProperties")
        if len(src.lines) == opened:
            del src.lines[-2:]
    if "propertyNames" in schema:
        _emit_each(src, schema["propertyNames"], v, inner, where + "/propertyNames")
    _close(src, start, inner > depth)


def compile_schema(schema, format_checker=None, where="#"):
    """A function instance -> bool for `schema` (a dict, or a boolean schema)."""
    src = _Source(format_checker)
    _emit(src, schema, "v0", 1, where)
    code = "\n".join(["def check(v0):", *src.lines, "    return True"])
    namespace = dict(src.names)
    exec(compile(code, f"<schema {where}>", "exec"), namespace)  # noqa: S102 - source written above from the schema
    return namespace["check"]


def quick_check(schema):
    """compile_schema with jsonschema's format checker, as schema_validator() checks formats."""
    return compile_schema(schema, jsonschema.FormatChecker())


__all__ = ["compile_schema", "quick_check", "UnsupportedSchema", "SUPPORTED"]
