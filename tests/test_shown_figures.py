"""Figures as the pages show them: MiB/s figures as the tool printed them, derived IOPS only as precise
as their input, every card the comparison leaves out named with the reason."""

import json

import pytest

from cardbench.figures.formatting import approx, significant_digits
from cardbench.pages.pagemodel import card_page, leader_row
from cardbench.publish.sitedata import LEFT_OUT_SHOWN, parts_from_result, site_texts

EXPRESS = "sandisk-microsd-express-256gb-microsd-express"


@pytest.fixture(scope="module")
def result(shipped_result):
    return shipped_result


def test_mib_figures_of_a_card_recorded_in_mib_are_those_the_tool_printed(result):
    pooled = result["cards"][EXPRESS]["pooled"]
    # runs 834 and 803 average 818.5: cdm_fio.sh printed 818, and so does the page in MiB/s
    assert [pooled[k]["mib_s"]["mean"] for k in ("SEQ1G Q1T1 read", "SEQ512K Q1T1 write", "RND4K Q8T8 read")] \
        == [pooled[k]["printed"]["mean"] for k in ("SEQ1G Q1T1 read", "SEQ512K Q1T1 write", "RND4K Q8T8 read")] \
        == [818, 518, 422]
    session = card_page(result["cards"][EXPRESS])["sessions"][0]
    row = next(r for r in session["stats"] if r["name"] == "SEQ1G Q1T1 read")
    assert row["figures"].startswith('<td class="num"><strong><span data-mb="') and 'data-mib="818"' in row["figures"]
    assert result["cards"][EXPRESS]["headline"]["seq_read"]["mib_s"] == 818


def test_iops_derived_from_whole_mib_figures_show_only_the_precision_they_have(result):
    assert significant_digits({"mean": 13, "decimals": 0}) == 2
    assert approx(3328, 2) == "≈3,300"
    assert approx(51456, 3) == "≈51,500"
    assert approx(950, 3) == "950"
    row = next(r for r in result["leaderboard"] if r["slug"] == EXPRESS)
    cells = leader_row(row, result["cards"][EXPRESS])["cells"]
    assert cells[2]["text"] == "≈3,300*"
    assert cells[2]["value"] == pytest.approx(3328, abs=1)  # sorting keeps the figure itself


def test_comparison_names_every_card_it_leaves_out_and_why(result):
    pieces = parts_from_result(result)
    texts = site_texts([p for p, _ in pieces])
    compare, every = json.loads(texts["site/compare.json"]), json.loads(texts["site/left-out.json"])
    suites = {s["id"]: s for s in compare["suites"]}
    left = suites["dd-method-not-stated"]["left_out"]
    assert [c["slug"] for c in left] == ["sandisk-ultra-plus-128gb-microsdxc"]
    assert "no read in this set" in left[0]["why"] and "dd bs=4K" in left[0]["why"]
    label = suites["dd-method-not-stated"]["labels"]["dd (method not stated)"]
    assert "not stated" in label and "method not stated" not in label and "4 MiB" not in label
    members = {m["slug"] for s in compare["suites"] for m in s["members"]}
    left_out = {c["slug"] for s in every["suites"] for c in s["left_out"]}
    named = members | left_out | {c["slug"] for c in every["in_no_suite"]}
    assert named == set(result["cards"])  # no card silently missing
    assert [s["left_out"] for s in every["suites"]] == [s["left_out"] for s in compare["suites"] if s["left_out"]]
    # the page names the first LEFT_OUT_SHOWN of each list; left-out.json every one
    assert all(len(s["left_out"]) == min(s["left_out_count"], LEFT_OUT_SHOWN) for s in compare["suites"])
    assert len(every["in_no_suite"]) == compare["in_no_suite_count"]
    sm2708 = next(c for c in every["in_no_suite"] if c["slug"].startswith("silicon-motion"))
    assert "stated" in sm2708["why"]
    express = next(m for m in suites["cdm-fio-sh-1g"]["members"] if m["slug"] == EXPRESS)
    assert any("mixed methods" in label for label in express["sessions"])


def test_card_page_writes_mib_figures_with_the_decimals_the_tool_printed(result):
    page = card_page(result["cards"][EXPRESS])
    rnd = next(r for r in page["grid"]["rows"] if r["test"] == "RND4K Q1T1")
    assert 'data-mib="13"' in rnd["cells"][0]["rate"] and rnd["cells"][0]["iops"]["text"] == "≈3,300"
    stats = {r["name"]: r for r in page["sessions"][0]["stats"]}
    assert stats["SEQ1G Q1T1 read"]["recorded"] == "818 MiB/s"  # not 819 (818.5 rounded up)
    assert 'data-mib="13"' in stats["RND4K Q1T1 read"]["figures"]
    claimed = {r["name"]: r for r in page["claimed_rows"]}
    assert claimed["Sequential read"]["recorded"] == "recorded in MiB/s: 818"
    # a card recorded in MB/s keeps the site's usual precision in MiB/s
    extreme = card_page(result["cards"]["sandisk-extreme-256gb-microsdxc"])["sessions"][0]["stats"][0]
    assert 'data-mib="82.3"' in extreme["figures"]
