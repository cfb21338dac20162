"""Headline figures: the ranked rules pick the figure that speaks for a card, never one taken under a
condition (after a fill, through a cache, on ext4, lowest, peak), and say what it came from."""

from pathlib import Path

import pytest

from cardbench.figures.aggregate import aggregate
from cardbench.figures.headline_rules import RULES, rules_text, summary_name

DOCS = Path(__file__).resolve().parents[1] / "docs" / "card-json.md"


def card(*sessions):
    return {"schema_version": 1, "slug": "acme-a", "brand": "Acme", "model": "A", "capacity_gb": 64,
            "form_factor": "SD", "family": "SDXC", "bus": "UHS-I", "source": {"name": "t"}, "sessions": list(sessions)}


def session(sid="s", compare=True, **parts):
    return {"id": sid, "label": sid, "compare": compare, **parts}


def row(name, number, unit="MB/s"):
    return {"name": name, "value": f"{number} {unit}", "number": number, "unit": unit}


def dd(op, block_size="4M", runs=(50.0,), flags=("direct",), **extra):
    entry = {"op": op, "block_size": block_size, "unit": "MB/s", "runs": list(runs), "target": "device"}
    if flags:
        entry["flags"] = list(flags)
    entry.update(extra)
    return entry


def fio(test, op, runs=(100.0,), unit="MB/s"):
    return {"test": test, "op": op, "unit": unit, "runs": list(runs)}


def sweep(op, points, flags=("direct",)):
    return {"op": op, "flags": list(flags), "unit": "MB/s",
            "points": [{"block_size_bytes": b, "value": v} for b, v in points]}


def headline(the_card, key):
    return aggregate([the_card])["cards"]["acme-a"]["headline"][key]


@pytest.mark.parametrize("name", [
    "Sequential read after the fill, start", "Sequential read after the fill, end",
    "Sequential read, after the fill", "Seq. read, cache", "Seq. read, ext4", "Sequential read, peak",
    "Sequential read, lowest", "CrystalDiskMark sequential read, used", "Sequential read within the SLC cache",
    "Random read 4KiB, after the fill", "Seq. read (cached)",
])
def test_a_condition_never_stands_for_plain_figures(name):
    key = "rnd4k_read" if name.startswith("Random") else "seq_read"
    assert headline(card(session(headline=[row(name, 200)])), key) is None


@pytest.mark.parametrize("name, rule", [
    ("Seq. read", "summary-seq"), ("Sequential read", "summary-seq"), ("Seq. read, direct", "summary-seq"),
    ("Seq read:", "summary-seq"), ("CrystalDiskMark sequential read, refreshed after format", "summary-cdm-seq"),
    ("CrystalDiskMark sequential read", "summary-cdm-seq"),
])
def test_plain_summary_rows_are_accepted(name, rule):
    pick = headline(card(session(headline=[row(name, 200)])), "seq_read")
    assert (pick["rule"], pick["mb_s"], pick["subtest"], pick["sessions"]) == (rule, 200, name, ["s"])
    assert pick["basis"] == f"reviewer's summary: {name} (200 MB/s)"


def test_summary_names_split_base_and_qualifiers():
    assert summary_name("Seq. write,  direct") == ("seq. write", ("direct",))
    assert summary_name("Random write   4KiB") == ("random write 4kib", ())


def test_crystaldiskmark_summary_outranks_a_plain_row_of_another_session():
    # As the SM2708 review: CrystalDiskMark after a format in one mode, a plain read in the other.
    express = session("express", headline=[row("Sequential read after the fill, start", 200),
                                           row("CrystalDiskMark sequential read, refreshed after format", 878)])
    uhs = session("uhs-i", headline=[row("Sequential read", 72)])
    pick = headline(card(uhs, express), "seq_read")
    assert (pick["mb_s"], pick["sessions"], pick["rule"]) == (878, ["express"], "summary-cdm-seq")


def test_measured_runs_outrank_a_reviewers_row():
    the_card = card(session(dd=[dd("write", runs=[30.0, 32.0])], headline=[row("Seq. write, direct", 40)]))
    pick = headline(the_card, "seq_write")
    assert (pick["rule"], pick["mb_s"], pick["run_count"]) == ("dd-large-direct", 31, 2)


def test_reviewers_row_outranks_the_largest_sweep_block():
    # As the SanDisk Ultra 64GB review: 15.90 MB/s direct in its table, 15.5 at the sweep's largest block.
    points = [(65536, 15.9), (131072, 15.5)]
    the_card = card(session(headline=[row("Seq. write, cache", 19.6), row("Seq. write, direct", 15.9)],
                            dd_sweeps=[sweep("write", points)]))
    assert headline(the_card, "seq_write")["mb_s"] == 15.9
    only_sweep = headline(card(session(dd_sweeps=[sweep("write", points)])), "seq_write")
    assert (only_sweep["rule"], only_sweep["mb_s"], only_sweep["subtest"]) == ("dd-sweep-largest", 15.5,
                                                                               "dd sweep bs=128 KiB write")


def test_a_sweep_without_direct_io_is_not_sequential_throughput():
    assert headline(card(session(dd_sweeps=[sweep("write", [(4096, 400.0)], flags=())])), "seq_write") is None


@pytest.mark.parametrize("tests, rule, test", [
    (["SEQ1M Q1T1", "SEQ1M Q8T1", "SEQ1G Q1T1"], "cdm-seq1m-q8t1", "SEQ1M Q8T1"),
    (["SEQ512K Q1T1", "SEQ1G Q1T1", "SEQ32M Q32T1"], "cdm-fio-seq1g-q1t1", "SEQ1G Q1T1"),
    (["SEQ512K Q1T1", "SEQ1M Q1T1"], "cdm-seq1m-q1t1", "SEQ1M Q1T1"),
    (["SEQ128K Q32T1", "SEQ4M Q1T1", "SEQ4M Q8T1"], "fio-seq-other", "SEQ4M Q1T1"),
])
def test_fio_sequential_rules_in_order(tests, rule, test):
    the_card = card(session(results=[fio(t, "read") for t in tests], dd=[dd("read")]))
    pick = headline(the_card, "seq_read")
    assert (pick["rule"], pick["subtest"]) == (rule, f"{test} read")


def test_dd_rules_prefer_large_direct_blocks():
    entries = [dd("read", "4K", runs=[20.0]), dd("read", "1M", runs=[60.0]), dd("read", "4M", runs=[70.0])]
    pick = headline(card(session(dd=entries)), "seq_read")
    assert (pick["rule"], pick["subtest"], pick["mb_s"]) == ("dd-large-direct", "dd bs=4M read", 70)
    small = headline(card(session(dd=[dd("read", "64K", runs=[30.0])])), "seq_read")
    assert (small["rule"], small["mb_s"]) == ("dd-direct", 30)


def test_dd_without_direct_io():
    dropped = "for i in 1 2; do echo 3 | sudo tee /proc/sys/vm/drop_caches; dd if=/dev/sdb of=/dev/null bs=4k; done"
    read = dd("read", "4K", runs=[76.0, 75.5], flags=(), command=dropped)
    pick = headline(card(session(dd=[read])), "seq_read")
    assert pick["rule"] == "dd-read-cache-dropped" and "page cache dropped" in pick["basis"]
    assert headline(card(session(dd=[dd("read", "4K", flags=(), command="dd if=/dev/sdb of=/dev/null")])),
                    "seq_read") is None  # a cached read may never touch the card
    # Writes through the page cache measure memory (400 MB/s), whatever was dropped before.
    assert headline(card(session(dd=[dd("write", "4K", runs=[400.0], flags=(), command=dropped)])), "seq_write") is None


def test_dd_runs_pool_only_the_entries_the_rule_accepts():
    direct = dd("write", runs=[30.0, 32.0], target="file")
    cached = dd("write", runs=[400.0], flags=())  # same test name, through the page cache
    pick = headline(card(session(dd=[direct, cached])), "seq_write")
    assert (pick["mb_s"], pick["run_count"]) == (31, 2)
    assert pick["basis"] == "dd bs=4M write, mean of 2 runs (direct I/O, to a file on the card)"


def test_uncompared_sessions_never_give_a_headline():
    hot = session("hot", compare=False, results=[fio("SEQ1M Q8T1", "read", [10.0])])
    cool = session("cool", dd=[dd("read", runs=[50.0])])
    pick = headline(card(hot, cool), "seq_read")
    assert (pick["rule"], pick["sessions"]) == ("dd-large-direct", ["cool"])
    assert headline(card(hot), "seq_read") is None


def test_runs_pooled_over_sessions_name_every_session():
    first = session("a", results=[fio("SEQ1M Q8T1", "read", [100.0]), fio("RND4K Q1T1", "read", [4.096])])
    second = session("b", results=[fio("SEQ1M Q8T1", "read", [110.0, 120.0])])
    out = aggregate([card(first, second)])["cards"]["acme-a"]["headline"]
    assert (out["seq_read"]["mb_s"], out["seq_read"]["run_count"], out["seq_read"]["sessions"]) == (110, 3, ["a", "b"])
    assert out["seq_read"]["basis"] == "SEQ1M Q8T1 read, mean of 3 runs"
    assert "iops" not in out["seq_read"]
    assert out["rnd4k_read"]["iops"] == {"mean": 1000, "derived": True}


def test_random_4k_rules():
    the_card = card(session(headline=[row("Random write   4KiB", 2.18), row("Random write 16KiB", 6.2)],
                            results=[fio("RND4K Q32T1", "write", [9.0])]))
    pick = headline(the_card, "rnd4k_write")
    assert (pick["rule"], pick["mb_s"]) == ("summary-rnd4k", 2.18)  # Q32 never stands for Q1
    assert headline(the_card, "rnd4k_read") is None


def test_every_rule_is_documented_in_order():
    text = DOCS.read_text(encoding="utf-8")
    for key, rules in rules_text().items():
        positions = [text.index(f"`{rule_id}`") for rule_id, _ in rules]
        assert positions == sorted(positions), key
        for rule_id, rule_text in rules:
            assert rule_text in text, rule_id
    assert {rule.id for rules in RULES.values() for rule in rules} == {r for v in rules_text().values() for r, _ in v}


def test_a_stated_figure_stays_the_headline_and_the_card_page_calls_it_stated():
    # SM2708 (seed 003): the reviewer's "~878 MB/s" is kept as the headline (no run of the card is recorded),
    # and the claimed-and-measured table says the source stated it rather than calling it a measured mean.
    from cardbench.pages.pagemodel import claimed_rows

    stated = aggregate([card(session(headline=[row("CrystalDiskMark sequential read, refreshed after format", 878)]))])
    twin = stated["cards"]["acme-a"]
    pick = twin["headline"]["seq_read"]
    assert (pick["kind"], pick["mb_s"], pick["run_count"]) == ("summary", 878, None)
    assert claimed_rows(dict(twin, claimed={"read_mb_s": 895}))[0]["stated"] is True
    measured = aggregate([card(session(dd=[dd("read", runs=(44.9, 44.8))]))])["cards"]["acme-a"]
    assert claimed_rows(measured)[0]["stated"] is False
