"""The seed cards' pages say only what their sources say, and one headline rule speaks for a card everywhere.

Each test quotes the short phrase of its source it relies on (file and line in /work/shared/seeds, which a
clean clone does not have: the phrase is kept here) and checks the page, twin, feed or /readers/ says the same.

Seeds: 000 "SanDisk Ultra 64GB microSD SDXC Card Review"; 001 the dd blog post "SD Card 성능 시험" (updated
2025-12-20); 002 "microSD Express Benchmarks"; 003 AnandTech's SM2708 review; 004 "Lexar 16GB Class 10
microSD Review".
"""

import json
import re
from html import unescape
from pathlib import Path

import pytest
import yaml

from cardbench.card.load import load_card
from cardbench.core.paths import CARDS_DIR
from cardbench.figures.aggregate import aggregate
from cardbench.figures.findings.signal_path import reader_findings
from cardbench.figures.headlines import pick_headline
from cardbench.pages.pagemodel import card_page
from cardbench.figures.hosts_readers import card_reach
from cardbench.pages.card_readers_page import card_groups, readers_page
from cardbench.publish.sitedata import parts_from_result, site_texts

ROOT = Path(__file__).resolve().parents[1]
EXTREME_256 = "sandisk-extreme-256gb-microsdxc"
EXTREME_PRO = "sandisk-extreme-pro-256gb-sdxc"
ULTRA_200 = "sandisk-ultra-200gb-microsdxc"
ULTRA_PLUS = "sandisk-ultra-plus-128gb-microsdxc"
KODAK = "kodak-uhs-i-u3-v30-a1-64gb-microsdxc"
LEXAR_PLAY = "lexar-play-pro-1tb-microsd-express"
LEXAR_16 = "lexar-class-10-16gb-microsdhc"
CLASS_4 = "sandisk-class-4-d1-32gb-sdhc"
SM2708 = "silicon-motion-sm2708-reference-design-250gb-sd-express"
ULTRA_64 = "sandisk-ultra-64gb-microsdxc"
ADATA = "adata-premier-extreme-256gb-microsd-express"
EXPRESS = "sandisk-microsd-express-256gb-microsd-express"
SEED_001_NAME = "성능 시험"


@pytest.fixture(scope="module")
def cards():
    return [load_card(path).data for path in sorted(Path(CARDS_DIR).glob("*.yaml"))]


@pytest.fixture(scope="module")
def result(shipped_result):
    return shipped_result


@pytest.fixture(scope="module")
def built(result):
    pieces = parts_from_result(result)
    return {parts["slug"]: (parts, files) for parts, files in pieces}, site_texts([p for p, _ in pieces])


def text_of(html):
    return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", html))).strip()


def page_text(built, slug):
    return text_of(built[0][slug][1]["pages"])


def leader_row_html(built, slug):
    rows = re.findall(r"<tr.*?</tr>", built[1]["site/leaderboard.html"], re.S)
    return next(r for r in rows if f'href="<base>cards/{slug}/"' in r)


# --- 1. the path's limit --------------------------------------------------------------------------------

# Seed 001, lines 37-38: the author only guesses why the figures are low ("the test conditions were not set for
# the top speed, and it may also be my laptop's limit").
SEED_001_GUESS = "내 Laptop의 한계일 수도 있지만"
# Seed 001, line 74: the Extreme PRO's own five write runs, through the same laptop as its reads (83.5 MB/s).
SEED_001_PRO_WRITES = "| SanDisk Extreme PRO V30 U3 C10 | 89.6 | 90.4 | 63.0 | 89.6 | 90.2 |   84.56 |"


def test_no_figure_is_called_the_paths_limit_when_the_same_path_carried_more(result):
    assert "90.4" in SEED_001_PRO_WRITES
    pro = result["cards"][EXTREME_PRO]
    assert [f for f in pro["findings"] if f["id"] == "reader_limited"] == []
    (note,) = [n for n in pro["findings_notes"] if n["id"] == "reader_limited"]
    assert "90.4 MB/s" in note["reason"] and "not the path's limit" in note["reason"]
    # The Ultra 200's 2018 reads (82.5 MB/s) went through the same laptop as its 2025 re-test (86.5 MB/s at best).
    ultra = result["cards"][ULTRA_200]
    assert {f["session"] for f in ultra["findings"] if f["id"] == "reader_limited"} == {"re-test-2025"}
    assert any("86.5 MB/s" in n["reason"] and n["session"] == "2018-12-11-dd-on-a-laptop"
               for n in ultra["findings_notes"])


def test_a_rating_alone_makes_the_paths_limit_likely_never_certain(result):
    assert "수도 있지만" in SEED_001_GUESS  # "may be": the source itself is not sure
    for slug, twin in result["cards"].items():
        for found in (f for f in twin["findings"] if f["id"] == "reader_limited"):
            if found["likely"]:
                assert found["label"] == "Likely limited by the reader or bus", slug
                assert "likely" in found["verdict"] and "not the card" not in found["verdict"], slug
                assert "the path's limit" not in found["basis"] and "Likely, not certain" in found["basis"], slug
            else:
                assert "through another path" in found["basis"], slug
    (extreme,) = [f for f in result["cards"][EXTREME_256]["findings"] if f["id"] == "reader_limited"]
    assert extreme["likely"] and "86.3 MB/s" in extreme["basis"] and "rated 190 MB/s" in extreme["basis"]


def test_a_faster_run_through_the_same_host_and_reader_in_another_session_rules_the_limit_out():
    def session(sid, runs, reader="UHS-I USB 3.0 reader"):
        return {"id": sid, "label": sid, "host": "Pi", "reader": reader,
                "dd": [{"op": "read", "block_size": "4M", "flags": ["direct"], "unit": "MB/s", "runs": runs}]}

    card = {"bus": "UHS-I", "claimed": {"read_mb_s": 200}, "sessions": [session("a", [84.0, 85.0]),
                                                                        session("b", [89.0, 89.5])]}
    findings, notes = reader_findings(card)
    assert [f["session"] for f in findings] == ["b"] and findings[0]["likely"]
    assert [n["session"] for n in notes] == ["a"] and "89.5 MB/s" in notes[0]["reason"]
    # Through another reader, the faster session shows nothing about this path's limit.
    card["sessions"][1] = session("b", [89.0, 89.5], reader="Another reader")
    findings, notes = reader_findings(card)
    assert sorted(f["session"] for f in findings) == ["a", "b"] and notes == []


# --- 2. the dd method only where the post ties it to a card ------------------------------------------------

# Seed 001, line 93 (the current command) and lines 105-106: these runs are the Ultra 200GB's re-test.
SEED_001_NEW_METHOD = "bs=4M count=256 iflag=direct"
SEED_001_NEW_METHOD_CARD = "SanDisk Ultra 200GB 모델을"
# Seed 001, line 121 (the earlier command) and line 130: these runs are the Ultra Plus 128GB's earlier test.
SEED_001_OLD_METHOD = "bs=4k count=262144"
SEED_001_OLD_METHOD_CARD = "SanDisk Ultra Plus 128GB microSDXC I C10 U1 V10 A1"
STATED_METHODS = {(ULTRA_200, "re-test-2025", "read"): "dd bs=4M", (ULTRA_PLUS, "dd-on-a-laptop", "read"): "dd bs=4K"}


def test_a_dd_method_is_tied_to_a_run_only_where_the_post_says_so(cards, result):
    assert SEED_001_NEW_METHOD.startswith("bs=4M") and SEED_001_OLD_METHOD.startswith("bs=4k")
    seen = set()
    for card in cards:
        if SEED_001_NAME not in card["source"]["name"]:
            continue
        twin = result["cards"][card["slug"]]
        for session in twin["sessions"]:
            for sub in session["subtests"]:
                key = (card["slug"], session["id"], sub["op"])
                expected = STATED_METHODS.get(key, "dd (method not stated)")
                assert sub["test"] == expected, key
                if key not in STATED_METHODS:
                    assert not {"block_size", "block_count", "flags", "command"} & set(sub), key
                seen.add(key)
        shown = card_page(twin)
        names = [row["name"] for s in shown["sessions"] for row in s["stats"]] + [r.get("by", "") for r in
                                                                                   shown["claimed_rows"]]
        for name in names:
            assert "bs=" not in name or any(name.startswith(v) for k, v in STATED_METHODS.items()
                                             if k[0] == card["slug"]), (card["slug"], name)
    assert set(STATED_METHODS) <= seen
    kodak = card_page(result["cards"][KODAK])
    assert all("bs=4M" not in row["name"] for s in kodak["sessions"] for row in s["stats"])


# --- 3. no class verdict from a file written on an unknown slot ---------------------------------------------

# Seed 001, line 152: every write test names a file as dd's output, on a disk already in use.
SEED_001_WRITES_TO_A_FILE = "`of`를 파일로 지정해서 사용하고 있다"
# Seed 001, line 26: the KODAK's row, its only figures; the post judges no class anywhere.
SEED_001_KODAK = "| KODAK 64GB microSDXC I C10 U3 V30 A1 (AliExpr) | 78.44 | 21.92 | 2025-11-10 |"


def test_a_file_written_through_the_filesystem_carries_no_shortfall_verdict(result):
    assert "21.92" in SEED_001_KODAK and "파일" in SEED_001_WRITES_TO_A_FILE
    checks = {c["marking"]: c for c in result["cards"][KODAK]["class_checks"]}
    for marking in ("U3", "V30"):
        verdict = checks[marking]["verdict"]
        assert verdict["id"] == "cannot_tell" and verdict["text"] != "does not meet", marking
        assert "no verdict" in verdict["note"] and "A verdict needs" in verdict["note"], marking
        assert "card's own device" in verdict["note"], marking
    assert checks["C10"]["verdict"]["id"] == "meets"  # 21.9 MB/s through a filesystem does reach 10 MB/s
    assert all(c["verdict"]["id"] != "does_not_meet" for twin in result["cards"].values() for c in twin["class_checks"]
               if any(p.get("shortfall_unshown") for p in c["parts"]))


def test_a_write_to_the_device_below_the_minimum_still_does_not_meet():
    card = {"schema_version": 1, "slug": "acme-slow-64gb-microsdxc", "brand": "Acme", "model": "Slow",
            "capacity_gb": 64, "form_factor": "microSD", "family": "SDXC", "bus": "UHS-I", "markings": ["U3"],
            "source": {"name": "t"}, "sessions": [{"id": "s", "label": "s", "dd": [
                {"op": "write", "block_size": "4M", "flags": ["direct"], "target": "device", "unit": "MB/s",
                 "runs": [20.0, 21.0]}]}]}
    (check,) = aggregate([card])["cards"]["acme-slow-64gb-microsdxc"]["class_checks"]
    assert check["verdict"]["id"] == "does_not_meet"


# --- 4. the Lexar PLAY PRO: no reader the post does not name -------------------------------------------

# Seed 002, lines 42-43: "had a friend test this for me on a different machine but using the same operating
# system and script"; the post names no adapter or reader for that machine.
SEED_002_FRIEND = "had a friend test this for me on a different"


def test_the_lexar_play_pro_names_no_reader(result, built):
    assert "friend" in SEED_002_FRIEND
    for session in result["cards"][LEXAR_PLAY]["sessions"]:
        assert "reader" not in session and "friend" in session["host"]
    assert "Reader not stated" in page_text(built, LEXAR_PLAY)
    assert "M.2 adapter" not in page_text(built, LEXAR_PLAY)
    readers = json.loads(built[1]["site/readers.json"])["readers"]
    assert all(LEXAR_PLAY not in {c["slug"] for c in r["cards"]} for r in readers)


# --- 5. an inferred bus says so wherever it shows -------------------------------------------------------

# Seed 004, line 1, and seed 001, line 34: each names the card by its class alone, no bus.
SEED_004_TITLE = "Lexar 16GB Class 10 microSD Review"
SEED_001_CLASS_4 = "| SanDisk 32GB SDHC Class 4 (D1)                 | 20.57 |  6.20 |            |"


def test_an_inferred_bus_is_marked_inferred_on_the_page_the_leaderboard_and_the_filter(built):
    for words in (SEED_004_TITLE, SEED_001_CLASS_4):
        assert "UHS" not in words and "High Speed" not in words
    for slug in (LEXAR_16, CLASS_4):
        row = leader_row_html(built, slug)
        cell = re.search(r"</th><td>(.*?)</td>", row).group(1)
        assert text_of(cell) == "Default/High Speed (inferred)", slug
        assert "Bus Default/High Speed — inferred" in page_text(built, slug), slug
        assert "Default/High Speed (inferred)" in text_of(built[0][slug][0]["list_item"]), slug
    filters = json.loads(built[1]["site/leaderboard.json"])["filters"]
    assert filters["bus_text"]["Default/High Speed"] == "Default/High Speed (inferred)"
    assert filters["bus_text"]["UHS-I"] == "UHS-I"
    home = (ROOT / "layouts" / "home.html").read_text(encoding="utf-8")
    assert "index $table.filters.bus_text ." in home
    assert "(inferred)" not in text_of(leader_row_html(built, EXTREME_PRO))


# --- 6. the SM2708: "around 100C", and the claim's caveat in the leaderboard ------------------------------

# Seed 003, line 84: "the internal temperature of the SD card to be around 100C when subject to heavy stress".
SEED_003_TEMPERATURE = "to be around 100C when subject to heavy stress"
# Seed 003, line 50: what the vendor saw on this sample, not a rating of the card.
SEED_003_CLAIM = "they were seeing 895 MBps reads and around 420 MBps writes in terms of peak performance"


def test_the_sm2708_temperature_is_about_100_and_its_claim_carries_its_caveat(built):
    assert "around 100C" in SEED_003_TEMPERATURE and "895" in SEED_003_CLAIM
    text = page_text(built, SM2708)
    assert "Highest during tests about 100 °C" in text and "Highest during tests 100 °C" not in text
    row = leader_row_html(built, SM2708)
    claimed = re.search(r'<td class="num" data-value="895">(.*?)</td>', row).group(1)
    mark = re.search(r'<span class="stated-mark claim-note" title="([^"]+)">', claimed)
    assert text_of(claimed).startswith("895 / 420") and mark
    assert "this reference sample" in unescape(mark.group(1))


# --- 7. the Ultra 64's reading, as its source has it ---------------------------------------------------

# Seed 000, line 80, and line 82.
SEED_000_CLASS_10 = ("No problem with regards to being 'Class 10' compliant for direct device writes, although it "
                     "is between 10.xx and 12.5x MB/s when writing over a file system.")
SEED_000_PAGE = "Optimal page size seems to be at least 48KiB but it is within the margin of error."


def test_the_ultra_64_reading_says_what_its_source_says(built):
    assert "direct device writes, although" in SEED_000_CLASS_10 and "at least 48KiB" in SEED_000_PAGE
    text = page_text(built, ULTRA_64)
    assert "meets Class 10 without trouble when writing straight to the device, although through a filesystem" in text
    assert "still counts as Class 10" not in text
    assert "best page size to be at least 48 KiB, within the margin of error" in text
    assert "a page of 48 KiB" not in text


# --- 8. a figure rounded once --------------------------------------------------------------------------

# Seed 002, line 418: the ADATA's passive-cooling Test 1; its sixth bar, RND4K Q1T1 read, is 36 MiB/s
# (37.748736 MB/s), which the card's table shows as 37.7.
SEED_002_ADATA_PASSIVE_TEST_1 = '"x": [ 389, 413, 478, 454, 193, 36, 619, 777, 444, 516, 610, 775 ]'


def test_an_outlying_run_is_rounded_once_from_the_recorded_figure(result):
    assert SEED_002_ADATA_PASSIVE_TEST_1.split(", ")[5] == "36"
    (stability,) = [f for f in result["cards"][ADATA]["findings"]
                    if f["id"] == "stability" and f["session"] == "2025-05-17-passive-cooling"]
    assert "RND4K Q1T1 read run 1 (37.7 MB/s" in stability["basis"] and "37.8" not in stability["basis"]
    read = next(d for d in stability["subtests"] if d["subtest"] == "RND4K Q1T1 read")
    assert read["outliers"][0]["mb_s"] == pytest.approx(36 * 1.048576)


# --- 9. stated figures that a sweep charts ----------------------------------------------------------------

# Seed 000, lines 21 and 75; seed 004, lines 18 and 83-84: the stated write is a point of the dd sweep.
SEED_000_STATED, SEED_000_SWEEP = "Seq. write, direct:   15.90 MB/s", " 64k - 15.90 MB/s"
SEED_004_STATED, SEED_004_SWEEP = "Seq. write, direct:   11.20 MB/s", "  2 MiB = 11.20 MB/s"


def test_stated_figures_that_a_sweep_charts_say_so(result, built):
    assert SEED_000_STATED[-10:] == SEED_000_SWEEP[-10:] and SEED_004_STATED[-10:] == SEED_004_SWEEP[-10:]
    for slug, point in ((ULTRA_64, "the 64 KiB point of the dd write sweep"),
                        (LEXAR_16, "the 2 MiB and 4 MiB points of the dd write sweep")):
        (c10,) = [c for c in result["cards"][slug]["class_checks"] if c["marking"] == "C10"]
        assert point in c10["verdict"]["note"], slug
        assert "no runs recorded here" not in page_text(built, slug), slug
    assert "no runs recorded here" not in (ROOT / "layouts" / "home.html").read_text(encoding="utf-8")


# --- 10. the feed and the description: no date or measurement the source does not give ------------------------

# Seed 001, line 29: the Ultra Plus's row leaves "Tested at" empty; line 7 dates the post's update.
SEED_001_ULTRA_PLUS = "| SanDisk Ultra Plus 128GB microSDXC I U1 V10 A1 | 75.90 | 32.97 |            |"
SEED_001_UPDATED = "lastmod: 2025-12-20T23:26:50+09:00"
# Seed 003, line 75: the SM2708's figures are the review's words, "around 878 MBps / 415 MBps".
SEED_003_CDM = "the performance gets restored to around 878 MBps / 415 MBps"


def test_the_feed_gives_an_undated_session_no_date_and_stated_figures_say_stated(result, built):
    assert SEED_001_ULTRA_PLUS.endswith("|            |") and "2025-12-20" in SEED_001_UPDATED
    entries = json.loads(built[1]["site/feed.json"])["entries"]
    plus = next(e for e in entries if e["slug"] == ULTRA_PLUS)
    assert "(date not stated; source dated 2025-12-20)" in plus["summary"] and "(2025-12-20)" not in plus["summary"]
    for card in result["cards"].values():
        for session in card["sessions"]:
            entry = next((e for e in entries
                          if e["anchor"] == f"session-{session['id']}" and e["slug"] == card["slug"]),
                         None)
            if entry and not session.get("date"):
                assert "date not stated" in entry["summary"], (card["slug"], session["id"])
    assert "878" in SEED_003_CDM
    description = card_page(result["cards"][SM2708])["description"]
    assert "878 MB/s" in description and "as the source states them" in description
    assert "charted" not in description.replace("none charted", "")


# --- 11. the microSD Express note in plain words --------------------------------------------------------------

def test_a_figure_above_the_estimate_is_said_plainly(result):
    (note,) = [n for n in result["cards"][EXPRESS]["findings_notes"] if n["id"] == "reader_limited"]
    assert ("the card read faster than this site's estimate of what the PCIe Gen3 x1 link allows" in note["reason"]
            and "so the estimate was wrong for this path; nothing shows the link holding the card back"
            in note["reason"])
    assert "too low" not in note["reason"] and "is above this site's estimate" not in note["reason"]


# --- 12. one headline rule for /readers/ ----------------------------------------------------------------------

# Seed 002, line 18: the three cards "all support PCIe Gen3x1"; the leaderboard ranks SanDisk's SEQ1G Q1T1 read.
SEED_002_LINK = "They all support PCIe Gen3x1 which supports a maximum theoretical transfer speed"
# Seed 000, line 30: the Ultra 64 was measured through a USB 2.0 card reader (dd and flashbench).
SEED_000_READER = "Testing was done on an USB 2.0 card reader, so keep that in mind."


def test_readers_take_the_cards_headline_pick_for_each_path(result, built):
    assert "Gen3x1" in SEED_002_LINK and "USB 2.0 card reader" in SEED_000_READER
    readers = {r["name"]: r for r in json.loads(built[1]["site/readers.json"])["readers"]}
    m2 = readers["M.2 adapter, PCIe Gen3 x1"]
    express = next(c for c in m2["cards"] if c["slug"] == EXPRESS)
    headline = result["cards"][EXPRESS]["headline"]["seq_read"]
    assert express["read"]["subtest"] == headline["subtest"] == "SEQ1G Q1T1 read"
    assert express["read"]["text"] == "858" and m2["fastest_read"]["text"] == "858"
    usb2 = readers["USB 2.0 card reader"]
    (ultra,) = usb2["cards"]
    assert ultra["slug"] == ULTRA_64 and ultra["read"] is None
    assert ultra["write"]["text"] == "15.9" and ultra["write"]["stated"]
    assert "dd sweep" in ultra["measured"] and "flashbench" in usb2["measured"]
    layout = (ROOT / "layouts" / "readers.html").read_text(encoding="utf-8")
    assert "none measured" not in layout and "measured through it" in layout
    assert "largest sequential" not in (ROOT / "content" / "readers.md").read_text(encoding="utf-8")
    assert "largest sequential" not in (ROOT / "layouts" / "home.html").read_text(encoding="utf-8")


def test_each_paths_figure_is_the_headline_pick_over_that_paths_sessions_alone():
    def session(sid, reader, test, runs):
        return {"id": sid, "label": sid, "host": "Pi", "reader": reader,
                "results": [{"test": test, "op": "read", "unit": "MB/s", "runs": runs}]}

    card = {"schema_version": 1, "slug": "acme-two-64gb-microsdxc", "brand": "Acme", "model": "Two", "capacity_gb": 64,
            "form_factor": "microSD", "family": "SDXC", "bus": "UHS-I", "source": {"name": "t"},
            "sessions": [session("a", "Reader A", "SEQ1M Q8T1", [80.0, 82.0]),
                         session("a2", "Reader A", "SEQ128K Q32T1", [95.0]),  # larger, but not the headline rule's
                         session("b", "Reader B", "SEQ1M Q8T1", [40.0]),
                         dict(session("c", "Reader C", "SEQ1M Q8T1", [30.0]), compare=False)]}
    twin = aggregate([card])["cards"]["acme-two-64gb-microsdxc"]
    reach = {p["reader"]: p for p in card_reach(twin)}
    assert reach["Reader A"]["read"]["subtest"] == "SEQ1M Q8T1 read" and reach["Reader A"]["read"]["mb_s"] == 81.0
    assert reach["Reader B"]["read"]["mb_s"] == 40.0
    # A reader named only by a session left out of comparisons is still listed, with what went through it.
    page = readers_page([(card["slug"], "Acme Two", card_groups(card_reach(twin)))], str.casefold)
    (c,) = [r for r in page["readers"] if r["name"] == "Reader C"]
    assert c["fastest_read"] is None and c["cards"][0]["measured"] == "SEQ1M Q8T1 read"
    only_a = dict(card, sessions=[dict(s, compare=s["reader"] == "Reader A") for s in card["sessions"]])
    from cardbench.figures.stats import runs_frame
    assert pick_headline(only_a, runs_frame([only_a]), {}, "seq_read")["mb_s"] == 81.0


def test_the_seed_cards_still_validate():
    from cardbench.card.checks.validate import card_paths, validate_paths

    _, findings = validate_paths(card_paths(CARDS_DIR))
    assert [str(f) for f in findings if f.severity == "error"] == []
    kodak = yaml.safe_load((Path(CARDS_DIR) / f"{KODAK}.yaml").read_text(encoding="utf-8"))
    assert all(e.get("method_stated") is False for e in kodak["sessions"][0]["dd"])


def test_a_card_file_gives_no_block_size_for_figures_whose_command_is_not_stated(tmp_path):
    from carddata import by_rule, card_data, findings_for

    entry = {"op": "read", "target": "device", "method_stated": False, "unit": "MB/s", "runs": [80.0, 81.0]}
    session = {"id": "s1", "label": "Laptop", "date": "2025-05-01", "dd": [entry]}
    assert by_rule(findings_for(card_data(sessions=[session]), tmp_path), "dd-block-size") == []
    guessed = dict(entry, block_size="4M", count=256, flags=["direct"])
    problems = by_rule(findings_for(card_data(sessions=[dict(session, dd=[guessed])]), tmp_path), "dd-block-size")
    assert len(problems) == 3 and all(p.severity == "error" for p in problems)
