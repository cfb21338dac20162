"""The import corpus: tool outputs in the shapes people have them (tests/fixtures/import-corpus/).

Each case is imported through the command line as a new user would; it must either land with the
figures the tool measured, or be refused with a message that names the one thing to add or fix.
Across the corpus at least 9 in 10 must land."""

import json
import math
from pathlib import Path

import pytest

from cardbench.card.load import load_card

import cliimport

CORPUS = Path(__file__).parent / "fixtures" / "import-corpus"
CASES = sorted(CORPUS.glob("*/*.out"))
SLUG = "corpus-card"
NAME = "Corpus Card 64GB"
LANDING_SHARE = 0.9


def expected_of(path):
    return json.loads(path.with_suffix(".json").read_text(encoding="utf-8"))


def contains(actual, wanted, where="session"):
    """None when `wanted` is contained in `actual` (see the corpus README), else where they differ."""
    if isinstance(wanted, dict):
        if not isinstance(actual, dict):
            return f"{where}: expected a mapping, got {actual!r}"
        for key, value in wanted.items():
            if key not in actual:
                return f"{where}.{key}: missing (has {sorted(actual)})"
            problem = contains(actual[key], value, f"{where}.{key}")
            if problem:
                return problem
        return None
    if isinstance(wanted, list):
        if not isinstance(actual, list) or len(actual) != len(wanted):
            return f"{where}: expected {len(wanted)} items, got {actual!r}"
        for index, (a, w) in enumerate(zip(actual, wanted)):
            problem = contains(a, w, f"{where}[{index}]")
            if problem:
                return problem
        return None
    if isinstance(wanted, (int, float)) and not isinstance(wanted, bool) and isinstance(actual, (int, float)):
        return None if math.isclose(actual, wanted, rel_tol=5e-4, abs_tol=1e-9) else f"{where}: {actual} != {wanted}"
    return None if actual == wanted else f"{where}: {actual!r} != {wanted!r}"


def run_import(path, tmp_path, capsys):
    expected = expected_of(path)
    options = [f"--{key.replace('_', '-')}={value}" for key, value in (expected.get("options") or {}).items()]
    code, err, card_file = cliimport.run_import(path, tmp_path / "data" / "cards", capsys, NAME, SLUG, options)
    session = load_card(card_file).data["sessions"][-1] if code == 0 and card_file.exists() else None
    return code, err, session, expected


@pytest.mark.parametrize("path", CASES, ids=lambda p: p.stem)
def test_case_lands_or_says_what_to_add(path, tmp_path, capsys):
    code, err, session, expected = run_import(path, tmp_path, capsys)
    assert "Traceback" not in err
    if "refused" in expected:
        assert code == 2, f"imported, but the case expects a refusal: {err}"
        assert expected["refused"] in err, err
        assert not (tmp_path / "data" / "cards" / f"{SLUG}.yaml").exists()
        return
    assert code == 0, err
    assert f"import: {expected['format']}: " in err, err
    problem = contains(session, expected["session"])
    assert problem is None, problem


def test_nine_in_ten_land():
    """Of the outputs that hold a complete result (not cut off, not a run that failed), at least 9 in 10 land."""
    complete = [p for p in CASES if not expected_of(p).get("incomplete")]
    landing = [p for p in complete if "refused" not in expected_of(p)]
    assert len(landing) / len(complete) >= LANDING_SHARE, f"{len(landing)} of {len(complete)} complete cases land"
