"""A real build of cards measured through several readers: the card page puts the paths side by side,
/readers/ lists each reader with its fastest figure, and reader names that are markup stay text."""

from html import unescape

import pytest

from readercards import reader_site, HOSTILE_READER, UHS, USB2
from test_site_build import _TagAudit

pytestmark = pytest.mark.build


@pytest.fixture(scope="module")
def public(tmp_path_factory):
    work = tmp_path_factory.mktemp("readers")
    return reader_site(work)


def section(html, start, end="</section>"):
    begin = html.index(start)
    return html[begin:html.index(end, begin)]


def test_card_page_shows_both_readers_side_by_side(public):
    html = (public / "cards" / "acme-two-readers" / "index.html").read_text(encoding="utf-8").replace('"', "")
    assert html.index("id=paths") < html.index("id=facts")  # near the top, above the card's facts
    table = unescape(section(html, "id=paths"))
    assert "By host and reader" in table
    head = table[table.index("<thead>"):table.index("</thead>")]
    assert head.index(USB2) < head.index(UHS) < head.index("not stated")
    row = table[table.index("SEQ1M Q8T1 read"):]
    row = row[:row.index("</tr>")]
    assert row.index(">39.0<") < row.index("(n = 3)") < row.index(">92.0<")
    assert "RND4K Q1T1" not in table  # measured through one path only
    assert "href=../../compare/?cards=acme-two-readers" in table


def test_a_card_through_one_reader_has_no_paths_table(public):
    assert 'id="paths"' not in (public / "cards" / "acme-usb2-only" / "index.html").read_text(encoding="utf-8")


def test_readers_page_lists_the_reader_with_its_fastest_figure(public):
    html = unescape((public / "readers" / "index.html").read_text(encoding="utf-8"))
    usb2 = html[html.index(f">{USB2}</h3>"):]
    usb2 = usb2[:usb2.index("</section>")]
    assert "Fastest sequential read: <strong>39.0 MB/s</strong>" in usb2
    assert "Acme acme-two-readers" in usb2 and "SEQ1M Q8T1 read, mean of 3 runs" in usb2
    assert "Fastest sequential write: <strong>19.5 MB/s</strong>" in usb2
    assert "?reader=USB 2.0 card reader" in usb2.replace("%20", " ")
    home = (public / "index.html").read_text(encoding="utf-8")
    assert 'href=/readers/' in home or 'href="/readers/"' in home  # the header's link


@pytest.mark.parametrize("page", ["readers/index.html", "index.html", "cards/acme-hostile-reader/index.html"])
def test_reader_names_that_are_markup_stay_text(public, page):
    audit = _TagAudit()
    audit.feed((public / page).read_text(encoding="utf-8"))
    assert audit.inline_scripts == [] and audit.handlers == [] and audit.images == []
    assert any(HOSTILE_READER in text for text in audit.texts)
