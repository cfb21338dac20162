"""The build benchmark and the work it measures: synthetic cards, the fast YAML path, the cached
aggregation, and `cardbench bench` itself at a small size (no timed assertions)."""

import filecmp
import os
import shutil

import pytest

from cardbench.figures.aggregate import aggregate
from cardbench.bench import run_bench
from cardbench.bench.targets import summary_rows
from cardbench.bench.synth import card_data, card_text, slug_for, write_cards
from cardbench.publish.incremental import SiteDataBuilder, cache_path_for
from cardbench.figures.formatting import format_number, format_by_size
from cardbench.publish.site_files import write_outputs
from cardbench.publish.sitedata import parts_from_result
from cardbench.card.checks.validate import card_paths, validate_paths

from cachedbuild import cached_project
from conftest import ROOT

SHIPPED = ROOT / "data" / "cards"


def different_files(a, b):
    """Paths that differ between two folders (missing on either side or different bytes)."""
    cmp = filecmp.dircmp(a, b)
    out = []

    def walk(c, prefix):
        out.extend(prefix + name for name in c.left_only + c.right_only)
        _, mismatch, errors = filecmp.cmpfiles(c.left, c.right, c.common_files, shallow=False)
        out.extend(prefix + name for name in mismatch + errors)
        for name, sub in c.subdirs.items():
            walk(sub, prefix + name + "/")

    walk(cmp, "")
    return out


# --- synthetic cards ----------------------------------------------------------------------------

def test_synthetic_cards_are_valid_and_deterministic(tmp_path):
    paths = write_cards(tmp_path / "cards", 24)
    cards, findings = validate_paths(paths)
    assert [str(f) for f in findings if f.severity == "error"] == []
    assert [str(f) for f in findings] == []  # not even warnings: figures stay below the bus ceilings
    assert len(cards) == 24
    assert card_text(card_data(7)) == paths[7].read_text(encoding="utf-8")
    assert card_text(card_data(7, seed=1)) != card_text(card_data(7))
    card = cards[0].data
    fio = [s for s in card["sessions"] if s.get("results")]
    assert len(fio) == 2 and all(len(r["runs"]) == 10 for s in fio for r in s["results"])
    assert {len(s["results"]) for s in fio} <= {8, 12}
    device = card["sessions"][2]
    assert device["dd"] and device["dd_sweeps"] and len(device["flashbench_open_au"]) == 4


# --- number formatting as Hugo's lang.FormatNumber ------------------------------------------------

@pytest.mark.parametrize("value, digits, text", [
    (818.5, 0, "819"), (0.235, 2, "0.24"), (1234.5, 0, "1,235"), (12.25, 1, "12.3"), (-2.5, 0, "-3"),
    (1970, 0, "1,970"), (0.1, 2, "0.10"),
])
def test_numbers_round_half_away_from_zero_like_hugo(value, digits, text):
    assert format_number(value, digits) == text


def test_figures_keep_three_significant_places():
    assert [format_by_size(v) for v in (None, 745.26, 74.526, 7.4526)] == ["–", "745", "74.5", "7.45"]


# --- cached aggregation -------------------------------------------------------------------------

def test_cached_aggregation_writes_what_a_full_aggregation_writes(tmp_path):
    paths = card_paths(SHIPPED)
    cards, findings = validate_paths(paths)
    write_outputs(aggregate([c.data for c in cards]), tmp_path / "full", {c.data["slug"]: c.text for c in cards})
    builder = SiteDataBuilder(SHIPPED, tmp_path / "cached", tmp_path / "cached.cache.json", workers=1)
    first = builder.build(paths)
    assert [str(f) for f in first.findings] == [str(f) for f in findings]
    assert (first.cards, first.checked, first.reused) == (len(cards), len(paths), 0)
    assert different_files(tmp_path / "full", tmp_path / "cached") == []
    again = SiteDataBuilder(SHIPPED, tmp_path / "cached", tmp_path / "cached.cache.json", workers=1).build(paths)
    assert (again.checked, again.reused, again.written) == (0, len(paths), 0)
    assert [str(f) for f in again.findings] == [str(f) for f in findings]


def test_cache_follows_changed_touched_added_and_removed_cards(tmp_path):
    cards_dir, out, cache, build = cached_project(tmp_path, 6)

    assert build().checked == 6
    touched = cards_dir / f"{slug_for(1)}.yaml"
    os.utime(touched, ns=(1, 1))  # same bytes, other time: reused by its hash
    assert (build().checked, build().reused) == (0, 6)
    data = card_data(2)
    data["sessions"][0]["results"][0]["runs"][0] += 1
    (cards_dir / f"{slug_for(2)}.yaml").write_text(card_text(data), encoding="utf-8")
    (cards_dir / f"{slug_for(3)}.yaml").unlink()
    write_cards(cards_dir, 1, start=6)
    result = build()
    assert (result.checked, result.reused, result.cards) == (2, 4, 6)
    assert not (out / "static" / "cards" / slug_for(3)).exists() and (out / "pages" / f"{slug_for(6)}.html").exists()
    assert (out / "static" / "cards" / slug_for(6) / "index.json").is_file()
    reference = tmp_path / "reference"
    cards, _ = validate_paths(card_paths(cards_dir))
    write_outputs(aggregate([c.data for c in cards]), reference, {c.data["slug"]: c.text for c in cards})
    assert different_files(reference, out) == []


@pytest.mark.parametrize("gone", ["runs.csv", "charts.json", "index.json", "the card's folder"])
def test_a_card_whose_served_file_is_gone_is_checked_again_and_its_file_restored(tmp_path, gone):
    cards_dir, out, cache, build = cached_project(tmp_path, 3)

    build()
    reference = tmp_path / "reference"
    shutil.copytree(out, reference)
    folder = out / "static" / "cards" / slug_for(1)
    if gone.endswith("folder"):
        shutil.rmtree(folder)
    else:
        (folder / gone).unlink()
    result = build()
    assert (result.checked, result.reused) == (1, 2)
    assert different_files(reference, out) == []


def test_an_unchanged_build_leaves_the_shared_files_and_the_cache_alone_until_one_is_touched(tmp_path, monkeypatch):
    from cardbench.publish import build_cache, site_files, sitedata

    cards_dir, out, cache, build = cached_project(tmp_path, 3)

    build()
    reference = tmp_path / "reference"
    shutil.copytree(out, reference)
    texts = []
    monkeypatch.setattr(site_files, "site_texts", lambda parts: texts.append(1) or sitedata.site_texts(parts))
    cache_time = cache.stat().st_mtime_ns
    assert (build().checked, build().written) == (0, 0) and texts == [] and cache.stat().st_mtime_ns == cache_time
    (out / "site" / "leaderboard.html").write_text("edited by hand", encoding="utf-8")
    (out / sitedata.CATALOGUE).unlink()
    assert build().written == 2 and texts == [1]  # a shared file changed or gone: all made again, those two written
    assert different_files(reference, out) == []
    assert build_cache.cache_bytes({"n": 2 ** 70}) == b'{"n":1180591620717411303424}'  # past orjson's 64 bits


def test_every_shared_file_is_one_the_unchanged_build_checks():
    from cardbench.publish.sitedata import SITE_TEXT_FILES, site_texts

    cards_dir = SHIPPED
    cards, _ = validate_paths(card_paths(cards_dir)[:3])
    parts = [p for p, _ in parts_from_result(aggregate([c.data for c in cards]))]
    assert list(site_texts(parts)) == list(SITE_TEXT_FILES)


def test_a_card_with_an_error_stops_the_cached_build_too(tmp_path):
    cards_dir = tmp_path / "cards"
    write_cards(cards_dir, 3)
    out = tmp_path / "out"
    builder = SiteDataBuilder(cards_dir, out, tmp_path / "cache.json", workers=1)
    builder.build(card_paths(cards_dir))
    before = (out / "site" / "leaderboard.json").read_text(encoding="utf-8")
    (cards_dir / "broken-card.yaml").write_text("slug: broken-card\nbrand: [oops\n", encoding="utf-8")
    result = builder.build(card_paths(cards_dir))
    assert result.errors and result.written == 0
    assert any("broken-card.yaml:" in str(f) for f in result.findings)
    assert (out / "site" / "leaderboard.json").read_text(encoding="utf-8") == before


def test_cache_outlives_the_day_but_not_a_date_verdict(tmp_path):
    import datetime

    cards_dir = tmp_path / "cards"
    write_cards(cards_dir, 3)
    day = datetime.date(2026, 11, 21)
    out = tmp_path / "out"
    cache = cache_path_for(out)

    def build(today):
        return SiteDataBuilder(cards_dir, out, cache, workers=1).build(card_paths(cards_dir), today=today)

    assert build(day).checked == 3
    assert build(day + datetime.timedelta(days=30)).checked == 0  # a later day: nothing to read again
    data = card_data(1)
    data["sessions"][0]["date"] = (day + datetime.timedelta(days=3)).isoformat()  # beyond the day of slack
    (cards_dir / f"{slug_for(1)}.yaml").write_text(card_text(data), encoding="utf-8")
    failed = build(day)
    assert [f.error.rule for f in failed.findings] == ["date-not-future"] and failed.written == 0
    later = build(day + datetime.timedelta(days=2))  # only the card the date rule failed is read again
    assert (later.checked, later.reused, later.errors, later.cards) == (1, 2, 0, 3)
    assert build(day + datetime.timedelta(days=3)).checked == 0
    assert build(day).checked == 1  # a clock set back: the card last checked on a later day is read again


def test_worker_processes_give_the_same_result(tmp_path, monkeypatch):
    import cardbench.publish.incremental as incremental

    monkeypatch.setattr(incremental, "PARALLEL_FROM", 2)
    monkeypatch.setattr(incremental, "CHUNK", 3)
    cards_dir = tmp_path / "cards"
    write_cards(cards_dir, 8)
    one = SiteDataBuilder(cards_dir, tmp_path / "one", workers=1).build(card_paths(cards_dir))
    two = SiteDataBuilder(cards_dir, tmp_path / "two", workers=2).build(card_paths(cards_dir))
    assert (one.cards, two.cards) == (8, 8)
    assert different_files(tmp_path / "one", tmp_path / "two") == []


def test_chunks_keep_the_order_and_shrink_towards_the_end():
    from cardbench.publish.incremental import CHUNK, LAST_CHUNK, chunked

    paths = list(range(30 * CHUNK + 7))
    sizes = [len(chunk) for chunk in chunked(paths, 2)]
    assert [p for chunk in chunked(paths, 2) for p in chunk] == paths
    assert sizes[0] == CHUNK and max(sizes) == CHUNK and sizes == sorted(sizes, reverse=True)
    assert sizes[-2] == LAST_CHUNK and sizes[-1] <= LAST_CHUNK


# --- the benchmark itself -----------------------------------------------------------------------

def test_bench_runs_at_a_small_size_and_reports_every_figure(tmp_path):
    report = tmp_path / "benchmarks.md"
    browser = bool(shutil.which("chromium") or os.path.exists("/usr/bin/chromium"))
    results = run_bench(20, report, work_dir=tmp_path, quick=True, browser=browser)
    text = report.read_text(encoding="utf-8")
    assert "at 20 cards" in text and "## Machine" in text and "Load average" in text
    rows = {what: (measured, target) for what, measured, target, _ in summary_rows(results)}
    for what in ("Aggregation, unchanged cards (cached)", "Aggregation, every card (no cache)",
                 "Full build (Hugo, then the files placed after it) ÷ plain-page floor",
                 "Preview: new card file → its page served",
                 "Card page, everything it loads (gzip)", "First chart drawn, card page",
                 "First chart drawn, comparison page", "Collector wall ÷ (bytes moved ÷ throttle)"):
        assert what in rows and what in text
    # the new card's page is served, and an edited card's page shows the edit (its version in the card index)
    assert results["preview"].failed is None and len(results["preview"].rebuilds) == len(results["preview"].edits) == 1
    assert results["aggregate"]["warm"].ok and results["build"]["site"].ok
    assert "not measured yet" in rows["Collector wall ÷ (bytes moved ÷ throttle)"][0]
    # the YAML parser's own share, beside the steps
    assert set(results["parser_floor"]) == {"libyaml's parse events"}
    assert "for reference, within the first step: libyaml's parse events" in text
    if browser:
        compare = results["browser"]["compare"]
        assert len(compare["fetched"]) <= results["compare_chosen"]  # only the chosen cards' data
        board = results["leaderboard"]
        assert board["rows"] == 20 and not board["errors"]
        assert board["steps"]["every filter cleared"]["count"].startswith("Showing all 20 cards")
        assert board["steps"]["bus filter"]["count"] != board["steps"]["every filter cleared"]["count"]
        assert any(what.startswith("Leaderboard: a filter, search or sort shown") for what in rows)
    assert results["previews"]["images"] == 20 and "### Link-preview images" in text
    assert sorted(p.name for p in tmp_path.iterdir()) == ["benchmarks.md"]  # the project copy is gone


def test_step_timings_pace_the_collector_as_the_build_workers_do(tmp_path, monkeypatch):
    import gc

    import cardbench.bench.phases as phases
    from cardbench.publish.incremental import WORKER_GC_THRESHOLD

    seen = []
    monkeypatch.setattr(phases, "_time_phases", lambda *args: seen.append(gc.get_threshold()) or {})
    before = gc.get_threshold()
    phases.time_phases(tmp_path, tmp_path)
    assert seen == [WORKER_GC_THRESHOLD] and gc.get_threshold() == before
