"""Card files written by the build's worker processes into a staging folder beside the output folder and
renamed into place only when the build has no error; a killed build's staging folder removed later."""

import os
import subprocess
import sys

import pytest

import cardbench.publish.incremental as incremental
from cardbench.bench.synth import slug_for, write_cards
from cardbench.card.checks.validate import card_paths
from cardbench.publish.incremental import SiteDataBuilder
from cardbench.publish.staging import remove_stale_staging, staging_dir_for


@pytest.fixture
def in_workers(monkeypatch):
    """Few cards checked in two worker processes, as thousands are."""
    monkeypatch.setattr(incremental, "PARALLEL_FROM", 2)
    monkeypatch.setattr(incremental, "CHUNK", 2)


def ended_pid():
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def siblings(folder):
    return sorted(name for name in os.listdir(folder.parent) if ".staging-" in name)


def card_files(out):
    """(inode, mtime) of every file under out."""
    return {os.path.join(top, name): (os.stat(os.path.join(top, name)).st_ino,
                                      os.stat(os.path.join(top, name)).st_mtime_ns)
            for top, _, names in os.walk(out) for name in names}


def test_workers_place_the_card_files_and_leave_no_staging(tmp_path, in_workers):
    cards_dir = tmp_path / "cards"
    write_cards(cards_dir, 5)
    out = tmp_path / "out"
    result = SiteDataBuilder(cards_dir, out, workers=2).build(card_paths(cards_dir))
    assert result.cards == 5 and not result.errors
    assert (out / "static" / "cards" / slug_for(4) / "charts.json").is_file()
    assert (out / "static" / "data" / "cards" / f"{slug_for(4)}.yaml").read_bytes() == \
        (cards_dir / f"{slug_for(4)}.yaml").read_bytes()
    assert siblings(out) == []


def test_unchanged_card_files_are_not_rewritten_by_the_workers(tmp_path, in_workers):
    cards_dir = tmp_path / "cards"
    write_cards(cards_dir, 4)
    out = tmp_path / "out"
    SiteDataBuilder(cards_dir, out, workers=2).build(card_paths(cards_dir))
    before = card_files(out)
    again = SiteDataBuilder(cards_dir, out, workers=2).build(card_paths(cards_dir))  # no cache: every card again
    assert again.checked == 4 and again.written == 0
    assert card_files(out) == before


def test_nothing_is_written_when_a_card_checked_in_a_worker_has_an_error(tmp_path, in_workers):
    cards_dir = tmp_path / "cards"
    write_cards(cards_dir, 4)
    (cards_dir / "broken-card.yaml").write_text("slug: broken-card\nbrand: [oops\n", encoding="utf-8")
    out = tmp_path / "site" / "out"
    result = SiteDataBuilder(cards_dir, out, workers=2).build(card_paths(cards_dir))
    assert result.errors and result.written == 0
    assert not out.exists() and siblings(out) == []


def test_a_killed_builds_staging_folder_is_removed_by_the_next_build(tmp_path, in_workers):
    cards_dir = tmp_path / "cards"
    write_cards(cards_dir, 3)
    out = tmp_path / "out"
    killed = staging_dir_for(out, ended_pid())
    (killed / "pages").mkdir(parents=True)
    (killed / "pages" / "half.html").write_text("<p>half", encoding="utf-8")
    running = staging_dir_for(out, os.getppid())  # a build still running: left alone
    running.mkdir()
    own = staging_dir_for(out, os.getpid())  # a killed build's whose process id this process now has
    own.mkdir()
    other = staging_dir_for(tmp_path / "other-out", ended_pid())  # another output folder's: not this build's
    other.mkdir()
    SiteDataBuilder(cards_dir, out, workers=1).build(card_paths(cards_dir))
    assert not killed.exists() and not own.exists() and other.exists() and running.exists()
    running.rmdir()
    assert remove_stale_staging(tmp_path / "other-out") == [other]
