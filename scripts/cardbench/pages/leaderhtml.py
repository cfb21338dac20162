"""The lists of every card as finished HTML (the cards section's list too), above all the home page's
leaderboard rows: one row per card, written once when the card is
aggregated, joined in rank order (sitedata.site_texts), placed by layouts/home.html as one piece. At
thousands of cards, running the row template for each card made the home page the slowest page of
the build.

The HTML comes from templates/leaderboard-row.html.j2 and card-list-item.html.j2, every text a card
supplies escaped there (htmltemplates.py), quotes included, as Hugo's templates escaped it. Addresses start with
BASE, which the template replaces with the site's own path (relURL): escaped text never holds "<", so
only these placeholders are replaced.
"""

from .figurehtml import BASE, value_text
from .htmltemplates import render

RANK_GROUPS = ("measured", "stated", "none")  # measured sequential reads first, then stated ones, then none


def leader_row_html(row):
    """One leaderboard row (pagemodel.leader_row with the card's hosts and readers) as a <tr>."""
    return render("leaderboard-row.html.j2", row=row)


def spi_row_html(row):
    """One card's row in the table of SPI results."""
    return render("spi-row.html.j2", spi=row)


def card_list_item_html(parts):
    """One card's line in the cards section's list, written with the card's other parts."""
    return render("card-list-item.html.j2", p=parts)


def card_list_html(parts):
    """The cards section's list: every card's line (card_list_item_html) by slug."""
    return "".join("\n" + p["list_item"] for p in sorted(parts, key=lambda p: p["slug"]))


def ranked(parts):
    """Cards' parts in the leaderboard's order: by rank group, then by rank, fastest first; ties keep the
    order given (by title)."""
    group = {name: i for i, name in enumerate(RANK_GROUPS)}
    return sorted(parts, key=lambda p: (group[p["rank_group"]], -p["rank"]))


__all__ = ["leader_row_html", "spi_row_html", "card_list_item_html", "card_list_html", "ranked", "value_text", "BASE",
           "RANK_GROUPS"]
