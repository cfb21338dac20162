"""A card page's table "By host and reader": every subtest measured through two or more of the card's paths, each
cell the path's pooled mean (figures/hosts_readers.py pools them) as the page prints it."""

from ..figures.hosts_readers import path_label, pooled_by_path, sessions_on
from ..figures.suites import subtest_order
from .chartmodel import rate_cell
from ..figures.formatting import DASH


def card_paths(card):
    """The card page's "By host and reader" table, or None when the card has fewer than two paths.

    columns: each path (host, reader, not_stated, its sessions' labels); rows: every subtest measured through
    two or more paths, in the suites' order, each cell its pooled mean ({mb, mib} texts) and its runs."""
    sessions = card.get("sessions") or []
    pooled = pooled_by_path(sessions)
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
    columns = [{"host": host, "reader": reader, "not_stated": not host and not reader,
                "label": path_label((host, reader)),
                "sessions": sessions_on(sessions, (host, reader))} for host, reader in paths]
    return {"columns": columns, "rows": rows, "compare": f"compare/?cards={card['slug']}"}
