"""The build cache's snapshot and journal (publish/build_cache.py): a build that checks a few cards writes only
the journal; a later build, in a new process, reads both and reuses every unchanged card; a journal beside
another snapshot is never applied."""

import json

import pytest

from cardbench.bench.synth import card_data, card_text, slug_for, write_cards
from cardbench.card.checks.validate import card_paths
from cardbench.publish import build_cache
from cardbench.publish.build_cache import journal_path_for
from cardbench.publish.incremental import SiteDataBuilder


@pytest.fixture
def project(tmp_path):
    cards_dir = tmp_path / "cards"
    write_cards(cards_dir, 4)
    out, cache = tmp_path / "out", tmp_path / "out.cache.json"

    def build():  # a new builder each time, as a new `cardbench aggregate` process has
        return SiteDataBuilder(cards_dir, out, cache, workers=1).build(card_paths(cards_dir))

    build()
    return cards_dir, cache, build


def change(cards_dir, index):
    data = card_data(index)
    data["sessions"][0]["results"][0]["runs"][0] += 1
    (cards_dir / f"{slug_for(index)}.yaml").write_text(card_text(data), encoding="utf-8")


def test_one_changed_card_goes_to_the_journal_and_the_next_build_reuses_it(project):
    cards_dir, cache, build = project
    snapshot = cache.read_bytes()
    change(cards_dir, 1)
    assert build().checked == 1
    assert cache.read_bytes() == snapshot  # the snapshot is not written again
    journal = json.loads(journal_path_for(cache).read_text(encoding="utf-8"))
    assert list(journal["entries"]) == [f"{slug_for(1)}.yaml"]
    assert journal["token"] == json.loads(snapshot)["token"]
    again = build()
    assert (again.checked, again.reused) == (0, 4)


def test_a_removed_card_is_journaled_as_gone(project):
    cards_dir, cache, build = project
    (cards_dir / f"{slug_for(2)}.yaml").unlink()
    assert build().cards == 3
    journal = json.loads(journal_path_for(cache).read_text(encoding="utf-8"))
    assert journal["entries"] == {f"{slug_for(2)}.yaml": None}
    write_cards(cards_dir, 1, start=2)  # back again: checked, not taken from a forgotten entry
    assert build().checked == 1


def test_a_journal_beside_another_snapshot_is_not_applied(project):
    cards_dir, cache, build = project
    change(cards_dir, 1)
    build()
    saved = json.loads(cache.read_text(encoding="utf-8"))
    saved["token"] = "0" * 16  # as a snapshot written after the journal was, or restored from elsewhere
    cache.write_text(json.dumps(saved), encoding="utf-8")
    result = build()
    assert (result.checked, result.reused) == (1, 3)  # the changed card is checked again, not taken from the journal


def test_past_its_limit_the_journal_becomes_a_new_snapshot(project, monkeypatch):
    cards_dir, cache, build = project
    monkeypatch.setattr(build_cache, "JOURNAL_LIMIT", 1)
    token = json.loads(cache.read_text(encoding="utf-8"))["token"]
    change(cards_dir, 1)
    build()
    assert journal_path_for(cache).exists()
    change(cards_dir, 2)
    build()
    assert not journal_path_for(cache).exists()
    assert json.loads(cache.read_text(encoding="utf-8"))["token"] != token
    assert (build().checked, build().reused) == (0, 4)


def test_an_unreadable_journal_is_only_a_slower_build(project):
    cards_dir, cache, build = project
    change(cards_dir, 1)
    build()
    journal_path_for(cache).write_text("{not json", encoding="utf-8")
    result = build()
    assert (result.checked, result.reused) == (1, 3)
