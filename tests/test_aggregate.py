"""Aggregation: statistics per subtest, units, excluded runs, suites and headline figures."""

import pytest

from cardbench.figures.aggregate import aggregate
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
    assert (sub["mean"], sub["min"], sub["max"], sub["run_count"]) == (90, 80, 100, 3)
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
    assert sub["runs"][0] == 5.7 and sub["run_count"] == 4
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
    assert pick["mb_s"] == 11.2 and "4 MiB" in pick["basis"] and pick["rule"] == "dd-sweep-largest"


def test_class_checks_use_sd_association_minimums():
    sessions = [fio_session(runs=[25.0], tests=("SEQ1M Q8T1", "RND4K Q1T1"))]
    out = aggregate([card(markings=["U3", "A1"], sessions=sessions)])
    checks = {c["marking"]: c for c in out["cards"]["acme-a"]["class_checks"]}
    assert checks["U3"]["meets"] is False  # 25 MB/s < 30 MB/s
    a1 = {p["what"]: p for p in checks["A1"]["parts"]}
    assert a1["random 4K read"]["measured"] == round(25e6 / 4096) and a1["random 4K read"]["derived"] is True
    assert checks["A1"]["meets"] is True


def test_title_joins_micro_and_family():
    assert card_title(card()) == "Acme acme-a 64 GB microSDXC"
    assert card_title(card(capacity_gb=1000, form_factor="SD", family=None)) == "Acme acme-a 1 TB SD"


def dd_entry(op="read", block_size="4M", runs=(20.0, 21.0), **extra):
    entry = {"op": op, "block_size": block_size, "count": 256, "flags": ["direct"], "target": "device",
             "unit": "MB/s", "runs": list(runs)}
    entry.update(extra)
    return entry


def test_dd_block_count_is_not_the_run_count():
    out = aggregate([card(sessions=[{"id": "s", "label": "s", "dd": [dd_entry(block_size="4K", count=262144,
                                                                                  runs=[76.0, 76.1, 75.5, 75.9])]}])])
    card_json = out["cards"]["acme-a"]
    sub = card_json["sessions"][0]["subtests"][0]
    assert sub["block_count"] == 262144 and sub["run_count"] == 4 and "count" not in sub
    assert card_json["pooled"]["dd bs=4K read"]["run_count"] == 4
    assert card_json["sessions"][0]["max_runs"] == 4
    assert out["leaderboard"][0]["run_count"] == 4 and out["leaderboard"][0]["session_count"] == 1


def test_run_count_leaves_out_excluded_runs_everywhere():
    dd = dd_entry(op="write", runs=[5.7, 8.3, 10.9, 16.8, 16.9], excluded_runs=[0])
    out = aggregate([card(sessions=[{"id": "s", "label": "s", "dd": [dd]}])])
    card_json = out["cards"]["acme-a"]
    assert card_json["sessions"][0]["subtests"][0]["run_count"] == 4
    assert card_json["sessions"][0]["max_runs"] == 5  # every run is charted
    assert card_json["pooled"]["dd bs=4M write"]["run_count"] == 4
    assert card_json["headline"]["seq_write"]["run_count"] == 4


def test_every_statistic_in_mb_s_and_mib_s():
    out = aggregate([card(sessions=[fio_session(unit="MiB/s", runs=[744.0, 718.0])])])
    card_json = out["cards"]["acme-a"]
    for stats in (card_json["sessions"][0]["subtests"][0], card_json["pooled"]["SEQ1M Q8T1 read"]):
        assert stats["mib_s"]["mean"] == 731 and stats["mib_s"]["min"] == 718 and stats["mib_s"]["max"] == 744
        assert stats["mb_s"]["mean"] == pytest.approx(731 * MIB, abs=0.001)
        assert stats["mb_s"]["max"] == pytest.approx(744 * MIB, abs=0.001)
    pick = card_json["headline"]["seq_read"]
    assert pick["mib_s"] == 731 and pick["mb_s"] == pytest.approx(731 * MIB, abs=0.01)
    dd = aggregate([card(sessions=[{"id": "s", "label": "s", "dd": [dd_entry(runs=[104.8576])]}])])
    assert dd["cards"]["acme-a"]["pooled"]["dd bs=4M read"]["mib_s"]["mean"] == pytest.approx(100, abs=0.001)


@pytest.mark.parametrize("runs, printed", [
    ([518, 519], 518),        # 518.5: ties go to the even digit
    ([627, 628], 628),        # 627.5
    ([20, 21, 22, 23], 22),   # 21.5
    ([744, 743, 745], 744),
])
def test_printed_mean_rounds_half_to_even_at_the_runs_precision(runs, printed):
    out = aggregate([card(sessions=[fio_session(unit="MiB/s", runs=list(runs))])])  # whole MiB/s, as cdm_fio.sh prints
    shown = out["cards"]["acme-a"]["pooled"]["SEQ1M Q8T1 read"]["printed"]
    assert shown == {"unit": "MiB/s", "decimals": 0, "mean": printed, "min": min(runs), "max": max(runs)}


def test_printed_keeps_the_decimals_the_tool_printed():
    # dd prints 86.6 MB/s: one decimal; 13.225 is a tie at that precision only in decimal, not in binary.
    out = aggregate([card(sessions=[{"id": "s", "label": "s", "dd": [dd_entry(runs=[8.3, 10.9, 16.8, 16.9])]}])])
    shown = out["cards"]["acme-a"]["pooled"]["dd bs=4M read"]["printed"]
    assert shown == {"unit": "MB/s", "decimals": 1, "mean": 13.2, "min": 8.3, "max": 16.9}


def test_iops_recorded_are_kept_and_marked_not_derived():
    session = {"id": "s", "label": "s", "results": [
        {"test": "RND4K Q1T1", "op": "read", "unit": "MB/s", "runs": [10.0, 12.0], "iops": [2441.4, 2929.7],
         "latency_us": {"mean": [409.0, 341.0], "p99": [900.0, 700.0]}}]}
    out = aggregate([card(sessions=[session])])
    sub = out["cards"]["acme-a"]["sessions"][0]["subtests"][0]
    assert sub["iops"] == {"runs": [2441.4, 2929.7], "mean": pytest.approx(2685.55, abs=0.1), "min": 2441.4,
                           "max": 2929.7, "std": pytest.approx(345.3, abs=0.1), "derived": False}
    assert sub["latency_us"]["mean"] == {"runs": [409.0, 341.0], "mean": 375, "min": 341, "max": 409}
    assert sub["latency_us"]["p99"]["max"] == 900 and "p50" not in sub["latency_us"]
    pooled = out["cards"]["acme-a"]["pooled"]["RND4K Q1T1 read"]
    assert pooled["iops"]["mean"] == pytest.approx(2685.55, abs=0.1) and pooled["iops"]["derived"] is False
    assert out["leaderboard"][0]["rnd4k_read"]["iops"] == {"mean": pytest.approx(2685.55, abs=0.1), "derived": False}


def test_iops_derived_from_bandwidth_and_block_size():
    out = aggregate([card(sessions=[fio_session(unit="MiB/s", runs=[13.0], tests=("RND4K Q32T1", "SEQ1M Q8T1"))])])
    pooled = out["cards"]["acme-a"]["pooled"]
    assert pooled["RND4K Q32T1 read"]["iops"] == {"mean": 13 * 256, "min": 13 * 256, "max": 13 * 256, "std": None,
                                                  "derived": True}
    assert pooled["SEQ1M Q8T1 write"]["iops"]["mean"] == 13 and pooled["SEQ1M Q8T1 write"]["latency_us"] is None
    dd = aggregate([card(sessions=[{"id": "s", "label": "s", "dd": [dd_entry()]}])])
    assert dd["cards"]["acme-a"]["pooled"]["dd bs=4M read"]["iops"] is None  # dd: no IOPS to derive


def test_class_checks_prefer_recorded_iops():
    session = {"id": "s", "label": "s", "results": [
        {"test": "SEQ1M Q8T1", "op": "write", "unit": "MB/s", "runs": [40.0]},
        {"test": "RND4K Q1T1", "op": "read", "unit": "MB/s", "runs": [8.0], "iops": [1900.0]},
        {"test": "RND4K Q32T1", "op": "read", "unit": "MB/s", "runs": [6.0], "iops": [1400.0]},
        {"test": "RND4K Q1T1", "op": "write", "unit": "MB/s", "runs": [1.0], "iops": [240.0]}]}
    out = aggregate([card(markings=["A1"], sessions=[session])])
    (check,) = out["cards"]["acme-a"]["class_checks"]
    parts = {p["what"]: p for p in check["parts"]}
    assert parts["random 4K read"]["measured"] == 1900 and parts["random 4K read"]["derived"] is False
    assert parts["random 4K read"]["basis"] == "RND4K Q1T1 read, mean"
    assert parts["random 4K write"]["measured"] == 240 and parts["random 4K write"]["meets"] is False
    assert check["meets"] is False


def test_not_measured_placeholders_are_data():
    session = {"id": "s", "label": "s", "headline": [
        {"name": "Seq. write, cache", "value": None, "unit": "MB/s"},
        {"name": "Seq. write, direct", "value": "11.20 MB/s", "number": 11.2, "unit": "MB/s"}]}
    out = aggregate([card(sessions=[session])])
    rows = out["cards"]["acme-a"]["sessions"][0]["headline"]
    assert rows[0] == {"name": "Seq. write, cache", "value": None, "unit": "MB/s", "measured": False}
    assert rows[1]["measured"] is True
    assert out["leaderboard"][0]["seq_write"]["mb_s"] == 11.2


def test_grid_rows_follow_the_suite_with_read_and_write_cells():
    full = ("SEQ1M Q8T1", "SEQ1M Q1T1", "RND4K Q32T1", "RND4K Q1T1", "SEQ128K Q32T1")
    out = aggregate([card(sessions=[fio_session(runs=[40.96], tests=full), fio_session("cold", compare=False)])])
    card_json = out["cards"]["acme-a"]
    grid = card_json["grid"]
    assert (grid["suite"], grid["suite_name"]) == ("cdm8-default", "CrystalDiskMark 8 default set")
    assert [r["test"] for r in grid["rows"]] == [
        "SEQ1M Q8T1", "SEQ1M Q1T1", "RND4K Q32T1", "RND4K Q1T1", "SEQ128K Q32T1"]
    cell = grid["rows"][3]["write"]
    assert cell["mb_s"] == 40.96 and cell["iops"] == 10000 and cell["iops_derived"] is True
    assert cell["mib_s"] == pytest.approx(40.96 / MIB, abs=0.001) and cell["latency_us"] is None
    assert cell["run_count"] == 1 and "s1" in grid["basis"] and "cold" not in grid["basis"]
    assert card_json["sessions"][1]["grid"]["rows"][0]["read"]["run_count"] == 3
    dd_only = aggregate([card(sessions=[{"id": "s", "label": "s", "dd": [dd_entry()]}])])
    assert dd_only["cards"]["acme-a"]["grid"] is None


def test_raw_files_of_a_session_and_of_each_figure():
    sweep = {"op": "write", "flags": ["direct"], "unit": "MB/s", "raw": ["raw/acme-a/s/dd-sweep.out"],
             "points": [{"block_size_bytes": 4096, "value": 2.0}]}
    au = {"mode": "random", "open_au": 5, "unit": "MB/s", "raw": ["raw/acme-a/s/au.out"],
          "points": [{"block_size_bytes": 4096, "value": 1.0}]}
    align = {"raw": ["raw/acme-a/s/align.out"], "points": [{"offset_bytes": 4096, "delay_ns": 1000}]}
    session = {"id": "s", "label": "s", "raw": ["raw/acme-a/s/notes.txt"], "dd_sweeps": [sweep],
               "flashbench_open_au": [au], "flashbench_align": [align]}
    card_json = aggregate([card(sessions=[session])])["cards"]["acme-a"]
    assert card_json["sessions"][0]["raw_files"] == ["raw/acme-a/s/align.out", "raw/acme-a/s/au.out",
                                                     "raw/acme-a/s/dd-sweep.out", "raw/acme-a/s/notes.txt"]
    assert card_json["figure_raw"] == {"sweeps": ["raw/acme-a/s/au.out", "raw/acme-a/s/dd-sweep.out"],
                                       "align": ["raw/acme-a/s/align.out"], "fill": []}
    assert card_json["headline"]["seq_write"]["raw"] == ["raw/acme-a/s/dd-sweep.out"]


def test_no_cards_and_a_card_without_runs():
    assert aggregate([]) == {"cards": {}, "leaderboard": [], "compare": {"suites": []}}
    out = aggregate([card(sessions=[{"id": "s", "label": "s", "f3probe": {"fake": False}}])])
    assert out["leaderboard"][0]["run_count"] == 0 and out["cards"]["acme-a"]["headline"]["seq_read"] is None


def test_grid_shows_derived_iops_only_for_random_tests():
    # cdm_fio.sh prints MB/s only: IOPS of SEQ1G (0.7 a second) would be bandwidth ÷ 1 GiB, telling nothing.
    session = {"id": "s", "label": "s", "results": [
        {"test": "SEQ1G Q1T1", "op": "read", "unit": "MiB/s", "runs": [744.0]},
        {"test": "SEQ32M Q32T1", "op": "read", "unit": "MiB/s", "runs": [744.0]},
        {"test": "SEQ1M Q8T1", "op": "write", "unit": "MB/s", "runs": [90.0], "iops": [85.8]},  # printed by the tool
        {"test": "RND4K Q1T1", "op": "read", "unit": "MiB/s", "runs": [10.0]}]}
    card_json = aggregate([card(sessions=[session])])["cards"]["acme-a"]
    for grid in (card_json["grid"], card_json["sessions"][0]["grid"]):
        cells = {(r["test"], op): r[op] for r in grid["rows"] for op in ("read", "write") if r[op]}
        assert cells[("SEQ1G Q1T1", "read")]["iops"] is None and cells[("SEQ1G Q1T1", "read")]["iops_derived"] is False
        assert cells[("SEQ32M Q32T1", "read")]["iops"] is None
        assert cells[("SEQ1M Q8T1", "write")]["iops"] == 85.8  # recorded IOPS stay
        assert cells[("RND4K Q1T1", "read")]["iops"] == 2560 and cells[("RND4K Q1T1", "read")]["iops_derived"] is True
    # the statistics keep every derived figure; only the grid leaves them out
    assert card_json["pooled"]["SEQ1G Q1T1 read"]["iops"]["derived"] is True


def checks_of(markings, sessions):
    out = aggregate([card(markings=markings, sessions=sessions)])
    return {c["marking"]: c for c in out["cards"]["acme-a"]["class_checks"]}


def test_a_mean_that_meets_a_minimum_some_runs_miss_is_not_a_plain_pass():
    # Seed 000 (Samsung 64 GB): dd writes 5.7 (left out), 8.3, 10.9, 16.8, 16.9 MB/s: mean 13.2, minimum 10.
    dd = {"op": "write", "block_size": "4M", "unit": "MB/s", "flags": ["direct"], "runs": [5.7, 8.3, 10.9, 16.8, 16.9],
          "excluded_runs": [0]}
    checks = checks_of(["C10", "C4"], [{"id": "s", "label": "s", "dd": [dd]}])
    c10 = checks["C10"]
    assert c10["meets"] is True  # on the mean, as before
    assert c10["parts"][0]["short_runs"]["below"] == 1 and c10["parts"][0]["short_runs"]["of"] == 4
    assert c10["parts"][0]["short_runs"]["left_out_below"] == 1
    verdict = c10["verdict"]
    assert (verdict["id"], verdict["text"]) == ("meets_on_mean", "meets on the mean, not on every run")
    assert "mean 13.2 MB/s reaches 10 MB/s" in verdict["note"] and "1 of 4 runs fell below it" in verdict["note"]
    assert "left out of the mean" in verdict["note"]
    assert checks["C4"]["verdict"]["id"] == "meets" and checks["C4"]["parts"][0]["short_runs"] is None


def test_a_marking_with_a_part_not_measured_cannot_be_told():
    checks = checks_of(["A2", "U3"], [fio_session(runs=[67.7])])  # SEQ1M Q8T1 only: no random 4K
    a2 = checks["A2"]
    assert a2["parts"][0]["meets"] is True and a2["meets"] is None
    assert (a2["verdict"]["id"], a2["verdict"]["text"]) == ("cannot_tell", "cannot tell")
    assert a2["verdict"]["note"] == "random 4K read and random 4K write not measured"
    assert checks["U3"]["verdict"]["id"] == "meets"
    below = checks_of(["U3"], [fio_session(runs=[21.9])])["U3"]["verdict"]
    assert below["id"] == "does_not_meet" and below["note"] == "sequential write 21.9 MB/s is below 30 MB/s"


def test_a_verdict_on_a_figure_the_source_only_stated_says_so():
    session = {"id": "s", "label": "s", "headline": [{"name": "Seq. write, direct", "value": "15.90 MB/s",
                                                      "number": 15.9, "unit": "MB/s"}]}
    c10 = checks_of(["C10"], [session])["C10"]
    assert c10["parts"][0]["stated"] is True and c10["meets"] is True
    assert c10["verdict"]["id"] == "meets_as_stated" and "the figure the source states" in c10["verdict"]["note"]


def test_run_shortfalls_follow_the_figure_the_verdict_judges():
    from cardbench.figures.classchecks import verdict_of

    # A fill finding replaces the write part's figure (and basis) after the runs were counted: the count
    # belonged to the figure replaced, so the verdict no longer cites it.
    part = {"what": "sustained write after any cache", "need": 30, "unit": "MB/s", "measured": 40.0, "meets": True,
            "basis": "sustained fill, s: after the cache 40 MB/s",
            "short_runs": {"below": 1, "of": 4, "left_out_below": 0, "basis": "dd bs=4M write, mean of 4 runs"}}
    assert verdict_of({"marking": "V30", "parts": [part]})["id"] == "meets"
    part["short_runs"]["basis"] = part["basis"]
    assert verdict_of({"marking": "V30", "parts": [part]})["id"] == "meets_on_mean"


def test_random_iops_runs_below_an_application_class_minimum_are_counted():
    session = {"id": "s", "label": "s", "results": [
        {"test": "SEQ1M Q8T1", "op": "write", "unit": "MB/s", "runs": [40.0]},
        {"test": "RND4K Q1T1", "op": "read", "unit": "MB/s", "runs": [8.0, 8.0], "iops": [1400.0, 1700.0]},
        {"test": "RND4K Q1T1", "op": "write", "unit": "MB/s", "runs": [3.0], "iops": [700.0]}]}
    a1 = checks_of(["A1"], [session])["A1"]
    read = next(p for p in a1["parts"] if p["what"] == "random 4K read")
    assert read["measured"] == 1550 and read["short_runs"]["below"] == 1 and read["short_runs"]["of"] == 2
    assert a1["verdict"]["id"] == "meets_on_mean"


def test_statistics_rows_are_read_as_pandas_gives_them():
    from cardbench.figures.aggregate import _records
    from cardbench.figures.stats import POOL_KEYS
    from cardbench.figures.stats import ENTRY_KEYS, runs_frame, statistics

    cards = [card("acme-a", [fio_session(runs=[80.0, 90.5, 100.0])]),
             card("acme-b", [fio_session(unit="MiB/s", runs=[7, 8]), fio_session("s2", runs=[1.25])])]
    cards[1]["sessions"][0]["results"][0]["excluded_runs"] = [0]
    frame = runs_frame(cards)
    for table in (statistics(frame, ENTRY_KEYS), statistics(frame, POOL_KEYS), statistics(frame.iloc[0:0], ENTRY_KEYS)):
        want, got = table.to_dict("records"), _records(table)
        assert [list(row) for row in got] == [list(row) for row in want]
        assert [[(type(v), v if v == v else "nan") for v in row.values()] for row in got] == \
            [[(type(v), v if v == v else "nan") for v in row.values()] for row in want]
