"""Per-run table and statistics of every subtest: bandwidth in MB/s and MiB/s, IOPS, latency, and the
figures as the source printed them.

One row per run (runs_frame); statistics over any group of rows (statistics). Every figure a page
or the JSON twin shows is computed here, with pandas, over the runs a source did not mark as outliers.

This is the one module where a throughput becomes MB/s, MiB/s or IOPS (tests/test_one_home.py holds
every other module to that): the headlines, class checks, findings, page and chart models read the
figures computed here (CardFigures for one card's runs; mb_s_of, mib_s_of, curve_mb_s and
iops_of_mb_s for figures outside the runs, such as sweeps, fills and a source's stated figures, which
shown_rates.py gives the pages in both units; random_4k_iops, align_access_us and written_gb for the
figures the pages show in IOPS, µs and GB).

Units: a stored rate × RATE_TO_MB_S[unit] is MB/s (10^6 B/s); MB/s ÷ 1.048576 is MiB/s (2^20 B/s).
IOPS are the recorded figures when the tool recorded them (fio, CrystalDiskMark), otherwise derived:
bandwidth in bytes/s ÷ the subtest's block size (CrystalDiskMark-named subtests only, whose every I/O
has that size), marked `derived`. A derived figure carries the rounding of the bandwidth it comes
from (cdm_fio.sh prints whole MiB/s: ±256 IOPS at 4 KiB).
"""

import functools
import math
import warnings
from decimal import ROUND_HALF_EVEN, ROUND_HALF_UP, Decimal

import numpy as np
import pandas as pd

from ..core.subtest_names import dd_test_name, is_mixed
from ..core.units import (KIB_BYTES, MIB_PER_S_IN_MB_PER_S, block_size_bytes, gb_from_bytes,
                          iops_from_mb_s, is_rate_unit, mb_s_from_rate, us_from_ns)

# fio latency statistics kept per run (the card file's `latency_us` lists).
LATENCY_STATS = ("mean", "p50", "p90", "p99", "p99_9", "max")
ENTRY_KEYS = ["slug", "session", "kind", "entry", "test", "op", "unit"]  # one stored entry's runs
POOL_KEYS = ["slug", "test", "op", "unit"]  # one subtest pooled over a card's compared sessions
RUN_COLUMNS = ["slug", "session", "compare", "kind", "entry", "test", "op", "unit", "run", "value", "decimals",
               "excluded", "mb_s", "iops", "iops_derived"] + [f"lat_{name}" for name in LATENCY_STATS]
MAX_PRINTED_DECIMALS = 3


@functools.lru_cache(maxsize=4096)  # a few subtest names, met on every run of every card
def block_bytes_of_test(test):
    """Block size of a CrystalDiskMark-named subtest that only reads or only writes ('RND4K Q32T1' -> 4096);
    None for a read/write mix (its figures never stand for pure reads or writes) and for other names."""
    return None if is_mixed(test) else block_size_bytes(test)


def session_entries(session):
    """(kind, index, entry, test) of every run-holding entry of a session: its results (CrystalDiskMark-style
    subtests), then its dd entries; the kind is the session field that holds the entry."""
    for kind in ("results", "dd"):
        for index, entry in enumerate(session.get(kind) or []):
            yield kind, index, entry, (entry["test"] if kind == "results" else dd_test_name(entry))


def run_iops(entry, kind, test, r_index, value):
    """(IOPS, derived) of one run: recorded, or bandwidth ÷ block size; (None, False) when neither."""
    recorded = entry.get("iops")
    if entry["unit"] == "IOPS":
        return value, False
    if isinstance(recorded, list) and r_index < len(recorded):
        return float(recorded[r_index]), False
    block = block_bytes_of_test(test) if kind == "results" else None
    mb_s = mb_s_of(value, entry["unit"])
    if block and mb_s is not None:
        return iops_of_mb_s(mb_s, block), True
    return None, False


def is_spi(session):
    """A session over SPI: a microcontroller's figures, never compared with a full-speed host's."""
    return session.get("interface") == "SPI"


def runs_frame(cards):
    """One row per run of every card: which card, session and entry, the value as recorded, whether
    the source excluded it, and the same run in MB/s, its IOPS and its recorded latencies."""
    rows = []
    for card in cards:
        for s_index, session in enumerate(card.get("sessions") or []):
            compare = session.get("compare", True) and not is_spi(session)
            for kind, e_index, entry, test in session_entries(session):
                excluded = set(entry.get("excluded_runs") or [])
                latency = entry.get("latency_us") or {}
                for r_index, stored in enumerate(entry["runs"]):
                    value = float(stored)
                    iops, derived = run_iops(entry, kind, test, r_index, value)
                    lats = [_nth(latency.get(name), r_index) for name in LATENCY_STATS] if latency else _NO_LATENCY
                    rows.append((card["slug"], s_index, compare, kind, e_index, test, entry["op"], entry["unit"],
                                 r_index, value, _decimals_of(stored), r_index in excluded,
                                 mb_s_of(value, entry["unit"]), iops, derived, *lats))
    frame = pd.DataFrame(rows, columns=RUN_COLUMNS)
    for column in ["mb_s", "iops"] + [f"lat_{name}" for name in LATENCY_STATS]:
        frame[column] = pd.to_numeric(frame[column], errors="coerce")
    for column in ("iops_derived", "excluded", "compare"):
        frame[column] = frame[column].astype(bool)
    frame["value"] = frame["value"].astype(float)
    return frame


_NO_LATENCY = (None,) * len(LATENCY_STATS)  # an entry without recorded latencies (most)
# cached, as runs repeat
_decimals_of = functools.lru_cache(maxsize=1 << 16, typed=True)(lambda stored: printed_decimals([stored]))


def _nth(values, index):
    return float(values[index]) if isinstance(values, list) and index < len(values) else None


# --- rates outside the runs: the one conversion of each ---------------------------------------------

def mb_s_of(value, unit):
    """A figure stored in `unit` in MB/s (10^6 B/s); None when the figure or the unit is not a rate."""
    return None if value is None else mb_s_from_rate(value, unit)


def mib_s_of(mb_s):
    """A figure in MB/s in MiB/s (2^20 B/s), MB/s ÷ 1.048576; the same for each figure of a list or a pandas
    column; None stays None."""
    if isinstance(mb_s, list):
        return [None if value is None else value / MIB_PER_S_IN_MB_PER_S for value in mb_s]
    return None if mb_s is None else mb_s / MIB_PER_S_IN_MB_PER_S


def iops_of_mb_s(mb_s, block_bytes):
    """I/O operations per second of a bandwidth in MB/s whose every I/O is `block_bytes` long."""
    return iops_from_mb_s(mb_s, block_bytes)


RANDOM_BLOCK_BYTES = 4 * KIB_BYTES  # random 4K subtests: every I/O 4 KiB long


def random_4k_iops(pick):
    """(IOPS, derived) of a random 4 KiB headline: as recorded, else its bandwidth ÷ 4 KiB."""
    recorded = (pick.get("iops") or {}).get("mean")
    if recorded is not None:
        return recorded, bool(pick["iops"].get("derived"))
    return iops_of_mb_s(pick["mb_s"], RANDOM_BLOCK_BYTES), True


def align_access_us(scan):
    """A flashbench -a scan's points as charted: (offsets in bytes, access times in µs, differences in µs); a point
    gives an access time from its `delay_ns` or `on_ns`, and a difference (on − mean of pre, post) from `diff_ns`."""
    offsets, access, diff = [], [], []
    for p in scan["points"]:
        offsets.append(p["offset_bytes"])
        if p.get("delay_ns"):
            access.append(us_from_ns(p["delay_ns"]))
        if p.get("on_ns"):
            access.append(us_from_ns(p["on_ns"]))
        if "diff_ns" in p:
            diff.append(us_from_ns(p["diff_ns"]))
    return offsets, access, diff


def written_gb(finding):
    """Where a finding about a fill (the end of its SLC cache) lies, in GB written (10^9 bytes)."""
    return gb_from_bytes(finding["value"])


def curve_mb_s(points, unit):
    """The `value` of each point of a sweep or fill stored in `unit`, in MB/s; None when the unit is not a rate."""
    if mb_s_of(1.0, unit) is None:
        return None
    return [mb_s_of(float(p["value"]), unit) if isinstance(p.get("value"), (int, float)) else None for p in points]


def rate_figures(value, unit, digits=2):
    """{"mb_s", "mib_s"} of one figure stored in `unit` (a source's stated figure, a sweep's point), rounded."""
    mb_s = mb_s_of(value, unit)
    return {"mb_s": json_number(mb_s, digits), "mib_s": json_number(mib_s_of(mb_s), digits)}


# --- one card's figures, as the modules that judge them read them -----------------------------------

class CardFigures:
    """One card's runs as computed here: each stored entry's statistics row (over the runs not excluded)
    and its runs in MB/s and IOPS, each with whether the source excluded it. An entry is named by its
    session's index, its kind (fio, dd) and its index, as session_entries() numbers them."""

    def __init__(self, frame, entry_rows):
        self._rows = entry_rows
        self._runs = {}
        columns = (frame[name].tolist() for name in ("session", "kind", "entry", "mb_s", "iops", "excluded"))
        for s_index, kind, e_index, mb_s, iops, excluded in zip(*columns):
            runs = self._runs.setdefault((s_index, kind, e_index), {"mb_s": [], "iops": [], "excluded": []})
            runs["mb_s"].append(None if _missing(mb_s) else mb_s)
            runs["iops"].append(None if _missing(iops) else iops)
            runs["excluded"].append(bool(excluded))

    @classmethod
    def of_card(cls, card):
        """The figures of one card dict on its own (a card without a slug too)."""
        frame = runs_frame([dict(card, slug=card.get("slug") or "")])
        rows = statistics(frame, ENTRY_KEYS).to_dict("records") if not frame.empty else []
        return cls(frame, {(r["session"], r["kind"], r["entry"]): r for r in rows})

    def entry(self, s_index, kind, e_index):
        """The entry's statistics row (stats.statistics), or None when every run was excluded."""
        return self._rows.get((s_index, kind, e_index))

    def runs(self, s_index, kind, e_index, figure="mb_s"):
        """(runs in the mean, runs left out of it) of one entry in `figure` (mb_s or iops), leaving out
        runs that do not have that figure."""
        runs = self._runs.get((s_index, kind, e_index))
        pairs = [(v, out) for v, out in zip(runs[figure], runs["excluded"]) if v is not None] if runs else []
        return [v for v, out in pairs if not out], [v for v, out in pairs if out]

    def every_run(self, s_index, kind, e_index, figure="mb_s"):
        """Every run of one entry in `figure`, excluded ones too, in their order; None when a run lacks it."""
        runs = self._runs.get((s_index, kind, e_index))
        return None if not runs or any(v is None for v in runs[figure]) else list(runs[figure])



def _missing(value):
    """pd.isna of one value of a float column (NaN: only NaN differs from itself), without a pandas call."""
    return value != value if value.__class__ is float else pd.isna(value)


_AGGREGATES = ("mean", "min", "max", "std")
_FIGURES = ["value", "mb_s", "iops"] + [f"lat_{name}" for name in LATENCY_STATS]


def statistics(frame, keys):
    """Statistics per group of `keys` over the runs not excluded: run_count; mean, min, max, std of the
    value as recorded, in MB/s and in MiB/s; of IOPS (iops_derived: any run's IOPS derived); of each
    recorded latency (with its count); decimals: the most any run was printed with. One row per
    group, columns named <figure>_<statistic>."""
    used = frame.loc[~frame["excluded"]]
    grouped = used.groupby(keys, sort=False)
    table = grouped[_FIGURES].agg(list(_AGGREGATES) + ["count"])
    table.columns = [f"{figure}_{stat}" for figure, stat in table.columns]
    table = table.rename(columns={"value_count": "run_count"})
    table["decimals"] = grouped["decimals"].max()
    table["iops_derived"] = grouped["iops_derived"].any()
    for stat in _AGGREGATES:  # a MiB/s figure is the MB/s figure ÷ 1.048576, statistics alike
        table[f"mib_s_{stat}"] = mib_s_of(table[f"mb_s_{stat}"])
    return table.reset_index()


def summary(frame):
    """statistics() of every row of `frame` as one group: a dict with the same columns (numpy over the
    columns at once: a one-group groupby costs far more)."""
    used = frame.loc[~frame["excluded"]]
    values = used[_FIGURES].to_numpy(dtype=float)
    present = ~np.isnan(values)
    counts = present.sum(axis=0)
    with np.errstate(invalid="ignore", divide="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # all-NaN columns: a figure nobody recorded
        figures = {"mean": np.nanmean(values, axis=0), "min": np.nanmin(values, axis=0),
                   "max": np.nanmax(values, axis=0),
                   "std": np.where(counts > 1, np.nanstd(values, axis=0, ddof=1), np.nan)}
    out = {}
    for index, figure in enumerate(_FIGURES):
        for stat, column in figures.items():
            out[f"{figure}_{stat}"] = float(column[index]) if counts[index] else np.nan
        out[f"{figure}_count"] = int(counts[index])
    out["run_count"] = out.pop("value_count")
    out["decimals"] = used["decimals"].max()
    out["iops_derived"] = bool(used["iops_derived"].any())
    for stat in _AGGREGATES:
        out[f"mib_s_{stat}"] = mib_s_of(out[f"mb_s_{stat}"])
    return out


def pooled_over_sessions(subtests):
    """One subtest measured in several sessions (their aggregated subtests, each with runs), pooled: the mean
    of all their runs (each session's mean weighted by its run count) in MB/s and MiB/s, the run count, and
    the slowest and fastest run (from the sessions holding them): {"mb_s": {mean, min, max}, "mib_s": {mean,
    min, max} or None when a session lacks MiB/s, "mib_mean": the MiB/s mean (0 for sessions without), "run_count",
    "first": the first session's subtest}."""
    mb_total = mib_total = 0.0
    runs = 0
    slow = fast = subtests[0]
    for sub in subtests:
        count = sub["run_count"]
        mb_total += sub["mb_s"]["mean"] * count
        mib_total += (sub.get("mib_s") or {}).get("mean", 0.0) * count
        runs += count
        if _below(sub["mb_s"].get("min"), slow["mb_s"].get("min")):
            slow = sub
        if _below(fast["mb_s"].get("max"), sub["mb_s"].get("max")):
            fast = sub
    mb, mib = mb_total / runs, mib_total / runs
    has_mib = all(s.get("mib_s") for s in (subtests[0], slow, fast))
    return {"mb_s": {"mean": mb, "min": slow["mb_s"].get("min"), "max": fast["mb_s"].get("max")},
            "mib_s": ({"mean": mib, "min": slow["mib_s"].get("min"), "max": fast["mib_s"].get("max")}
                      if has_mib else None),
            "mib_mean": mib, "run_count": runs, "first": subtests[0]}


def _below(a, b):
    return a is not None and (b is None or a < b)


def _rounded(value, digits):
    """round(value, digits), but a decimal tie (a mean of 13.225) rounds half up whatever binary noise the sum
    that made it left (13.2249999… or 13.2250000…1): a card's figure never depends on which other cards were
    computed with it."""
    scaled = value * 10 ** digits
    if abs(scaled - math.floor(scaled) - 0.5) < 1e-6:
        exact = Decimal(repr(round(value, 9)))
        return float(exact.quantize(Decimal(1).scaleb(-digits), rounding=ROUND_HALF_UP))
    return round(value, digits)


def json_number(value, digits=6):
    """A figure as the card's JSON twin holds it: rounded to `digits` places, whole numbers as integers,
    None for a missing or non-finite figure (NaN, None, infinity)."""
    if isinstance(value, float) or value.__class__ is int:  # the common case, without pandas' isna
        value = float(value)
        if value - value != 0:  # infinite or NaN
            return None
        return int(value) if value.is_integer() else _rounded(value, digits)
    if value is None or pd.isna(value) or not math.isfinite(float(value)):
        return None
    value = float(value)
    return int(value) if value.is_integer() else _rounded(value, digits)


def json_numbers(values, digits=6):
    """json_number of each figure of a list; plain floats and integers without a call each."""
    return [json_number(value, digits) if value.__class__ is not float and value.__class__ is not int
            else None if (number := float(value)) - number != 0  # infinite or NaN
            else int(number) if number.is_integer() else _rounded(number, digits) for value in values]


def printed_decimals(values):
    """Decimals a tool printed its runs with: the most of any stored value (744 -> 0, 86.6 -> 1,
    54.0 -> 1), at most MAX_PRINTED_DECIMALS."""
    most = 0
    for value in values:
        text = repr(value) if isinstance(value, float) else str(value)
        if "e" in text.lower():
            return MAX_PRINTED_DECIMALS
        if "." in text:
            most = max(most, len(text.split(".", 1)[1]))
    return min(most, MAX_PRINTED_DECIMALS)


@functools.lru_cache(maxsize=1 << 16, typed=True)  # the same figures and decimals, card after card
def round_half_even(value, decimals):
    """`value` rounded to `decimals` places, ties to the even digit, as decimal text would round
    (a float mean of 518.5 gives 518, of 13.25 at one place 13.2)."""
    if value is None or (value != value if isinstance(value, float) else pd.isna(value)):  # NaN: no pandas call
        return None
    exact = Decimal(repr(round(float(value), 9)))  # drop binary noise: 743.8 is 743.799999… in float
    rounded = float(exact.quantize(Decimal(1).scaleb(-decimals), rounding=ROUND_HALF_EVEN))
    return int(rounded) if decimals == 0 else rounded


def printed_block(row):
    """Mean, min and max of a statistics row as the source prints them: in the recorded unit, to the
    decimals of its runs, the mean rounded half to even (cdm_fio.sh-based charts print whole MiB/s)."""
    unit, decimals = row["unit"], int(row["decimals"])
    return {"unit": unit, "decimals": decimals, "mean": round_half_even(row["value_mean"], decimals),
            "min": round_half_even(row["value_min"], decimals), "max": round_half_even(row["value_max"], decimals)}


def rate_block(row, prefix, runs=None, digits=3):
    """{mean, min, max, std} (and runs when given) of one figure of a statistics row."""
    block = {"runs": runs} if runs is not None else {}
    for name in _AGGREGATES:
        block[name] = json_number(row[f"{prefix}_{name}"], digits)
    return block


def iops_block(row, runs=None):
    """IOPS statistics of a row, or None when no run has IOPS; `derived` when computed from bandwidth."""
    if not row["iops_count"]:
        return None
    block = rate_block(row, "iops", runs, digits=1)
    block["derived"] = bool(row["iops_derived"])
    return block


def latency_block(row, runs_by_stat=None):
    """{stat: {mean, min, max[, runs]}} of the recorded latencies (µs), or None when none was recorded."""
    out = {}
    for name in LATENCY_STATS:
        if row[f"lat_{name}_count"]:
            stat = {"runs": runs_by_stat[name]} if runs_by_stat and name in runs_by_stat else {}
            stat.update({k: json_number(row[f"lat_{name}_{k}"], 3) for k in ("mean", "min", "max")})
            out[name] = stat
    return out or None


def unit_figures(row, runs=None):
    """The bandwidth blocks of a statistics row: mb_s and mib_s (None for a unit that is not a rate).
    A figure stored in MiB/s keeps in mib_s what the tool printed (printed_block: 818.5 over runs of
    834 and 803 shows as the 818 cdm_fio.sh printed). `runs`: the recorded runs, to list them per unit too."""
    unit = row["unit"]
    if not is_rate_unit(unit):
        return {"mb_s": None, "mib_s": None}
    factor = mb_s_from_rate(1.0, unit)  # mb_s_of(float(run), unit) of each run, with its factor read once
    in_mb_s = [float(v) * factor for v in runs] if runs is not None else None
    mb_runs = json_numbers(in_mb_s, 3) if runs is not None else None
    mib_runs = json_numbers(mib_s_of(in_mb_s), 3) if runs is not None else None
    mib = rate_block(row, "mib_s", mib_runs)
    if unit == "MiB/s":  # the unit the tool printed: its own figures, never a round trip through MB/s
        shown = printed_block(row)
        mib.update({key: shown[key] for key in ("mean", "min", "max")})
        mib["std"] = json_number(row["value_std"], 3)
        if runs is not None:
            mib["runs"] = json_numbers(runs)
    return {"mb_s": rate_block(row, "mb_s", mb_runs), "mib_s": mib}


def tool_result_stats(entries):
    """Each tool_results entry (hdparm -t, iozone, …) with its runs' mean, min and max as the tool printed
    them, and, for a rate, in MB/s and MiB/s (with every run); IOPS and latencies stay in their own unit."""
    out = []
    for entry in entries or []:
        values = pd.Series([float(v) for v in entry["runs"]], dtype=float)
        printed = {"mean": values.mean(), "min": values.min(), "max": values.max()}
        row = {key: entry[key] for key in ("tool", "test", "op", "unit") if key in entry}
        row["run_count"] = int(values.count())
        row["runs"] = [json_number(value) for value in values]
        row["printed"] = {key: json_number(value) for key, value in printed.items()}
        if is_rate_unit(entry["unit"]):
            in_mb_s = {name: mb_s_of(value, entry["unit"]) for name, value in printed.items()}
            runs_mb_s = [mb_s_of(value, entry["unit"]) for value in values]
            for key, convert in (("mb_s", lambda v: v), ("mib_s", mib_s_of)):
                row[key] = {name: json_number(convert(value), 3) for name, value in in_mb_s.items()}
                row[key]["runs"] = [json_number(convert(value), 3) for value in runs_mb_s]
        out.append(row)
    return out


__all__ = ["is_spi", "tool_result_stats", "runs_frame", "statistics", "summary", "json_number", "printed_decimals",
           "json_numbers", "round_half_even", "printed_block", "rate_block", "iops_block", "latency_block",
           "unit_figures", "dd_test_name", "block_bytes_of_test", "session_entries", "run_iops", "LATENCY_STATS",
           "ENTRY_KEYS", "CardFigures", "mb_s_of",
           "mib_s_of", "iops_of_mb_s", "curve_mb_s", "rate_figures", "random_4k_iops", "RANDOM_BLOCK_BYTES",
           "align_access_us", "written_gb"]
