"""All the arithmetic of the site: per-subtest statistics, headline figures, leaderboard, suites.

Input: validated card dicts. Output: the cards' JSON twins, the leaderboard rows and the suites, which
Hugo reads as data (templates only format). The fields are described in docs/card-json.md.
Statistics (stats.py) are given in the subtest's recorded unit, in MB/s (10^6 B/s, the site's
display unit), in MiB/s, and as the source printed them; headline figures follow the ranked rules of
headlines.py.
"""

from ..core.sd_registers import decode_cid
from ..core.measurement_kinds import CURVE_CHART_KINDS, MEASURED_WITHOUT_RUNS
from ..core.paths import raw_refs
from ..core.titles import card_title
from .classchecks import class_checks
from .findings import attach_findings
from .grid_figures import card_grid, session_grid
from .headlines import HEADLINE_KEYS, headlines, spi_headlines, stated_only
from .hosts_readers import READER_KEYS, path_headlines, path_subsets
from .price_figures import price_figures
from .shown_rates import claimed_shares
from .subset_headlines import SubsetHeadlines, compared_indexes
from .stats import (ENTRY_KEYS, LATENCY_STATS, POOL_KEYS, CardFigures, iops_block, is_spi, json_number, json_numbers,
                    latency_block, printed_block, runs_frame, session_entries, statistics, tool_result_stats,
                    unit_figures)
from .suites import KNOWN_SUITES, KNOWN_TEST_ORDER, subtest_order

CARD_FIELDS = ["slug", "brand", "model", "part_number", "capacity_gb", "form_factor", "family", "bus", "bus_stated",
               "markings", "claimed", "controller", "price", "shops", "source", "notes"]
# The card's figures only its page and leaderboard row show (price_figures.py, shown_rates.claimed_shares): kept
# beside the twin in memory, left out of the twin as served (publish/sitedata.card_twin).
PAGE_FIGURES = "page_figures"
SESSION_PASS_THROUGH = ["id", "label", "date", "card_label", "host", "reader", "interface", "clock_mhz", "conditions",
                        "target", "source", "tools", "notes", "reading", *MEASURED_WITHOUT_RUNS, "raw"]
# Stored fields of a subtest passed to the twin, under the twin's name (dd's count= is block_count there:
# `run_count` is the number of runs).
ENTRY_PASS_THROUGH = {"size": "size", "command": "command", "raw": "raw", "block_size": "block_size",
                      "count": "block_count", "flags": "flags", "target": "target", "seconds": "seconds",
                      "bytes": "bytes"}


def _records(table):
    """table.to_dict("records"), the same Python values, read a column at a time (half the time)."""
    columns = table.columns.tolist()
    return [dict(zip(columns, row)) for row in zip(*(table[name].tolist() for name in columns))]


def aggregate(cards, data_dir=None):
    """Return {'cards': {slug: card_json}, 'leaderboard': [...], 'compare': {...}}. data_dir holds the
    raw files the findings read (the collector's device facts); None means the project's data folder."""
    frame = runs_frame(cards)
    entry_stats = statistics(frame, ENTRY_KEYS)
    compared = frame[frame["compare"]]
    pooled_lookup = {}
    for r in _records(statistics(compared, POOL_KEYS)):
        pooled_lookup.setdefault(r["slug"], {})[(r["test"], r["op"])] = r
    by_slug = dict(tuple(frame.groupby("slug", sort=False))) if not frame.empty else {}
    entry_rows = {}
    for row in _records(entry_stats):
        entry_rows.setdefault(row["slug"], {})[(row["session"], row["kind"], row["entry"])] = row

    out_cards, leaderboard, suite_stats = {}, [], {}
    empty = frame.iloc[0:0]
    frames = {card["slug"]: by_slug.get(card["slug"], empty) for card in cards}
    card_picks = {card["slug"]: headlines(card, frames[card["slug"]], pooled_lookup.get(card["slug"], {}))
                  for card in cards}
    subsets = SubsetHeadlines(READER_KEYS)
    for card in cards:
        for indexes in path_subsets(card) + [indexes for _, indexes in _standing_subsets(card)]:
            subsets.ask(card, indexes)
    subsets.compute(frame, frames, card_picks)
    for card in cards:
        slug = card["slug"]
        runs = frames[slug]
        figures = CardFigures(runs, entry_rows.get(slug, {}))  # the card's runs and subtests, as stats computed them
        card_json = _card_json(card, figures)
        pooled = pooled_lookup.get(slug, {})
        picks = card_picks[slug]
        card_json["headline"] = picks
        card_json[PAGE_FIGURES] = {**price_figures(card, picks["seq_read"]),
                                   "claimed_share": claimed_shares(card, picks)}
        card_json["path_headlines"] = path_headlines(card, subsets)
        if any(is_spi(s) for s in card.get("sessions") or []):
            card_json["spi_headline"] = spi_headlines(card)
        card_json["standing"] = standing_entries(card, subsets)
        objs = {key: pooled_obj(r) for key, r in pooled.items()}
        card_json["pooled"] = {f"{test} {op}": objs[(test, op)] for test, op in
                               sorted(pooled, key=lambda key: subtest_order(*key))}
        # the comparison's copies, taken before anything else reads (or could change) the card's own
        suite_stats[slug] = {suite["id"]: {f"{test} {op}": _copied(objs[(test, op)]) for test, op in keys}
                             for suite, keys in _SUITE_KEYS if all(key in objs for key in keys)}
        card_json["grid"] = card_grid(card_json["pooled"], [s["label"] for s in card_json["sessions"] if s["compare"]])
        attach_findings(card, card_json, figures, data_dir)
        card_json["class_checks"] = class_checks(card, picks, pooled, figures, card_json["findings"])
        out_cards[slug] = card_json
        leaderboard.append(_leader_row(card, card_json, picks))
    compare = _compare(cards, out_cards, suite_stats)
    return {"cards": out_cards, "leaderboard": leaderboard, "compare": compare}


def _source_name(card, session):
    return (session.get("source") or card["source"])["name"]


def _standing_subsets(card):
    """[((host, source), compared_indexes)]: each (host, source) path the card's compared sessions (not SPI)
    name, in order, with those of its sessions."""
    compared = compared_indexes(card)
    paths = list(dict.fromkeys((s["host"], _source_name(card, s)) for i, s in enumerate(card.get("sessions") or [])
                               if i in compared and s.get("host")))
    return [((host, source), compared_indexes(card, lambda s, h=host, n=source: s.get("host") == h
                                              and _source_name(card, s) == n)) for host, source in paths]


def standing_entries(card, subsets):
    """[{"host", "source", "form_factor", "mb_s", "basis"}]: the card's sequential read on each host its compared
    sessions name, with the source that read it there, so a page can say where it stands among cards of its size
    the same source read on that host (one machine: a host's name alone, "Laptop, Linux", may be two), each
    taken over that path's sessions alone (subsets: the subset_headlines.SubsetHeadlines that computed them)."""
    out = []
    for (host, source), indexes in _standing_subsets(card):
        pick = subsets.picks(card, indexes)["seq_read"]
        if pick:
            out.append({"host": host, "source": source, "form_factor": card["form_factor"], "mb_s": pick["mb_s"],
                        "basis": pick["basis"]})
    return out


def _entry_obj(kind, entry, test, row, iops_runs):
    """A subtest of the twin: its runs as recorded and their statistics in every unit (row: its statistics,
    iops_runs: the IOPS of every run, as stats computed them)."""
    runs = json_numbers(entry["runs"])
    obj = {"kind": kind, "test": test, "op": entry["op"], "unit": entry["unit"], "runs": runs}
    if entry.get("excluded_runs"):
        obj["excluded_runs"] = entry["excluded_runs"]
    if row is None:  # every run excluded: nothing to average
        obj.update({"run_count": 0, "mean": None, "min": None, "max": None, "std": None, "mb_s": None,
                    "mib_s": None, "printed": None, "iops": None, "latency_us": None})
    else:
        obj.update({"run_count": int(row["run_count"]), "mean": json_number(row["value_mean"]),
                    "min": json_number(row["value_min"]), "max": json_number(row["value_max"]),
                    "std": json_number(row["value_std"])})
        obj.update(unit_figures(row, entry["runs"]))
        obj["printed"] = printed_block(row)
        obj["iops"] = iops_block(row, None if iops_runs is None else json_numbers(iops_runs, 1))
        latency = entry.get("latency_us") or {}
        obj["latency_us"] = latency_block(row, {name: latency[name] for name in LATENCY_STATS if name in latency})
    for stored, shown in ENTRY_PASS_THROUGH.items():
        if stored in entry:
            obj[shown] = entry[stored]
    return obj


def _headline_rows(rows):
    """The reviewer's summary rows; `measured: false` where the source printed a placeholder ('-----')
    instead of a figure (stored as value null)."""
    out = []
    for row in rows or []:
        shown = dict(row)
        shown["measured"] = row.get("value") is not None
        out.append(shown)
    return out


def _card_json(card, figures):
    out = {k: card[k] for k in CARD_FIELDS if k in card}
    out["title"] = card_title(card)
    out["yaml_path"] = f"data/cards/{card['slug']}.yaml"
    sessions = []
    figure_raw = {figure: set() for figure in CURVE_CHART_KINDS}
    for s_index, session in enumerate(card.get("sessions") or []):
        s_out = {k: session[k] for k in SESSION_PASS_THROUGH if k in session}
        s_out["compare"] = session.get("compare", True)
        s_out["complete"] = session.get("complete", True)
        if "headline" in session:
            s_out["headline"] = _headline_rows(session["headline"])
        subtests = [_entry_obj(kind, entry, test, figures.entry(s_index, kind, e_index),
                               figures.every_run(s_index, kind, e_index, "iops"))
                    for kind, e_index, entry, test in session_entries(session)]
        subtests.sort(key=lambda o: (o["kind"] == "dd", subtest_order(o["test"], o["op"])))
        s_out["subtests"] = subtests
        s_out["max_runs"] = max((len(o["runs"]) for o in subtests), default=0)
        s_out["grid"] = session_grid(subtests, session["label"])
        if session.get("tool_results"):
            s_out["tool_results"] = tool_result_stats(session["tool_results"])
        if session.get("cid"):
            s_out["cid"] = {"register": session["cid"], **(decode_cid(session["cid"]) or {})}
        refs = raw_refs(session)  # one walk: (field path, raw path), the field first
        s_out["raw_files"] = sorted({raw for _, raw in refs})
        for figure, kinds in CURVE_CHART_KINDS.items():
            figure_raw[figure].update(raw for where, raw in refs if where[0] in kinds)
        sessions.append(s_out)
    out["sessions"] = sessions
    out["figure_raw"] = {figure: sorted(refs) for figure, refs in figure_raw.items()}
    return out


# The leaderboard's random 4K columns hold CrystalDiskMark's RND4K Q1T1 (fio or CrystalDiskMark itself) only: a
# reviewer's "random write 4KiB" from another tool (flashbench-style) is another test, shown on the card page.
LEADER_RANDOM_RULES = ("cdm-rnd4k-q1t1",)


def _other_test(key, pick):
    """A headline that is not the test its leaderboard column ranks (a random 4K figure not from RND4K Q1T1)."""
    return bool(pick) and key.startswith("rnd4k_") and pick["rule"] not in LEADER_RANDOM_RULES


def _leader_row(card, card_json, picks):
    """The card's leaderboard row (also the API catalogue's entry).

    The four headline figures as the card's twin has them. `run_count`: the runs behind the ranked figure
    (sequential read, else the first figure the leaderboard shows); None when the source only stated that
    figure, 0 when the row shows none. `leaderboard` says how the home page places the row:
      rank_group        "measured", "stated" or "none": measured sequential reads rank first, then figures the
                        source only stated (by their figure, marked), then cards without one
      stated_cells      per figure column (seq_read, seq_write, rnd4k_read, rnd4k_write): stated by the source only
      other_test_cells  per figure column: the headline is another test than the column's (a random 4K figure
                        not from RND4K Q1T1), so the column shows it as not measured
      runs_stated       the run count's figure is one the source only stated (the page says "stated", not 0)
    """
    row = {
        "slug": card["slug"], "title": card_json["title"], "brand": card["brand"], "model": card["model"],
        "capacity_gb": card["capacity_gb"], "form_factor": card["form_factor"], "bus": card["bus"],
        "bus_stated": card.get("bus_stated", True),
        "markings": card.get("markings") or [], "claimed": card.get("claimed") or {},
        "source": card["source"]["name"], "session_count": len(card_json["sessions"]),
    }
    for key in HEADLINE_KEYS:
        row[key] = picks[key]
    other = [_other_test(key, picks[key]) for key in HEADLINE_KEYS]
    shown = [None if out else picks[key] for key, out in zip(HEADLINE_KEYS, other)]
    ranked = next((pick for pick in shown if pick), None)
    row["run_count"] = None if stated_only(ranked) else (ranked["run_count"] if ranked else 0)
    seq_read = picks["seq_read"]
    row["leaderboard"] = {
        "rank_group": "none" if not seq_read else "stated" if stated_only(seq_read) else "measured",
        "stated_cells": [stated_only(pick) for pick in shown],
        "other_test_cells": other,
        "runs_stated": stated_only(ranked),
    }
    return row


def pooled_obj(r):
    """Statistics of one subtest over all of a card's compared sessions."""
    obj = {"test": r["test"], "op": r["op"], "unit": r["unit"], "run_count": int(r["run_count"]),
           "mean": json_number(r["value_mean"]), "min": json_number(r["value_min"]), "max": json_number(r["value_max"]),
           "std": json_number(r["value_std"])}
    obj.update(unit_figures(r))
    obj["printed"] = printed_block(r)
    obj["iops"] = iops_block(r)
    obj["latency_us"] = latency_block(r)
    return obj


def _copied(value):
    """A copy of a statistics object (dicts and lists of plain values): made in a fraction of pooled_obj's time."""
    if value.__class__ is dict:
        return {key: _copied(item) for key, item in value.items()}
    if value.__class__ is list:
        return [_copied(item) for item in value]
    return value


_SUITE_KEYS = [(suite, [(t, o) for t in suite["tests"] for o in suite["ops"]]) for suite in KNOWN_SUITES]


def _compare(cards, out_cards, suite_stats):
    """The comparison's suites: `suite_stats` {slug: {suite id: {subtest: pooled_obj}}} of each card in a suite."""
    suites = []
    for suite, keys in _SUITE_KEYS:
        members = []
        for card in cards:
            stats = suite_stats[card["slug"]].get(suite["id"])
            if stats is not None:
                sessions = [s["label"] for s in out_cards[card["slug"]]["sessions"] if s["compare"]]
                members.append({"slug": card["slug"], "title": out_cards[card["slug"]]["title"],
                                "brand": card["brand"], "sessions": sessions, "stats": stats})
        if members:
            subtests = [f"{t} {o}" for t, o in keys]  # the suite's own order, as its tool lists them
            suites.append({"id": suite["id"], "name": suite["name"], "subtests": subtests, "cards": members})
    return {"suites": suites}


__all__ = ["aggregate", "pooled_obj", "KNOWN_SUITES", "KNOWN_TEST_ORDER"]
