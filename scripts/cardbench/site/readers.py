"""What a card is read through: its (host, reader) paths, side by side on its page, as leaderboard
filters, and each card's figures through each reader and host (the /readers/ page).

A card's speed depends on the path as much as on the card: a USB 2.0 reader caps at about 40 MB/s, a
Raspberry Pi's slot runs a card at DDR50 or SDR104. The paths table's figures come from the statistics the
aggregate computed for each session's subtests (their `mb_s` and `mib_s` blocks), pooled over a path's
sessions by the statistics module (stats.pooled_over_sessions: the mean of all their runs). What /readers/
shows for a card through a path is the card's headline figure taken over that path's sessions alone, by the
same rules as everywhere else (headlines.pick_headline: path_headlines, computed by the aggregate into the
card's twin); where no rule finds one, it says what was measured through the path instead. Worked out once per
card (card_paths, card_filters, card_reach); the shared page joins the cards' small `reach` lists
(readers_page), so a changed card costs only its own work.
"""

import heapq
import math

from .chartmodel import rate_cell
from .formatting import DASH, format_by_size
from .headlines import pick_headline, stated_only
from .stats import is_spi, pooled_over_sessions
from .suites import subtest_order

NOT_STATED = "not stated"
# Cards listed under each reader or host on /readers/, fastest first; the rest are one filter away on the home page.
CARDS_LISTED = 50


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


def _pooled_by_path(sessions):
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
    return {path: {key: pooled_over_sessions(subs) for key, subs in subtests.items()} for path, subtests in paths.items()}


def _sessions_on(sessions, path):
    return [s["label"] for s in sessions if path_of(s) == path]


def card_paths(card):
    """The card page's "By host and reader" table, or None when the card has fewer than two paths.

    columns: each path (host, reader, not_stated, its sessions' labels); rows: every subtest measured through
    two or more paths, in the suites' order, each cell its pooled mean ({mb, mib} texts) and its runs."""
    sessions = card.get("sessions") or []
    pooled = _pooled_by_path(sessions)
    if len(pooled) < 2:
        return None
    paths = list(pooled)
    shared = {}
    for subtests in pooled.values():
        for key in subtests:
            shared[key] = shared.get(key, 0) + 1
    keys = sorted((k for k, count in shared.items() if count >= 2),
                  key=lambda k: (k[0] == "dd", subtest_order(k[1], k[2])))
    rows = []
    for key in keys:
        cells = []
        for path in paths:
            pool = pooled[path].get(key)
            if pool is None:
                cells.append({"text": DASH, "runs": 0})
                continue
            cells.append({**rate_cell(pool["mb_s"]["mean"], pool["mib_mean"]), "runs": pool["run_count"]})
        rows.append({"name": f"{key[1]} {key[2]}", "cells": cells})
    if not rows:  # no subtest measured through two paths: nothing to set side by side
        return None
    columns = [{"host": host, "reader": reader, "not_stated": not host and not reader, "label": path_label((host, reader)),
                "sessions": _sessions_on(sessions, (host, reader))} for host, reader in paths]
    return {"columns": columns, "rows": rows, "compare": f"compare/?cards={card['slug']}"}


def path_figures(card):
    """Each (host, reader) path of a card's compared sessions with its rate figures, when two or more paths
    have any (else []): [{host, reader, label, sessions, figures: {"test op": {mb_s, mib_s, run_count}}}], each
    block {mean, min, max}: the mean of all the path's runs, its slowest and fastest run, in both units as
    the aggregate gave them. For the comparison page, which can set a card's paths side by side."""
    compared = [s for s in card.get("sessions") or [] if s.get("compare", True)]
    pooled = {path: subtests for path, subtests in _pooled_by_path(compared).items() if subtests}
    if len(pooled) < 2:
        return []
    out = []
    for path, subtests in pooled.items():
        figures = {}
        for (_kind, test, op), pool in subtests.items():
            figures.setdefault(f"{test} {op}", {key: pool[key] for key in ("mb_s", "mib_s", "run_count")})
        out.append({"host": path[0], "reader": path[1], "label": path_label(path),
                    "sessions": _sessions_on(compared, path), "figures": figures})
    return out


def card_filters(card):
    """The hosts and readers any of a card's sessions stated, for the leaderboard's filters."""
    sessions = card.get("sessions") or []
    return {"hosts": sorted({s["host"] for s in sessions if s.get("host")}),
            "readers": sorted({s["reader"] for s in sessions if s.get("reader")})}


READER_KEYS = ("seq_read", "seq_write")
# What a path's sessions hold besides runs of a subtest, in the words the leaderboard uses.
MEASURED_KINDS = [("dd_sweeps", "dd sweep"), ("flashbench_open_au", "flashbench"), ("flashbench_find_fat", "flashbench"),
                  ("flashbench_align", "flashbench"), ("fill", "sustained fill"), ("f3probe", "f3probe"),
                  ("capacity_check", "capacity check"), ("tool_results", "other tools"),
                  ("headline", "figures the source states")]


def _slim(pick, spi=False):
    """A headline pick as /readers/ needs it, or None (spi: taken over SPI sessions, among SPI results only)."""
    if not pick:
        return None
    return {"mb_s": pick["mb_s"], "mib_s": pick["mib_s"], "runs": pick["run_count"], "subtest": pick["subtest"],
            "basis": pick["basis"], "rule": pick["rule"], "stated": stated_only(pick), "spi": spi}


def path_headlines(card, frame):
    """Per stated (host, reader) path any session of a card names, its sequential read and write headline over
    that path's compared sessions alone, by headlines.pick_headline's rules (over SPI sessions, the SPI ranking's
    own; frame: the card's stats.runs_frame rows): [{host, reader, sessions (ids), seq_read, seq_write}], each
    figure {mb_s, mib_s, runs, subtest, basis, rule, stated, spi} or None (also for a path whose sessions are all
    left out of comparisons). The aggregate puts it in the card's twin; /readers/ reads it."""
    sessions = card.get("sessions") or []
    out = []
    for path, spi in dict.fromkeys((path_of(s), is_spi(s)) for s in sessions):
        if path == (None, None):
            continue
        on_path = [s for s in sessions if path_of(s) == path and is_spi(s) == spi]
        compared = [s["id"] for s in on_path if s.get("compare", True)]
        # the same card with only this path's sessions compared: session indexes stay those of `frame`
        alone = dict(card, sessions=[dict(s, compare=s["id"] in compared and is_spi(s) == spi) for s in sessions])
        picks = {key: _slim(pick_headline(alone, frame, {}, key, spi=spi), spi) if compared else None
                 for key in READER_KEYS}
        out.append({"host": path[0], "reader": path[1], "sessions": [s["id"] for s in on_path], **picks})
    return out


def _measured_through(sessions):
    """What a path's sessions measured, in words ('dd sweep, flashbench'): their subtests with runs, then the
    other kinds of figure they hold; '' when nothing."""
    tests = [f"{sub['test']} {sub['op']}" for s in sessions for sub in s.get("subtests") or [] if sub.get("runs")]
    kinds = [name for key, name in MEASURED_KINDS if any(s.get(key) for s in sessions)]
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


def _rank(figure):
    """A figure's place among others: any measured figure before any stated one, each by its figure."""
    return (-1, 0.0) if figure is None else (0 if figure.get("stated") else 1, figure["mb_s"])


def _faster(a, b):
    """The faster of two figures (either may be None), a measured one before one the source only stated."""
    return b if _rank(b) > _rank(a) else a


def _shown(figure, slug=None, title=None, top=None):
    if figure is None:
        return None
    shown = {"text": format_by_size(figure["mb_s"]), "runs": figure["runs"], "subtest": figure["subtest"],
             "basis": figure["basis"], "stated": bool(figure.get("stated")), "spi": bool(figure.get("spi"))}
    if slug:
        shown.update(slug=slug, title=title)
    if top:
        shown["share"] = bar_share(figure["mb_s"], top)
    return shown


BAR_DECADES = 3  # a bar's log scale: a full bar the fastest, an empty one a thousandth of it (as the leaderboard's)


def bar_share(value, top):
    """The share of a bar a figure fills beside the fastest one, on a log scale, rounded for the page."""
    if not value or not top or value <= 0 or top <= 0:
        return 0
    return round(max(0.02, min(1.0, 1 + math.log10(value / top) / BAR_DECADES)), 3)


def _read_of(card):
    return _rank(card["read"])


def _group(cards, field, text_order):
    """Every stated `field` ('host' or 'reader') with its cards, fastest read first (measured before stated), and
    its fastest figures; where a card or the whole group has none, what was measured through it."""
    groups = {}
    for slug, title, reach in cards:
        for path in reach:
            name = path[field]
            if not name:
                continue
            card = groups.setdefault(name, {}).setdefault(slug, {"title": title, "read": None, "write": None,
                                                                 "measured": []})
            for op in ("read", "write"):
                card[op] = _faster(card[op], path[op])
            if path.get("measured"):
                card["measured"].append(path["measured"])
    out = []
    for name in sorted(groups, key=text_order):
        members = groups[name]
        # The fastest few by read alone (cheap at thousands of cards), then in order with names for ties.
        listed = heapq.nlargest(CARDS_LISTED, members.items(), key=lambda item: _read_of(item[1]))
        ranked = sorted(listed, key=lambda item: (tuple(-x for x in _read_of(item[1])), text_order(item[1]["title"])))
        tops = {op: max((c[op]["mb_s"] for c in members.values() if c[op]), default=None) for op in ("read", "write")}
        entry = {"name": name, "card_count": len(members), "more": max(0, len(members) - CARDS_LISTED),
                 "cards": [{"slug": slug, "title": c["title"], "read": _shown(c["read"], top=tops["read"]),
                            "write": _shown(c["write"], top=tops["write"]), "measured": _joined(c["measured"])}
                           for slug, c in ranked]}
        for op in ("read", "write"):
            top = None
            for slug, c in members.items():
                if c[op] and (top is None or _rank(c[op]) > _rank(top[2])):
                    top = (slug, c["title"], c[op])
            entry[f"fastest_{op}"] = _shown(top[2], top[0], top[1]) if top else None
        entry["measured"] = _joined([m for c in members.values() for m in c["measured"]])
        out.append(entry)
    return out


def _joined(texts):
    """Several paths' 'measured' words as one list, each kind once."""
    return ", ".join(dict.fromkeys(part for text in texts for part in text.split(", ") if part))


def readers_page(cards, text_order):
    """The /readers/ page's model from every card's (slug, title, card_reach list): each reader and each host,
    the cards measured through it (the fastest CARDS_LISTED) with their figures through it, and the fastest read
    and write among those (a measured figure before one the source only stated)."""
    return {"readers": _group(cards, "reader", text_order), "hosts": _group(cards, "host", text_order)}


__all__ = ["card_paths", "path_figures", "card_filters", "card_reach", "path_headlines", "readers_page", "path_label",
           "NOT_STATED", "CARDS_LISTED"]
