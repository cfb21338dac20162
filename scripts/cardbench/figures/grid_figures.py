"""A CrystalDiskMark-style grid of a card (or of one session): its suite's subtests down, read and
write across, each as MB/s, MiB/s, IOPS and latency.

card_grid() and session_grid() build the numbers, part of the card's JSON twin; the page model
formats them.
"""

from .stats import block_bytes_of_test
from .suites import suite_of_tests, test_order


def _shown_iops(subtest):
    """The subtest's IOPS as the grid shows them: recorded ones always (the tool printed them), derived
    ones (bandwidth ÷ block size) only for random tests, where I/O operations are what a reader compares;
    a sequential test's derived IOPS (0.7 for 1 GiB blocks) tell nothing."""
    iops = subtest.get("iops")
    if iops and iops.get("derived") and not subtest["test"].startswith("RND"):
        return None
    return iops


def _cell(subtest):
    """One grid cell from a subtest of the twin: means of its runs."""
    mb_s, mib_s, latency = subtest.get("mb_s"), subtest.get("mib_s"), subtest.get("latency_us")
    iops = _shown_iops(subtest)
    return {
        "mb_s": mb_s["mean"] if mb_s else None,
        "mib_s": mib_s["mean"] if mib_s else None,
        "printed": subtest.get("printed"),
        "iops": iops["mean"] if iops else None,
        "iops_derived": bool(iops and iops["derived"]),
        "latency_us": (latency or {}).get("mean", {}).get("mean"),
        "run_count": subtest["run_count"],
        "raw": subtest.get("raw") or [],
    }


def _grid(stats, basis):
    """The grid of some statistics objects (twin subtests or pooled), or None; see card_grid."""
    by_test = {}
    for s in stats:
        if block_bytes_of_test(s["test"]) and s["op"] in ("read", "write"):
            by_test.setdefault(s["test"], {})[s["op"]] = _cell(s)
    if not by_test:
        return None
    suite = suite_of_tests(by_test)
    first = list(suite["tests"]) if suite else []
    order = first + sorted((t for t in by_test if t not in first), key=test_order)
    rows = [{"test": test, "read": by_test[test].get("read"), "write": by_test[test].get("write")} for test in order]
    return {"suite": suite["id"] if suite else None, "suite_name": suite["name"] if suite else None,
            "basis": basis, "rows": rows}


def card_grid(pooled, session_labels):
    """The card's grid: its CrystalDiskMark-named subtests pooled over the compared sessions.

    Shape:
        {"suite": suite id or None, "suite_name": its name or None, "basis": text for readers,
         "rows": [{"test": "SEQ1M Q8T1", "read": cell or None, "write": cell or None}, …]}
    Rows: the tests of the first known suite the card ran completely, in the suite's order, then any
    other CrystalDiskMark-named subtest in CrystalDiskMark's order. A cell holds means over the runs in
    the statistics:
        {"mb_s": MB/s, "mib_s": MiB/s, "printed": as the source printed it ({unit, decimals, mean, min,
         max}), "iops": IOPS or None (derived IOPS only for random tests), "iops_derived": true when IOPS
         come from bandwidth ÷ block size, "latency_us": mean completion latency in µs where recorded,
         else None, "run_count": runs,
         "raw": raw files behind the figures (sessions' subtests only)}
    A subtest measured only as 'mix' is left out (the grid has read and write columns). None when the
    card has no CrystalDiskMark-named subtest.
    """
    if not session_labels:
        return None
    basis = "means over every run of " + ("the session " if len(session_labels) == 1 else "the sessions ") + \
        ", ".join(session_labels)
    return _grid(pooled.values(), basis)


def session_grid(subtests, label):
    """One session's grid, shaped as card_grid's, from the session's subtests in the twin."""
    return _grid([s for s in subtests if s["kind"] == "results"], f"means over the runs of {label}")


__all__ = ["card_grid", "session_grid"]
