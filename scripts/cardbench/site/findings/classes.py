"""Speed-class verdicts that need a finding: U3 and the video classes are sustained-write promises,
so where a fill shows an SLC cache they are judged on the speed after it."""

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
