"""A card page's body as finished HTML, from its page model (pagemodel.card_page), written once when the
card is aggregated: Hugo places it into the site's frame (layouts/cards/card.html) and reads it as text.
Decoding a page model of tens of kB and running Hugo's templates over it for every page was most of the
build at thousands of cards.

The HTML comes from templates/card.html.j2 and its parts in templates/card/, with the chart boxes, tables
and unit switch of templates/shared/ (htmltemplates.py says how every card string is escaped). Addresses on
the site are relative to the page (/cards/<slug>/), so the page is right at any baseURL and Hugo places it
without rewriting it; the repository's address comes from config.toml (sitedata.repo_commits).

card_page_text(page) is the text the template splits at SPLIT: the card's title and description (for
the head, escaped), the body before a review's prose, the body after it.
"""

from html import escape

from markupsafe import Markup

from .htmltemplates import SPLIT, render, url_attr
from .plottext import figure_json

PAGE_BASE = Markup("../../")  # from /cards/<slug>/ to the site's root


def card_page_text(page, repo):
    """The card page's text for the template: title, description, body before the review, body after it.
    `repo`: where the repository's history of a file starts (sitedata.repo_commits)."""
    return render("card.html.j2", page=page, base=PAGE_BASE, repo=Markup(escape(repo)))


def page_charts(page):
    """Every chart of a card page's model, in page order: each session's, then the curves."""
    for session in page.get("sessions") or []:
        for key in ("chart", "other_tools_chart"):
            if session.get(key):
                yield session[key]
    yield from page.get("curves") or []


def card_charts_text(page):
    """The figures of a card page's charts, {chart id: figure}, as the JSON file the page fetches
    (charts.json beside it): a page carries its tables, and its charts' figures come once the page is
    there. Each figure is chartmodel's JSON text as it is, each id written as safely (plottext.figure_json)."""
    return "{" + ",".join(f"{figure_json(c['id'])}:{c['figure']}" for c in page_charts(page)) + "}"


def session_html(session):
    """One test session of the page model, as its part of the card page."""
    return render("card/session.html.j2", s=session, base=PAGE_BASE)


__all__ = ["card_page_text", "card_charts_text", "page_charts", "session_html", "url_attr", "SPLIT", "PAGE_BASE"]
