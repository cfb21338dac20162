"""A card page's body written once as finished HTML (cardhtml.py and pages/templates/): every card string
escaped, addresses relative to the page, the parts the template splits."""

from htmlaudit import HtmlAudit

from cardbench.pages.cardhtml import PAGE_BASE, SPLIT, card_page_text, session_html, url_attr

REPO = "https://git.example.org/acme/cards/commits/main"

HOSTILE = '"><script>alert(1)</script><img src=x onerror=alert(2)>'


def _page(text=HOSTILE):
    session = {"id": "s1", "dom_id": "session-s1", "label": text, "complete": True, "compare": True, "host": text,
               "reader": None, "tools": [{"name": text, "version": text}], "notes": text, "reading": [text],
               "headline": [{"name": text, "value": text}], "chart": None, "stats": [], "other_tools": [],
               "other_tools_chart": None, "raw": [{"name": text, "path": "raw/acme/s1/fio.json"}],
               "source": {"name": text, "url": "https://example.org/a b?q=<x>"}}
    return {"slug": "acme", "title": text, "brand": text, "model": text, "capacity_gb": 64.0, "form_factor": "microSD",
            "bus": "UHS-I", "markings": [text], "notes": text, "source": {"name": text, "author": text},
            "description": text, "claimed_rows": [], "class_checks": [], "grid": None, "paths": None,
            "findings": [{"id": "x", "session": "s1", "label": text, "text": text, "basis": text,
                          "session_label": text}],
            "findings_notes": [{"reason": text}], "sessions": [session], "curves": []}


def test_the_text_splits_into_title_description_and_the_body_around_a_review():
    title, description, before, after = card_page_text(_page("Acme & Co 64 GB"), REPO).split(SPLIT)
    assert title == description == "Acme &amp; Co 64 GB"
    assert before.startswith('<article class="card-page" data-charts="charts.json">') and after.endswith("</article>")
    assert 'href="../../data/cards/acme.yaml"' in after and f'href="{REPO}/data/cards/acme.yaml"' in after


def test_the_repository_address_is_escaped_where_the_page_prints_it():
    text = card_page_text(_page("Acme"), 'https://git.example.org/a"b<c>/commits/main')
    assert 'href="https://git.example.org/a&quot;b&lt;c&gt;/commits/main/data/cards/acme.yaml"' in text


def test_every_card_string_is_text_never_markup():
    text = card_page_text(_page(), REPO)
    assert text.count(SPLIT) == 3  # no card string can add a part: escaped text holds no "<"
    audit = HtmlAudit()
    audit.feed(text.replace(SPLIT, ""))
    assert not {"script", "img"} & {tag for tag, _ in audit.tags}
    assert sum(HOSTILE in t for t in audit.texts) >= 10
    assert all(not name.startswith("on") for _, attrs in audit.tags for name in attrs)


def test_addresses_from_a_card_are_encoded_as_hugo_encodes_them():
    assert url_attr("https://example.org/a b?q=<x>&y='1'") == "https://example.org/a%20b?q=%3Cx%3E&amp;y=%271%27"
    assert url_attr("https://example.org/ü") == "https://example.org/%C3%BC"
    html = session_html(_page()["sessions"][0])
    assert 'href="https://example.org/a%20b?q=%3Cx%3E"' in html
    assert f'<a href="{PAGE_BASE}data/raw/acme/s1/fio.json">' in html
