"""What one session gives the leaderboard: which of its figures the card's row shows, and why the others
do not. Worked out by the site's own code (aggregate's leaderboard row, headlines' rules), so that what
`cardbench import` says is what the site will show.

session_standing(card, session_id, data_dir) -> {"ranked": [(subtest, column)],
                                                  "not_ranked": [(subtest, why)], "shown_only": [kind]}
standing_line(standing) -> the same in one line.
"""

from .aggregate import aggregate
from ..core.measurement_kinds import CHARTED_WITHOUT_RUNS
from .headline_rules import RULES
from .headlines import HEADLINE_KEYS
from .stats import session_entries

COLUMNS = {"seq_read": "sequential read", "seq_write": "sequential write", "rnd4k_read": "random 4K read",
           "rnd4k_write": "random 4K write"}


def _accepting_columns(kind, entry, test, op):
    """The leaderboard columns one of whose ranked rules takes this subtest's runs."""
    return [key for key in HEADLINE_KEYS if key.endswith(op)
            and any(rule.kind == "runs" and op in rule.ops and rule.accepts(kind, entry, test, op)
                    for rule in RULES[key])]


def _why_not(kind, entry, test, op, row, session_id):
    """Why a subtest of the session is not what the card's row shows."""
    taking = _accepting_columns(kind, entry, test, op)
    for key in taking:
        pick = row[key]
        if pick and pick["subtest"] != f"{test} {op}":
            where = "" if session_id in pick["sessions"] else " of an earlier session"
            return f"{pick['subtest']}{where} stands for the card's {COLUMNS[key]}"
        if row["leaderboard"]["other_test_cells"][HEADLINE_KEYS.index(key)]:
            return f"the {COLUMNS[key]} column shows RND4K Q1T1 only"
    if kind == "dd" and _accepting_columns(kind, {**entry, "flags": [*(entry.get("flags") or []), "direct"]}, test, op):
        return "dd ranks only with direct I/O (iflag=direct, oflag=direct)" + (
            " or, for reads, with the page cache dropped before each run" if op == "read" else "")
    return "no leaderboard column takes this test"


def session_standing(card, session_id, data_dir=None):
    row = next(r for r in aggregate([card], data_dir)["leaderboard"] if r["slug"] == card["slug"])
    session = next(s for s in card["sessions"] if s.get("id") == session_id)
    ranked, not_ranked = [], []
    entries = [(kind, entry, test, f"{test} {entry['op']}") for kind, _, entry, test in session_entries(session)]
    # Another tool's figure: its pick names it "<tool> <test>", the operation apart.
    entries += [("tool", entry, entry["test"], f"{entry['tool']} {entry['test']}")
                for entry in session.get("tool_results") or []]
    for kind, entry, test, subtest in entries:
        shown = subtest if kind != "tool" else f"{subtest} ({entry['op']})"
        columns = [COLUMNS[key] for key, hidden in zip(HEADLINE_KEYS, row["leaderboard"]["other_test_cells"])
                   if row[key] and not hidden and row[key]["subtest"] == subtest and key.endswith(entry["op"])
                   and session_id in row[key]["sessions"]]
        if columns:
            ranked += [(shown, column) for column in columns]
        elif session.get("compare", True) is False:
            not_ranked.append((shown, "the session is not compared (compare: false)"))
        elif kind == "tool":
            not_ranked.append((shown, "charted on the card page; another figure stands for the card" if
                               any(row[key] for key in HEADLINE_KEYS if key.endswith(entry["op"])) else
                               "charted on the card page; no leaderboard column takes this figure"))
        else:
            not_ranked.append((shown, _why_not(kind, entry, test, entry["op"], row, session_id)))
    shown_only = [kind for kind in CHARTED_WITHOUT_RUNS if session.get(kind)]
    return {"ranked": ranked, "not_ranked": not_ranked, "shown_only": shown_only}


def standing_line(standing):
    """'ranked: SEQ1M Q8T1 read (sequential read); not ranked: SEQ1M Q1T1 read, … (why); …' in one line."""
    parts = []
    if standing["ranked"]:
        parts.append("ranked: " + ", ".join(f"{subtest} ({column})" for subtest, column in standing["ranked"]))
    grouped = {}
    for subtest, why in standing["not_ranked"]:
        grouped.setdefault(why, []).append(subtest)
    if grouped:
        parts.append("not ranked: " + "; ".join(f"{', '.join(subtests)} ({why})" for why, subtests in grouped.items()))
    if standing["shown_only"]:
        parts.append(f"{', '.join(standing['shown_only'])}: charted on the card page, not ranked")
    if not standing["ranked"]:
        parts.insert(0, "nothing from this session ranks")
    return "; ".join(parts)
