"""Shared test set-up: the repository root, the package on the import path, and small helpers."""

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))
sys.path.insert(0, str(ROOT / "tests"))


def field_paths(value, path=()):
    """Every field path of a nested structure of mappings and lists, the document itself first: (), ("a",), ("a", 0)…"""
    yield path
    if isinstance(value, dict):
        for key, item in value.items():
            yield from field_paths(item, path + (key,))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from field_paths(item, path + (index,))
