"""Flash structure from flashbench: page size and erase block from -a scans, open allocation units
from --open-au sweeps."""

import math

import numpy as np

from . import thresholds as t
from ...core.units import NS_IN_MS, size_text_from_bytes, us_from_ns
from .finding import finding, robust_sd


# --- alignment scan ---------------------------------------------------------------------------------

def _scan_series(scan):
    """(offsets ascending, values, layout): log access time for the delay and 'on' layouts, diff in
    ns for the pre/on/post/diff layout (its own measure of the step)."""
    points = sorted((p for p in scan.get("points") or [] if isinstance(p.get("offset_bytes"), int)),
                    key=lambda p: p["offset_bytes"])
    if points and all(isinstance(p.get("diff_ns"), (int, float)) for p in points):
        return [p["offset_bytes"] for p in points], [float(p["diff_ns"]) for p in points], "diff"
    times = [p.get("delay_ns") if p.get("delay_ns") is not None else p.get("on_ns") for p in points]
    if points and all(isinstance(v, (int, float)) and v > 0 for v in times):
        return [p["offset_bytes"] for p in points], [math.log(v) for v in times], "ratio"
    return [], [], None


def _sse(values):
    return float(np.sum((values - values.mean()) ** 2)) if values.size else 0.0


def _best_split(values, lo, hi):
    """Index k (lo < k < hi) splitting values[lo:hi] into two constant levels with the least squared error."""
    best = None
    for k in range(lo + 1, hi - t.ALIGN_MIN_POINTS_ABOVE + 1):
        cost = _sse(values[lo:k]) + _sse(values[k:hi])
        if best is None or cost < best[0]:
            best = (cost, k)
    return None if best is None else best[1]


def _step_accepted(below, above, layout):
    step = above.mean() - below.mean()
    least = math.log(t.ALIGN_STEP_MIN_RATIO) if layout == "ratio" else t.ALIGN_DIFF_STEP_MIN_NS
    noise = t.ALIGN_NOISE_FACTOR * max(robust_sd(below), robust_sd(above))
    return step >= least and step > noise


def _boundaries(values, layout, lo=0, hi=None, depth=0):
    """Upward steps (index of the first point above) found by splitting in two, then each side again."""
    hi = len(values) if hi is None else hi
    if depth > 3 or hi - lo < 1 + t.ALIGN_MIN_POINTS_ABOVE:
        return []
    k = _best_split(values, lo, hi)
    if k is None:
        return []
    inner = _boundaries(values, layout, lo, k, depth + 1) + _boundaries(values, layout, k, hi, depth + 1)
    if _step_accepted(values[lo:k], values[k:hi], layout):
        return sorted(inner + [k])
    return inner


def _levels(values, cuts):
    edges = [0] + cuts + [len(values)]
    return [(edges[i], edges[i + 1]) for i in range(len(edges) - 1)]


def _level_text(series, lo, hi, layout):
    chunk = series[lo:hi]
    if layout == "ratio":
        return f"{math.exp(float(np.median(chunk))) / NS_IN_MS:.2f} ms"
    return f"{us_from_ns(float(np.median(chunk))):.0f} µs"


def scan_structure(scan):
    """{'page_size': (bytes, basis) , 'erase_block': (bytes, basis)} for the steps one scan shows."""
    offsets, values, layout = _scan_series(scan)
    if layout is None or len(values) < t.ALIGN_MIN_POINTS:
        return {}, "fewer than %d alignments with times" % t.ALIGN_MIN_POINTS
    series = np.asarray(values)
    cuts = _boundaries(series, layout)
    levels = _levels(series, cuts)
    measure = "diff (on − mean of pre and post)" if layout == "diff" else "access time"
    found = {}
    for name, (low, high) in (("page_size", t.PAGE_SIZE_RANGE), ("erase_block", t.ERASE_BLOCK_RANGE)):
        best = None
        for i, cut in enumerate(cuts):
            if not low <= offsets[cut] <= high:
                continue
            below, above = levels[i], levels[i + 1]
            # The step must hold for every larger alignment: no later level falls back below it.
            later = [series[a:b].mean() for a, b in levels[i + 1:]]
            if min(later) <= series[below[0]:below[1]].mean():
                continue
            step = series[above[0]:above[1]].mean() - series[below[0]:below[1]].mean()
            if best is None or step > best[0]:
                best = (step, cut, below, above)
        if best is None:
            continue
        _, cut, below, above = best
        previous, boundary = size_text_from_bytes(offsets[cut - 1]), size_text_from_bytes(offsets[cut])
        basis = (f"flashbench -a: {measure} {_level_text(series, *below, layout)} (median) at alignments up to "
                 f"{previous}, {_level_text(series, *above, layout)} from {boundary} "
                 f"up to {size_text_from_bytes(offsets[above[1] - 1])}: a boundary every {boundary}")
        found[name] = (offsets[cut], basis)
    if not found:
        return {}, f"flashbench -a: no step in {measure} that holds for larger alignments"
    return found, None


def align_findings(card):
    out, notes = [], []
    for session in card.get("sessions") or []:
        seen = set()
        for scan in session.get("flashbench_align") or []:
            found, reason = scan_structure(scan)
            if reason:
                notes.append({"id": "erase_block", "session": session["id"], "reason": reason})
            for name in ("page_size", "erase_block"):
                if name in found and (name, found[name][0]) not in seen:
                    seen.add((name, found[name][0]))
                    size, basis = found[name]
                    out.append(finding(name, size, "bytes", basis, session, size_text_from_bytes(size)))
    return out, notes


# --- open allocation units ------------------------------------------------------------------------------

def _curve(points, factor=1.0):
    return {p["block_size_bytes"]: float(p["value"]) * factor for p in points
            if isinstance(p.get("block_size_bytes"), int) and isinstance(p.get("value"), (int, float))}


def _reference(session, count):
    """Best figure per block size, and where it came from, from what cannot have too many AUs open:
    sweeps with fewer open AUs (either mode), find-fat (one AU at a time) and dd write sweeps."""
    ref = {}

    def take(curve, source):
        for size, value in curve.items():
            if value > ref.get(size, (0.0, ""))[0]:
                ref[size] = (value, source)

    for au in session.get("flashbench_open_au") or []:
        if au.get("unit") == "MB/s" and au.get("open_au", 0) < count:
            take(_curve(au.get("points") or []), f"--open-au with fewer than {count} AUs")
    for table in session.get("flashbench_find_fat") or []:
        if table.get("unit") == "MB/s":
            take({r["block_size_bytes"]: max(r["values"]) for r in table.get("rows") or [] if r.get("values")},
                 "flashbench -f")
    for sweep in session.get("dd_sweeps") or []:
        if sweep.get("op") == "write" and sweep.get("unit") == "MB/s":
            take(_curve(sweep.get("points") or []), "the dd write sweep")
    return ref


def sweep_verdict(session, au):
    """(True: holds, False: collapsed, None: cannot tell; words saying why)."""
    erase = au.get("erase_size_bytes")
    curve = _curve(au.get("points") or [])
    if not curve:
        return None, "no figures"
    top = erase or max(curve)
    compared = sorted((s for s in curve if s < top and s >= top * t.OPEN_AU_SMALLEST_SHARE), reverse=True)
    if not compared:
        return None, f"no figure below the {size_text_from_bytes(top)} AU size (stopped after the first row)"
    ref = _reference(session, au["open_au"])
    against = [s for s in compared if s in ref]
    alone = ""
    if against:
        share = float(np.median([curve[s] / ref[s][0] for s in against]))
        what = "the best of " + ", ".join(sorted({ref[s][1] for s in against}))
    else:
        best = max(curve.values())
        share = float(np.median([curve[s] / best for s in compared]))
        what, alone = "the sweep's own best figure", ", nothing else having measured these block sizes"
        against = compared
    sizes = " to ".join(size_text_from_bytes(size) for size in dict.fromkeys((against[-1], against[0])))
    words = f"median {100 * share:.0f} % of {what} at {sizes} blocks{alone}"
    return share >= t.OPEN_AU_COLLAPSE_SHARE, words


def open_au_findings(card, erase_blocks=None):
    """open_aus_sequential / open_aus_random per session. erase_blocks: session id -> erase block
    found by the alignment scan; sweeps with that AU size speak first when there are any."""
    out, notes = [], []
    erase_blocks = erase_blocks or {}
    for session in card.get("sessions") or []:
        for mode in ("sequential", "random"):
            sweeps = [au for au in session.get("flashbench_open_au") or [] if au.get("mode") == mode]
            if not sweeps:
                continue
            erase = erase_blocks.get(session["id"])
            if erase and any(au.get("erase_size_bytes") == erase for au in sweeps):
                sweeps = [au for au in sweeps if au.get("erase_size_bytes") == erase]
            by_count = {}
            for au in sweeps:
                holds, words = sweep_verdict(session, au)
                by_count.setdefault(int(au["open_au"]), []).append((holds, words, au))
            verdicts = {}
            for count, results in by_count.items():
                known = [h for h, _, _ in results if h is not None]
                verdicts[count] = None if not known else any(known)
            fid = f"open_aus_{mode}"
            collapsed = sorted(c for c, v in verdicts.items() if v is False)
            first_collapse = collapsed[0] if collapsed else None
            holding = sorted(c for c, v in verdicts.items() if v and (first_collapse is None or c < first_collapse))
            if not holding:
                reason = (f"--open-au {mode}: collapses already at {first_collapse} open AUs, the fewest tried"
                          if first_collapse else f"--open-au {mode}: no sweep long enough to judge")
                notes.append({"id": fid, "session": session["id"], "reason": reason})
                continue
            count = holding[-1]
            held_words = next(w for h, w, _ in by_count[count] if h)
            erase_size = by_count[count][0][2].get("erase_size_bytes")
            au_text = f" of {size_text_from_bytes(erase_size)}" if erase_size else ""
            if first_collapse is None:
                basis = (f"--open-au {mode}: {count} AUs{au_text} open hold their speed ({held_words}); no "
                         f"larger count was tried, so the card may keep more open")
                text = f"≥ {count}"
            else:
                collapse_words = next(w for h, w, _ in by_count[first_collapse] if h is False)
                basis = (f"--open-au {mode}: {count} AUs{au_text} hold their speed ({held_words}); with "
                         f"{first_collapse} open it collapses ({collapse_words})")
                text = str(count)
            out.append(finding(fid, count, "AUs", basis, session, text, at_least=first_collapse is None,
                               collapses_at=first_collapse, erase_size_bytes=erase_size))
    return out, notes


__all__ = ["align_findings", "open_au_findings", "scan_structure", "sweep_verdict"]
