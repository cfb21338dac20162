"""The published results the site carries (data/sources/): every card made from a source is what
`cardbench sources` makes of the kept files today, every session names its source, and each source's
figures are the ones copied by hand from the source into this file."""

import shutil
from pathlib import Path

import pytest
import yaml

from cardbench.card.load import load_card
from cardbench.imports.sources import MANIFEST, check, read_manifests, rederive

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "data"
IMPORTS = read_manifests(DATA)
CITED = ("name", "author", "repository", "path", "commit", "url", "license")


def test_every_card_made_from_a_source_is_what_its_kept_files_give():
    assert check(DATA) == []


def test_every_source_is_cited_and_says_what_it_keeps():
    folders = sorted(p for p in (DATA / "sources").iterdir() if p.is_dir())
    assert folders
    for folder in folders:
        doc = yaml.safe_load((folder / MANIFEST).read_text(encoding="utf-8"))
        source = doc["source"]
        assert all(source.get(key) for key in CITED) or all(source.get(k) for k in ("name", "url", "read_on")), folder
        if source.get("commit"):
            assert source["commit"] in source["url"] and source["repository"] in source["url"], folder
        assert doc.get("kept"), f"{folder}: say what of the source is kept, and why"
        kept = {item.file for item in IMPORTS if item.source_dir == folder}
        assert kept == {p.name for p in folder.iterdir() if p.name != MANIFEST}, folder


def test_every_session_from_a_source_names_it():
    slugs = {item.slug() for item in IMPORTS}
    for slug in slugs:
        card = load_card(DATA / "cards" / f"{slug}.yaml").data
        from_sources = [s for s in card["sessions"] if (s.get("source") or {}).get("repository")
                        or (s.get("source") or {}).get("read_on")]
        assert from_sources, slug
        for session in from_sources:
            assert session.get("raw"), (slug, session["id"])


def session_of(slug, label):
    card = load_card(DATA / "cards" / f"{slug}.yaml").data
    [session] = [s for s in card["sessions"] if s["label"] == label]
    return session


def figure(session, test, kind="tool_results"):
    [entry] = [e for e in session[kind] if e["test"] == test]
    return entry


# Figures copied by hand from each source (its file at the commit its manifest names), with where they stand.
def test_bretmlw_official_raspberry_pi_card_review():
    # "# Amazon Basics 64GB CQ ON", row Read, column 4k (IOPS): "24.34 MB/s (6086)"
    read_4k = figure(session_of("amazon-basics-64gb-microsdxc", "Table, CQ ON"), "Read 4k")
    assert (read_4k["runs"], read_4k["iops"], read_4k["unit"]) == ([24.34], [6086], "MB/s")
    # "# Raspberry Pi 128GB CQ OFF", row Randwrite, column 16m (IOPS): "75.89 MB/s (4)"
    randwrite = figure(session_of("raspberry-pi-sd-card-128gb-microsdxc", "Table, CQ OFF"), "Randwrite 16m")
    assert (randwrite["runs"], randwrite["iops"]) == ([75.89], [4])
    # "#[Amazon Basics 64GB CQ ON]" runs 1-3: "Sequential write speed 73822 / 75134 / 74706 KB/sec" (KiB/s)
    speed_test = session_of("amazon-basics-64gb-microsdxc", "SD Card Speed Test, CQ ON")
    assert figure(speed_test, "seq-write")["runs"] == [73822, 75134, 74706]
    assert figure(speed_test, "seq-write")["unit"] == "KiB/s"
    # "#[Samsung PRO Plus 128GB CQ ON]" run 2: "Sequential write speed 24131 KB/sec"
    assert figure(session_of("samsung-pro-plus-128gb-microsdxc", "SD Card Speed Test, CQ ON"),
                  "seq-write")["runs"][1] == 24131


def test_a_parser_fix_reaches_every_card_from_a_source(tmp_path):
    """A changed kept file (standing in for a parser that now reads it otherwise) changes its card."""
    data = tmp_path / "data"
    shutil.copytree(DATA, data, ignore=shutil.ignore_patterns(".locks"))
    source = data / "sources" / "bretmlw-raspberry-pi-microsd-review"
    for other in (data / "sources").iterdir():  # the other sources' cards are re-derived by the test above
        if other.is_dir() and other != source:
            shutil.rmtree(other)
    kept = source / "official-raspberry-pi-microsd-card-review.md"
    kept.write_text(kept.read_text(encoding="utf-8").replace("24.34 MB/s (6086)", "24.35 MB/s (6088)"),
                    encoding="utf-8")
    rederive(data)
    session = [s for s in load_card(data / "cards" / "amazon-basics-64gb-microsdxc.yaml").data["sessions"]
               if s["label"] == "Table, CQ ON"][0]
    assert figure(session, "Read 4k")["runs"] == [24.35]
    seed = "lexar-play-pro-1tb-microsd-express.yaml"
    assert (data / "cards" / seed).read_bytes() == (DATA / "cards" / seed).read_bytes()


@pytest.mark.parametrize("item", IMPORTS, ids=lambda i: f"{i.source_dir.name}-{i.number}")
def test_every_import_reads_its_part_of_a_kept_file(item):
    assert item.text().strip()
