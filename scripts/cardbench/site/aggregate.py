"""All the arithmetic of the site: per-subtest statistics, headline figures, leaderboard, suites.

Input: validated card dicts. Output: JSON files that Hugo reads as data (templates only format).
Every statistic is given in the subtest's stored unit, and bandwidths also in MB/s (10^6 B/s),
the site's display unit.
"""

import re

import pandas as pd

from ..core.titles import card_title
from ..core.units import RATE_TO_MB_S, size_text_from_bytes


# Subtest families that make cards comparable. A card joins a suite when its compared sessions
# ran every subtest of it.
KNOWN_SUITES = [
    {
        "id": "cdm8-default",
        "name": "CrystalDiskMark 8 default set",
        "tests": ["SEQ1M Q8T1", "SEQ1M Q1T1", "RND4K Q32T1", "RND4K Q1T1"],
        "ops": ["read", "write"],
    },
    {
        "id": "cdm-fio-sh-1g",
        "name": "cdm_fio.sh set (1 GiB)",
        "tests": ["SEQ1G Q1T1", "SEQ512K Q1T1", "SEQ32M Q32T1", "RND4K Q1T1", "RND4K Q32T1", "RND4K Q8T8"],
        "ops": ["read", "write"],
    },
    {
        "id": "dd-4m",
        "name": "dd, 4 MiB blocks, direct I/O",
        "tests": ["dd bs=4M"],
        "ops": ["read", "write"],
    },
]

# Which subtest speaks for a card's sequential and random figures, best first.
HEADLINE_PICKS = {
    "seq_read": [("SEQ1M Q8T1", "read"), ("SEQ1G Q1T1", "read"), ("SEQ1M Q1T1", "read"), ("SEQ512K Q1T1", "read"), ("dd bs=4M", "read")],
    "seq_write": [("SEQ1M Q8T1", "write"), ("SEQ1G Q1T1", "write"), ("SEQ1M Q1T1", "write"), ("SEQ512K Q1T1", "write"), ("dd bs=4M", "write")],
    "rnd4k_read": [("RND4K Q1T1", "read")],
    "rnd4k_write": [("RND4K Q1T1", "write")],
}

CARD_FIELDS = ["slug", "brand", "model", "part_number", "capacity_gb", "form_factor", "family", "bus",
               "markings", "claimed", "controller", "price", "shops", "source", "notes"]
SESSION_PASS_THROUGH = ["id", "label", "date", "host", "reader", "conditions", "target", "source", "tools",
                        "notes", "headline", "dd_sweeps", "flashbench_open_au", "flashbench_align",
                        "flashbench_find_fat", "fill", "f3probe", "nvme", "raw"]


def _dd_test_name(entry):
    return f"dd bs={entry['block_size']}"


def runs_frame(cards):
    """One row per run: slug, session, compare flag, kind, test, op, unit, run number, value, excluded."""
    rows = []
    for card in cards:
        for s_index, session in enumerate(card.get("sessions") or []):
            compare = session.get("compare", True)
            for kind, entries in (("fio", session.get("results") or []), ("dd", session.get("dd") or [])):
                for e_index, entry in enumerate(entries):
                    test = entry["test"] if kind == "fio" else _dd_test_name(entry)
                    excluded = set(entry.get("excluded_runs") or [])
                    for r_index, value in enumerate(entry["runs"]):
                        rows.append((card["slug"], s_index, compare, kind, e_index, test, entry["op"], entry["unit"],
                                     r_index, float(value), r_index in excluded))
    return pd.DataFrame(rows, columns=["slug", "session", "compare", "kind", "entry", "test", "op", "unit",
                                       "run", "value", "excluded"])


def _stats(frame, keys):
    """count/mean/min/max/std over included runs, plus the same in MB/s."""
    used = frame[~frame["excluded"]]
    grouped = used.groupby(keys, sort=False)["value"]
    stats = grouped.agg(count="count", mean="mean", min="min", max="max", std="std").reset_index()
    factor = stats["unit"].map(RATE_TO_MB_S)
    for col in ("mean", "min", "max", "std"):
        stats[f"{col}_mb_s"] = stats[col] * factor
    return stats


def _num(value, digits=6):
    """JSON-friendly number: NaN becomes None, integers stay integers."""
    if value is None or pd.isna(value):
        return None
    value = float(value)
    return int(value) if value.is_integer() else round(value, digits)


def _stat_obj(row, runs, excluded):
    obj = {
        "test": row["test"], "op": row["op"], "unit": row["unit"], "runs": [_num(v) for v in runs],
        "count": int(row["count"]), "mean": _num(row["mean"]), "min": _num(row["min"]), "max": _num(row["max"]),
        "std": _num(row["std"]),
    }
    if excluded:
        obj["excluded_runs"] = excluded
    if row["unit"] in RATE_TO_MB_S:
        factor = RATE_TO_MB_S[row["unit"]]
        obj["mb_s"] = {"runs": [_num(v * factor, 3) for v in runs], "mean": _num(row["mean_mb_s"], 3),
                       "min": _num(row["min_mb_s"], 3), "max": _num(row["max_mb_s"], 3),
                       "std": _num(row["std_mb_s"], 3)}
    return obj


# Display order of subtests: as CrystalDiskMark and cdm_fio.sh list them; others after, SEQ before RND.
KNOWN_TEST_ORDER = ["SEQ1M Q8T1", "SEQ1M Q1T1", "SEQ1G Q1T1", "SEQ512K Q1T1", "SEQ32M Q32T1", "SEQ128K Q32T1",
                    "RND4K Q32T16", "RND4K Q32T1", "RND4K Q1T1", "RND4K Q8T8"]


def _subtest_order(test, op):
    """Known tests in CrystalDiskMark's order, then SEQ before RND before dd; reads before writes."""
    known = KNOWN_TEST_ORDER.index(test) if test in KNOWN_TEST_ORDER else len(KNOWN_TEST_ORDER)
    kind_rank = 0 if test.startswith("SEQ") else 1 if test.startswith("RND") else 2
    return (kind_rank, known, test, {"read": 0, "write": 1}.get(op, 2))


# SD Association minimums that a marking promises. Sequential write (MB/s) for speed classes;
# random 4K IOPS plus sequential write for application classes.
CLASS_MINIMUMS = {
    "C2": {"seq_write": 2}, "C4": {"seq_write": 4}, "C6": {"seq_write": 6}, "C10": {"seq_write": 10},
    "U1": {"seq_write": 10}, "U3": {"seq_write": 30},
    "V6": {"seq_write": 6}, "V10": {"seq_write": 10}, "V30": {"seq_write": 30}, "V60": {"seq_write": 60}, "V90": {"seq_write": 90},
    "A1": {"seq_write": 10, "read_iops": 1500, "write_iops": 500},
    "A2": {"seq_write": 10, "read_iops": 4000, "write_iops": 2000},
}


def aggregate(cards):
    """Return {'cards': {slug: card_json}, 'leaderboard': [...], 'compare': {...}}."""
    frame = runs_frame(cards)
    if frame.empty:
        entry_stats = pd.DataFrame(columns=["slug", "session", "kind", "entry", "test", "op", "unit"])
    else:
        entry_stats = _stats(frame, ["slug", "session", "kind", "entry", "test", "op", "unit"])
    entry_lookup = {(r.slug, r.session, r.kind, r.entry): r._asdict() for r in entry_stats.itertuples(index=False)}

    out_cards = {}
    for card in cards:
        out_cards[card["slug"]] = _card_json(card, entry_lookup)

    compared = frame[frame["compare"]] if not frame.empty else frame
    pooled = _stats(compared, ["slug", "test", "op", "unit"]) if not compared.empty else pd.DataFrame()
    pooled_lookup = {}
    for r in pooled.itertuples(index=False):
        pooled_lookup.setdefault(r.slug, {})[(r.test, r.op)] = r._asdict()

    leaderboard = []
    for card in cards:
        card_json, pooled = out_cards[card["slug"]], pooled_lookup.get(card["slug"], {})
        row = _leader_row(card, card_json, pooled)
        leaderboard.append(row)
        card_json["headline"] = {key: row[key] for key in HEADLINE_PICKS}
        card_json["pooled"] = {f"{test} {op}": _pooled_obj(r) for (test, op), r in
                               sorted(pooled.items(), key=lambda item: _subtest_order(*item[0]))}
        card_json["class_checks"] = _class_checks(card, row, pooled)
    compare = _compare(cards, out_cards, pooled_lookup)
    return {"cards": out_cards, "leaderboard": leaderboard, "compare": compare}


def _card_json(card, entry_lookup):
    out = {k: card[k] for k in CARD_FIELDS if k in card}
    out["title"] = card_title(card)
    out["yaml_path"] = f"data/cards/{card['slug']}.yaml"
    sessions = []
    for s_index, session in enumerate(card.get("sessions") or []):
        s_out = {k: session[k] for k in SESSION_PASS_THROUGH if k in session}
        s_out["compare"] = session.get("compare", True)
        s_out["complete"] = session.get("complete", True)
        subtests = []
        for kind, entries in (("fio", session.get("results") or []), ("dd", session.get("dd") or [])):
            for e_index, entry in enumerate(entries):
                row = entry_lookup[(card["slug"], s_index, kind, e_index)]
                obj = _stat_obj(row, entry["runs"], entry.get("excluded_runs") or [])
                obj["kind"] = kind
                for extra in ("iops", "latency_us", "size", "command", "raw", "block_size", "count", "flags",
                              "target", "seconds", "bytes"):
                    if extra in entry:
                        obj[extra] = entry[extra]
                subtests.append(obj)
        subtests.sort(key=lambda o: (o["kind"] == "dd", _subtest_order(o["test"], o["op"])))
        s_out["subtests"] = subtests
        s_out["run_count"] = max((len(o["runs"]) for o in subtests), default=0)
        sessions.append(s_out)
    out["sessions"] = sessions
    return out


def _pick(pooled, picks):
    for test, op in picks:
        row = pooled.get((test, op))
        if row is not None and row["unit"] in RATE_TO_MB_S:
            runs = int(row["count"])
            return {"mb_s": _num(row["mean_mb_s"], 2), "test": test, "op": op, "unit": row["unit"],
                    "mean": _num(row["mean"], 3), "from": f"{test} {op}, mean of {runs} run{'s' if runs != 1 else ''}"}
    return None


_HEADLINE_ROW_NAMES = {"seq_read": re.compile(r"^seq(uential)?\.? read\b", re.I),
                       "seq_write": re.compile(r"^seq(uential)?\.? write(, direct)?$", re.I)}


def _fallback_pick(card, key):
    """Sequential figures for cards measured only with sweeps: the largest dd block size, then the
    reviewer's own table (a number with unit MB/s)."""
    sessions = [s for s in card.get("sessions") or [] if s.get("compare", True)]
    if key == "seq_write":
        best = None
        for session in sessions:
            for sweep in session.get("dd_sweeps") or []:
                if sweep["op"] == "write" and sweep["unit"] in RATE_TO_MB_S:
                    point = max(sweep["points"], key=lambda p: p["block_size_bytes"])
                    if best is None or point["block_size_bytes"] > best[0]["block_size_bytes"]:
                        best = (point, sweep["unit"])
        if best:
            point, unit = best
            size = size_text_from_bytes(point["block_size_bytes"])
            return {"mb_s": _num(point["value"] * RATE_TO_MB_S[unit], 2), "test": f"dd sweep bs={size}", "op": "write",
                    "unit": unit, "mean": _num(point["value"]), "from": f"dd write sweep at {size} blocks, one run"}
    pattern = _HEADLINE_ROW_NAMES.get(key)
    for session in sessions if pattern else []:
        for row in session.get("headline") or []:
            if pattern.search(row["name"]) and row.get("unit") == "MB/s" and isinstance(row.get("number"), (int, float)):
                return {"mb_s": _num(row["number"], 2), "test": row["name"], "op": key.split("_")[1], "unit": "MB/s",
                        "mean": _num(row["number"]), "from": f"reviewer's summary table ({row['name']})"}
    return None


def _leader_row(card, card_json, pooled):
    row = {
        "slug": card["slug"], "title": card_json["title"], "brand": card["brand"], "model": card["model"],
        "capacity_gb": card["capacity_gb"], "form_factor": card["form_factor"], "bus": card["bus"],
        "markings": card.get("markings") or [], "claimed": card.get("claimed") or {},
        "source": card["source"]["name"], "sessions": len(card_json["sessions"]),
        "runs": sum(len(o["runs"]) for s in card_json["sessions"] for o in s["subtests"]),
    }
    for key, picks in HEADLINE_PICKS.items():
        row[key] = _pick(pooled, picks) or _fallback_pick(card, key)
    return row


def _pooled_obj(r):
    """Statistics of one subtest over all of a card's compared sessions."""
    return {"test": r["test"], "op": r["op"], "unit": r["unit"], "count": int(r["count"]),
            "mean": _num(r["mean"]), "min": _num(r["min"]), "max": _num(r["max"]),
            "mb_s": ({"mean": _num(r["mean_mb_s"], 3), "min": _num(r["min_mb_s"], 3), "max": _num(r["max_mb_s"], 3)}
                     if r["unit"] in RATE_TO_MB_S else None)}


def _random_iops(pooled, op):
    """Best mean 4 KiB random IOPS of any queue depth, derived from bandwidth ÷ 4096 bytes."""
    best = None
    for (test, test_op), r in pooled.items():
        if test.startswith("RND4K ") and test_op == op and r["unit"] in RATE_TO_MB_S:
            iops = r["mean_mb_s"] * 1e6 / 4096
            if best is None or iops > best[0]:
                best = (iops, test)
    return best


def _class_checks(card, row, pooled):
    """Does the measured card meet what its markings promise? None where a figure is missing."""
    checks = []
    for marking in card.get("markings") or []:
        need = CLASS_MINIMUMS.get(marking)
        if not need:
            continue
        parts, meets = [], True
        seq = row["seq_write"]
        parts.append({"what": "sequential write", "need": need["seq_write"], "unit": "MB/s",
                      "measured": seq["mb_s"] if seq else None, "from": seq["from"] if seq else None})
        for key, op in (("read_iops", "read"), ("write_iops", "write")):
            if key in need:
                best = _random_iops(pooled, op)
                parts.append({"what": f"random 4K {op}", "need": need[key], "unit": "IOPS",
                              "measured": round(best[0]) if best else None, "from": f"{best[1]} {op}" if best else None})
        for part in parts:
            part["meets"] = None if part["measured"] is None else part["measured"] >= part["need"]
        known = [p["meets"] for p in parts]
        meets = False if False in known else (None if None in known else True)
        checks.append({"marking": marking, "meets": meets, "parts": parts})
    return checks


def _compare(cards, out_cards, pooled_lookup):
    suites = []
    for suite in KNOWN_SUITES:
        keys = [(t, o) for t in suite["tests"] for o in suite["ops"]]
        members = []
        for card in cards:
            pooled = pooled_lookup.get(card["slug"], {})
            if all(k in pooled for k in keys):
                stats = {f"{test} {op}": _pooled_obj(pooled[(test, op)]) for test, op in keys}
                sessions = [s["label"] for s in out_cards[card["slug"]]["sessions"] if s["compare"]]
                members.append({"slug": card["slug"], "title": out_cards[card["slug"]]["title"],
                                "brand": card["brand"], "sessions": sessions, "stats": stats})
        if members:
            subtests = [f"{t} {o}" for t, o in keys]  # the suite's own order, as its tool lists them
            suites.append({"id": suite["id"], "name": suite["name"], "subtests": subtests, "cards": members})
    return {"suites": suites}
