"""fio JSON completion latencies, in µs: one thread's, and several threads' merged into one.

thread_latency(section) -> {"lat": {"mean", "p50", …, "max"}, "count", "bins"} of one job's read or
    write section (clat_ns, lat_ns; fio 2.x clat, lat in µs), or None without one.
merged_latency(threads) -> {"mean", "p50", …, "max"}: the I/O-weighted mean, and percentiles merged
    exactly from json+ histogram bins when every thread has them, else weighted means (an approximation).
"""

from ...core.units import US_IN_NS, us_from_ns
from .json_keys import PERCENTILES


def _latency_block(section):
    """(stats dict in µs or None, json+ bins {ns: count} or None)."""
    for key, to_us in (("clat_ns", US_IN_NS), ("lat_ns", US_IN_NS), ("clat", 1.0), ("lat", 1.0)):
        block = section.get(key)
        if isinstance(block, dict) and block.get("N", 1):
            return block, to_us
    return None, None


def _percentile(block, wanted):
    table = block.get("percentile") or {}
    for key, value in table.items():
        try:
            if abs(float(key) - wanted) < 1e-6:
                return value
        except ValueError:
            continue
    return None


def thread_latency(section):
    block, to_us = _latency_block(section)
    if block is None:
        return None
    lat = {"mean": _scaled(block.get("mean"), to_us)}
    for name, wanted in PERCENTILES.items():
        lat[name] = _scaled(_percentile(block, wanted), to_us)
    lat["max"] = _scaled(block.get("max"), to_us)
    bins = block.get("bins")
    return {"lat": lat, "count": block.get("N") or section.get("total_ios") or 0,
            "bins": {int(k): v for k, v in bins.items()} if isinstance(bins, dict) and to_us == 1e-3 else None}


def _scaled(value, factor):
    if value is None:
        return None
    return round(float(value) * factor, 3)


def _bins_percentile(bins, wanted):
    total = sum(bins.values())
    if not total:
        return None
    # fio reports the value whose cumulative share first reaches the percentile.
    target = total * wanted / 100.0
    running = 0
    for value in sorted(bins):
        running += bins[value]
        if running >= target:
            return round(us_from_ns(value), 3)
    return round(us_from_ns(max(bins)), 3)


def merged_latency(threads):
    lats = [t for t in threads if t is not None]
    if not lats:
        return {"mean": None, **{k: None for k in PERCENTILES}, "max": None}
    if len(lats) == 1:
        return lats[0]["lat"]
    weights = [t["count"] or 1 for t in lats]
    total = sum(weights)

    def weighted(name):
        values = [t["lat"][name] for t in lats]
        if any(v is None for v in values):
            return None
        return round(sum(v * w for v, w in zip(values, weights)) / total, 3)

    merged = {"mean": weighted("mean")}
    if all(t["bins"] for t in lats):
        bins = {}
        for t in lats:
            for value, count in t["bins"].items():
                bins[value] = bins.get(value, 0) + count
        for name, wanted in PERCENTILES.items():
            merged[name] = _bins_percentile(bins, wanted)
    else:
        for name in PERCENTILES:
            merged[name] = weighted(name)
    maxima = [t["lat"]["max"] for t in lats]
    merged["max"] = None if any(v is None for v in maxima) else max(maxima)
    return merged
