"""The Atom feed's entries (/feed.xml): one per session of any card, newest first.

A session is placed in the feed by its own date, else by its source's date where the source gives one; such
an entry says the session's own date is not stated rather than give it the source's. A session with neither
has no place in a feed ordered by date and is left out. Each card contributes its entries (card_entries) to
the cached parts of sitedata.py; feed_data picks the newest. Hugo's template escapes every text.
"""

FEED_ENTRIES = 100  # feed readers show the newest; the full history is on the card pages
NO_DATE = "1970-01-01T00:00:00Z"  # an Atom feed must say when it changed, also when it has no entries


def atom_time(date):
    """YYYY-MM-DD as an Atom (RFC 3339) time at midnight UTC."""
    return f"{date}T00:00:00Z"


def card_entries(card):
    """[date, title, summary, slug, anchor] of each session of a card's aggregated JSON that has a place in
    the feed: its own date, else its source's (the summary then says the session's date is not stated)."""
    source_date = (card.get("source") or {}).get("date")
    dated = [(s.get("date") or source_date, s) for s in card["sessions"]]
    dated = [(date, s) for date, s in dated if date]
    first = min(dated, key=lambda item: item[0])[1] if dated else None
    entries = []
    for date, session in dated:
        runs = sum(len(sub["runs"]) for sub in session["subtests"])
        what = "New card" if session is first else "New session"
        measured = f"{runs} run{'s' if runs != 1 else ''} recorded" if runs else "no repeated runs recorded"
        when = date if session.get("date") else f"date not stated; source dated {date}"
        summary = f"{what}: {card['title']}, {session['label']} ({when}); {measured}."
        entries.append([date, f"{card['title']}: {session['label']}", summary, card["slug"],
                        f"session-{session['id']}"])
    return entries


def feed_data(entries, limit=FEED_ENTRIES):
    """The feed's newest entries from every card's, as the template reads them."""
    by_card = sorted(entries, key=lambda e: (e[3], e[4]))
    newest = sorted(by_card, key=lambda e: e[0], reverse=True)[:limit]
    return {"updated": atom_time(newest[0][0]) if newest else NO_DATE,
            "entries": [{"updated": atom_time(date), "title": title, "summary": summary, "slug": slug, "anchor": anchor}
                        for date, title, summary, slug, anchor in newest]}


__all__ = ["card_entries", "feed_data", "FEED_ENTRIES"]
