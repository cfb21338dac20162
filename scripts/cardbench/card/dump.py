"""Card data as YAML text in the house layout: a new card file, a session (placed into an existing file by
session_text.py), and single values for templates."""

import sys

import yaml

from .number_form import EXPONENT_NUMBER


class _BlockDumper(yaml.SafeDumper):
    """Block style for mappings, flow style for lists of plain numbers (runs stay on one line)."""

    def represent_list(self, data):
        flow = bool(data) and all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in data)
        return self.represent_sequence("tag:yaml.org,2002:seq", data, flow_style=flow)


_BlockDumper.add_representer(list, _BlockDumper.represent_list)
# Text the loader reads as a number (1e3) is written in quotes, so it reads back as text.
_BlockDumper.add_implicit_resolver("tag:yaml.org,2002:float", EXPONENT_NUMBER, list("-+0123456789"))


def dump_yaml(data):
    """YAML text in the house layout: key order kept, unicode as is, wide lines."""
    return yaml.dump(data, Dumper=_BlockDumper, sort_keys=False, allow_unicode=True, width=110,
                     default_flow_style=False)


def yaml_scalar(value):
    """One value as single-line YAML: text always double-quoted (escapes included), numbers and
    booleans plain, lists in flow style. For templates, where pasting text would be unsafe."""
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(yaml_scalar(item) for item in value) + "]"
    if value is None:
        return "null"
    if isinstance(value, str):
        text = yaml.safe_dump(value, default_style='"', allow_unicode=True, width=sys.maxsize)
    elif isinstance(value, (bool, int, float)):
        text = yaml.safe_dump(value, allow_unicode=True, width=sys.maxsize)
    else:
        raise TypeError(f"cannot write a {type(value).__name__} as a YAML scalar")
    text = text.strip()
    return text[:-4].rstrip() if text.endswith("\n...") else text


def new_card_text(card, header="# yaml-language-server: $schema=../schema/card.schema.json\n"):
    """Full text of a new card file."""
    return header + dump_yaml(card)
