"""The build cache's snapshot and journal (publish/build_cache.py): a build that checks a few cards writes only
the journal; a later build, in a new process, reads both and reuses every unchanged card; a journal beside
another snapshot is never applied."""

import fcntl
import gc
import json
import weakref

import pytest

from cardbench.bench.synth import card_data, card_text, slug_for, write_cards
from cardbench.card.checks.validate import card_paths
from cardbench.publish import build_cache, incremental
from cardbench.publish.build_cache import journal_path_for
from cardbench.publish.incremental import SiteDataBuilder

from cachedbuild import cached_project


@pytest.fixture
def project(tmp_path):
    cards_dir, _, cache, build = cached_project(tmp_path, 4)
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
    # What it held is unknown, so the snapshot may not say what the card files hold: every card is checked.
    assert (result.checked, result.reused) == (4, 0)


def _files(folder):
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def _as_fresh(cards_dir, out):
    """Whether `out` holds exactly what a build without any cache makes of the cards as they are now."""
    fresh = out.with_name(out.name + "-fresh")
    SiteDataBuilder(cards_dir, fresh, None, workers=1).build(card_paths(cards_dir))
    return _files(out) == _files(fresh)


def test_a_card_changed_back_after_its_journal_is_lost_is_checked_again(project):
    cards_dir, cache, build = project
    change(cards_dir, 1)
    build()  # card 1's files now hold the changed figures
    journal_path_for(cache).write_bytes(journal_path_for(cache).read_bytes()[:40])  # truncated
    write_cards(cards_dir, 1, start=1)  # back as it was: same size and content as the snapshot's entry says
    assert build().checked == 4  # the snapshot no longer says what the card files hold
    assert _as_fresh(cards_dir, cache.with_name("out"))


def test_the_previews_changed_cards_are_not_taken_from_the_cache_by_the_next_build(project):
    cards_dir, cache, _ = project
    out = cache.with_name("out")
    preview = SiteDataBuilder(cards_dir, out, cache, workers=1, preview=True)
    preview.build()
    change(cards_dir, 1)
    preview.build(save=False)  # as `make serve` rebuilds: its cache kept in memory
    write_cards(cards_dir, 1, start=1)  # changed back while the preview is stopped
    result = SiteDataBuilder(cards_dir, out, cache, workers=1).build(card_paths(cards_dir))
    assert (result.checked, result.reused) == (1, 3)
    assert _as_fresh(cards_dir, out)


def test_card_files_written_for_another_environment_leave_no_cache_of_the_first(project, monkeypatch):
    cards_dir, cache, build = project
    out = cache.with_name("out")
    other = SiteDataBuilder(cards_dir, out, cache, workers=1)
    monkeypatch.setattr(incremental, "_environment", lambda *_: "other code")
    change(cards_dir, 1)
    other.build(card_paths(cards_dir), save=False)  # as a build stopped before it saves its cache
    monkeypatch.undo()
    write_cards(cards_dir, 1, start=1)
    assert build().checked == 4
    assert _as_fresh(cards_dir, out)


@pytest.mark.parametrize("journal_entries", [lambda name: {name: 5}, lambda name: [name],
                                             lambda name: {name: {"sig": [1, 2, 3]}}],
                         ids=["not a dict", "a list", "no findings"])
def test_a_journal_of_the_wrong_shape_is_only_a_slower_build(project, journal_entries):
    cards_dir, cache, build = project
    saved = json.loads(cache.read_text(encoding="utf-8"))
    token, environment = saved["token"], saved["environment"]
    journal_entries = journal_entries(f"{slug_for(1)}.yaml")
    journal_path_for(cache).write_text(json.dumps({"environment": environment, "token": token,
                                                   "entries": journal_entries, "shared": {}}), encoding="utf-8")
    result = build()
    assert (result.checked, result.errors) == (4, 0)


@pytest.mark.parametrize("field, value", [("entries", lambda entries: list(entries)),
                                          ("entries", lambda entries: {**entries, f"{slug_for(1)}.yaml": "y"}),
                                          ("shared", lambda shared: [1])],
                         ids=["entries a list", "an entry not a dict", "shared a list"])
def test_a_snapshot_of_the_wrong_shape_is_only_a_slower_build(project, field, value):
    cards_dir, cache, build = project
    saved = json.loads(cache.read_text(encoding="utf-8"))
    saved[field] = value(saved[field])
    cache.write_text(json.dumps(saved), encoding="utf-8")
    result = build()
    assert (result.checked, result.errors) == (4, 0)


class Cycle:
    def __init__(self):
        self.me = self


def test_what_a_cache_read_keeps_out_of_collections_is_collected_again_at_the_next_read(tmp_path):
    """The preview reads the cache again when its environment changes: objects that died meanwhile in cycles
    must not stay out of the collector's reach for good, or each read would keep more."""
    path = tmp_path / "c.json"
    path.write_text(json.dumps({"environment": "e", "token": "t", "entries": {}, "shared": {}}), encoding="utf-8")
    cycle = Cycle()
    died = weakref.ref(cycle)
    build_cache.CacheFile(path).load("e")
    del cycle
    gc.collect()
    build_cache.CacheFile(path).load("e")
    gc.collect()
    assert died() is None


@pytest.mark.parametrize("limit", [0, build_cache.JOURNAL_LIMIT], ids=["a new snapshot", "a new journal"])
def test_a_build_between_the_previews_builds_leaves_neither_stale(project, monkeypatch, limit):
    """`make site` run while `make serve` is running: each must see what the other wrote to the cache."""
    cards_dir, cache, build = project
    out = cache.with_name("out")
    preview = SiteDataBuilder(cards_dir, out, cache, workers=1, preview=True)
    preview.build()
    monkeypatch.setattr(build_cache, "JOURNAL_LIMIT", limit)
    change(cards_dir, 2)
    assert build().checked == 1  # card 2's files and entry now as changed
    monkeypatch.undo()
    write_cards(cards_dir, 1, start=2)  # card 2 back as it was, as the preview last saw it
    change(cards_dir, 1)
    assert preview.build(save=False).checked == 2  # card 2's files are not what the preview's entry says
    write_cards(cards_dir, 1, start=1)
    build()
    assert _as_fresh(cards_dir, out)


def test_a_build_holds_the_lock_of_its_output_folder_while_it_writes(project, monkeypatch):
    cards_dir, cache, build = project
    held = []

    def write_site_data(*args, **kwargs):
        with open(build_cache.lock_path_for(cache.with_name("out")), "a+") as other:
            try:
                fcntl.flock(other, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                held.append(True)
        return real(*args, **kwargs)

    real = incremental.write_site_data
    monkeypatch.setattr(incremental, "write_site_data", write_site_data)
    change(cards_dir, 1)
    build()
    assert held == [True]
