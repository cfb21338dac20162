"""Findings from the stored runs: the seed cards as stored in data/cards, captured tool output, and
shapes built from the seeds' figures where no run is stored. Also where the data cannot support a
finding: then there is none."""

import copy
import json
from pathlib import Path

import numpy as np
import pytest
import yaml

from cardbench.parsers import card_entries
from cardbench.card.load import load_card
from cardbench.core.paths import CARDS_DIR
from cardbench.parsers.fio import bwlog as fio_bwlog
from cardbench.parsers import flashbench
from cardbench.figures.aggregate import aggregate
from cardbench.figures.classchecks import class_checks
from cardbench.figures.findings import card_findings
from cardbench.figures.findings.capacity import manufacturer_findings
from cardbench.figures.findings.devicefacts import read_device_facts
from cardbench.figures.findings.fill import fill_findings
from cardbench.figures.findings.flash import open_au_findings, scan_structure
from cardbench.figures.findings.signal_path import reader_findings
from cardbench.figures.findings.stability import cv_verdict, outliers, stability_findings
from cardbench.figures.stats import CardFigures

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = Path(__file__).parent / "fixtures"
MiB, GiB = 1024**2, 1024**3


def card(slug):
    # libyaml's safe loader: what yaml.safe_load reads, several times faster over every shipped card
    return yaml.load((ROOT / "data" / "cards" / f"{slug}.yaml").read_text(encoding="utf-8"), Loader=yaml.CSafeLoader)


def by_id(findings):
    out = {}
    for f in findings:
        out.setdefault(f["id"], []).append(f)
    return out


def align_scan(name):
    parsed = flashbench.parse_align((FIXTURES / "findings" / name).read_text(encoding="utf-8"))
    return card_entries.align_entry(parsed, block_size_bytes=1024, count=8, command="flashbench -a", raw=[])


def session_with(**fields):
    return {"id": "s1", "label": "Session", **fields}


# --- flash structure ---------------------------------------------------------------------------------

def test_lexar_16gb_erase_block_page_and_open_aus_as_its_reviewer_read_them():
    found = by_id(card_findings(card("lexar-class-10-16gb-microsdhc"))[0])
    assert [f["value"] for f in found["erase_block"]] == [4 * MiB]
    assert [f["value"] for f in found["page_size"]] == [4096]
    assert "1.34 ms from 4 MiB" in found["erase_block"][0]["basis"]
    for mode in ("sequential", "random"):
        (au,) = found[f"open_aus_{mode}"]
        assert (au["value"], au["at_least"], au["text"]) == (5, False, "5")
        assert "with 6 open it collapses" in au["basis"]


def test_sandisk_ultra_64gb_open_aus_are_lower_bounds_and_no_erase_block_without_a_scan():
    found = by_id(card_findings(card("sandisk-ultra-64gb-microsdxc"))[0])
    assert [(f["value"], f["at_least"], f["text"]) for f in found["open_aus_sequential"]] == [(32, True, "≥ 32")]
    assert [(f["value"], f["at_least"]) for f in found["open_aus_random"]] == [(64, True)]
    # The reviewer's 24 MiB comes from read timings the card file does not hold: no finding.
    assert "erase_block" not in found and "page_size" not in found


def test_diff_layout_scan_gives_page_and_erase_block():
    found, reason = scan_structure(align_scan("flashbench-align--erase-4m-page-16k.out"))
    assert reason is None and found["page_size"][0] == 16 * 1024 and found["erase_block"][0] == 4 * MiB


def test_a_scan_without_structure_gives_nothing():
    loop = align_scan("flashbench-align--loop-device.out")
    findings, notes = card_findings({"sessions": [session_with(flashbench_align=[loop])]})
    assert findings == [] and notes[0]["reason"].startswith("flashbench -a: no step")


def test_open_aus_cannot_be_told_from_a_sweep_stopped_after_its_first_row_or_collapsing_at_once():
    lexar = card("lexar-class-10-16gb-microsdhc")["sessions"][0]
    first_row = copy.deepcopy(lexar["flashbench_open_au"][2])  # 6 sequential, stopped early
    first_row["points"] = first_row["points"][:1]
    findings, notes = open_au_findings({"sessions": [session_with(flashbench_open_au=[first_row])]})
    assert findings == [] and "no sweep long enough" in notes[0]["reason"]
    collapsed = copy.deepcopy(lexar["flashbench_open_au"][2])
    both = session_with(flashbench_open_au=[collapsed], flashbench_find_fat=lexar["flashbench_find_fat"])
    findings, notes = open_au_findings({"sessions": [both]})
    assert findings == [] and "collapses already at 6" in notes[0]["reason"]


# --- sustained fill ------------------------------------------------------------------------------------

def fill_from_levels(levels, total_gb, seconds_per_point=1.0, noise=0.05, seed=1):
    """Throughput samples of a fill whose speed is levels[(from GB, MB/s)], each sample's bytes split
    exactly at a level change, with multiplicative noise."""
    rng = np.random.default_rng(seed)
    points, written, elapsed = [], 0.0, 0.0
    while written < total_gb * 1e9:
        start, left = written, seconds_per_point
        while left > 1e-9:
            rate = [r for gb, r in levels if written >= gb * 1e9][-1] * 1e6
            nxt = min([gb * 1e9 for gb, _ in levels if gb * 1e9 > written] + [total_gb * 1e9])
            step = min(left, (nxt - written) / rate)
            if step <= 0:
                break
            written += rate * step
            left -= step
        took = seconds_per_point - left
        if took <= 0:
            break
        elapsed += took
        value = (written - start) / took / 1e6 * (1 + rng.normal(0, noise))
        points.append({"written_gb": round(written / 1e9, 4), "value": round(value, 3), "seconds": round(elapsed, 3)})
    return {"op": "write", "unit": "MB/s", "points": points}


def test_sm2708_shape_cache_then_two_lower_speeds():
    # The review of the SM2708 reference design (seed 003) gives about 375 MB/s for a 5.5 GB SLC
    # cache, then 75 MB/s, then 30 MB/s; where the 30 MB/s region starts it does not say (60 GB here).
    fill = fill_from_levels([(0, 375), (5.5, 75), (60, 30)], total_gb=250, seconds_per_point=2.0)
    found = by_id(fill_findings({"sessions": [session_with(fill=[fill])]})[0])
    assert found["slc_cache"][0]["value"] == pytest.approx(5.5e9, rel=0.03)
    assert found["write_in_cache"][0]["value"] == pytest.approx(375, rel=0.03)
    assert found["write_after_cache"][0]["value"] == pytest.approx(75, rel=0.03)
    (later,) = found["write_later"]
    assert later["value"] == pytest.approx(30, rel=0.03) and later["from_bytes"] == pytest.approx(60e9, rel=0.02)


def test_the_sm2708_card_file_holds_no_fill_so_no_cache_finding():
    # Its 5.5 GB / 375 / 75 / 30 are the reviewer's summary, not stored runs.
    found = by_id(card_findings(card("silicon-motion-sm2708-reference-design-250gb-sd-express"))[0])
    assert not {"slc_cache", "write_after_cache", "sustained_write"} & set(found)


def test_captured_fill_log_of_an_emulated_1gib_cache():
    samples = fio_bwlog.parse((FIXTURES / "fio_bwlog" / "fio_bwlog--throttle-drop.out").read_text())["samples"]
    points = card_entries.fill_points(card_entries.bwlog_spans(samples, total_bytes=1476395008, total_seconds=44.813))
    found = by_id(fill_findings({"sessions": [session_with(fill=[{"op": "write", "unit": "MB/s",
                                                                      "points": points}])]})[0])
    assert found["slc_cache"][0]["value"] == pytest.approx(GiB, rel=0.15)
    assert found["write_after_cache"][0]["value"] == pytest.approx(15, rel=0.10)


def test_flat_and_unsteady_fills_show_no_cache():
    flat = fill_from_levels([(0, 40)], total_gb=16)
    found = by_id(fill_findings({"sessions": [session_with(fill=[flat])]})[0])
    assert set(found) == {"sustained_write"} and found["sustained_write"][0]["value"] == pytest.approx(40, rel=0.03)
    # The SM2708 in UHS-I mode (seed 003): writes swinging between about 10 and 62 MB/s.
    rng = np.random.default_rng(7)
    swings = [{"written_gb": round(0.05 * (i + 1), 4), "value": float(rng.uniform(10, 62))} for i in range(400)]
    found = by_id(fill_findings({"sessions": [session_with(fill=[{"op": "write", "unit": "MB/s",
                                                                      "points": swings}])]})[0])
    assert set(found) == {"sustained_write"} and "10–90 % of samples" in found["sustained_write"][0]["basis"]


def test_too_short_a_fill_gives_a_note_and_no_finding():
    short = {"op": "write", "unit": "MB/s", "points": [{"written_gb": i + 1, "value": 50} for i in range(4)]}
    findings, notes = fill_findings({"sessions": [session_with(fill=[short])]})
    assert findings == [] and "fewer than" in notes[0]["reason"]


# --- the reader's ceiling --------------------------------------------------------------------------------

def test_uhs_i_reads_at_the_bus_ceiling_of_a_card_rated_above_it_are_the_paths_limit():
    (f,) = reader_findings(card("sandisk-extreme-256gb-microsdxc"))[0]
    assert f["op"] == "read" and f["value"] == pytest.approx(86.26) and "rated 190 MB/s" in f["basis"]
    assert reader_findings(card("kodak-uhs-i-u3-v30-a1-64gb-microsdxc")) == ([], [])  # 78 MB/s: below 81


def test_usb2_reader_and_pcie_link():
    usb2 = {"bus": "UHS-I", "claimed": {"read_mb_s": 90}, "sessions": [session_with(
        reader="USB 2.0 card reader", dd=[{"op": "read", "block_size": "4M", "unit": "MB/s", "runs": [38.1, 38.4, 38.0],
                                           "flags": ["direct"]},
                                          {"op": "write", "block_size": "4M", "unit": "MB/s",
                                           "runs": [19.6, 19.2, 19.5], "flags": ["direct"]}])]}
    (f,) = reader_findings(usb2)[0]
    assert f["op"] == "read" and "USB 2.0" in f["basis"] and "60 MB/s" not in f["basis"]
    # The SanDisk Ultra 64GB on its USB 2.0 reader writes 19.6 MB/s at most: the card's own figure.
    assert reader_findings(card("sandisk-ultra-64gb-microsdxc")) == ([], [])
    (note,) = reader_findings(card("adata-premier-extreme-256gb-microsd-express"))[1]
    assert note["session"] == "2025-05-17-active-cooling" and "PCIe Gen3 x1" in note["reason"]
    # The Lexar's source names no reader or link for the friend's machine: no ceiling to judge it against.
    assert reader_findings(card("lexar-play-pro-1tb-microsd-express")) == ([], [])


def test_a_run_the_source_left_out_is_left_out_of_the_paths_figure_too():
    """The path's finding reads the statistics' mean, over the runs the source did not exclude, as the card's
    table does: a slow first run the source left out no longer pulls the figure below the ceiling."""
    read = {"op": "read", "block_size": "4M", "unit": "MB/s", "runs": [10.0, 38.1, 38.4, 38.0], "flags": ["direct"],
            "excluded_runs": [0]}
    usb2 = {"slug": "x", "bus": "UHS-I", "claimed": {"read_mb_s": 90},
            "sessions": [session_with(reader="USB 2.0 card reader", dd=[read])]}
    (f,) = reader_findings(usb2)[0]
    assert f["value"] == pytest.approx(38.17, abs=0.005)  # 31.1 MB/s with the left-out run: no finding at all
    assert "mean 38.2 MB/s" in f["basis"]


# --- stability -------------------------------------------------------------------------------------------

def test_passive_cooling_session_slows_over_runs_with_its_temperature():
    found = by_id(stability_findings(card("lexar-play-pro-1tb-microsd-express"))[0])
    (slows,) = found["slows_over_runs"]
    assert slows["session"] == "2025-05-17-passive-cooling" and "82 °C" in slows["basis"]
    assert "SEQ1G Q1T1 read" in slows["subtests"]
    assert {f["session"] for f in found["stability"]} == {"2025-05-17-active-cooling", "2025-05-17-passive-cooling"}


def test_outlying_runs_are_flagged_and_kept():
    (f,) = stability_findings(card("sandisk-extreme-pro-256gb-sdxc"))[0]
    write = next(d for d in f["subtests"] if d["subtest"] == "dd (method not stated) write")
    assert write["outliers"] == [{"run": 3, "mb_s": 63.0, "median_mb_s": 89.6, "excluded": False}]
    assert write["runs"] == 5 and "run 3 (63.0 MB/s, median 89.6 MB/s)" in f["basis"]
    assert outliers([10.0, 10.0, 10.0, 10.5]) == [] and outliers([10, 10, 10, 20]) == [3]


def test_cv_verdicts_and_too_few_runs():
    assert [cv_verdict(v) for v in (0.01, 0.03, 0.1, 0.3)] == ["very steady", "steady", "varies from run to run",
                                                             "unsteady"]
    two = {"sessions": [session_with(dd=[{"op": "read", "block_size": "4M", "unit": "MB/s", "runs": [40, 41]}])]}
    assert stability_findings(two)[0] == []


# --- capacity and manufacturer -------------------------------------------------------------------------

def test_f3probe_verdicts():
    fake = {"fake": True, "announced_bytes": 64_000_000_000, "usable_bytes": 7_948_206_080}
    real = {"fake": False, "announced_bytes": 268_435_456, "usable_bytes": 268_435_456}
    found = card_findings({"sessions": [session_with(f3probe=fake), {"id": "s2", "f3probe": real}]})[0]
    assert [(f["fake"], f["text"]) for f in found] == [(True, "FAKE capacity: only 7.95 GB of 64.0 GB"),
                                                      (False, "genuine: 0.27 GB")]


def test_manufacturer_id_against_brand(tmp_path):
    raw = tmp_path / "raw" / "fake-sandisk" / "s1"
    raw.mkdir(parents=True)
    (raw / "collect.json").write_text(json.dumps({"device": {"sd": {"manfid": "0x000012",
                                                                    "cid_fields": {"manufacturer_id": 0x12}}}}))
    sandisk = {"brand": "SanDisk", "sessions": [session_with(raw=["raw/fake-sandisk/s1/collect.json"])]}
    facts = read_device_facts(sandisk, tmp_path)
    (f,) = manufacturer_findings(sandisk, facts)[0]
    assert f["value"] == 0x12 and "0x03, 0x30" in f["basis"] and f["contradicts_brand"] is True
    # A brand that sells cards made by others proves nothing by an unexpected ID; a genuine ID is fine.
    assert manufacturer_findings({**sandisk, "brand": "Kingston"}, facts)[0] == []
    genuine = {"s1": {"sd": {"cid_fields": {"manufacturer_id": 3}}}}
    assert manufacturer_findings(sandisk, genuine)[0] == []
    assert read_device_facts({"sessions": [session_with(raw=["raw/../../etc/collect.json"])]}, tmp_path) == {}


def test_manufacturer_id_is_read_from_the_data_folder_the_site_is_built_from(tmp_path):
    """A data folder other than the project's (a copy of the project, a benchmark) still feeds the check."""
    raw = tmp_path / "raw" / "fake-sandisk" / "s1"
    raw.mkdir(parents=True)
    (raw / "collect.json").write_text(json.dumps({"device": {"sd": {"cid_fields": {"manufacturer_id": 0x12}}}}))
    card = {"schema_version": 1, "slug": "fake-sandisk", "brand": "SanDisk", "model": "Ultra", "capacity_gb": 64,
            "form_factor": "microSD", "family": "SDXC", "bus": "UHS-I", "source": {"name": "t"},
            "sessions": [session_with(raw=["raw/fake-sandisk/s1/collect.json"])]}
    found = aggregate([card], data_dir=tmp_path)["cards"]["fake-sandisk"]["findings"]
    assert [f["id"] for f in found] == ["manufacturer_id"]


# --- speed classes ---------------------------------------------------------------------------------------

def test_v30_is_judged_on_the_speed_after_the_cache():
    fill = fill_from_levels([(0, 90), (20, 22)], total_gb=64, seconds_per_point=2.0)
    dd = {"op": "write", "block_size": "4M", "unit": "MB/s", "flags": ["direct"], "runs": [84.56]}
    sample = {"slug": "x", "brand": "SanDisk", "markings": ["V30", "C10"],
              "sessions": [session_with(fill=[fill], dd=[dd])]}
    findings, _ = card_findings(sample)
    picks = {"seq_write": {"kind": "runs", "rule": "dd-large-direct", "subtest": "dd bs=4M write", "sessions": ["s1"],
                           "basis": "dd bs=4M write, mean of 1 run", "mb_s": 84.56},
             "rnd4k_read": None, "rnd4k_write": None}
    before = copy.deepcopy((sample, picks, findings))
    v30, c10 = class_checks(sample, picks, {}, CardFigures.of_card(sample), findings)
    assert (sample, picks, findings) == before  # a pure function: nothing it was given is changed
    assert v30["meets"] is False and v30["parts"][0]["measured"] == pytest.approx(22, rel=0.03)
    assert v30["parts"][0]["what"] == "sustained write after any cache"
    assert v30["verdict"]["id"] == "does_not_meet"
    assert c10["meets"] is True and c10["parts"][0]["measured"] == 84.56  # C10 as before
    assert c10["verdict"]["id"] == "meets"


def test_a_fill_measured_for_a_sustained_marking_is_not_a_figure_the_source_only_stated():
    """The sequential write a reviewer only stated gives way to a fill the card file holds: the verdict
    judges the fill, measured here, not "the figure the source states"."""
    fill = fill_from_levels([(0, 90), (20, 40)], total_gb=64, seconds_per_point=2.0)
    stated = [{"name": "Seq. write", "value": "85 MB/s", "number": 85, "unit": "MB/s"}]
    twin = aggregate([{"schema_version": 1, "slug": "x", "brand": "SanDisk", "model": "Extreme", "capacity_gb": 64,
                       "form_factor": "microSD", "bus": "UHS-I", "source": {"name": "t"}, "markings": ["V30"],
                       "sessions": [session_with(headline=stated, fill=[fill])]}])["cards"]["x"]
    (v30,) = twin["class_checks"]
    assert v30["parts"][0]["what"] == "sustained write after any cache" and v30["parts"][0]["stated"] is False
    assert v30["verdict"]["id"] == "meets" and "states" not in v30["verdict"]["note"]


# --- evidence on the charts --------------------------------------------------------------------------

def test_charts_mark_the_evidence_of_each_finding():
    from cardbench.figures.aggregate import aggregate
    from cardbench.pages.chartmodel import align_figure, fill_figure, sweeps_figure

    lexar = card("lexar-class-10-16gb-microsdhc")
    fill = fill_from_levels([(0, 60), (1.0737, 15)], total_gb=1.4, seconds_per_point=0.5)
    looped = {**card("sandisk-extreme-pro-256gb-sdxc"), "slug": "loop"}
    looped["sessions"] = looped["sessions"] + [{"id": "fill", "label": "Fill", "fill": [fill]}]
    twins = aggregate([lexar, looped])["cards"]
    align = align_figure(twins["lexar-class-10-16gb-microsdhc"])["layout"]
    assert sorted(s["x0"] for s in align["shapes"]) == [4096, 4 * MiB]
    assert sorted(a["text"] for a in align["annotations"]) == ["Erase block: 4 MiB", "Page size: 4 KiB"]
    names = [t["name"] for t in sweeps_figure(twins["lexar-class-10-16gb-microsdhc"])["data"]]
    assert "flashbench sequential, 5 open AUs, 4M AU (holds)" in names
    assert "flashbench random, 6 open AUs, 4M AU (stopped early; collapses)" in names
    assert "flashbench random, 5 open AUs, 4M AU, run 2 of 2 (holds)" in names
    (end,) = fill_figure(twins["loop"])["layout"]["shapes"]
    assert end["x0"] == pytest.approx(1.0737, rel=0.02)
    v30 = next(c for c in twins["loop"]["class_checks"] if c["marking"] == "V30")
    assert v30["meets"] is False  # 84.56 MB/s by dd, 15 MB/s after the cache


def test_a_conclusion_stated_only_in_words_gets_a_note_and_no_finding():
    """Seed 003 (AnandTech, SM2708) states its SLC cache in words only; seed 000 its block size: with no fill
    series or -a scan stored, no finding is made, and the page says why."""
    sm2708 = load_card(CARDS_DIR / "silicon-motion-sm2708-reference-design-250gb-sd-express.yaml").data
    findings, notes = card_findings(sm2708)
    assert "slc_cache" not in {f["id"] for f in findings}
    assert [n["reason"] for n in notes if n["id"] == "slc_cache"] == [
        "The source states “SLC cache size: ~5.5 GB” in words; with no sustained-write series over the card "
        "(throughput against GB written) stored behind it, nothing here can confirm or derive it."]
    ultra = load_card(CARDS_DIR / "sandisk-ultra-64gb-microsdxc.yaml").data
    findings, notes = card_findings(ultra)
    assert "erase_block" not in {f["id"] for f in findings}
    assert any(n["id"] == "erase_block" and "Block size: 24MiB" in n["reason"] for n in notes)
    assert not any(n["id"].startswith("open_aus") for n in notes)  # the sweeps are stored: findings, no note
