"""Every figure of the shipped cards' JSON twins is the one recorded in tests/fixtures/twin-figures.json.

Code that moves where a figure is computed must leave it as it was. A card whose YAML changed since
the record is not compared (its figures may rightly differ); when a figure is corrected on purpose,
record it again: `python tests/twin_figures.py snapshot DIR tests/fixtures/twin-figures.json` after
`cardbench aggregate --no-cache --out DIR`, and say which figure changed and why.
"""

import json
import os
import subprocess
import sys
from pathlib import Path

from twin_figures import compare, figures, snapshot

ROOT = Path(__file__).resolve().parents[1]
RECORD = ROOT / "tests" / "fixtures" / "twin-figures.json"


def test_every_figure_of_the_shipped_twins_is_as_recorded(tmp_path):
    out = tmp_path / "hugo-data"
    env = {**os.environ, "PYTHONPATH": str(ROOT / "scripts")}
    subprocess.run([sys.executable, "-m", "cardbench", "aggregate", "--no-cache", "--out", str(out)], cwd=ROOT, env=env,
                   check=True, capture_output=True)
    recorded = json.loads(RECORD.read_text(encoding="utf-8"))
    now = snapshot(out)
    compared = [slug for slug in recorded if slug in now and recorded[slug]["yaml_sha256"] == now[slug]["yaml_sha256"]]
    assert compared, "no shipped card is unchanged since the record: record it again"
    differences = compare(recorded, now)
    assert not differences, "\n".join(differences[:40])


def _card(runs, sha="a"):
    return {"yaml_sha256": sha, "figures": figures({"sessions": [{"id": "s", "subtests": [
        {"test": t, "op": op, "mean": sum(r) / len(r), "runs": r} for t, op, r in runs]}]})}


def test_a_reordered_list_is_no_change_and_a_changed_figure_is_named():
    before = {"c": _card([("seq", "read", [1.0, 2.0]), ("seq", "write", [3.0])])}
    reordered = {"c": _card([("seq", "write", [3.0]), ("seq", "read", [1.0, 2.0])])}
    assert compare(before, reordered) == []
    changed = {"c": _card([("seq", "read", [1.0, 2.5]), ("seq", "write", [3.0])])}
    lines = compare(before, changed)
    assert any("test=seq,op=read]/mean: 1.5 became 1.75" in line for line in lines), lines
    assert any("runs[1]: 2.0 became 2.5" in line for line in lines), lines


def test_a_card_whose_yaml_changed_is_not_compared_and_a_lost_figure_is_named():
    before = {"c": _card([("seq", "read", [1.0])]), "d": _card([("seq", "read", [1.0])])}
    after = {"c": _card([("seq", "read", [9.0])], sha="b"), "d": {"yaml_sha256": "a", "figures": {}}}
    lines = compare(before, after)
    assert lines and all(line.startswith("d: ") and "is gone" in line for line in lines), lines
