"""Which figure speaks for a card's sequential read and write and its random 4K read and write.

Each headline is chosen by the ranked rules of headline_rules.py, best first; the first rule that finds a
figure in the card's compared sessions wins. Every headline records what it came from: the rule, a `basis`
text for readers, the session ids, the subtest and the raw files behind it.

Sessions over SPI (a microcontroller reading the card a few MB/s at most) never stand for the card:
their figures are ranked among SPI results only (spi_headlines).
"""

import pandas as pd

from ..core.units import bytes_from_size_text, is_rate_unit, size_text_from_bytes
from .headline_rules import RAW_DEVICE, RULES, SEQUENTIAL_RULES, SYNCED_WRITE_FLAGS, op_of_key
from .stats import (is_spi, json_number, printed_block, printed_decimals, rate_figures, round_half_even,
                    session_entries, summary)

HEADLINE_KEYS = ("seq_read", "seq_write", "rnd4k_read", "rnd4k_write")


def is_sequential_measurement(kind, entry, test, op):
    """True when a run-holding entry (stats.session_entries) may stand for the card's sequential `op`:
    one source for the headlines, the class checks built on them and the findings."""
    return any(rule.kind == "runs" and op in rule.ops and rule.accepts(kind, entry, test, op)
               for rule in SEQUENTIAL_RULES)


def _compared(card, spi=False):
    return [(i, s) for i, s in enumerate(card.get("sessions") or []) if s.get("compare", True) and is_spi(s) == spi]


def _entry_raw(entries):
    return sorted({ref for entry in entries for ref in entry.get("raw") or []})


def _compared_entries(card):
    """(session index, session, kind, entry index, entry, test) of every entry of the compared sessions."""
    return [(s_index, session, kind, e_index, entry, test) for s_index, session in _compared(card)
            for kind, e_index, entry, test in session_entries(session)]


def _runs_pick(rule, card, frame, pooled, op):
    """Mean of every run of the subtest the rule accepts, pooled over the compared sessions."""
    matched = [m for m in _compared_entries(card)
               if m[4]["op"] == op and is_rate_unit(m[4]["unit"]) and rule.accepts(m[2], m[4], m[5], op)]
    if not matched:
        return None
    test = min({m[5] for m in matched}, key=rule.prefer or (lambda t: t))
    chosen = [m for m in matched if m[5] == test]
    units = {m[4]["unit"] for m in chosen}
    unit = units.pop() if len(units) == 1 else None
    every = [m for m in _compared_entries(card) if m[5] == test and m[4]["op"] == op]
    if unit and len(every) == len(chosen) and (test, op) in pooled:
        row = pooled[(test, op)]  # the rule takes every run of the subtest: its pooled statistics
    else:
        keys = {(m[0], m[2], m[3]) for m in chosen}
        chosen_rows = [(s, k, e) in keys for s, k, e in zip(frame["session"], frame["kind"], frame["entry"])]
        rows = frame.loc[pd.Series(chosen_rows, index=frame.index, dtype=bool)]
        if rows["excluded"].all():
            return None
        row = summary(rows)
    runs = int(row["run_count"])
    pick = {"rule": rule.id, "kind": "runs", "subtest": f"{test} {op}",
            "sessions": list(dict.fromkeys(m[1]["id"] for m in chosen)),
            "basis": f"{test} {op}, mean of {runs} run{'s' if runs != 1 else ''}" + _flags_text(chosen),
            "mb_s": json_number(row["mb_s_mean"], 2), "mib_s": json_number(row["mib_s_mean"], 2),
            "unit": unit, "mean": json_number(row["value_mean"], 3) if unit else None, "run_count": runs,
            "raw": _entry_raw(m[4] for m in chosen)}
    if unit:
        pick["printed"] = printed_block(dict(row, unit=unit))
        if unit == "MiB/s":  # as the tool printed it, like every MiB/s figure (stats.unit_figures)
            pick["mib_s"] = pick["printed"]["mean"]
    if row["iops_count"]:
        pick["iops"] = {"mean": json_number(row["iops_mean"], 1), "derived": bool(row["iops_derived"])}
    return pick


def _flags_text(chosen):
    entry = chosen[0][4]
    if chosen[0][2] != "dd":
        return ""
    if not entry.get("method_stated", True):
        return ""  # the subtest's name says it: "dd (method not stated)"
    flags = set(entry.get("flags") or [])
    synced = sorted(SYNCED_WRITE_FLAGS & flags)
    bits = ["direct I/O" if "direct" in flags else
            f"synced ({', '.join(synced)})" if synced and entry["op"] == "write" else
            "raw device, no cache" if RAW_DEVICE.search(entry.get("command") or "") else
            "page cache dropped before each run"]
    if entry.get("target"):
        bits.append("to a file on the card" if entry["target"] == "file" and entry["op"] == "write" else
                    "from a file on the card" if entry["target"] == "file" else "on the device")
    return " (" + ", ".join(bits) + ")"


def _summary_pick(rule, card, op):
    """The first compared session's summary row the rule accepts, with a number in a bandwidth unit."""
    for _, session in _compared(card):
        for row in session.get("headline") or []:
            stated = row.get("number")
            if (row.get("value") is not None and isinstance(stated, (int, float)) and is_rate_unit(row.get("unit"))
                    and rule.accepts(row["name"], op)):
                return {"rule": rule.id, "kind": "summary", "subtest": row["name"], "sessions": [session["id"]],
                        "basis": f"reviewer's summary: {row['name']} ({row['value']})",
                        **rate_figures(stated, row["unit"]),
                        "unit": row["unit"], "mean": json_number(stated), "run_count": None,
                        "printed": {"unit": row["unit"], "mean": json_number(stated), "text": row["value"]},
                        "raw": _entry_raw([session])}
    return None


def _sweep_pick(rule, card, op):
    """The largest block of the compared sessions' direct-I/O dd sweeps (first session on a tie)."""
    best = None
    for _, session in _compared(card):
        for sweep in session.get("dd_sweeps") or []:
            if rule.accepts(sweep, op) and sweep["points"]:
                point = max(sweep["points"], key=lambda p: p["block_size_bytes"])
                if best is None or point["block_size_bytes"] > best[0]["block_size_bytes"]:
                    best = (point, sweep, session)
    if best is None:
        return None
    point, sweep, session = best
    size = size_text_from_bytes(point["block_size_bytes"])
    decimals = printed_decimals([point["value"]])
    return {"rule": rule.id, "kind": "sweep", "subtest": f"dd sweep bs={size} {op}", "sessions": [session["id"]],
            "basis": f"dd {op} sweep with direct I/O at its largest block, {size}, one run",
            **rate_figures(point["value"], sweep["unit"]), "unit": sweep["unit"],
            "mean": json_number(point["value"]), "run_count": 1,
            "printed": {"unit": sweep["unit"], "decimals": decimals, "mean": round_half_even(point["value"], decimals)},
            "raw": _entry_raw([sweep])}


def _tool_pick(rule, card, op, spi=False):
    """Mean of every run of the other tool's figure the rule accepts (the largest block first), pooled over
    the compared sessions, in MB/s."""
    matched = [(session, entry) for _, session in _compared(card, spi) for entry in session.get("tool_results") or []
               if entry.get("op") == op and is_rate_unit(entry.get("unit")) and rule.accepts(entry, op)]
    if not matched:
        return None
    def preference(item):
        entry = item[1]
        return (-(bytes_from_size_text(entry.get("block_size") or "") or 0), entry["tool"], entry["test"])

    best = min(matched, key=preference)
    chosen = [(s, e) for s, e in matched if (e["tool"], e["test"], e["unit"]) == (best[1]["tool"], best[1]["test"],
                                                                                 best[1]["unit"])]
    runs = [float(value) for _, entry in chosen for value in entry["runs"]]
    unit = best[1]["unit"]
    mean = sum(runs) / len(runs)
    decimals = printed_decimals(runs)
    sessions = list(dict.fromkeys(session["id"] for session, _ in chosen))
    pick = {"rule": rule.id, "kind": "tool", "subtest": f"{best[1]['tool']} {best[1]['test']}", "sessions": sessions,
            "basis": f"{best[1]['tool']} {best[1]['test']} ({op}), "
                     f"mean of {len(runs)} run{'s' if len(runs) != 1 else ''}"
                     + (f" over {len(sessions)} sessions" if len(sessions) > 1 else ""),
            **rate_figures(mean, unit), "unit": unit, "mean": json_number(mean, 3), "run_count": len(runs),
            "printed": {"unit": unit, "decimals": decimals, "mean": round_half_even(mean, decimals)},
            "raw": _entry_raw(entry for _, entry in chosen)}
    return pick


def pick_headline(card, frame, pooled, key, spi=False):
    """The headline figure `key` (seq_read, seq_write, rnd4k_read, rnd4k_write) of a card, by the first
    rule that finds one; None when no rule does (not measured). `frame`: the card's runs_frame rows;
    `pooled`: {(test, op): statistics row} of its compared sessions (stats.statistics)."""
    op = op_of_key(key)
    for rule in RULES[key]:
        if op not in rule.ops or (spi and rule.kind != "tool"):
            continue
        if rule.kind == "runs":
            pick = _runs_pick(rule, card, frame, pooled, op)
        elif rule.kind == "summary":
            pick = _summary_pick(rule, card, op)
        elif rule.kind == "tool":
            pick = _tool_pick(rule, card, op, spi)
        else:
            pick = _sweep_pick(rule, card, op)
        if pick:
            if not key.startswith("rnd"):
                pick.pop("iops", None)  # IOPS of a 1 GiB block tell a reader nothing
            return pick
    return None


def stated_only(pick):
    """A figure the source only stated (a reviewer's summary row): no runs behind it are recorded here."""
    return bool(pick) and pick.get("kind") == "summary"


def headlines(card, frame, pooled):
    """{key: pick or None} for every headline key."""
    return {key: pick_headline(card, frame, pooled, key) for key in HEADLINE_KEYS}


def spi_headlines(card):
    """{key: pick or None} of the card's compared SPI sessions alone (their own ranking)."""
    return {key: pick_headline(card, None, {}, key, spi=True) for key in HEADLINE_KEYS}
