"""How steady a card is from run to run: spread, trend over repeated runs, outlying runs."""

import math
import statistics
from collections import Counter

from ..stats import CardFigures, json_number, mb_s_of, session_entries
from . import thresholds as t
from .finding import finding, rate_text, robust_sd


def cv_verdict(cv):
    for bound, words in t.CV_VERDICTS:
        if cv < bound:
            return words
    return t.CV_VERDICTS[-1][1]


def outliers(runs):
    """0-based indices of runs far from the rest (modified z-score, and a share of the median).
    Plain Python: a few runs cost far less than numpy's set-up per call."""
    values = [float(v) for v in runs]
    if len(values) < t.STABILITY_MIN_RUNS:
        return []
    median = statistics.median(values)
    spread = robust_sd(values, median)
    out = []
    for i, value in enumerate(values):
        gap = abs(value - median)
        far = math.inf if spread == 0 else gap / spread
        if far > t.OUTLIER_Z and median and gap / abs(median) > t.OUTLIER_MIN_SHARE:
            out.append(i)
    return out


def trend(runs):
    """(z, relative change, fitted first run, fitted last run) of a Mann–Kendall test and a Theil–Sen
    line; the change is the fitted last run against the fitted first (no lower than -100 %). None when
    there are too few runs."""
    values = [float(v) for v in runs]
    n = len(values)
    if n < t.TREND_MIN_RUNS:
        return None
    # plain Python over the n(n-1)/2 pairs: for ten runs numpy's set-up per call costs more than the sums,
    # and each difference, quotient and product is the same IEEE operation either way
    signs, slopes = 0, []
    for i, earlier in enumerate(values):  # every pair (i < j) once, in one loop
        for j in range(i + 1, n):
            later = values[j]
            signs += (later > earlier) - (later < earlier)
            slopes.append((later - earlier) / (j - i))
    s = float(signs)
    ties = Counter(values).values()
    variance = (n * (n - 1) * (2 * n + 5) - float(sum(c * (c - 1) * (2 * c + 5) for c in ties))) / 18.0
    z = 0.0 if variance <= 0 or s == 0 else (s - math.copysign(1, s)) / math.sqrt(variance)
    slope = statistics.median(slopes)
    # Theil–Sen intercept: the line through the median of value - slope × run index
    first = statistics.median([value - slope * k for k, value in enumerate(values)])
    last = max(first + slope * (n - 1), 0.0)
    change = last / first - 1 if first > 0 else 0.0
    return z, change, first, last


def step_down(runs):
    """(relative change, runs before the step, their mean, the later runs' median) when the first run(s)
    are fast and no later run comes back near them (every later run at least TREND_MIN_CHANGE below the
    slowest early one; at least half the runs later). A write cache running out, or throttling, both
    give this shape; the runs alone do not say which. None otherwise."""
    values = [float(v) for v in runs]
    n = len(values)
    if n < t.TREND_MIN_RUNS:
        return None
    steps = [k for k in range(1, n // 2 + 1) if max(values[k:]) < (1 - t.TREND_MIN_CHANGE) * min(values[:k])]
    if not steps:
        return None
    # where several cuts qualify, the one with the widest gap between the two sides
    k = max(steps, key=lambda cut: min(values[:cut]) / max(max(values[cut:]), 1e-12))
    before, after = statistics.fmean(values[:k]), statistics.median(values[k:])
    return after / before - 1, k, before, after


def subtest_stability(name, entry, row=None):
    """Spread, outlying runs and trend of one entry's runs, judged in the unit the tool printed (shares and
    ranks, which no unit changes); the figures it gives are in MB/s, as the statistics convert them
    (a figure that is not a rate stays as recorded). row: the entry's statistics row (stats.CardFigures.entry),
    whose mean and standard deviation of the runs not excluded give the spread; computed here when not given."""
    runs = [float(v) for v in entry.get("runs") or []]
    excluded = set(entry.get("excluded_runs") or [])
    used = sum(1 for i in range(len(runs)) if i not in excluded)
    if used < t.STABILITY_MIN_RUNS:
        return None
    if row is None:
        row = CardFigures.of_card({"sessions": [{"results": [dict(entry, test=name, op=entry.get("op") or "")]}]}
                                  ).entry(0, "results", 0)
    mean, spread = row["value_mean"], row["value_std"]
    cv = spread / mean if mean else math.inf
    detail = {"subtest": name, "runs": used, "cv_pct": json_number(100 * cv, 1), "verdict": cv_verdict(cv)}
    flagged = outliers(runs)
    unit = entry.get("unit")

    def in_mb_s(value):  # findings speak MB/s whatever the tool printed
        converted = mb_s_of(value, unit)
        return json_number(value if converted is None else converted)  # rounded once, where it is shown

    if flagged:
        median = statistics.median(runs)
        detail["outliers"] = [{"run": i + 1, "mb_s": in_mb_s(runs[i]), "median_mb_s": in_mb_s(median),
                               "excluded": i in excluded}
                              for i in flagged]
    step = step_down(runs)
    found = trend(runs)
    if step is not None:
        change, k, before, after = step
        detail.update(trend="slows", trend_shape="step", step_after_run=k,
                      trend_change_pct=json_number(100 * change, 1), before_mb_s=in_mb_s(before),
                      after_mb_s=in_mb_s(after))
    elif found:
        z, change, first, last = found
        if abs(z) >= t.TREND_Z and abs(change) >= t.TREND_MIN_CHANGE:
            detail.update(trend="slows" if change < 0 else "speeds up", trend_shape="trend",
                          trend_change_pct=json_number(100 * change, 1), before_mb_s=in_mb_s(first),
                          after_mb_s=in_mb_s(last))
    return detail


def _temperature_words(session):
    temps = ((session.get("nvme") or {}).get("temperature_c") or {})
    bits = []
    about = "about " if temps.get("approximate") is True else ""
    if isinstance(temps.get("idle"), (int, float)) and not isinstance(temps.get("idle"), bool):
        bits.append(f"{about}{temps['idle']:g} °C idle")
    if isinstance(temps.get("max"), (int, float)) and not isinstance(temps.get("max"), bool):
        bits.append(f"up to {about}{temps['max']:g} °C during the runs")
    return ", ".join(([session["conditions"]] if session.get("conditions") else []) + bits)


def _percent_text(pct):
    """-42.3 -> '−42 %' (a true minus sign)."""
    return f"{pct:+.0f} %".replace("-", "−")


def _listed(items, most=4):
    return "; ".join(items[:most]) + (f"; and {len(items) - most} more" if len(items) > most else "")


def _slowing_basis(slowing, details, session):
    """What each slowing subtest did, in words: a step (when after it) or a fitted trend, in MB/s."""
    steps = [f"{d['subtest']} after run {d['step_after_run']}, {rate_text(d['before_mb_s'])} to "
             f"{rate_text(d['after_mb_s'])}, {_percent_text(d['trend_change_pct'])}" for d in slowing
             if d.get("trend_shape") == "step"]
    trends = [f"{d['subtest']} {rate_text(d['before_mb_s'])} to {rate_text(d['after_mb_s'])}, "
              f"{_percent_text(d['trend_change_pct'])}" for d in slowing if d.get("trend_shape") == "trend"]
    parts = [f"{len(slowing)} of {len(details)} subtests fall over the runs"]
    if steps:
        parts.append("In one step that no later run comes back from (mean of the runs before it, median of "
                     f"those after): {_listed(steps)}")
    if trends:
        parts.append("Along a steady trend (Mann–Kendall at 5 %; Theil–Sen line, fitted first run to fitted "
                     f"last): {_listed(trends)}")
    temperature = _temperature_words(session)
    if temperature:
        parts.append(f"Recorded with these runs: {temperature}; the runs alone do not show what caused the "
                     "slowing (a write cache running out and throttling look alike)")
    return ". ".join(parts)


def stability_findings(card, figures=None):
    """Run-to-run stability and slowing over runs of each session. figures: the card's stats.CardFigures
    (computed here when not given)."""
    figures = figures or CardFigures.of_card(card)
    out = []
    for s_index, session in enumerate(card.get("sessions") or []):
        subtests = ((f"{test} {entry['op']}", entry, figures.entry(s_index, kind, e_index))
                    for kind, e_index, entry, test in session_entries(session))
        details = [d for d in (subtest_stability(*subtest) for subtest in subtests) if d]
        if not details:
            continue
        cvs = sorted(d["cv_pct"] for d in details)
        median_cv = statistics.median(cvs)
        verdict = cv_verdict(median_cv / 100)
        worst = max(details, key=lambda d: d["cv_pct"])
        runs = sorted({d["runs"] for d in details})
        basis = (f"{len(details)} subtest{'s' if len(details) > 1 else ''} with "
                 f"{'–'.join(str(r) for r in (runs[0], runs[-1]) if r) if len(runs) > 1 else runs[0]} runs each: "
                 f"median coefficient of variation {median_cv:.1f} %; least steady {worst['subtest']} "
                 f"{worst['cv_pct']:.1f} %, {worst['verdict']}")
        flagged = [(d["subtest"], o) for d in details for o in d.get("outliers", [])]
        if flagged:
            shown = "; ".join(f"{name} run {o['run']} ({rate_text(o['mb_s'])}, median {rate_text(o['median_mb_s'])}"
                              + (", already excluded)" if o["excluded"] else ")") for name, o in flagged[:5])
            more = f" and {len(flagged) - 5} more" if len(flagged) > 5 else ""
            basis += f". Outlying runs, kept in the figures: {shown}{more}"
        out.append(finding("stability", round(median_cv, 1), "%", basis, session,
                           f"{verdict} (median CV {median_cv:.1f} %)", subtests=details,
                           outliers=len(flagged)))
        slowing = [d for d in details if d.get("trend") == "slows"]
        if len(slowing) >= max(2, math.ceil(t.TREND_SESSION_SHARE * len(details))):
            changes = sorted(d["trend_change_pct"] for d in slowing)
            median_change = statistics.median(changes)
            out.append(finding("slows_over_runs", round(median_change, 1), "%",
                               _slowing_basis(slowing, details, session),
                               session, f"{len(slowing)} of {len(details)} subtests slow down, median "
                                        f"{_percent_text(median_change)}",
                               subtests=[d["subtest"] for d in slowing],
                               subtest_changes=[{"subtest": d["subtest"], "trend_change_pct": d["trend_change_pct"],
                                                 "shape": d["trend_shape"]} for d in slowing]))
    return out, []
