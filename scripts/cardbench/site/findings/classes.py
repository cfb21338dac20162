"""Speed-class verdicts that need a finding: U3 and the video classes are sustained-write promises,
so where a fill shows an SLC cache they are judged on the speed after it; an A1 marking is also judged
by the Raspberry Pi SD Card Speed Test's own verdict where a session ran it."""

from ...parsers import agnostics
from . import thresholds as t
from .common import rate_text

SUSTAINED_IDS = ("write_after_cache", "sustained_write")


def _sustained(findings, compared):
    """The lowest sustained write of a compared session: after the cache (and any later step), or
    the whole fill where it shows no cache."""
    best = None
    for f in findings:
        if f["session"] not in compared or f["id"] not in SUSTAINED_IDS + ("write_later",):
            continue
        if best is None or f["value"] < best["value"]:
            best = f
    return best


def amend_class_checks(class_checks, findings, compared_sessions):
    """Judge sustained-write markings on the fill (in place). Returns class_checks."""
    sustained = _sustained(findings, set(compared_sessions))
    if sustained is None:
        return class_checks
    source = (f"sustained fill, {sustained['session_label']}: {sustained['label'].lower()} "
              f"{rate_text(sustained['value'])}")
    for check in class_checks or []:
        if check.get("marking") not in t.SUSTAINED_MARKINGS:
            continue
        parts = check.setdefault("parts", [])
        part = next((p for p in parts if p.get("unit") == "MB/s" and "write" in str(p.get("what", ""))), None)
        if part is None:
            need = next((p.get("need") for p in parts if p.get("unit") == "MB/s"), None)
            if need is None:
                continue
            part = {"need": need, "unit": "MB/s"}
            parts.append(part)
        # The basis key as the class checks spell it ("basis", earlier "from").
        part.update({"what": "sustained write after any cache", "measured": round(sustained["value"], 2),
                     ("from" if "from" in part else "basis"): source})
        if "sessions" in part:
            part["sessions"] = [sustained["session"]]
        part["meets"] = part["measured"] >= part["need"]
        known = [p.get("meets") for p in parts]
        check["meets"] = False if False in known else (None if None in known else True)
    return class_checks


def speed_test_verdicts(card, compared_sessions):
    """The Raspberry Pi SD Card Speed Test's own verdict of each compared session that ran it, worked
    out from its stored figures by its own rule (a run passes when it reaches all three targets; the
    test passes on any run that passes): [{"session", "verdict": "PASS" | "FAIL", "basis"}]."""
    out = []
    for session in card.get("sessions") or []:
        if session.get("id") not in compared_sessions:
            continue
        figures = {entry.get("test"): entry.get("runs") or [] for entry in session.get("tool_results") or []
                   if entry.get("tool") == agnostics.TOOL and entry.get("test") in agnostics.TARGETS}
        if len(figures) < len(agnostics.TARGETS) or len({len(runs) for runs in figures.values()}) != 1:
            continue
        count = len(figures["seq-write"])
        passing = [i for i in range(count) if all(figures[test][i] >= need for test, need in agnostics.TARGETS.items())]
        verdict = "PASS" if passing else "FAIL"
        shown = passing[0] if passing else count - 1
        measured = (f"{figures['seq-write'][shown]:g} KB/sec, {figures['rand-4k-write'][shown]:g} and "
                    f"{figures['rand-4k-read'][shown]:g} IOPS")
        basis = (f"{agnostics.VERDICT_BASIS}: {verdict}, {session.get('label', session['id'])}, run {shown + 1} of "
                 f"{count}: {measured}")
        out.append({"session": session["id"], "verdict": verdict, "basis": basis})
    return out


def amend_with_speed_test(class_checks, card, compared_sessions):
    """Give each A1 check the Raspberry Pi SD Card Speed Test's own verdicts (in place): the test checks
    the A1 figures itself, so its PASS or FAIL is the check's verdict where the card's own figures cannot
    tell, and stands beside it otherwise (classchecks.judge). Returns class_checks."""
    verdicts = speed_test_verdicts(card, set(compared_sessions))
    for check in class_checks or []:
        if check.get("marking") == "A1" and verdicts:
            check["tool_verdicts"] = verdicts
    return class_checks
