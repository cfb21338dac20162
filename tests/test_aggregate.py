"""Aggregation: statistics per subtest, units, excluded runs, suites and headline figures."""

import pytest

from cardbench.site.aggregate import aggregate
from cardbench.core.titles import card_title

MIB = 1.048576


def card(slug="acme-a", sessions=None, **extra):
    base = {"schema_version": 1, "slug": slug, "brand": "Acme", "model": slug, "capacity_gb": 64,
            "form_factor": "microSD", "family": "SDXC", "bus": "UHS-I", "source": {"name": "t"},
            "sessions": sessions or []}
    base.update(extra)
    return base


def fio_session(sid="s1", compare=True, unit="MB/s", runs=None, tests=("SEQ1M Q8T1",)):
    runs = runs or [80.0, 90.0, 100.0]
    results = [{"test": t, "op": op, "unit": unit, "runs": runs} for t in tests for op in ("read", "write")]
    return {"id": sid, "label": sid, "compare": compare, "results": results}


def test_stats_per_session_subtest():
    out = aggregate([card(sessions=[fio_session()])])
    sub = out["cards"]["acme-a"]["sessions"][0]["subtests"][0]
    assert (sub["test"], sub["op"], sub["unit"]) == ("SEQ1M Q8T1", "read", "MB/s")
    assert sub["runs"] == [80, 90, 100]
    assert (sub["mean"], sub["min"], sub["max"], sub["count"]) == (90, 80, 100, 3)
    assert sub["mb_s"]["mean"] == 90


def test_mib_per_second_is_kept_and_converted():
    out = aggregate([card(sessions=[fio_session(unit="MiB/s", runs=[744.0])])])
    sub = out["cards"]["acme-a"]["sessions"][0]["subtests"][0]
    assert sub["unit"] == "MiB/s" and sub["mean"] == 744
    assert sub["mb_s"]["mean"] == pytest.approx(744 * MIB, abs=0.001)


def test_excluded_runs_are_shown_not_averaged():
    dd = {"op": "write", "block_size": "4M", "unit": "MB/s", "runs": [5.7, 8.3, 10.9, 16.8, 16.9], "excluded_runs": [0]}
    out = aggregate([card(sessions=[{"id": "s", "label": "s", "dd": [dd]}])])
    sub = out["cards"]["acme-a"]["sessions"][0]["subtests"][0]
    assert sub["runs"][0] == 5.7 and sub["count"] == 4
    assert sub["mean"] == pytest.approx((8.3 + 10.9 + 16.8 + 16.9) / 4)
    assert sub["min"] == 8.3


def test_uncompared_sessions_stay_on_the_card_but_out_of_comparisons():
    sessions = [fio_session("cool", runs=[100.0, 110.0]), fio_session("hot", compare=False, runs=[10.0])]
    out = aggregate([card(sessions=sessions)])
    assert len(out["cards"]["acme-a"]["sessions"]) == 2
    assert out["cards"]["acme-a"]["pooled"]["SEQ1M Q8T1 read"]["min"] == 100
    assert out["leaderboard"][0]["seq_read"]["mb_s"] == 105


def test_suite_membership_needs_every_subtest():
    full = ("SEQ1M Q8T1", "SEQ1M Q1T1", "RND4K Q32T1", "RND4K Q1T1")
    out = aggregate([card("acme-a", [fio_session(tests=full)]), card("acme-b", [fio_session(tests=full[:2])])])
    suites = {s["id"]: s for s in out["compare"]["suites"]}
    assert [c["slug"] for c in suites["cdm8-default"]["cards"]] == ["acme-a"]
    assert suites["cdm8-default"]["subtests"][0] == "SEQ1M Q8T1 read"


def test_headline_falls_back_to_the_largest_dd_sweep_block():
    sweep = {"op": "write", "flags": ["direct"], "unit": "MB/s",
             "points": [{"block_size_bytes": 4096, "value": 2.0}, {"block_size_bytes": 4194304, "value": 11.2}]}
    out = aggregate([card(sessions=[{"id": "s", "label": "s", "dd_sweeps": [sweep]}])])
    pick = out["leaderboard"][0]["seq_write"]
    assert pick["mb_s"] == 11.2 and "4 MiB" in pick["from"]


def test_class_checks_use_sd_association_minimums():
    out = aggregate([card(markings=["U3", "A1"], sessions=[fio_session(runs=[25.0], tests=("SEQ1M Q8T1", "RND4K Q1T1"))])])
    checks = {c["marking"]: c for c in out["cards"]["acme-a"]["class_checks"]}
    assert checks["U3"]["meets"] is False  # 25 MB/s < 30 MB/s
    a1 = {p["what"]: p for p in checks["A1"]["parts"]}
    assert a1["random 4K read"]["measured"] == round(25e6 / 4096)
    assert checks["A1"]["meets"] is True


def test_title_joins_micro_and_family():
    assert card_title(card()) == "Acme acme-a 64 GB microSDXC"
    assert card_title(card(capacity_gb=1000, form_factor="SD", family=None)) == "Acme acme-a 1 TB SD"
