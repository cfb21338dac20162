"""Verdicts on a card's markings: whether its figures reach the SD Association minimums each marking promises.

The association's classes are minimums, so a mean that reaches one while some runs fall short is not a
plain pass: each part of a check records how many of the runs behind its figure fell below the minimum
(`short_runs`), and the marking's verdict says so. A figure the source only stated (a reviewer's summary
row, no runs recorded) is named as such. judge() runs last, after the findings have re-judged sustained
writes on a fill, so the verdict reflects the figures the page shows.
"""

from ..core.units import RATE_TO_MB_S
from .headlines import RULES
from .stats import run_iops, session_entries

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
    size = abs(value)
    shown = (f"{value:,.0f}" if size >= 100 or float(value).is_integer() else
             f"{value:.1f}" if size >= 10 else f"{value:.2f}")
    return f"{shown} {unit}"


def _entry_runs(entry, pick_runs):
    """(runs in the mean, runs left out of it) of one stored entry, each run as pick_runs(index, value) gives it."""
    left_out = set(entry.get("excluded_runs") or [])
    kept, excluded = [], []
    for index, value in enumerate(entry["runs"]):
        figure = pick_runs(index, float(value))
        if figure is not None:
            (excluded if index in left_out else kept).append(figure)
    return kept, excluded


def _compared_entries(card, session_ids=None):
    for session in card.get("sessions") or []:
        if session.get("compare", True) and (session_ids is None or session["id"] in session_ids):
            yield from session_entries(session)


def headline_runs(card, pick, key):
    """(runs in MB/s in the pick's mean, runs left out of it) of a headline pick taken from runs; None for
    a pick without runs (a reviewer's summary row, a single sweep point)."""
    if not pick or pick.get("kind") != "runs":
        return None
    op = key.rsplit("_", 1)[1]
    rule = next((r for r in RULES[key] if r.id == pick["rule"]), None)
    if rule is None:
        return None
    kept, excluded = [], []
    for kind, _, entry, test in _compared_entries(card, set(pick["sessions"])):
        if (f"{test} {entry['op']}" == pick["subtest"] and entry["op"] == op and entry["unit"] in RATE_TO_MB_S
                and rule.accepts(kind, entry, test, op)):
            factor = RATE_TO_MB_S[entry["unit"]]
            runs = _entry_runs(entry, lambda _i, v, f=factor: v * f)
            kept += runs[0]
            excluded += runs[1]
    return kept, excluded


def iops_runs(card, test, op):
    """(IOPS of each run in the compared sessions' mean, IOPS of runs left out) of a random subtest."""
    kept, excluded = [], []
    for kind, _, entry, name in _compared_entries(card):
        if kind == "fio" and name == test and entry["op"] == op:
            runs = _entry_runs(entry, lambda i, v, e=entry: run_iops(e, "fio", test, i, v)[0])
            kept += runs[0]
            excluded += runs[1]
    return kept, excluded


def short_runs(runs, need, basis):
    """How many of a figure's runs fell below the minimum, or None when none did (or there are no runs).
    `basis` names the figure, so a later change of the part's figure (a fill's sustained write) drops it."""
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


def judge(check):
    """Set check['verdict'] = {'id', 'text', 'tone', 'note'} from its parts (in place); returns the check."""
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
        notes = [f"{' and '.join(p['what'] for p in unknown)} not measured"]
    elif short:
        verdict = "meets_on_mean"
        notes = [_short_text(p, s) for p, s in short]
    elif stated:
        verdict = "meets_as_stated"
    else:
        verdict = "meets"
    notes += [f"{p['what']} is the figure the source states, with no runs recorded here" for p in stated]
    verdict, notes = _with_tool_verdicts(check, verdict, notes)
    text, tone = VERDICTS[verdict]
    check["verdict"] = {"id": verdict, "text": text, "tone": tone, "note": "; ".join(notes)}
    return check


def _with_tool_verdicts(check, verdict, notes):
    """A tool's own verdict on the marking (check["tool_verdicts"]: the Raspberry Pi SD Card Speed Test's
    PASS or FAIL, each with its basis) decides where the card's figures cannot tell, and is named beside
    the verdict either way."""
    tool_verdicts = check.get("tool_verdicts") or []
    if tool_verdicts and verdict == "cannot_tell":
        verdict = "meets" if all(v["verdict"] == "PASS" for v in tool_verdicts) else "does_not_meet"
        notes = []
    return verdict, notes + [v["basis"] for v in tool_verdicts]


def judge_all(class_checks):
    """judge() every check of a card (in place); returns the list."""
    for check in class_checks or []:
        judge(check)
    return class_checks


__all__ = ["VERDICTS", "figure_text", "headline_runs", "iops_runs", "short_runs", "judge", "judge_all"]
