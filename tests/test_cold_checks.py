"""Checking every card from scratch: the shortcuts it takes give what the plain definitions give."""

import datetime
import math
import random
import statistics

import numpy as np

import cardbench.publish.incremental as incremental
from cardbench.bench.synth import card_data, card_text
from cardbench.card.checks import rules
from cardbench.card.load import parse_card_text
from cardbench.figures.findings.stability import trend


def numpy_trend(runs):
    """Mann–Kendall z and Theil–Sen line over every pair of runs, with numpy."""
    values = np.asarray(runs, dtype=float)
    n = values.size
    i, j = np.triu_indices(n, 1)
    s = float(np.sign(values[j] - values[i]).sum())
    _, ties = np.unique(values, return_counts=True)
    variance = (n * (n - 1) * (2 * n + 5) - float(np.sum(ties * (ties - 1) * (2 * ties + 5)))) / 18.0
    z = 0.0 if variance <= 0 or s == 0 else (s - math.copysign(1, s)) / math.sqrt(variance)
    slope = statistics.median(((values[j] - values[i]) / (j - i)).tolist())
    first = statistics.median((values - slope * np.arange(n)).tolist())
    last = max(first + slope * (n - 1), 0.0)
    return z, (last / first - 1 if first > 0 else 0.0), first, last


def test_trend_gives_numpys_figures_to_the_last_bit():
    rng = random.Random(7)
    for case in range(3000):
        n = rng.randint(5, 14)
        pick = [lambda: round(rng.uniform(10, 900), rng.randint(0, 2)), lambda: rng.choice([744, 743, 745]),
                lambda: rng.gauss(50, 5), lambda: rng.choice([0, 0.0, -0.0, 1.5])][case % 4]
        runs = [pick() for _ in range(n)]
        if trend(runs) is not None:
            assert repr(trend(runs)) == repr(numpy_trend(runs)), runs


def test_rules_walk_a_cards_values_once(monkeypatch):
    walked = []
    original = rules.text_values

    def counting(value):
        walked.append(())
        return original(value)

    monkeypatch.setattr(rules, "text_values", counting)
    card = parse_card_text(card_text(card_data(1)), "synthetic-card-00001.yaml")
    rules.rule_findings(card, today=datetime.date(2030, 1, 1), data_dir="/nonexistent")
    assert walked == [()]


def test_worker_processes_collect_garbage_less_often(tmp_path, monkeypatch):
    made = {}

    class Pool:
        def __init__(self, **kwargs):
            made.update(kwargs)

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            return False

        def map(self, function, chunks):
            return [function(chunk) for chunk in chunks]

    monkeypatch.setattr(incremental, "ProcessPoolExecutor", Pool)
    monkeypatch.setattr(incremental, "PARALLEL_FROM", 1)
    builder = incremental.SiteDataBuilder(tmp_path, tmp_path / "out", workers=2)
    builder._check([tmp_path / "a.yaml", tmp_path / "b.yaml"], datetime.date(2030, 1, 1))
    assert made["initializer"] is incremental._worker_setup


def test_a_cards_run_figures_name_missing_ones_as_pandas_does():
    import pandas as pd

    from cardbench.figures.stats import _missing

    for value in (float("nan"), 1.5, 0.0, -0.0, float("inf"), None, pd.NA, np.float64("nan"), np.float64(2.0), 3):
        assert _missing(value) == bool(pd.isna(value)), value
