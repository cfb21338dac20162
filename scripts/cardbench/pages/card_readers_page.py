"""The /readers/ page: each card reader and each host, the cards measured through it with their headline figures
through it (each card's `reach`, figures/hosts_readers.card_reach), bars beside the fastest, and the fastest read and
write among them (a measured figure before one the source only stated)."""

import heapq
import math

from ..figures.formatting import format_by_size

# Cards listed under each reader or host on /readers/, fastest first; the rest are one filter away on the home page.
CARDS_LISTED = 50


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
