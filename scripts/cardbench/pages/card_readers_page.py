"""The /readers/ page: each card reader and each host, the cards measured through it with their headline figures
through it (each card's `reach`, figures/hosts_readers.card_reach), bars beside the fastest, and the fastest read and
write among them (a measured figure before one the source only stated)."""

import heapq

from ..figures.formatting import format_by_size
from . import bars

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


def bar_share(value, top):
    """The share of a bar a figure fills beside the fastest one (pages/bars.py), rounded for the page."""
    return round(bars.bar_share(value, top), 3)


def card_groups(reach):
    """A card's part of /readers/, made once with the card: for 'reader' and for 'host', each stated name with the
    card's fastest read and write through it (measured before stated), their places (`ranks`, as _rank gives them)
    and the kinds of test measured through it (`kinds`, each once), in the order of the card's `reach` paths. The
    shared page then only gathers the cards' parts."""
    out = {}
    for field in ("reader", "host"):
        groups = {}
        for path in reach:
            name = path[field]
            if not name:
                continue
            card = groups.setdefault(name, {"read": None, "write": None, "kinds": {}})
            for op in ("read", "write"):
                card[op] = _faster(card[op], path[op])
            for kind in (path.get("measured") or "").split(", "):
                if kind:
                    card["kinds"][kind] = None
        for card in groups.values():
            card["kinds"] = list(card["kinds"])
            card["ranks"] = [list(_rank(card["read"])), list(_rank(card["write"]))]
        out[field] = groups
    return out


def _group(cards, field, text_order):
    """Every stated `field` ('host' or 'reader') with its cards, fastest read first (measured before stated), and
    its fastest figures; where a card or the whole group has none, what was measured through it."""
    groups = {}
    for slug, title, parts in cards:
        for name, part in parts[field].items():
            groups.setdefault(name, {})[slug] = {"title": title, **part}
    out = []
    for name in sorted(groups, key=text_order):
        members = groups[name]
        # The fastest few by read alone (cheap at thousands of cards), then in order with names for ties.
        listed = heapq.nlargest(CARDS_LISTED, members.items(), key=lambda item: item[1]["ranks"][0])
        ranked = sorted(listed, key=lambda item: (-item[1]["ranks"][0][0], -item[1]["ranks"][0][1],
                                                  text_order(item[1]["title"])))
        tops = {op: max((c[op]["mb_s"] for c in members.values() if c[op]), default=None) for op in ("read", "write")}
        entry = {"name": name, "card_count": len(members), "more": max(0, len(members) - CARDS_LISTED),
                 "cards": [{"slug": slug, "title": c["title"], "read": _shown(c["read"], top=tops["read"]),
                            "write": _shown(c["write"], top=tops["write"]), "measured": ", ".join(c["kinds"])}
                           for slug, c in ranked]}
        for index, op in enumerate(("read", "write")):
            # The first card of the highest place; a card without the figure has the lowest place (_rank).
            slug, card = max(members.items(), key=lambda item: item[1]["ranks"][index])
            entry[f"fastest_{op}"] = _shown(card[op], slug, card["title"]) if card[op] else None
        entry["measured"] = ", ".join(dict.fromkeys(kind for c in members.values() for kind in c["kinds"]))
        out.append(entry)
    return out


def readers_page(cards, text_order):
    """The /readers/ page's model from every card's (slug, title, card_groups of its card_reach list): each reader
    and each host, the cards measured through it (the fastest CARDS_LISTED) with their figures through it, and the
    fastest read and write among those (a measured figure before one the source only stated)."""
    return {"readers": _group(cards, "reader", text_order), "hosts": _group(cards, "host", text_order)}
