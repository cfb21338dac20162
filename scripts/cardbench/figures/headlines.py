"""Which figure speaks for a card's sequential read and write and its random 4K read and write.

Each headline is chosen by explicit rules, best first (SEQUENTIAL_RULES, RANDOM_4K_RULES); the first
rule that finds a figure in the card's compared sessions wins. A rule names the subtest and the
condition it accepts; a figure taken under any other condition (after a fill, through a cache, on a
filesystem written without direct I/O, at its lowest or peak, in a used state) never stands for
plain sequential or random figures. Every headline records what it came from: the rule, a `basis`
text for readers, the session ids, the subtest and the raw files behind it.

Kinds of rule:
  runs     the mean of every run of the matching subtest in the compared sessions (pandas)
  summary  a row of a reviewer's summary table, matched by its name (an allow-list of names and
           qualifiers, so an unknown qualifier is refused), first compared session first
  sweep    the largest block of a dd block-size sweep with direct I/O (one run)
  tool     the mean of every run of another tool's figure (hdparm -t, the SD Card Speed Test's seq-write,
           H2testw, f3write/f3read, a source's result table) that reads or writes the card sequentially
           or at random, in a bandwidth unit; the largest block first

Sessions over SPI (a microcontroller reading the card a few MB/s at most) never stand for the card:
their figures are ranked among SPI results only (spi_headlines).
"""

import re
from dataclasses import dataclass

import pandas as pd

from ..core.units import MIB_BYTES, bytes_from_size_text, is_rate_unit, size_text_from_bytes
from .stats import (block_bytes_of_test, is_spi, json_number, printed_block, printed_decimals, rate_figures, round_half_even,
                    session_entries, summary)
from ..core.subtest_names import ios_in_flight, is_mixed

HEADLINE_KEYS = ("seq_read", "seq_write", "rnd4k_read", "rnd4k_write")
LARGE_DD_BLOCK = MIB_BYTES  # dd blocks from 1 MiB on: per-call overhead no longer limits the rate


@dataclass(frozen=True)
class Rule:
    id: str
    kind: str          # runs, summary or sweep
    text: str          # what the rule accepts, for readers and the documentation
    accepts: object    # runs: (kind, entry, test, op) -> bool; summary: (name, op) -> bool; sweep: (sweep, op) -> bool
    prefer: object = None  # runs: sort key of a matching test name, smallest first (which test wins)
    ops: tuple = ("read", "write")


def _fio_test(name):
    return lambda kind, entry, test, op: kind == "results" and test == name


def _other_fio_seq(kind, entry, test, op):
    return kind == "results" and test.startswith("SEQ") and test not in _NAMED_SEQ and not is_mixed(test)


def _dd_block(entry):
    return bytes_from_size_text(entry.get("block_size") or "") or 0


def _dd_stated(kind, entry):
    return kind == "dd" and entry.get("method_stated", True) and entry.get("block_size_stated", True)


def _dd_direct(large):
    def accepts(kind, entry, test, op):
        if not _dd_stated(kind, entry) or "direct" not in (entry.get("flags") or []):
            return False
        return (_dd_block(entry) >= LARGE_DD_BLOCK) == large
    return accepts


def _dd_read_cache_dropped(kind, entry, test, op):
    """A dd read without direct I/O counts only when its command empties the page cache before each run."""
    return (_dd_stated(kind, entry) and op == "read" and "direct" not in (entry.get("flags") or [])
            and "drop_caches" in (entry.get("command") or ""))


def _largest_block_first(test):
    block = block_bytes_of_test(test) or bytes_from_size_text(test.split("=", 1)[-1]) or 0
    return (-block, ios_in_flight(test), test)


def summary_name(name):
    """A summary row name as compared: lower case, single spaces, no trailing colon, split into its
    base and its qualifiers (the parts after commas): 'Seq. write, direct' -> ('seq. write', ('direct',))."""
    parts = [re.sub(r"\s+", " ", part).strip() for part in name.lower().rstrip(": ").split(",")]
    return parts[0], tuple(p for p in parts[1:] if p)


def _summary(base_patterns, qualifiers=()):
    """Accepts a row whose base matches one of the patterns (each naming its operation as `op`) for this
    operation, and whose qualifiers are all allowed."""
    patterns = [re.compile(p) for p in base_patterns]
    allowed = frozenset(qualifiers)

    def accepts(name, op):
        base, quals = summary_name(name)
        ops = {m.group("op") for m in (p.fullmatch(base) for p in patterns) if m}
        return op in ops and set(quals) <= allowed
    return accepts


# Other tools' figures and how each reaches the card: the tool's test names say it, or the entry's own
# `access` (a source's result table, whose layout says what each column measured).
_TOOL_ACCESS = {("hdparm", "hdparm -t"): "sequential", ("hdparm", "hdparm -t --direct"): "sequential",
                ("agnostics", "seq-write"): "sequential", ("agnostics", "seq-read"): "sequential",
                ("agnostics", "rand-4k-write"): "random", ("agnostics", "rand-4k-read"): "random",
                ("h2testw", "Writing speed"): "sequential", ("h2testw", "Reading speed"): "sequential",
                ("f3rw", "Average writing speed"): "sequential", ("f3rw", "Average reading speed"): "sequential"}


def tool_access(entry):
    """'sequential', 'random' or None: how a tool_results figure reached the card."""
    return entry.get("access") or _TOOL_ACCESS.get((entry.get("tool"), entry.get("test")))


def _tool_sequential(entry, op):
    return tool_access(entry) == "sequential"


def _tool_random_4k(entry, op):
    return tool_access(entry) == "random" and bytes_from_size_text(entry.get("block_size") or "") == 4096


def _sweep_direct(sweep, op):
    return sweep["op"] == op and "direct" in (sweep.get("flags") or []) and is_rate_unit(sweep["unit"])


# dd write flags under which the time dd prints includes getting the data onto the card (oflag=dsync or
# sync: each write waits; conv=fsync or fdatasync: dd waits for the flush before it prints).
_SYNCED_WRITE = frozenset({"dsync", "sync", "fsync", "fdatasync"})
# macOS's raw device (/dev/rdiskN) bypasses the buffer cache: what dd times there is the card.
_RAW_DEVICE = re.compile(r"(?:^|[\s=])/dev/rdisk[0-9]+(?:s[0-9]+)?(?:\s|$)")


def _dd_synced_write(kind, entry, test, op):
    """A dd write onto the card's device whose data was synced before dd printed its rate."""
    return (_dd_stated(kind, entry) and op == "write" and entry.get("target", "device") == "device"
            and bool(_SYNCED_WRITE & set(entry.get("flags") or ())))


def _dd_raw_device(kind, entry, test, op):
    """dd to or from macOS's raw device, which has no cache between dd and the card."""
    return _dd_stated(kind, entry) and bool(_RAW_DEVICE.search(entry.get("command") or ""))


def _dd_method_not_stated(kind, entry, test, op):
    """dd figures a source published without their command: a sequential figure still, its method unknown."""
    return kind == "dd" and not entry.get("method_stated", True)


_NAMED_SEQ = ("SEQ1M Q8T1", "SEQ1G Q1T1", "SEQ1M Q1T1", "SEQ512K Q1T1")
_SEQ = r"(?:seq\.?|sequential)"

SEQUENTIAL_RULES = (
    Rule("cdm-seq1m-q8t1", "runs", "SEQ1M Q8T1, CrystalDiskMark's sequential test", _fio_test("SEQ1M Q8T1")),
    Rule("cdm-fio-seq1g-q1t1", "runs", "SEQ1G Q1T1, the first test of cdm_fio.sh", _fio_test("SEQ1G Q1T1")),
    Rule("cdm-seq1m-q1t1", "runs", "SEQ1M Q1T1, CrystalDiskMark's queue-depth-1 sequential test",
         _fio_test("SEQ1M Q1T1")),
    Rule("cdm-fio-seq512k-q1t1", "runs", "SEQ512K Q1T1 (cdm_fio.sh)", _fio_test("SEQ512K Q1T1")),
    Rule("fio-seq-other", "runs", "another fio sequential subtest: the largest block, then the fewest requests in flight",
         _other_fio_seq, _largest_block_first),
    Rule("dd-large-direct", "runs", "dd with direct I/O and blocks of 1 MiB or more (the largest block)",
         _dd_direct(True), _largest_block_first),
    Rule("dd-direct", "runs", "dd with direct I/O and blocks under 1 MiB (the largest block)",
         _dd_direct(False), _largest_block_first),
    Rule("dd-read-cache-dropped", "runs", "dd read without direct I/O, the page cache dropped before each run",
         _dd_read_cache_dropped, _largest_block_first, ops=("read",)),
    Rule("dd-synced-write", "runs", "dd written onto the card's device with its data synced (oflag=dsync or sync, "
         "conv=fsync or fdatasync; the largest block)", _dd_synced_write, _largest_block_first, ops=("write",)),
    Rule("dd-raw-device", "runs", "dd to or from macOS's raw device /dev/rdiskN, which no cache stands in front of "
         "(the largest block)", _dd_raw_device, _largest_block_first),
    Rule("dd-method-not-stated", "runs", "dd runs whose command the source does not state",
         _dd_method_not_stated, _largest_block_first),
    Rule("summary-cdm-seq", "summary",
         "the reviewer's summary row 'CrystalDiskMark sequential <op>', fresh or refreshed by a format",
         _summary([rf"crystaldiskmark {_SEQ} (?P<op>read|write)"],
                  ("fresh", "after format", "after a format", "refreshed after format"))),
    Rule("summary-seq", "summary",
         "the reviewer's summary row 'Seq. <op>' or 'Sequential <op>', plain or 'direct' (never 'cache', 'ext4', "
         "'after the fill', 'lowest', 'peak' or any other condition)",
         _summary([rf"{_SEQ} (?P<op>read|write)"], ("direct",))),
    Rule("dd-sweep-largest", "sweep", "a dd block-size sweep with direct I/O, at its largest block (one run)",
         _sweep_direct),
    Rule("tool-sequential", "tool", "another tool's sequential figure (hdparm -t, the Raspberry Pi SD Card Speed Test, "
         "H2testw, f3write/f3read, a source's result table; the largest block)", _tool_sequential),
)

def is_sequential_measurement(kind, entry, test, op):
    """True when a run-holding entry (stats.session_entries) may stand for the card's sequential `op`:
    one source for the headlines, the class checks built on them and the findings."""
    return any(rule.kind == "runs" and op in rule.ops and rule.accepts(kind, entry, test, op) for rule in SEQUENTIAL_RULES)


RANDOM_4K_RULES = (
    Rule("cdm-rnd4k-q1t1", "runs", "RND4K Q1T1, random 4 KiB at queue depth 1", _fio_test("RND4K Q1T1")),
    Rule("summary-rnd4k", "summary", "the reviewer's summary row 'Random <op> 4KiB' (plain, no condition)",
         _summary([r"random (?P<op>read|write) 4 ?ki?b", r"random 4 ?ki?b? (?P<op>read|write)"])),
    Rule("tool-random-4k", "tool", "another tool's random 4 KiB figure in a bandwidth unit (a source's result table)",
         _tool_random_4k),
)

RULES = {"seq_read": SEQUENTIAL_RULES, "seq_write": SEQUENTIAL_RULES,
         "rnd4k_read": RANDOM_4K_RULES, "rnd4k_write": RANDOM_4K_RULES}


def _op(key):
    return key.rsplit("_", 1)[1]


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
    synced = sorted(_SYNCED_WRITE & flags)
    bits = ["direct I/O" if "direct" in flags else
            f"synced ({', '.join(synced)})" if synced and entry["op"] == "write" else
            "raw device, no cache" if _RAW_DEVICE.search(entry.get("command") or "") else
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
            "basis": f"{best[1]['tool']} {best[1]['test']} ({op}), mean of {len(runs)} run{'s' if len(runs) != 1 else ''}"
                     + (f" over {len(sessions)} sessions" if len(sessions) > 1 else ""),
            **rate_figures(mean, unit), "unit": unit, "mean": json_number(mean, 3), "run_count": len(runs),
            "printed": {"unit": unit, "decimals": decimals, "mean": round_half_even(mean, decimals)},
            "raw": _entry_raw(entry for _, entry in chosen)}
    return pick


def pick_headline(card, frame, pooled, key, spi=False):
    """The headline figure `key` (seq_read, seq_write, rnd4k_read, rnd4k_write) of a card, by the first
    rule that finds one; None when no rule does (not measured). `frame`: the card's runs_frame rows;
    `pooled`: {(test, op): statistics row} of its compared sessions (stats.statistics)."""
    op = _op(key)
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


def rules_text():
    """The ranked rules, for documentation: {key: [(rule id, text), …]}."""
    return {key: [(rule.id, rule.text) for rule in rules if _op(key) in rule.ops] for key, rules in RULES.items()}


__all__ = ["HEADLINE_KEYS", "is_sequential_measurement", "SEQUENTIAL_RULES", "RANDOM_4K_RULES", "RULES", "pick_headline",
           "headlines", "spi_headlines", "is_spi", "tool_access", "stated_only", "summary_name", "rules_text"]
