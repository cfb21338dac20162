"""Capacity verdicts (f3probe's damaged verdict, H2testw's and f3read's capacity checks) and the Raspberry Pi
SD Card Speed Test's own verdict on an A1 marking, on the card page."""

from pathlib import Path

from cardbench.parsers import agnostics, f3_write_read as f3rw, h2testw
from cardbench.figures.aggregate import aggregate
from cardbench.figures.findings import card_findings

CORPUS = Path(__file__).parent / "fixtures" / "import-corpus"


def session_from(module, case, sid="s1"):
    parsed = module.parse((CORPUS / case).read_text(encoding="utf-8"))
    return {"id": sid, "label": f"Session {sid}", **module.to_session(parsed).measurements}


def card(markings=(), sessions=()):
    return {"schema_version": 1, "slug": "acme-a", "brand": "Acme", "model": "A", "capacity_gb": 64,
            "form_factor": "microSD", "family": "SDXC", "bus": "UHS-I", "source": {"name": "t"},
            "markings": list(markings), "sessions": list(sessions)}


def test_a_damaged_card_is_not_a_fake_one():
    damaged = {"fake": False, "verdict": "damaged", "announced_bytes": 64_000_000_000, "usable_bytes": 0}
    (found,), _ = card_findings({"sessions": [{"id": "s1", "label": "s1", "f3probe": damaged}]})
    assert found["fake"] is False and found["damaged"] is True
    assert found["text"].startswith("DAMAGED") and "f3probe's own verdict: the device is damaged" in found["basis"]


def test_h2testw_data_lost_feeds_the_capacity_finding():
    session = session_from(h2testw, "h2testw/h2testw--english-data-lost-email-quote.out")
    (found,), _ = card_findings({"sessions": [session]})
    assert found["id"] == "fake_capacity" and found["data_lost"] is True and found["fake"] is False
    assert found["value"] == 32768000 * 512 and found["text"] == "DATA LOST: 45.6 GB of 62.4 GB written"
    assert found["basis"].startswith("H2testw's own verdict (\u201cThe media is likely to be defective.\u201d)")


def test_f3read_verdicts_feed_the_capacity_finding():
    good = session_from(f3rw, "f3rw/f3rw--write-read-ok-prompted.out", "s1")
    bad = session_from(f3rw, "f3rw/f3rw--corrupted-markdown-fence.out", "s2")
    found, _ = card_findings({"sessions": [good, bad]})
    assert [(f["session"], f["data_lost"]) for f in found] == [("s1", False), ("s2", True)]
    assert found[0]["text"] == "all data read back: 2.59 GB"
    assert found[1]["basis"].startswith("f3write/f3read's own verdict (\u201cData LOST: 1.28 MB (2624 sectors)\u201d)")


def test_the_speed_test_decides_an_a1_check_the_card_figures_cannot():
    passed = session_from(agnostics, "agnostics/agnostics--kb-s-two-runs-prompt-crlf.out")
    (check,) = aggregate([card(["A1"], [passed])])["cards"]["acme-a"]["class_checks"]
    assert check["verdict"]["id"] == "meets"
    assert check["verdict"]["note"] == (
        agnostics.VERDICT_BASIS + ": PASS, Session s1, run 2 of 2: 19309 KB/sec, 662 and 2426 IOPS")


def test_a_failed_speed_test_fails_the_a1_check():
    failed = session_from(agnostics, "agnostics/agnostics--gui-log-three-runs-fail.out")
    (check,) = aggregate([card(["A1"], [failed])])["cards"]["acme-a"]["class_checks"]
    assert check["verdict"]["id"] == "does_not_meet" and ": FAIL, Session s1, run 3 of 3" in check["verdict"]["note"]


def test_the_speed_test_stands_beside_a_verdict_the_card_figures_give():
    failed = session_from(agnostics, "agnostics/agnostics--gui-log-three-runs-fail.out")
    fio = {"id": "s2", "label": "fio", "results": [
        {"test": t, "op": op, "unit": "MB/s", "runs": [v], "iops": [v * 1e6 / 4096] if t.startswith("RND") else None}
        for t, op, v in (("SEQ1M Q8T1", "write", 30.0), ("SEQ1M Q8T1", "read", 80.0), ("RND4K Q1T1", "read", 10.0),
                         ("RND4K Q1T1", "write", 4.0))]}
    for result in fio["results"]:
        if result["iops"] is None:
            del result["iops"]
    (check,) = aggregate([card(["A1"], [fio, failed])])["cards"]["acme-a"]["class_checks"]
    assert check["verdict"]["id"] == "meets"  # the card's own figures decide
    assert "the Raspberry Pi SD Card Speed Test's own verdict" in check["verdict"]["note"]


def test_no_speed_test_no_change():
    (check,) = aggregate([card(["A1"], [{"id": "s1", "label": "s1", "results": [
        {"test": "SEQ1M Q8T1", "op": "write", "unit": "MB/s", "runs": [30.0]}]}])])["cards"]["acme-a"]["class_checks"]
    assert check["verdict"]["id"] == "cannot_tell" and "tool_verdicts" not in check
