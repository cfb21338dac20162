"""The preview writes a changed card's own files, and the card index, before it makes the shared lists again."""

import json

import cardbench.publish.cards_first as cards_first
import cardbench.publish.site_files as site_files
from cardbench.bench.synth import card_data, card_text, slug_for
from cardbench.publish.incremental import SiteDataBuilder, build_site_data, cache_path_for
from cardbench.publish.sitedata import page_version


def _project(tmp_path, count):
    cards, out = tmp_path / "cards", tmp_path / "out"
    cards.mkdir()
    for index in range(count):
        (cards / f"{slug_for(index)}.yaml").write_text(card_text(card_data(index)), encoding="utf-8")
    assert not build_site_data(cards, out, data_dir=tmp_path / "data").errors
    return cards, out


def _seen_when_lists_are_made(monkeypatch, read):
    """Calls read() at the moment the shared lists are made; returns what it saw each time."""
    seen, make_lists = [], site_files.site_texts

    def watching(parts):
        seen.append(read())
        return make_lists(parts)
    monkeypatch.setattr(site_files, "site_texts", watching)
    return seen


def test_an_edited_cards_page_is_in_place_before_the_lists_are_made(tmp_path, monkeypatch):
    cards, out = _project(tmp_path, 3)
    preview = SiteDataBuilder(cards, out, cache_path_for(out), tmp_path / "data", preview=True)
    assert not preview.build().errors
    page = out / "pages" / f"{slug_for(1)}.html"
    versions = json.loads((out / "data" / "cards.json").read_text(encoding="utf-8"))
    seen = _seen_when_lists_are_made(monkeypatch, lambda: page.read_text(encoding="utf-8"))
    data = card_data(1)
    data["notes"] = "Notes edited <while> the preview runs."
    (cards / f"{slug_for(1)}.yaml").write_text(card_text(data), encoding="utf-8")
    result = preview.build()
    assert not result.errors and (result.checked, result.reused) == (1, 2)
    assert "Notes edited &lt;while&gt; the preview runs." in seen[0]
    # the card index gives the edited page a new version (Hugo's server renders it again), the others theirs
    now = json.loads((out / "data" / "cards.json").read_text(encoding="utf-8"))
    assert [now[s]["version"] == versions[s]["version"] for s in map(slug_for, range(3))] == [True, False, True]
    assert now[slug_for(1)]["version"] == page_version(page.read_text(encoding="utf-8"))
    # the rest of the build is as a full build makes it
    full = tmp_path / "full"
    assert not build_site_data(cards, full, data_dir=tmp_path / "data").errors
    for name in ("site/leaderboard.html", "data/cards.json", f"pages/{slug_for(1)}.html",
                 f"static/cards/{slug_for(1)}/index.json"):
        assert (out / name).read_text(encoding="utf-8") == (full / name).read_text(encoding="utf-8"), name


def test_a_new_card_is_in_the_card_index_before_the_lists_are_made(tmp_path, monkeypatch):
    cards, out = _project(tmp_path, 2)
    preview = SiteDataBuilder(cards, out, cache_path_for(out), tmp_path / "data", preview=True)
    assert not preview.build().errors
    index = out / "data" / "cards.json"
    seen = _seen_when_lists_are_made(monkeypatch, lambda: (json.loads(index.read_text(encoding="utf-8")),
                                                           (out / "pages" / f"{slug_for(2)}.html").exists()))
    (cards / f"{slug_for(2)}.yaml").write_text(card_text(card_data(2)), encoding="utf-8")
    assert not preview.build().errors
    listed, page_there = seen[0]
    assert list(listed) == [slug_for(0), slug_for(1), slug_for(2)] and page_there


def test_a_card_with_an_error_writes_nothing_first(tmp_path, monkeypatch):
    cards, out = _project(tmp_path, 2)
    preview = SiteDataBuilder(cards, out, cache_path_for(out), tmp_path / "data", preview=True)
    assert not preview.build().errors
    page = out / "pages" / f"{slug_for(1)}.html"
    before = page.read_text(encoding="utf-8")
    seen = _seen_when_lists_are_made(monkeypatch, lambda: None)
    text = card_text(card_data(1)).replace("capacity_gb: ", "capacity_gb: -", 1)
    (cards / f"{slug_for(1)}.yaml").write_text(text, encoding="utf-8")
    assert preview.build().errors
    assert page.read_text(encoding="utf-8") == before and not seen  # nothing written, lists not made


def test_a_new_card_with_a_slug_taken_in_another_case_writes_nothing_first(tmp_path):
    cards, out = _project(tmp_path, 1)
    preview = SiteDataBuilder(cards, out, cache_path_for(out), tmp_path / "data", preview=True)
    assert not preview.build().errors
    twin = card_data(0)
    twin["slug"] = slug_for(0).upper()
    (cards / f"{twin['slug']}.yaml").write_text(card_text(twin), encoding="utf-8")
    assert preview.build().errors
    assert not (out / "pages" / f"{twin['slug']}.html").exists()
    assert list(json.loads((out / "data" / "cards.json").read_text(encoding="utf-8"))) == [slug_for(0)]


def test_the_serve_loop_gives_way_to_hugo_once_its_server_runs(tmp_path, monkeypatch):
    import shutil

    import cardbench.publish.serve as serve_module
    from cardbench.core.paths import ROOT

    root = tmp_path / "site"
    (root / "data" / "cards").mkdir(parents=True)
    shutil.copy(ROOT / "config.toml", root / "config.toml")
    (root / "data" / "cards" / f"{slug_for(0)}.yaml").write_text(card_text(card_data(0)), encoding="utf-8")
    events = []

    class Server:  # Hugo's server, ended at once
        returncode = 0

        def __init__(self, argv):
            events.append("server started")

        def poll(self):
            return 0

    monkeypatch.setattr(serve_module.subprocess, "Popen", Server)
    monkeypatch.setattr(serve_module.os, "nice", lambda step: events.append(f"nice +{step}"))
    assert serve_module.serve(root / "data" / "cards", root / "out", tmp_path / "hugo", root, events.append) == 0
    # after the fork: Hugo keeps its own
    assert events == ["server started", f"nice +{serve_module.SERVE_LOOP_NICENESS}"]


def test_the_lists_come_after_hugos_batch_of_the_new_cards_files(tmp_path, monkeypatch):
    """Hugo's server gathers changes for half a second: lists written in the same half second would be rebuilt
    with the new card's page, which would wait for them."""
    cards, out = _project(tmp_path, 1)
    preview = SiteDataBuilder(cards, out, cache_path_for(out), tmp_path / "data", preview=True)
    assert not preview.build().errors
    waits = []

    def sleep(seconds):
        index = json.loads((out / "data" / "cards.json").read_text(encoding="utf-8"))
        catalogue = (out / "site" / "cards.html").read_text(encoding="utf-8")
        waits.append((seconds, slug_for(1) in index, slug_for(1) in catalogue))
    monkeypatch.setattr(cards_first.time, "sleep", sleep)
    (cards / f"{slug_for(1)}.yaml").write_text(card_text(card_data(1)), encoding="utf-8")
    assert not preview.build().errors
    [(seconds, in_index, in_catalogue)] = waits
    assert 0 < seconds <= cards_first.LISTS_AFTER_S and in_index and not in_catalogue
    assert slug_for(1) in (out / "site" / "cards.html").read_text(encoding="utf-8")
    waits.clear()
    assert not preview.build().errors  # nothing changed: nothing written first, nothing to wait for
    assert not build_site_data(cards, tmp_path / "full", data_dir=tmp_path / "data").errors
    assert waits == []
