"""A card page's body as finished HTML, from its page model (pagemodel.card_page), written once when the
card is aggregated: Hugo places it into the site's frame (layouts/cards/page.html) and reads it as text.
Decoding a page model of tens of kB and running Hugo's templates over it for every page was most of the
build at thousands of cards.

The HTML comes from templates/card.html.j2 and its parts in templates/card/ (htmltemplates.py says how
every card string is escaped); addresses on the site start with BASE (figurehtml) and the repository's
with REPO, which the page template replaces with the site's own (relURL, site.Params).

card_page_text(page) is the text the template splits at SPLIT: the card's title and description (for
the head, escaped), the body before a review's prose, the body after it.
"""

from .htmltemplates import REPO, SPLIT, render, url_attr


def card_page_text(page):
    """The card page's text for the template: title, description, body before the review, body after it."""
    return render("card.html.j2", page=page)


def session_html(session):
    """One test session of the page model, as its part of the page."""
    return render("card/session.html.j2", s=session)


__all__ = ["card_page_text", "session_html", "url_attr", "SPLIT", "REPO"]
