"""Every figure in the cards' JSON twins, to compare two builds: a change that moves code must
leave each of them as it was, and one that corrects a figure says which.

    python tests/twin_figures.py snapshot AGGREGATE_DIR OUT.json   every card's figures, with its YAML's sha256
    python tests/twin_figures.py compare A.json|DIR B.json|DIR      the figures that differ (exit 1 if any)

AGGREGATE_DIR is what `cardbench aggregate --out DIR` writes (its static/cards/<slug>/index.json are the twins).
A figure is every number in a twin, named by its path; items of a list are named by what they
hold (a session's id, a subtest's test and operation) so that a list reordered is not a change.
"""

import hashlib
import json
import math
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
NAMING_KEYS = ("id", "slug", "kind", "test", "op", "block_size", "name", "label", "path")
RELATIVE_TOLERANCE = 1e-9  # a sum taken in another order may differ in its last bits, never more


def _item_name(item, index):
    if isinstance(item, dict):
        parts = [f"{key}={item[key]}" for key in NAMING_KEYS if isinstance(item.get(key), (str, int)) and
                 not isinstance(item.get(key), bool)]
        if parts:
            return ",".join(parts)
    return str(index)


def figures(value, path=""):
    """{path: number} of every number (not a boolean) in a JSON value."""
    found = {}
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return found
    if isinstance(value, (int, float)):
        found[path] = value
    elif isinstance(value, dict):
        for key, item in value.items():
            found.update(figures(item, f"{path}/{key}"))
    elif isinstance(value, list):
        seen = {}
        for index, item in enumerate(value):
            name = _item_name(item, index)
            seen[name] = seen.get(name, 0) + 1
            if seen[name] > 1:
                name = f"{name}#{seen[name]}"
            found.update(figures(item, f"{path}[{name}]"))
    return found


def _twins(aggregate_dir):
    """(slug, path) of every JSON twin an aggregation wrote: static/cards/<slug>/index.json, as the site
    serves it, or cards/<slug>.json, where earlier versions wrote it."""
    served = sorted(aggregate_dir.glob("static/cards/*/index.json"))
    if served:
        return [(path.parent.name, path) for path in served]
    return [(path.stem, path) for path in sorted(aggregate_dir.glob("cards/*.json"))]


def snapshot(aggregate_dir, data_dir=None):
    """{slug: {"yaml_sha256", "figures"}} for every twin an aggregation wrote."""
    data_dir = Path(data_dir) if data_dir else ROOT / "data"
    cards = {}
    for slug, twin in _twins(Path(aggregate_dir)):
        card_file = data_dir / "cards" / f"{slug}.yaml"
        digest = hashlib.sha256(card_file.read_bytes()).hexdigest() if card_file.exists() else None
        cards[slug] = {"yaml_sha256": digest, "figures": figures(json.loads(twin.read_text(encoding="utf-8")))}
    return cards


def _same(a, b):
    if isinstance(a, float) or isinstance(b, float):
        return math.isclose(a, b, rel_tol=RELATIVE_TOLERANCE, abs_tol=1e-12)
    return a == b


def compare(before, after, only_unchanged_cards=True):
    """Lines naming each figure that differs, appears or disappears, card by card. With
    only_unchanged_cards, a card whose YAML changed between the two (or is in only one) is skipped."""
    lines = []
    for slug in sorted(set(before) & set(after)):
        old, new = before[slug], after[slug]
        if only_unchanged_cards and old["yaml_sha256"] != new["yaml_sha256"]:
            continue
        a, b = old["figures"], new["figures"]
        for path in sorted(set(a) | set(b)):
            if path not in b:
                lines.append(f"{slug}: {path}: {a[path]!r} is gone")
            elif path not in a:
                lines.append(f"{slug}: {path}: new figure {b[path]!r}")
            elif not _same(a[path], b[path]):
                lines.append(f"{slug}: {path}: {a[path]!r} became {b[path]!r}")
    return lines


def _load(argument):
    path = Path(argument)
    if path.is_dir():
        return snapshot(path)
    return json.loads(path.read_text(encoding="utf-8"))


def main(argv):
    if len(argv) == 3 and argv[0] == "snapshot":
        Path(argv[2]).write_text(json.dumps(snapshot(argv[1]), indent=1, sort_keys=True) + "\n", encoding="utf-8")
        return 0
    if len(argv) == 3 and argv[0] == "compare":
        lines = compare(_load(argv[1]), _load(argv[2]))
        print("\n".join(lines) if lines else "every figure is the same")
        return 1 if lines else 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
