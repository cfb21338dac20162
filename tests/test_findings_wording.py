"""Findings as a reader of the card page reads them: the path's limit only where the card is rated clearly
above it, slowing told from the start, figures in MB/s with their unit, wording that reads cleanly, and
no reader named that the source never names."""

import numpy as np
import pytest

from cardbench.figures.aggregate import aggregate
from cardbench.figures.findings import card_findings
from cardbench.figures.findings.signal_path import reader_findings
from cardbench.figures.findings.stability import stability_findings
from test_findings import ROOT, by_id, card

SHIPPED = sorted(p.stem for p in (ROOT / "data" / "cards").glob("*.yaml"))
MICROSD_EXPRESS = ("lexar-play-pro-1tb-microsd-express", "adata-premier-extreme-256gb-microsd-express",
                   "sandisk-microsd-express-256gb-microsd-express")


def uhs_i_session(sid, reads_mb_s, reader="USB card reader"):
    return {"id": sid, "label": sid, "reader": reader,
            "dd": [{"op": "read", "block_size": "4M", "unit": "MB/s", "runs": reads_mb_s, "flags": ["direct"]}]}


def test_a_figure_is_the_paths_limit_only_when_the_card_is_rated_clearly_above_the_ceiling():
    # The microSD Express cards carry no rating in their files: 805 MB/s near the ~837 MB/s the PCIe Gen3 x1
    # link carries cannot tell card from link; SanDisk's 874 MB/s is above that ceiling. The Lexar's source names
    # no reader or link for the machine it ran on: nothing to judge it against.
    for slug in MICROSD_EXPRESS:
        findings, notes = reader_findings(card(slug))
        assert findings == [], slug
        assert all(n["id"] == "reader_limited" for n in notes), slug
        assert bool(notes) == (slug != "lexar-play-pro-1tb-microsd-express"), slug
    (adata,) = reader_findings(card("adata-premier-extreme-256gb-microsd-express"))[1]
    assert "805 MB/s" in adata["reason"] and "837 MB/s" in adata["reason"] and "no rated read speed" in adata["reason"]
    assert "faster" in adata["reason"]  # what would settle it
    (sandisk,) = reader_findings(card("sandisk-microsd-express-256gb-microsd-express"))[1]
    assert "874 MB/s" in sandisk["reason"] and "read faster than this site's estimate" in sandisk["reason"]
    assert "the estimate was wrong for this path" in sandisk["reason"]  # a figure above an estimate proves it wrong
    assert "the path's limit, not the card's" not in sandisk["reason"]
    assert "an estimate, not a measurement" in adata["reason"]
    # Rated 190 MB/s against a UHS-I bus that reaches about 90 MB/s: the evidence is worded beside the figure.
    (extreme,) = reader_findings(card("sandisk-extreme-256gb-microsdxc"))[0]
    for words in ("86.3 MB/s", "rated 190 MB/s", "90 MB/s"):
        assert words in extreme["basis"]
    assert "reader recorded" not in extreme["basis"]  # the source names no reader, so neither does the finding


def test_a_rating_at_the_ceiling_or_unknown_gives_a_note_and_a_faster_path_gives_the_finding():
    rated_100 = {"bus": "UHS-I", "claimed": {"read_mb_s": 100}, "sessions": [uhs_i_session("a", [85, 86, 85])]}
    findings, (note,) = reader_findings(rated_100)
    assert findings == [] and "rated only 100 MB/s" in note["reason"]
    # The same card read at 160 MB/s through another path: the 85 MB/s session was the path's limit.
    faster = {**rated_100, "claimed": {}, "sessions": rated_100["sessions"] + [
        uhs_i_session("b", [160, 161, 159], reader="M.2 adapter, PCIe Gen3 x1")]}
    (found,), _ = reader_findings(faster)
    assert found["session"] == "a" and "160 MB/s" in found["basis"]
    above = {"bus": "UHS-I", "claimed": {"read_mb_s": 200}, "sessions": [uhs_i_session("a", [93, 94, 93])]}
    findings, (note,) = reader_findings(above)
    assert findings == [] and "faster than this site's estimate" in note["reason"]


def test_slowing_over_runs_is_measured_from_the_start_and_a_step_is_called_a_step():
    from cardbench.figures.findings.stability import subtest_stability

    # A straight fall of 5 per run from 100: 25 % from the first run to the sixth.
    steady = subtest_stability("x", {"unit": "MB/s", "runs": [100, 95, 90, 85, 80, 75]})
    assert steady["trend"] == "slows" and steady["trend_change_pct"] == pytest.approx(-25, abs=0.5)
    # ADATA, active cooling, SEQ1G write (MiB/s): four runs near 610, then 290–424 - one step after run 4.
    adata = card("adata-premier-extreme-256gb-microsd-express")["sessions"][0]
    entry = next(e for e in adata["results"] if (e["test"], e["op"]) == ("SEQ1G Q1T1", "write"))
    step = subtest_stability("SEQ1G Q1T1 write", entry)
    assert step["trend_shape"] == "step" and step["step_after_run"] == 4
    before, after = np.mean(entry["runs"][:4]), np.median(entry["runs"][4:])
    assert step["trend_change_pct"] == pytest.approx(100 * (after / before - 1), abs=0.1)
    found = by_id(stability_findings(card("adata-premier-extreme-256gb-microsd-express"))[0])
    for slows in found["slows_over_runs"]:
        assert all(-100 <= d["trend_change_pct"] < 0 for d in slows["subtest_changes"])
        assert "after run 4" in slows["basis"] or "after run 1" in slows["basis"]
        assert "Recorded with these runs" in slows["basis"] and "°C" not in slows["text"]
    active = next(f for f in found["slows_over_runs"] if f["session"] == "2025-05-17-active-cooling")
    seq32m_write = next(d for d in active["subtest_changes"] if d["subtest"] == "SEQ32M Q32T1 write")
    assert -50 < seq32m_write["trend_change_pct"] < -40  # 619 MiB/s for four runs, then about 290–450
    assert "°C" in active["basis"] and "do not show what caused" in active["basis"]


def test_findings_figures_are_mb_s_with_the_unit_on_each():
    (f,) = [f for f in stability_findings(card("lexar-play-pro-1tb-microsd-express"))[0]
            if f["session"] == "2025-05-17-active-cooling" and f["id"] == "stability"]
    # cdm_fio.sh's 627 and 338 are MiB/s: 657 and 354 MB/s.
    assert "run 1 (657 MB/s, median 354 MB/s)" in f["basis"]
    for slug in SHIPPED:
        findings, notes = card_findings(card(slug))
        for words in [f["text"] for f in findings] + [f["basis"] for f in findings] + [n["reason"] for n in notes]:
            assert "MiB/s" not in words, (slug, words)


def parentheses_nest(words):
    depth = 0
    for char in words:
        depth += {"(": 1, ")": -1}.get(char, 0)
        if depth > 1:
            return True
    return False


def test_findings_and_sweep_labels_read_cleanly():
    from cardbench.pages.chartmodel import sweeps_figure

    twins = aggregate([card(slug) for slug in SHIPPED])["cards"]
    for slug, twin in twins.items():
        for words in [f["text"] for f in twin["findings"]] + [f["basis"] for f in twin["findings"]]:
            assert not parentheses_nest(words) and ") (" not in words, (slug, words)
        figure = sweeps_figure(twin)
        names = [t["name"] for t in (figure or {}).get("data", [])]
        assert len(names) == len(set(names)), slug
        assert not any(") (" in n for n in names), slug


def test_findings_reuse_the_units_module():
    from cardbench.figures.findings import finding as common

    assert not {"mb_s", "size_text", "sessions_of"} & set(vars(common))


def test_the_dd_blog_cards_name_no_reader_the_source_never_named():
    for slug in SHIPPED:
        data = card(slug)
        if "성능 시험" not in data["source"]["name"]:
            continue
        for session in data["sessions"]:
            assert "reader" not in session, slug
            assert "USB" not in session["label"], slug
            assert "/dev/mmcblk0" in session.get("notes", ""), slug
