"""What a card is read through: its (host, reader) paths, their pooled figures, the leaderboard's filters, and
each card's headline figures through each reader and host (the card's `reach`, which the /readers/ page joins:
pages/card_readers_page.py; the card page's table by path: pages/paths_table.py).

A card's speed depends on the path as much as on the card: a USB 2.0 reader caps at about 40 MB/s, a
Raspberry Pi's slot runs a card at DDR50 or SDR104. The paths table's figures come from the statistics the
aggregate computed for each session's subtests (their `mb_s` and `mib_s` blocks), pooled over a path's
sessions by the statistics module (stats.pooled_over_sessions: the mean of all their runs). What /readers/
shows for a card through a path is the card's headline figure taken over that path's sessions alone, by the
same rules as everywhere else (headlines.pick_headline: path_headlines, computed by the aggregate into the
card's twin); where no rule finds one, it says what was measured through the path instead. Worked out once per
card (path_figures, card_filters, card_reach); each card's `reach` is gathered by reader and host with the
card too (card_readers_page.card_groups), and the shared page only joins those parts, so a changed card costs
only its own work.
"""

from .headlines import pick_headline, stated_only
from ..core.measurement_kinds import LEADERBOARD_WORDS
from .stats import is_spi, pooled_over_sessions
from .subset_headlines import compared_indexes

NOT_STATED = "not stated"


def path_of(session):
    """A session's path: (host, reader), None for a field the session does not state."""
    return session.get("host") or None, session.get("reader") or None


def path_label(path):
    """A path in words, for a column header's accessible name and the tests."""
    host, reader = path
    if host and reader:
        return f"{reader} on {host}"
    if host or reader:
        return f"{host} (reader {NOT_STATED})" if host else f"{reader} (host {NOT_STATED})"
    return NOT_STATED


def pooled_by_path(sessions):
    """{path: {(kind, test, op): pooled figures (stats.pooled_over_sessions)}} over sessions' rate subtests,
    paths in the order they first appear."""
    paths = {}
    for session in sessions:
        subtests = paths.setdefault(path_of(session), {})
        for sub in session.get("subtests") or []:
            mb = sub.get("mb_s")
            if not sub.get("run_count") or not mb or mb.get("mean") is None:
                continue
            subtests.setdefault((sub["kind"], sub["test"], sub["op"]), []).append(sub)
    return {path: {key: pooled_over_sessions(subs) for key, subs in subtests.items()}
            for path, subtests in paths.items()}


def sessions_on(sessions, path):
    """The labels of the sessions read through a path."""
    return [s["label"] for s in sessions if path_of(s) == path]


def path_figures(card):
    """Each (host, reader) path of a card's compared sessions with its rate figures, when two or more paths
    have any (else []): [{host, reader, label, sessions, figures: {"test op": {mb_s, mib_s, run_count}}}], each
    block {mean, min, max}: the mean of all the path's runs, its slowest and fastest run, in both units as
    the aggregate gave them. For the comparison page, which can set a card's paths side by side."""
    compared = [s for s in card.get("sessions") or [] if s.get("compare", True)]
    pooled = {path: subtests for path, subtests in pooled_by_path(compared).items() if subtests}
    if len(pooled) < 2:
        return []
    out = []
    for path, subtests in pooled.items():
        figures = {}
        for (_kind, test, op), pool in subtests.items():
            figures.setdefault(f"{test} {op}", {key: pool[key] for key in ("mb_s", "mib_s", "run_count")})
        out.append({"host": path[0], "reader": path[1], "label": path_label(path),
                    "sessions": sessions_on(compared, path), "figures": figures})
    return out


def card_filters(card):
    """The hosts and readers any of a card's sessions stated, for the leaderboard's filters."""
    sessions = card.get("sessions") or []
    return {"hosts": sorted({s["host"] for s in sessions if s.get("host")}),
            "readers": sorted({s["reader"] for s in sessions if s.get("reader")})}


READER_KEYS = ("seq_read", "seq_write")


def _slim(pick, spi=False):
    """A headline pick as /readers/ needs it, or None (spi: taken over SPI sessions, among SPI results only)."""
    if not pick:
        return None
    return {"mb_s": pick["mb_s"], "mib_s": pick["mib_s"], "runs": pick["run_count"], "subtest": pick["subtest"],
            "basis": pick["basis"], "rule": pick["rule"], "stated": stated_only(pick), "spi": spi}


def _paths(card):
    """Each stated path of a card's sessions, SPI apart: (path, spi, the sessions on it)."""
    sessions = card.get("sessions") or []
    for path, spi in dict.fromkeys((path_of(s), is_spi(s)) for s in sessions):
        if path != (None, None):
            yield path, spi, [s for s in sessions if path_of(s) == path and is_spi(s) == spi]


def path_subsets(card):
    """The session subsets (subset_headlines.compared_indexes) whose headlines path_headlines reads."""
    return [compared_indexes(card, lambda s, path=path: path_of(s) == path)
            for path, spi, _ in _paths(card) if not spi]


def path_headlines(card, subsets):
    """Per stated (host, reader) path any session of a card names, its sequential read and write headline over
    that path's compared sessions alone, by headlines.pick_headline's rules (over SPI sessions, the SPI ranking's
    own; subsets: a subset_headlines.SubsetHeadlines that computed path_subsets): [{host, reader, sessions (ids),
    seq_read, seq_write}], each figure {mb_s, mib_s, runs, subtest, basis, rule, stated, spi} or None (also for a
    path whose sessions are all left out of comparisons). The aggregate puts it in the card's twin; /readers/
    reads it."""
    sessions = card.get("sessions") or []
    out = []
    for path, spi, on_path in _paths(card):
        compared = [s["id"] for s in on_path if s.get("compare", True)]
        if not compared:
            picks = dict.fromkeys(READER_KEYS)
        elif spi:
            alone = dict(card, sessions=[dict(s, compare=s["id"] in compared and is_spi(s)) for s in sessions])
            picks = {key: _slim(pick_headline(alone, None, {}, key, spi=True), True) for key in READER_KEYS}
        else:
            chosen = subsets.picks(card, compared_indexes(card, lambda s, path=path: path_of(s) == path))
            picks = {key: _slim(chosen[key]) for key in READER_KEYS}
        out.append({"host": path[0], "reader": path[1], "sessions": [s["id"] for s in on_path], **picks})
    return out


def _measured_through(sessions):
    """What a path's sessions measured, in words ('dd sweep, flashbench'): their subtests with runs, then the
    other kinds of figure they hold; '' when nothing."""
    tests = [f"{sub['test']} {sub['op']}" for s in sessions for sub in s.get("subtests") or [] if sub.get("runs")]
    kinds = [name for key, name in LEADERBOARD_WORDS if any(s.get(key) for s in sessions)]
    shown = list(dict.fromkeys(tests))
    if len(shown) > 3:
        shown = shown[:3] + [f"{len(shown) - 3} more subtests"]
    return ", ".join(shown + list(dict.fromkeys(kinds)))


def card_reach(card):
    """Per stated path of the card's compared sessions, its sequential read and write by the headline rules over
    that path's sessions (the twin's `path_headlines`): [{host, reader, read, write, measured}], each figure
    {mb_s, mib_s, runs, subtest, basis, stated} or None, `measured` what the path's sessions hold, in words. The
    /readers/ page joins these."""
    by_id = {s["id"]: s for s in card.get("sessions") or []}
    out = []
    for path in card.get("path_headlines") or []:
        sessions = [by_id[i] for i in path["sessions"] if i in by_id]
        out.append({"host": path["host"], "reader": path["reader"], "read": path["seq_read"],
                    "write": path["seq_write"], "measured": _measured_through(sessions)})
    return out
