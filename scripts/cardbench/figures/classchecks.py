"""Verdicts on a card's markings: whether its figures reach the SD Association minimums each marking promises.

class_checks() is the one place a card's checks are made: a pure function of the card, its headline figures,
the statistics of its subtests and runs (stats.py) and its findings. Each check holds the marking's parts
(each minimum, the figure against it and where that figure comes from) and its verdict.

The association's classes are minimums, so a mean that reaches one while some runs fall short is not a
plain pass: each part of a check records how many of the runs behind its figure fell below the minimum
(`short_runs`), and the marking's verdict says so. A figure the source only stated (a reviewer's summary
row, no repeated runs recorded; where a sweep charted on the card's page gives the same figure, that point is
named) is named as such. U3 and the video classes are sustained-write promises: where a
fill shows an SLC cache they are judged on the speed after it. An A1 marking is also judged by the
Raspberry Pi SD Card Speed Test's own verdict where a session ran it.
"""

from ..core.units import is_rate_unit, size_text_from_bytes
from ..parsers import agnostics
from .findings.finding import rate_text
from .formatting import format_by_size, whole
from .headline_rules import RULES
from .headlines import stated_only
from .stats import mb_s_of, session_entries
from ..core.subtest_names import is_mixed

# SD Association minimums that a marking promises. Sequential write (MB/s) for speed classes;
# random 4K IOPS plus sequential write for application classes.
CLASS_MINIMUMS = {
    "C2": {"seq_write": 2}, "C4": {"seq_write": 4}, "C6": {"seq_write": 6}, "C10": {"seq_write": 10},
    "U1": {"seq_write": 10}, "U3": {"seq_write": 30},
    "V6": {"seq_write": 6}, "V10": {"seq_write": 10}, "V30": {"seq_write": 30}, "V60": {"seq_write": 60},
    "V90": {"seq_write": 90},
    "A1": {"seq_write": 10, "read_iops": 1500, "write_iops": 500},
    "A2": {"seq_write": 10, "read_iops": 4000, "write_iops": 2000},
}
# Markings whose minimum is a sustained write: the video speed classes and U3 are defined for
# recording, so a figure measured inside an SLC cache does not show them met.
SUSTAINED_MARKINGS = ("U3", "V6", "V10", "V30", "V60", "V90")
# Findings that give a write speed after any cache: after the cache (and any later step), or the whole
# fill where it shows no cache.
SUSTAINED_IDS = ("write_after_cache", "sustained_write", "write_later")

# verdict id → (words for readers, tone the page colours it by)
VERDICTS = {
    "meets": ("meets", "ok"),
    "meets_on_mean": ("meets on the mean, not on every run", "warn"),
    "meets_as_stated": ("meets on the figure the source states", "warn"),
    "does_not_meet": ("does not meet", "bad"),
    "cannot_tell": ("cannot tell", "unknown"),
}


def figure_text(value, unit):
    """A figure as the verdict notes give it: whole numbers (minimums) as they are, else no decimals from
    100 on, one from 10, two below."""
    shown = whole(value) if float(value).is_integer() else format_by_size(value)
    return f"{shown} {unit}"


def _compared_entries(card, session_ids=None):
    """(session index, kind, entry index, entry, test) of the compared sessions' run-holding entries."""
    for s_index, session in enumerate(card.get("sessions") or []):
        if session.get("compare", True) and (session_ids is None or session["id"] in session_ids):
            for kind, e_index, entry, test in session_entries(session):
                yield s_index, kind, e_index, entry, test


def _runs_of(figures, entries, figure):
    """(runs in the mean, runs left out of it) of some entries, in `figure` (mb_s or iops), as the statistics
    give them (stats.CardFigures)."""
    kept, excluded = [], []
    for s_index, kind, e_index in entries:
        runs = figures.runs(s_index, kind, e_index, figure)
        kept += runs[0]
        excluded += runs[1]
    return kept, excluded


def headline_runs(card, figures, pick, key):
    """(runs in MB/s in the pick's mean, runs left out of it) of a headline pick taken from runs; None for
    a pick without runs (a reviewer's summary row, a single sweep point)."""
    if not pick or pick.get("kind") != "runs":
        return None
    op = key.rsplit("_", 1)[1]
    rule = next((r for r in RULES[key] if r.id == pick["rule"]), None)
    if rule is None:
        return None
    entries = [(s, kind, e) for s, kind, e, entry, test in _compared_entries(card, set(pick["sessions"]))
               if f"{test} {entry['op']}" == pick["subtest"] and entry["op"] == op and is_rate_unit(entry["unit"])
               and rule.accepts(kind, entry, test, op)]
    return _runs_of(figures, entries, "mb_s")


def iops_runs(card, figures, test, op):
    """(IOPS of each run in the compared sessions' mean, IOPS of runs left out) of a random subtest."""
    entries = [(s, kind, e) for s, kind, e, entry, name in _compared_entries(card)
               if kind == "results" and name == test and entry["op"] == op]
    return _runs_of(figures, entries, "iops")


def short_runs(runs, need, basis):
    """How many of a figure's runs fell below the minimum, or None when none did (or there are no runs).
    `basis` names the figure the runs are behind: the verdict counts them only against that figure."""
    if not runs:
        return None
    kept, excluded = runs
    below, left_out_below = sum(v < need for v in kept), sum(v < need for v in excluded)
    if not below and not left_out_below:
        return None
    return {"below": below, "of": len(kept), "left_out_below": left_out_below, "basis": basis}


def _short_text(part, short):
    need = figure_text(part["need"], part["unit"])
    text = (f"{part['what']}: mean {figure_text(part['measured'], part['unit'])} reaches {need}, "
            f"but {short['below']} of {short['of']} run{'s' if short['of'] != 1 else ''} fell below it")
    if short["left_out_below"]:
        many = short["left_out_below"]
        text += f", as did {'the' if many == 1 else many} run{'s' if many != 1 else ''} left out of the mean"
    return text


def verdict_of(check):
    """The verdict {'id', 'text', 'tone', 'note'} of a check from its parts (and any tool's own verdicts)."""
    parts = check.get("parts") or []
    below = [p for p in parts if p.get("meets") is False]
    unknown = [p for p in parts if p.get("meets") is None]
    short = [(p, p["short_runs"]) for p in parts
             if p.get("meets") and p.get("short_runs") and p["short_runs"].get("basis") == p.get("basis")]
    stated = [p for p in parts if p.get("meets") is not None and p.get("stated")]
    notes = []
    if below:
        verdict = "does_not_meet"
        notes = [f"{p['what']} {figure_text(p['measured'], p['unit'])} is below {figure_text(p['need'], p['unit'])}"
                 for p in below]
    elif unknown:
        verdict = "cannot_tell"
        unshown = [p for p in unknown if p.get("measured") is not None and p.get("shortfall_unshown")]
        missing = [p for p in unknown if p not in unshown]
        notes = [f"no verdict from {p['what']} {figure_text(p['measured'], p['unit'])}, below "
                 f"{figure_text(p['need'], p['unit'])}: {p['shortfall_unshown']}" for p in unshown]
        if missing:
            notes.append(f"{' and '.join(p['what'] for p in missing)} not measured")
    elif short:
        verdict = "meets_on_mean"
        notes = [_short_text(p, s) for p, s in short]
    elif stated:
        verdict = "meets_as_stated"
    else:
        verdict = "meets"
    notes += [f"{p['what']} is the figure the source states"
              + (f", the same as {p['charted_as']}" if p.get("charted_as")
                 else ", with no runs behind it recorded here") for p in stated]
    verdict, notes = _with_tool_verdicts(check, verdict, notes)
    text, tone = VERDICTS[verdict]
    return {"id": verdict, "text": text, "tone": tone, "note": "; ".join(notes)}


def _with_tool_verdicts(check, verdict, notes):
    """A tool's own verdict on the marking (check["tool_verdicts"]: the Raspberry Pi SD Card Speed Test's
    PASS or FAIL, each with its basis) decides where the card's figures cannot tell, and is named beside
    the verdict either way."""
    tool_verdicts = check.get("tool_verdicts") or []
    if tool_verdicts and verdict == "cannot_tell":
        verdict = "meets" if all(v["verdict"] == "PASS" for v in tool_verdicts) else "does_not_meet"
        notes = []
    return verdict, notes + [v["basis"] for v in tool_verdicts]


# --- the parts of a check ---------------------------------------------------------------------------

def _sequential_part(card, figures, need, pick):
    """The sequential write part: the card's sequential write headline against the minimum."""
    return {"what": "sequential write", "need": need, "unit": "MB/s",
            "measured": pick["mb_s"] if pick else None, "basis": pick["basis"] if pick else None,
            "sessions": pick["sessions"] if pick else [], "derived": False, "stated": stated_only(pick),
            "short_runs": short_runs(headline_runs(card, figures, pick, "seq_write"), need,
                                     pick["basis"] if pick else None),
            "shortfall_unshown": _shortfall_unshown(card, pick), "charted_as": _charted_as(card, pick, "write")}


def _charted_as(card, pick, op):
    """Where a figure the source only states is charted on the card's page, in words, or None: the points of the
    pick's sessions' dd sweeps for `op` that give the same figure (to the hundredth of a MB/s), e.g. 'the 64 KiB
    point of the dd write sweep'."""
    if not stated_only(pick) or pick.get("mb_s") is None:
        return None
    sizes = []
    for session in card.get("sessions") or []:
        if session["id"] not in pick["sessions"]:
            continue
        for sweep in session.get("dd_sweeps") or []:
            if sweep.get("op") != op:
                continue
            for point in sweep.get("points") or []:
                value = mb_s_of(point.get("value"), sweep.get("unit"))
                if value is not None and round(value, 2) == round(pick["mb_s"], 2):
                    sizes.append(size_text_from_bytes(point["block_size_bytes"]))
    if not sizes:
        return None
    points = " and ".join(dict.fromkeys(sizes))
    return f"the {points} point{'s' if len(set(sizes)) > 1 else ''} of the dd {op} sweep charted on this page"


def _shortfall_unshown(card, pick):
    """Why a sequential write figure below a minimum cannot show the card falls short of it, or None: dd wrote
    a file through the card's filesystem (the filesystem's own writes and the way the host drives the card
    both stand between dd and the card), so such a figure carries no verdict short of the minimum."""
    if not pick or pick.get("kind") != "runs":
        return None
    op = "write"
    entries = [(session, entry) for session in card.get("sessions") or [] if session["id"] in pick["sessions"]
               for kind, _, entry, test in session_entries(session)
               if kind == "dd" and f"{test} {entry['op']}" == pick["subtest"] and entry["op"] == op]
    if not entries or any(entry.get("target") != "file" for _, entry in entries):
        return None
    unstated = [session for session, _ in entries if not session.get("reader")]
    path = (", in a slot or reader the source does not name, at a bus mode it does not give" if unstated else "")
    return (f"dd wrote it to a file through the card's filesystem{path}, so it does not show that the card falls "
            f"short. A verdict needs sequential writes to the card's own device, through a reader or slot known to "
            f"run the card in the bus mode the marking is for, and at best the SD Association's own test conditions")


def _sustained_write(findings, compared):
    """The lowest write speed after any cache among the compared sessions' fill findings, or None."""
    found = [f for f in findings if f["session"] in compared and f["id"] in SUSTAINED_IDS]
    return min(found, key=lambda f: f["value"]) if found else None


def _sustained_part(need, sustained):
    """The sequential write part of a sustained-write marking judged on a fill: the speed after the cache,
    measured over the fill (no runs of its own to count short)."""
    source = (f"sustained fill, {sustained['session_label']}: {sustained['label'].lower()} "
              f"{rate_text(sustained['value'])}")
    return {"what": "sustained write after any cache", "need": need, "unit": "MB/s",
            "measured": round(sustained["value"], 2), "basis": source, "sessions": [sustained["session"]],
            "derived": False, "stated": False, "short_runs": None}


def _best_random_iops(pooled, op):
    """Best mean 4 KiB random IOPS of any queue depth: (iops, test, derived) or None."""
    best = None
    for (test, test_op), r in pooled.items():
        if test.startswith("RND4K ") and not is_mixed(test) and test_op == op and r["iops_count"]:
            if best is None or r["iops_mean"] > best[0]:
                best = (r["iops_mean"], test, bool(r["iops_derived"]))
    return best


def _random_part(card, figures, pooled, picks, op, need):
    """A random 4K IOPS part: the best queue depth's mean IOPS, else the random 4K headline's."""
    best = _best_random_iops(pooled, op)
    pick = picks[f"rnd4k_{op}"]
    runs, stated = None, False
    if best:
        measured, basis, derived = round(best[0]), f"{best[1]} {op}, mean", best[2]
        runs = iops_runs(card, figures, best[1], op)
    elif pick and pick.get("iops"):
        measured, basis, derived = round(pick["iops"]["mean"]), pick["basis"], pick["iops"]["derived"]
    else:
        measured, basis, derived = None, None, False
    if pick and not best and measured is not None:
        stated = stated_only(pick)
    if measured is not None and derived:
        basis += ", IOPS from bandwidth ÷ 4 KiB"
    return {"what": f"random 4K {op}", "need": need, "unit": "IOPS", "measured": measured, "basis": basis,
            "derived": derived, "stated": stated, "short_runs": short_runs(runs, need, basis)}


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


# --- the checks -------------------------------------------------------------------------------------

def _meets(part):
    """True or False, or None when the part was not measured or its figure cannot show a shortfall."""
    if part["measured"] is None:
        return None
    if part["measured"] < part["need"] and part.get("shortfall_unshown"):
        return None
    return part["measured"] >= part["need"]


def class_checks(card, picks, pooled, figures, findings):
    """Does the card meet what its markings promise? One check per marking with a known minimum:
    {"marking", "meets", "parts", ["tool_verdicts"], "verdict"}; each part the minimum, the figure (None where
    missing), whether it reaches it, whether the source only stated it, and how many runs fell short.

    picks: the headline figures (headlines.headlines); pooled: {(test, op): statistics row} of the compared
    sessions; figures: the card's stats.CardFigures; findings: the card's findings (figures/findings)."""
    compared = {s["id"] for s in card.get("sessions") or [] if s.get("compare", True)}
    sustained = _sustained_write(findings, compared)
    tool_verdicts = speed_test_verdicts(card, compared)
    checks = []
    for marking in card.get("markings") or []:
        need = CLASS_MINIMUMS.get(marking)
        if not need:
            continue
        if sustained and marking in SUSTAINED_MARKINGS:
            parts = [_sustained_part(need["seq_write"], sustained)]
        else:
            parts = [_sequential_part(card, figures, need["seq_write"], picks["seq_write"])]
        parts += [_random_part(card, figures, pooled, picks, op, need[key])
                  for key, op in (("read_iops", "read"), ("write_iops", "write")) if key in need]
        parts = [dict(part, meets=_meets(part)) for part in parts]
        known = [p["meets"] for p in parts]
        check = {"marking": marking, "meets": False if False in known else (None if None in known else True),
                 "parts": parts}
        if marking == "A1" and tool_verdicts:
            check["tool_verdicts"] = tool_verdicts
        checks.append(dict(check, verdict=verdict_of(check)))
    return checks


__all__ = ["CLASS_MINIMUMS", "SUSTAINED_MARKINGS", "VERDICTS", "class_checks", "figure_text", "headline_runs",
           "iops_runs", "short_runs", "speed_test_verdicts", "verdict_of"]
