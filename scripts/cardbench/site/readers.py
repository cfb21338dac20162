"""What a card is read through: its (host, reader) paths, side by side on its page, as leaderboard
filters, and the fastest figures each reader and host reached (the /readers/ page).

A card's speed depends on the path as much as on the card: a USB 2.0 reader caps at about 40 MB/s, a
Raspberry Pi's slot runs a card at DDR50 or SDR104. Every figure here comes from the statistics the
aggregate computed for each session's subtests (their `mb_s` and `mib_s` blocks); the sessions of one
path are pooled by the statistics module (stats.pooled_over_sessions: the mean of all their runs).
Worked out once per card (card_paths, card_filters, card_reach); the shared page joins the cards' small
`reach` lists (readers_page), so a changed card costs only its own work.
"""

import heapq

from .chartmodel import rate_cell
from .formatting import DASH, format_by_size
from .headlines import SEQUENTIAL_RULES
from .stats import METHOD_NOT_STATED, pooled_over_sessions
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


def _sequential(sub):
    """A subtest the sequential headline rules accept (fio SEQ tests, dd with direct I/O or the cache dropped…)."""
    entry = dict(sub, method_stated=not sub["test"].endswith(METHOD_NOT_STATED))
    return any(rule.kind == "runs" and sub["op"] in rule.ops and rule.accepts(sub["kind"], entry, sub["test"], sub["op"])
               for rule in SEQUENTIAL_RULES)


def card_reach(card):
    """Per stated path of the card's compared sessions, the fastest sequential read and write reached through
    it (pooled over that path's sessions): [{host, reader, read, write}], each figure {mb_s, mib_s, runs,
    subtest} or None. The /readers/ page joins these."""
    compared = [s for s in card.get("sessions") or [] if s.get("compare", True)]
    out = []
    for (host, reader), subtests in _pooled_by_path(compared).items():
        if not host and not reader:
            continue
        best = {"read": None, "write": None}
        for (_kind, test, op), pool in subtests.items():
            if op not in best or not _sequential(pool["first"]):
                continue
            mb = pool["mb_s"]["mean"]
            if best[op] is None or mb > best[op]["mb_s"]:
                best[op] = {"mb_s": mb, "mib_s": pool["mib_mean"], "runs": pool["run_count"], "subtest": f"{test} {op}"}
        out.append({"host": host, "reader": reader, **best})
    return out


def _faster(a, b):
    """The faster of two figures (either may be None)."""
    return b if a is None or (b is not None and b["mb_s"] > a["mb_s"]) else a


def _shown(figure, slug=None, title=None):
    if figure is None:
        return None
    shown = {"text": format_by_size(figure["mb_s"]), "runs": figure["runs"], "subtest": figure["subtest"]}
    if slug:
        shown.update(slug=slug, title=title)
    return shown


def _read_of(card):
    return card["read"]["mb_s"] if card["read"] else -1.0


def _group(cards, field, text_order):
    """Every stated `field` ('host' or 'reader') with its cards, fastest read first, and its fastest figures."""
    groups = {}
    for slug, title, reach in cards:
        for path in reach:
            name = path[field]
            if not name:
                continue
            card = groups.setdefault(name, {}).setdefault(slug, {"title": title, "read": None, "write": None})
            for op in ("read", "write"):
                card[op] = _faster(card[op], path[op])
    out = []
    for name in sorted(groups, key=text_order):
        members = groups[name]
        # The fastest few by read alone (cheap at thousands of cards), then in order with names for ties.
        listed = heapq.nlargest(CARDS_LISTED, members.items(), key=lambda item: _read_of(item[1]))
        ranked = sorted(listed, key=lambda item: (-_read_of(item[1]), text_order(item[1]["title"])))
        entry = {"name": name, "card_count": len(members), "more": max(0, len(members) - CARDS_LISTED),
                 "cards": [{"slug": slug, "title": c["title"], "read": _shown(c["read"]), "write": _shown(c["write"])}
                           for slug, c in ranked]}
        for op in ("read", "write"):
            top = None
            for slug, c in members.items():
                if c[op] and (top is None or c[op]["mb_s"] > top[2]["mb_s"]):
                    top = (slug, c["title"], c[op])
            entry[f"fastest_{op}"] = _shown(top[2], top[0], top[1]) if top else None
        out.append(entry)
    return out


def readers_page(cards, text_order):
    """The /readers/ page's model from every card's (slug, title, card_reach list): each reader and each host,
    the cards measured through it (the fastest CARDS_LISTED) and the fastest read and write it reached."""
    return {"readers": _group(cards, "reader", text_order), "hosts": _group(cards, "host", text_order)}


__all__ = ["card_paths", "path_figures", "card_filters", "card_reach", "readers_page", "path_label", "NOT_STATED", "CARDS_LISTED"]
