"""How steady a card is from run to run: spread, trend over repeated runs, outlying runs."""

import math
import statistics

import numpy as np

from . import thresholds as t
from .common import finding, rounded


def cv_verdict(cv):
    for bound, words in t.CV_VERDICTS:
        if cv < bound:
            return words
    return t.CV_VERDICTS[-1][1]


def _robust_sd(values, median):
    return 1.4826 * statistics.median(abs(v - median) for v in values)


def outliers(runs):
    """0-based indices of runs far from the rest (modified z-score, and a share of the median).
    Plain Python: a few runs cost far less than numpy's set-up per call."""
    values = [float(v) for v in runs]
    if len(values) < t.STABILITY_MIN_RUNS:
        return []
    median = statistics.median(values)
    spread = _robust_sd(values, median)
    out = []
    for i, value in enumerate(values):
        gap = abs(value - median)
        far = math.inf if spread == 0 else gap / spread
        if far > t.OUTLIER_Z and median and gap / abs(median) > t.OUTLIER_MIN_SHARE:
            out.append(i)
    return out


def trend(runs):
    """(z, relative change first to last run) of a Mann–Kendall test and a Theil–Sen slope; None
    when there are too few runs."""
    values = np.asarray(runs, dtype=float)
    n = values.size
    if n < t.TREND_MIN_RUNS:
        return None
    i, j = np.triu_indices(n, 1)
    s = float(np.sign(values[j] - values[i]).sum())
    _, ties = np.unique(values, return_counts=True)
    variance = (n * (n - 1) * (2 * n + 5) - float(np.sum(ties * (ties - 1) * (2 * ties + 5)))) / 18.0
    z = 0.0 if variance <= 0 or s == 0 else (s - math.copysign(1, s)) / math.sqrt(variance)
    slope = statistics.median(((values[j] - values[i]) / (j - i)).tolist())
    median = statistics.median(values.tolist())
    change = slope * (n - 1) / median if median else 0.0
    return z, change


def persistent_drop(runs):
    """Relative change when the first run(s) are fast and no later run comes back near them (every
    later run at least TREND_MIN_CHANGE below the slowest early one; at least half the runs later):
    the shape of a card that heats up and throttles. None otherwise."""
    values = [float(v) for v in runs]
    n = len(values)
    if n < t.TREND_MIN_RUNS:
        return None
    for k in range(1, n // 2 + 1):
        early, late = values[:k], values[k:]
        if max(late) < (1 - t.TREND_MIN_CHANGE) * min(early):
            return statistics.median(late) / statistics.fmean(early) - 1
    return None


def _subtests(session):
    for entry in session.get("results") or []:
        yield f"{entry['test']} {entry['op']}", entry
    for entry in session.get("dd") or []:
        yield f"dd bs={entry['block_size']} {entry['op']}", entry


def subtest_stability(name, entry):
    runs = [float(v) for v in entry.get("runs") or []]
    excluded = set(entry.get("excluded_runs") or [])
    used = [v for i, v in enumerate(runs) if i not in excluded]
    if len(used) < t.STABILITY_MIN_RUNS:
        return None
    mean = statistics.fmean(used)
    cv = statistics.stdev(used) / mean if mean else math.inf
    detail = {"subtest": name, "runs": len(used), "cv_pct": rounded(100 * cv, 1), "verdict": cv_verdict(cv)}
    flagged = outliers(runs)
    if flagged:
        median = statistics.median(runs)
        detail["outliers"] = [{"run": i + 1, "value": runs[i], "unit": entry["unit"], "median": rounded(median, 3),
                               "excluded": i in excluded} for i in flagged]
    found = trend(runs)
    if found:
        z, change = found
        drop = persistent_drop(runs)
        if abs(z) >= t.TREND_Z and abs(change) >= t.TREND_MIN_CHANGE:
            detail["trend"] = "slows" if change < 0 else "speeds up"
            detail["trend_change_pct"] = rounded(100 * change, 1)
        elif drop is not None:
            detail["trend"] = "slows"
            detail["trend_change_pct"] = rounded(100 * drop, 1)
    return detail


def _temperature_words(session):
    temps = ((session.get("nvme") or {}).get("temperature_c") or {})
    bits = []
    if isinstance(temps.get("idle"), (int, float)):
        bits.append(f"{temps['idle']:g} °C idle")
    if isinstance(temps.get("max"), (int, float)):
        bits.append(f"up to {temps['max']:g} °C during the runs")
    words = ", ".join(bits)
    if session.get("conditions"):
        words = f"{session['conditions']}" + (f": {words}" if words else "")
    return words


def stability_findings(card):
    out = []
    for session in card.get("sessions") or []:
        details = [d for d in (subtest_stability(name, e) for name, e in _subtests(session)) if d]
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
                 f"{worst['cv_pct']:.1f} % ({worst['verdict']})")
        flagged = [(d["subtest"], o) for d in details for o in d.get("outliers", [])]
        if flagged:
            shown = "; ".join(f"{name} run {o['run']} ({o['value']:g} {o['unit']}, median {o['median']:g})"
                              + (", already excluded" if o["excluded"] else "") for name, o in flagged[:5])
            more = f" and {len(flagged) - 5} more" if len(flagged) > 5 else ""
            basis += f". Outlying runs, kept in the figures: {shown}{more}"
        out.append(finding("stability", round(median_cv, 1), "%", basis, session,
                           f"{verdict} (median CV {median_cv:.1f} %)", subtests=details,
                           outliers=len(flagged)))
        slowing = [d for d in details if d.get("trend") == "slows"]
        if len(slowing) >= max(2, math.ceil(t.TREND_SESSION_SHARE * len(details))):
            changes = sorted(d["trend_change_pct"] for d in slowing)
            temperature = _temperature_words(session)
            basis = (f"{len(slowing)} of {len(details)} subtests fall over the runs in order, {changes[-1]:.0f} to "
                     f"{changes[0]:.0f} % (a Mann–Kendall trend at 5 %, or early runs that no later run comes back "
                     f"to): "
                     + ", ".join(d["subtest"] for d in slowing[:6]) + (" …" if len(slowing) > 6 else ""))
            if temperature:
                basis += f"; recorded: {temperature}"
            out.append(finding("slows_over_runs", round(statistics.median(changes), 1), "%", basis, session,
                               f"{len(slowing)} of {len(details)} subtests slow down"
                               + (f" ({temperature})" if temperature else ""), subtests=[d["subtest"] for d in slowing]))
    return out, []
