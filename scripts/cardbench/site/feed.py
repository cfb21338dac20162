"""The Atom feed's entries (/feed.xml): one per session of any card, newest first.

A session is dated by its own date, else by its source's publication date; a session with neither has
no place in a feed ordered by date and is left out. Each card contributes its entries (card_entries) to
the cached parts of sitedata.py; feed_data picks the newest. Hugo's template escapes every text.
"""

FEED_ENTRIES = 100  # feed readers show the newest; the full history is on the card pages
NO_DATE = "1970-01-01T00:00:00Z"  # an Atom feed must say when it changed, also when it has no entries


def atom_time(date):
    """YYYY-MM-DD as an Atom (RFC 3339) time at midnight UTC."""
    return f"{date}T00:00:00Z"


def card_entries(card):
    """[date, title, summary, slug, anchor] of each dated session of a card's aggregated JSON."""
    fallback = (card.get("source") or {}).get("date")
    dated = [(s.get("date") or fallback, s) for s in card["sessions"]]
    dated = [(date, s) for date, s in dated if date]
    first = min(dated, key=lambda item: item[0])[1] if dated else None
    entries = []
    for date, session in dated:
        runs = sum(len(sub["runs"]) for sub in session["subtests"])
        what = "New card" if session is first else "New session"
        measured = f"{runs} run{'s' if runs != 1 else ''} recorded" if runs else "no repeated runs recorded"
        summary = f"{what}: {card['title']}, {session['label']} ({date}); {measured}."
        entries.append([date, f"{card['title']}: {session['label']}", summary, card["slug"], f"session-{session['id']}"])
    return entries


def feed_data(entries, limit=FEED_ENTRIES):
    """The feed's newest entries from every card's, as the template reads them."""
    by_card = sorted(entries, key=lambda e: (e[3], e[4]))
    newest = sorted(by_card, key=lambda e: e[0], reverse=True)[:limit]
    return {"updated": atom_time(newest[0][0]) if newest else NO_DATE,
            "entries": [{"updated": atom_time(date), "title": title, "summary": summary, "slug": slug, "anchor": anchor}
                        for date, title, summary, slug, anchor in newest]}


__all__ = ["card_entries", "feed_data", "FEED_ENTRIES"]
