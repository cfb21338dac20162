"""The SLC cache and the speeds after it, from a sustained write over the card: change points in
throughput against data written."""

import numpy as np

from ...core.units import bytes_from_gb
from ..stats import curve_mb_s
from . import thresholds as t
from .finding import finding, gb_text, rate_text, robust_sd


def level_value(values):
    """A level's speed: the mean of its samples without the highest and lowest tenth (robust to a
    stall or a burst, and not stuck on one value of a log whose samples count whole I/Os)."""
    ordered = np.sort(values)
    cut = int(ordered.size * t.FILL_TRIM_SHARE)
    return float(ordered[cut:ordered.size - cut].mean())


def _running_median(values, window):
    half = window // 2
    padded = np.pad(values, half, mode="edge")
    return np.median(np.lib.stride_tricks.sliding_window_view(padded, window), axis=1)


def _split(smooth, lo, hi):
    """(gain, k): the split of smooth[lo:hi] into two levels that removes the most squared error
    (prefix sums: linear in the number of samples)."""
    least = t.FILL_MIN_SEGMENT_POINTS
    if hi - lo < 2 * least:
        return None
    part = smooth[lo:hi] - smooth[lo:hi].mean()  # centred: no precision lost on large values
    sums, squares = np.cumsum(part), np.cumsum(part ** 2)
    n = part.size
    k = np.arange(least, n - least + 1)
    left_sum, left_sq = sums[k - 1], squares[k - 1]
    right_sum, right_sq = sums[-1] - left_sum, squares[-1] - left_sq
    cost = (left_sq - left_sum ** 2 / k) + (right_sq - right_sum ** 2 / (n - k))
    best = int(np.argmin(cost))
    return float(squares[-1] - sums[-1] ** 2 / n - cost[best]), lo + int(k[best])


def _distinct(raw, lo, k, hi):
    """A real change of level: a large enough ratio, and a step above the noise on both sides."""
    left, right = np.median(raw[lo:k]), np.median(raw[k:hi])
    low, high = sorted((left, right))
    if high <= 0 or low / high > t.FILL_STEP_MIN_SHARE:
        return False
    noise = t.FILL_NOISE_FACTOR * max(robust_sd(raw[lo:k]), robust_sd(raw[k:hi]))
    return high - low > noise


def change_points(raw):
    """Indices where the level changes, found by splitting the best segment in two while the split
    is a distinct change (binary segmentation on a running median, checked on the raw samples)."""
    smooth = _running_median(raw, t.FILL_MEDIAN_WINDOW)
    cuts = []
    while len(cuts) + 1 < t.FILL_MAX_LEVELS:
        edges = [0] + cuts + [raw.size]
        candidates = []
        for lo, hi in zip(edges, edges[1:]):
            best = _split(smooth, lo, hi)
            if best and best[0] > 0 and _distinct(raw, lo, best[1], hi):
                candidates.append(best)
        if not candidates:
            break
        cuts = sorted(cuts + [max(candidates)[1]])
    # Two neighbours that ended up alike after later splits are one level.
    merged = []
    for cut in cuts:
        lo = merged[-1] if merged else 0
        nxt = [c for c in cuts if c > cut]
        hi = nxt[0] if nxt else raw.size
        if _distinct(raw, lo, cut, hi):
            merged.append(cut)
    return merged


def _boundary_gb(x, raw, cut, high, low):
    """Data written when the first level ended: after the last sample wholly in it; a sample that
    straddles the change (a rate between the two levels) is split by its rate."""
    for k in (cut - 1, cut):
        if 0 < k < x.size and low * 1.1 < raw[k] < high * 0.9:
            share_fast_time = (raw[k] - low) / (high - low)
            written = x[k] - x[k - 1]
            return float(x[k - 1] + share_fast_time * (written / raw[k]) * high)
    return float(x[cut - 1])


def fill_levels(fill):
    """[(first index, end index, level MB/s)] of one fill's points, or (None, reason)."""
    points = [p for p in fill.get("points") or [] if isinstance(p.get("value"), (int, float))]
    in_mb_s = curve_mb_s(points, fill.get("unit"))
    if in_mb_s is None:
        return None, f"fill in {fill.get('unit')}, not a rate"
    if len(points) < t.FILL_MIN_POINTS:
        return None, f"fill has {len(points)} samples, fewer than {t.FILL_MIN_POINTS}"
    x = np.array([float(p["written_gb"]) for p in points])
    raw = np.array(in_mb_s)
    cuts = change_points(raw)
    edges = [0] + cuts + [raw.size]
    levels = [(lo, hi, level_value(raw[lo:hi])) for lo, hi in zip(edges, edges[1:])]
    return (x, raw, levels), None


def fill_findings(card):
    out, notes = [], []
    for session in card.get("sessions") or []:
        for fill in session.get("fill") or []:
            if fill.get("op") != "write":
                continue
            result, reason = fill_levels(fill)
            if result is None:
                notes.append({"id": "slc_cache", "session": session["id"], "reason": reason})
                continue
            out += _fill_findings(session, fill, *result)
    return out, notes


def _fill_findings(session, fill, x, raw, levels):
    total = gb_text(bytes_from_gb(x[-1]))
    source = f"sustained write of {total} ({raw.size} samples)"
    first_lo, first_hi, first = levels[0]
    dropped = len(levels) > 1 and levels[1][2] < first and x[first_hi - 1] < t.FILL_CACHE_END_SHARE * x[-1]
    if not dropped:
        p10, p90 = np.percentile(raw, [10, 90])
        spread = f"; 10–90 % of samples {rate_text(p10)}–{rate_text(p90)}"
        why = ("no lasting step in throughput" if len(levels) == 1
               else "throughput rose rather than fell after the start, so no cache end")
        median = float(np.median(raw))
        return [finding("sustained_write", round(median, 2), "MB/s", f"{source}: {why}; median "
                        f"{rate_text(median)}{spread}", session, rate_text(median))]
    cache_gb = _boundary_gb(x, raw, first_hi, first, levels[1][2])
    after_lo, after_hi, after = levels[1]
    out = [
        finding("write_in_cache", round(first, 2), "MB/s",
                f"{source}: mean of the first {gb_text(bytes_from_gb(cache_gb))} "
                "(highest and lowest tenth of samples left out)", session, rate_text(first)),
        finding("slc_cache", int(round(bytes_from_gb(cache_gb), -6)), "bytes",
                f"{source}: throughput falls from {rate_text(first)} to {rate_text(after)} after "
                f"{gb_text(bytes_from_gb(cache_gb))} written (change point)", session,
                gb_text(bytes_from_gb(cache_gb))),
        finding("write_after_cache", round(after, 2), "MB/s",
                f"{source}: mean from {gb_text(bytes_from_gb(x[after_lo]))} to "
                f"{gb_text(bytes_from_gb(x[after_hi - 1]))} written, after the cache", session, rate_text(after)),
    ]
    for lo, hi, level in levels[2:]:
        start = float(x[lo - 1])
        out.append(finding("write_later", round(level, 2), "MB/s",
                           f"{source}: another change point; mean from {gb_text(bytes_from_gb(start))} to "
                           f"{gb_text(bytes_from_gb(x[hi - 1]))} written", session,
                           f"{rate_text(level)} from {gb_text(bytes_from_gb(start))}",
                           from_bytes=int(round(bytes_from_gb(start), -6))))
    return out
