"""The seed card files: they validate, and the site's arithmetic reproduces what their sources published."""

import json
import re

import pytest

from cardbench.figures.aggregate import aggregate
from cardbench.card.checks.validate import card_paths, validate_paths
from cardbench.core.paths import DATA_DIR

CARDS_DIR = DATA_DIR / "cards"

LEXAR = "lexar-play-pro-1tb-microsd-express"
ADATA = "adata-premier-extreme-256gb-microsd-express"
SANDISK = "sandisk-microsd-express-256gb-microsd-express"

# Expected figures from the comparison charts of the post "microSD Express Benchmarks" (M1cha, 2025-05-17;
# raw data at https://github.com/M1cha/sdexpress-research): per card, the average, slowest and fastest
# figure of every cdm_fio.sh subtest over all compared runs (Lexar and ADATA: active cooling only),
# in cdm_fio.sh's "MB/s", which is MiB/s. Bars listed in the chart's order, top to bottom:
CHART_ORDER = [
    "RND4K Q8T8 write", "RND4K Q8T8 read", "RND4K Q32T1 write", "RND4K Q32T1 read",
    "RND4K Q1T1 write", "RND4K Q1T1 read", "SEQ32M Q32T1 write", "SEQ32M Q32T1 read",
    "SEQ512K Q1T1 write", "SEQ512K Q1T1 read", "SEQ1G Q1T1 write", "SEQ1G Q1T1 read",
]
PUBLISHED = {
    "average": {
        SANDISK: [482, 422, 628, 411, 201, 13, 649, 834, 518, 558, 649, 818],
        ADATA: [376, 338, 362, 366, 173, 22, 458, 768, 360, 521, 452, 753],
        LEXAR: [337, 368, 352, 443, 149, 27, 410, 746, 304, 484, 404, 744],
    },
    "worst": {
        SANDISK: [302, 422, 598, 409, 201, 13, 645, 831, 517, 557, 648, 803],
        ADATA: [252, 205, 191, 250, 88, 10, 289, 761, 247, 512, 287, 676],
        LEXAR: [233, 299, 223, 397, 139, 20, 285, 711, 223, 454, 280, 718],
    },
    "best": {
        SANDISK: [662, 423, 657, 413, 201, 13, 653, 836, 520, 559, 650, 834],
        ADATA: [497, 459, 493, 465, 193, 38, 620, 777, 454, 531, 614, 772],
        LEXAR: [534, 436, 536, 467, 159, 37, 627, 764, 437, 492, 605, 763],
    },
}

# Averages published in the "Details" tables of the blog post "SD Card 성능 시험" (updated 2025-12-20),
# computed there from unrounded dd readings, so the stored (rounded) runs may differ by a hundredth or so.
DD_PUBLISHED_AVERAGES = {
    "sandisk-extreme-256gb-microsdxc": (86.26, 67.71),
    "kodak-uhs-i-u3-v30-a1-64gb-microsdxc": (78.44, 21.92),
    "sandisk-extreme-pro-256gb-sdxc": (83.52, 84.56),
    "sandisk-ultra-200gb-microsdxc": (82.62, 31.30),
    "sandisk-ultra-plus-128gb-microsdxc": (75.90, 32.97),
    "sandisk-extreme-64gb-sdxc": (54.00, 34.73),
    "sandisk-uhs-i-u1-64gb-sdxc": (67.54, 35.62),
    "samsung-uhs-i-c10-u1-64gb-sdxc": (44.46, 13.21),
    "samsung-c10-u1-32gb-sdhc": (51.47, 34.13),
    "sandisk-class-4-d1-32gb-sdhc": (20.57, 6.20),
}

# The one published average that its own five runs do not give: 82.6, 81.3, 83.3, 82.5, 82.9 average 82.52,
# the post prints 82.62. The runs are stored as printed, so the site shows 82.52.
DD_AVERAGE_NOT_FROM_RUNS = {("sandisk-ultra-200gb-microsdxc", "read"): (82.62, 82.52)}

OTHER_SEEDS = ["sandisk-ultra-64gb-microsdxc", "lexar-class-10-16gb-microsdhc",
               "silicon-motion-sm2708-reference-design-250gb-sd-express"]


@pytest.fixture(scope="module")
def validated():
    return validate_paths(card_paths(CARDS_DIR))


@pytest.fixture(scope="module")
def result(validated):
    cards, _ = validated
    return aggregate([c.data for c in cards])


def test_every_card_file_validates(validated):
    cards, findings = validated
    assert [str(f) for f in findings if f.severity == "error"] == []
    slugs = {c.data["slug"] for c in cards}
    expected = {LEXAR, ADATA, SANDISK, *DD_PUBLISHED_AVERAGES, *OTHER_SEEDS}
    assert expected <= slugs


def _suite(result, suite_id):
    (suite,) = [s for s in result["compare"]["suites"] if s["id"] == suite_id]
    return {card["slug"]: card for card in suite["cards"]}


@pytest.mark.parametrize("statistic", ["average", "worst", "best"])
@pytest.mark.parametrize("slug", [SANDISK, ADATA, LEXAR])
def test_microsd_express_comparison_matches_the_published_charts(result, slug, statistic):
    """All 36 averages (and worsts and bests) as printed: `printed` in the recorded MiB/s, the averages
    rounded half to even as the post's charts are, and `mib_s` shows them so; `mean`, `min`, `max` unrounded."""
    stats = _suite(result, "cdm-fio-sh-1g")[slug]["stats"]
    name = {"average": "mean", "worst": "min", "best": "max"}[statistic]
    got, unrounded = [], []
    for subtest in CHART_ORDER:
        entry = stats[subtest]
        assert entry["unit"] == "MiB/s" and entry["printed"]["unit"] == "MiB/s" and entry["printed"]["decimals"] == 0
        got.append(entry["printed"][name])
        assert entry["mib_s"][name] == entry["printed"][name]
        unrounded.append(entry[name])
    assert got == PUBLISHED[statistic][slug]
    assert unrounded == pytest.approx(PUBLISHED[statistic][slug], abs=0.5)


def test_the_published_averages_include_ties_that_round_to_even(result):
    """Eight of the 36 means end in .5; rounding them half up would print four of them one too high."""
    ties, half_up_wrong = 0, 0
    for slug in (SANDISK, ADATA, LEXAR):
        stats = _suite(result, "cdm-fio-sh-1g")[slug]["stats"]
        for subtest, published in zip(CHART_ORDER, PUBLISHED["average"][slug]):
            mean = stats[subtest]["mean"]  # in the recorded MiB/s, unrounded
            assert stats[subtest]["mib_s"]["mean"] == published
            if mean % 1 == 0.5:
                ties += 1
                half_up_wrong += int(mean + 0.5) != published
    assert (ties, half_up_wrong) == (8, 4)


def test_microsd_express_suite_pools_only_compared_sessions(result):
    members = _suite(result, "cdm-fio-sh-1g")
    assert set(members) == {SANDISK, ADATA, LEXAR}
    assert members[LEXAR]["sessions"] == ["Active cooling"]
    assert members[ADATA]["sessions"] == ["Active cooling"]
    assert members[LEXAR]["stats"]["SEQ1G Q1T1 read"]["run_count"] == 10
    assert members[SANDISK]["stats"]["SEQ1G Q1T1 read"]["run_count"] == 2


@pytest.mark.parametrize("slug", sorted(DD_PUBLISHED_AVERAGES))
def test_dd_means_match_the_published_averages(result, slug):
    pooled = result["cards"][slug]["pooled"]
    for op, published in zip(("read", "write"), DD_PUBLISHED_AVERAGES[slug]):
        entry = next(v for k, v in pooled.items() if k.startswith("dd ") and k.endswith(f" {op}"))
        assert entry["unit"] == "MB/s"
        printed, from_runs = DD_AVERAGE_NOT_FROM_RUNS.get((slug, op), (published, published))
        assert printed == published
        assert entry["mean"] == pytest.approx(from_runs, abs=0.02)


def _raw_text(entry):
    (raw,) = entry["raw"]
    return (DATA_DIR / raw).read_text(encoding="utf-8")


BINARY = {"KiB": 1024, "MiB": 1024**2}


def test_flashbench_points_agree_with_their_raw_output(validated):
    cards, _ = validated
    checked = 0
    for card in cards:
        for session in card.data["sessions"]:
            for entry in session.get("flashbench_open_au", []):
                rows = [line.split() for line in _raw_text(entry).splitlines()]
                points = [{"block_size_bytes": int(size[:-3]) * BINARY[size[-3:]], "value": float(value[:-3])}
                          for size, value in rows]
                assert points == entry["points"], entry["command"]
                checked += 1
            for entry in session.get("flashbench_align", []):
                rows = re.findall(r"Aligned @ (\d+)\s+Delay: (\d+)ns", _raw_text(entry))
                assert [{"offset_bytes": int(o), "delay_ns": int(d)} for o, d in rows] == entry["points"]
                checked += 1
            for entry in session.get("flashbench_find_fat", []):
                rows = [line.split() for line in _raw_text(entry).splitlines()]
                assert [{"block_size_bytes": int(r[0][:-3]) * BINARY[r[0][-3:]],
                         "values": [float(v[:-3]) for v in r[1:]]} for r in rows] == entry["rows"]
                checked += 1
    assert checked == 11


def test_dd_runs_agree_with_their_raw_output(validated):
    cards, _ = validated
    checked = 0
    for card in cards:
        for session in card.data["sessions"]:
            for entry in session.get("dd", []):
                if "raw" not in entry:
                    continue
                lines = _raw_text(entry).splitlines()
                figures = [re.search(r"copied, ([0-9.]+) s, ([0-9.]+) MB/s$", line).groups() for line in lines]
                assert [float(s) for s, _ in figures] == entry["seconds"]
                assert [float(v) for _, v in figures] == entry["runs"]
                checked += 1
    assert checked == 2


# The figure each source states for a card's sequential read and write and random 4 KiB read and write,
# and the rule that must pick it (None: the source states no such figure, and the site says "not measured").
#   [A] "microSD Express Benchmarks" (M1cha, 2025-05-17), chart "Comparison Of Averages": SEQ1G Q1T1 and
#       RND4K Q1T1 averages in cdm_fio.sh's "MB/s" (MiB/s), compared against the printed mean.
#   [B] "SD Card 성능 시험" (2025-12-20), table "Result": dd READ and WRITE averages, MB/s.
#   [C] "SanDisk Ultra 64GB microSD SDXC Card Review", table "Test Results": "Seq. write, direct" and
#       "Random write 4KiB" (no sequential read figure; "Seq. write, cache" and ", ext4" are conditions).
#   [D] "Lexar 16GB Class 10 microSD Review", table "Test Results": "Seq. read", "Seq. write, direct",
#       "Random write 4KiB".
#   [E] AnandTech, SM2708 review (2021-09-09): CrystalDiskMark after a format in SD Express mode, about
#       878 MBps read and 415 MBps write (not the ~200 MB/s read "after the fill").
UNSTATED = "dd-method-not-stated"  # [B] publishes these figures without saying which of its two dd methods gave them
SOURCE_HEADLINES = {
    # slug: (seq_read, seq_write, rnd4k_read, rnd4k_write); each (figure, rule) or None; source
    ADATA: ((753, "cdm-fio-seq1g-q1t1"), (452, "cdm-fio-seq1g-q1t1"), (22, "cdm-rnd4k-q1t1"),
            (173, "cdm-rnd4k-q1t1"), "A"),
    LEXAR: ((744, "cdm-fio-seq1g-q1t1"), (404, "cdm-fio-seq1g-q1t1"), (27, "cdm-rnd4k-q1t1"),
            (149, "cdm-rnd4k-q1t1"), "A"),
    SANDISK: ((818, "cdm-fio-seq1g-q1t1"), (649, "cdm-fio-seq1g-q1t1"), (13, "cdm-rnd4k-q1t1"),
              (201, "cdm-rnd4k-q1t1"), "A"),
    "sandisk-extreme-256gb-microsdxc": ((86.26, UNSTATED), (67.71, UNSTATED), None, None, "B"),
    "kodak-uhs-i-u3-v30-a1-64gb-microsdxc": ((78.44, UNSTATED), (21.92, UNSTATED), None, None, "B"),
    "sandisk-extreme-pro-256gb-sdxc": ((83.52, UNSTATED), (84.56, UNSTATED), None, None, "B"),
    "sandisk-ultra-200gb-microsdxc": ((82.62, UNSTATED), (31.30, UNSTATED), None, None, "B"),
    "sandisk-ultra-plus-128gb-microsdxc": ((75.90, "dd-read-cache-dropped"), (32.97, UNSTATED), None, None, "B"),
    "sandisk-extreme-64gb-sdxc": ((54.00, UNSTATED), (34.73, UNSTATED), None, None, "B"),
    "sandisk-uhs-i-u1-64gb-sdxc": ((67.54, UNSTATED), (35.62, UNSTATED), None, None, "B"),
    "samsung-uhs-i-c10-u1-64gb-sdxc": ((44.46, UNSTATED), (13.21, UNSTATED), None, None, "B"),
    "samsung-c10-u1-32gb-sdhc": ((51.47, UNSTATED), (34.13, UNSTATED), None, None, "B"),
    "sandisk-class-4-d1-32gb-sdhc": ((20.57, UNSTATED), (6.20, UNSTATED), None, None, "B"),
    "sandisk-ultra-64gb-microsdxc": (None, (15.90, "summary-seq"), None, (2.18, "summary-rnd4k"), "C"),
    "lexar-class-10-16gb-microsdhc": ((20.40, "summary-seq"), (11.20, "summary-seq"), None,
                                      (1.20, "summary-rnd4k"), "D"),
    "silicon-motion-sm2708-reference-design-250gb-sd-express": ((878, "summary-cdm-seq"), (415, "summary-cdm-seq"),
                                                                None, None, "E"),
}
HEADLINE_KEYS = ("seq_read", "seq_write", "rnd4k_read", "rnd4k_write")


def test_the_table_covers_every_seed_card(validated):
    """Every card transcribed from the five seed posts (the cards made from published sources' kept files,
    data/sources/, name their repository and are checked in tests/test_sources*.py)."""
    cards, _ = validated
    assert set(SOURCE_HEADLINES) == {c.data["slug"] for c in cards if not c.data["source"].get("repository")}


@pytest.mark.parametrize("slug", sorted(SOURCE_HEADLINES))
def test_headlines_are_the_figures_the_sources_state(result, slug):
    row = next(r for r in result["leaderboard"] if r["slug"] == slug)
    assert all(row[key] == result["cards"][slug]["headline"][key] for key in HEADLINE_KEYS)  # one pick, two places
    for key, expected in zip(HEADLINE_KEYS, SOURCE_HEADLINES[slug][:4]):
        pick = row[key]
        if expected is None:
            assert pick is None, (key, pick and pick["basis"])
            continue
        figure, rule = expected
        assert pick is not None, key
        assert pick["rule"] == rule, (key, pick["basis"])
        assert pick["basis"] and pick["sessions"] and pick["subtest"], key
        if pick["unit"] == "MiB/s":  # [A]: the chart prints whole MiB/s
            assert pick["printed"]["mean"] == figure, key
        elif pick["kind"] == "summary":  # the reviewer's own row, as published
            assert pick["mean"] == figure and pick["mb_s"] == figure, key
        else:  # [B]: averages of unrounded dd readings; the stored runs are dd's rounded prints
            _, from_runs = DD_AVERAGE_NOT_FROM_RUNS.get((slug, key.split("_")[1]), (figure, figure))
            assert pick["mb_s"] == pytest.approx(from_runs, abs=0.02), key


def test_every_raw_file_is_reachable_from_the_page_it_backs(result):
    """Each file under data/raw/<slug>/ is listed by the session it belongs to and by the charts or
    statistics it backs, in the JSON twin and in the page model."""
    from cardbench.pages.pagemodel import card_page

    checked = 0
    for folder in sorted((DATA_DIR / "raw").iterdir()):
        card_json = result["cards"][folder.name]
        if card_json["source"].get("repository"):
            continue  # a published source's card: its kept files are checked in tests/test_sources.py
        page_text = json.dumps(card_page(card_json))
        session_files = {ref for s in card_json["sessions"] for ref in s["raw_files"]}
        behind = {ref for refs in card_json["figure_raw"].values() for ref in refs}
        behind |= {ref for s in card_json["sessions"] for sub in s["subtests"] for ref in sub.get("raw") or []}
        for path in sorted(folder.rglob("*")):
            if path.is_dir() or path.name == "SHA256SUMS":
                continue
            ref = path.relative_to(DATA_DIR).as_posix()
            assert ref in session_files and ref in behind, ref
            assert json.dumps(ref) in page_text, ref
            checked += 1
    assert checked == 13  # Lexar 16GB: 9 flashbench outputs; SanDisk Ultra 64GB: 2; two dd read logs


def test_placeholders_are_not_measured_data(validated, result):
    cards, _ = validated
    for card in cards:
        for session in card.data["sessions"]:
            for row in session.get("headline") or []:
                assert row["value"] is None or not re.fullmatch(r"\s*-+\s*\S*\s*", row["value"]), row
    rows = result["cards"]["lexar-class-10-16gb-microsdhc"]["sessions"][0]["headline"]
    assert [r["name"] for r in rows if not r["measured"]] == ["Seq. write, cache", "Seq. write, ext4"]
    assert all(r["value"] is None for r in rows if not r["measured"])


def test_no_price_of_another_version(validated):
    """The SanDisk Ultra 64GB review quotes prices only for the later A1 version, not the card tested."""
    (ultra,) = [c.data for c in validated[0] if c.data["slug"] == "sandisk-ultra-64gb-microsdxc"]
    assert "price" not in ultra and "A1" not in (ultra.get("markings") or [])


def test_microsd_express_reads_are_not_called_the_links_limit(result):
    """The post says the three cards are "nowhere near saturating" PCIe Gen3 x1 (985 MB/s), and their files give
    no rated speed: no finding calls a figure the link's limit; a note says what would settle it instead. The
    Lexar ran on a friend's machine the post says nothing of: no link to judge it against, so no note either."""
    for slug in (LEXAR, ADATA, SANDISK):
        twin = result["cards"][slug]
        assert "reader_limited" not in {f["id"] for f in twin["findings"]}, slug
        noted = any(n["id"] == "reader_limited" for n in twin["findings_notes"])
        assert noted == (slug != LEXAR), slug


def test_pages_say_only_what_the_sources_say():
    """Where a source's words were overstated or misread: each as the source has it."""
    import yaml

    def data(slug):
        return yaml.safe_load((CARDS_DIR / f"{slug}.yaml").read_text(encoding="utf-8"))

    sandisk = data("sandisk-microsd-express-256gb-microsd-express")["sessions"][0]
    assert "own mistake" in sandisk["notes"] and "stopped working" not in sandisk["notes"]
    assert any("should not count against this card" in line for line in sandisk["reading"])
    assert any("RND4K Q1T1" in line for line in sandisk["reading"])
    sm2708 = data("silicon-motion-sm2708-reference-design-250gb-sd-express")["claimed"]
    assert (sm2708["read_mb_s"], sm2708["write_mb_s"]) == (895, 420)  # what the vendor saw on this sample
    lexar = data("lexar-class-10-16gb-microsdhc")["sessions"][0]
    assert "--open-au" in lexar["notes"] and "an offset" not in lexar["notes"]
    assert any("no" in line and "region" in line for line in lexar["reading"])
    ultra = data("sandisk-ultra-64gb-microsdxc")["sessions"][0]
    assert any("ext4" in line for line in ultra["reading"]) and any("24 MiB" in line for line in ultra["reading"])
    plus = data("sandisk-ultra-plus-128gb-microsdxc")["sessions"][0]
    assert any("no longer worked" in line for line in plus["reading"])
