"""Where a card's first check goes: each step of `cardbench aggregate` timed on a sample of cards,
in one process, in the order the build runs them."""

import datetime
import gc
import time
from pathlib import Path

from ..core.units import ms_from_s
from ..figures.aggregate import aggregate
from ..publish.incremental import WORKER_GC_THRESHOLD
from ..card.load import load_card
from ..publish.sitedata import parts_from_result
from ..card.checks.rules import rule_findings
from ..card.checks.schema_findings import schema_findings

PHASES = ["read and parse the YAML", "JSON Schema", "rules", "statistics (pandas)", "page data and JSON texts"]


def time_phases(cards_dir, data_dir, sample=200):
    """{phase: milliseconds per card} over the first `sample` card files of a folder, with the cyclic
    collector paced as in the build's worker processes (incremental.WORKER_GC_THRESHOLD)."""
    threshold = gc.get_threshold()
    gc.set_threshold(*WORKER_GC_THRESHOLD)
    try:
        return _time_phases(cards_dir, data_dir, sample)
    finally:
        gc.set_threshold(*threshold)


def _time_phases(cards_dir, data_dir, sample):
    paths = sorted(Path(cards_dir).glob("*.yaml"))[:sample]
    today = datetime.date.today()
    clock = time.perf_counter
    spent = dict.fromkeys(PHASES, 0.0)
    start = clock()
    cards = [load_card(p) for p in paths]
    spent[PHASES[0]] = clock() - start
    start = clock()
    for card in cards:
        schema_findings(card)
    spent[PHASES[1]] = clock() - start
    start = clock()
    for card in cards:
        rule_findings(card, today=today, data_dir=data_dir)
    spent[PHASES[2]] = clock() - start
    start = clock()
    result = aggregate([c.data for c in cards])
    spent[PHASES[3]] = clock() - start
    start = clock()
    parts_from_result(result)
    spent[PHASES[4]] = clock() - start
    return {name: ms_from_s(seconds) / max(len(paths), 1) for name, seconds in spent.items()}


def parser_floor(cards_dir, sample=200):
    """{what: milliseconds per card} PyYAML's C parser (libyaml) takes over the first `sample` card files to emit
    their parse events, before any value is built: the floor under "read and parse the YAML"."""
    import yaml

    texts = [p.read_text(encoding="utf-8") for p in sorted(Path(cards_dir).glob("*.yaml"))[:sample]]
    start = time.perf_counter()
    for text in texts:
        for _ in yaml.parse(text, Loader=yaml.CSafeLoader):
            pass
    return {"libyaml's parse events": ms_from_s(time.perf_counter() - start) / max(len(texts), 1)}


__all__ = ["time_phases", "parser_floor", "PHASES"]
