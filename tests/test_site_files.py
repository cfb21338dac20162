"""What readers expect of a data site, in a real build: sitemap and robots.txt, a 404 page, the favicon,
link-preview tags, the Atom feed, every run as CSV, and the public JSON's format version. Built from the
shipped cards and one card whose names are markup and spreadsheet formulas."""

import csv
import json
import re
import xml.etree.ElementTree as ET
from html.parser import HTMLParser
from urllib.parse import urljoin

import pytest

import sitebuild
from cardbench.card.dump import new_card_text
from cardbench.pages.pagemodel import card_description
from cardbench.publish.runs_csv import COLUMNS

from conftest import ROOT
from planted import planted_copy

pytestmark = pytest.mark.build

BASE = "https://cardbench.example/"
ATOM = "{http://www.w3.org/2005/Atom}"
SITEMAP = "{http://www.sitemaps.org/schemas/sitemap/0.9}"
ODD_BRAND = "=Smith & <Sons>"
ODD_MODEL = "@Pro <b>&amp;</b> \"Fast\""
ODD_LABEL = "-1+2 <i>label</i> & more"


def odd_card():
    return {
        "schema_version": 1, "slug": "odd-names-card", "brand": ODD_BRAND, "model": ODD_MODEL, "capacity_gb": 64,
        "form_factor": "microSD", "bus": "UHS-I", "source": {"name": "+Lab & <Co>"},
        "sessions": [{"id": "s1", "label": ODD_LABEL, "date": "2026-11-20",
                      "tools": [{"name": "fio"}],
                      "results": [{"test": "SEQ1M Q8T1", "op": "read", "unit": "MiB/s", "runs": [50.0, 51.5]},
                                  {"test": "RND4K Q1T1", "op": "read", "unit": "IOPS", "runs": [2000, 2100]}]}],
    }


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    work = tmp_path_factory.mktemp("files")
    cards = planted_copy(work, {"odd-names-card.yaml": new_card_text(odd_card())}, ROOT / "data" / "cards")
    project, agg, hugo = sitebuild.build(work / "site", cards_dir=cards)
    assert agg.returncode == 0, agg.stderr
    assert hugo.returncode == 0, hugo.stdout + hugo.stderr
    return project


@pytest.fixture(scope="module")
def public(built):
    return built / "public"


def slugs(public):
    return sorted(p.name for p in (public / "cards").iterdir() if (p / "index.json").is_file())


def twin(public, slug):
    return json.loads((public / "cards" / slug / "index.json").read_text(encoding="utf-8"))


def html_pages(public):
    return sorted(p for p in public.rglob("*.html"))


class _Head(HTMLParser):
    """The <meta> and <link> tags of a page, attributes unescaped as a browser reads them."""

    def __init__(self):
        super().__init__()
        self.meta, self.links = {}, []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "meta" and ("property" in attrs or "name" in attrs):
            self.meta[attrs.get("property") or attrs["name"]] = attrs.get("content")
        if tag == "link":
            self.links.append(attrs)


def head(path):
    parser = _Head()
    parser.feed(path.read_text(encoding="utf-8"))
    return parser


# --- sitemap and robots.txt --------------------------------------------------------------------------

def page_url(public, path):
    relative = path.relative_to(public).as_posix()
    return BASE + relative.removesuffix("index.html")


def test_sitemap_lists_every_page_and_nothing_else(public):
    root = ET.fromstring((public / "sitemap.xml").read_bytes())
    locs = [loc.text for loc in root.iter(f"{SITEMAP}loc")]
    assert len(locs) == len(set(locs))
    pages = {page_url(public, p) for p in html_pages(public) if p.name == "index.html"}
    assert set(locs) == pages
    assert f"{BASE}cards/odd-names-card/" in locs and BASE in locs
    assert not [loc for loc in locs if not loc.endswith("/")]  # no CSV, JSON, card files, raw output or 404


def test_robots_txt_names_the_sitemap(public):
    lines = (public / "robots.txt").read_text(encoding="utf-8").splitlines()
    assert "User-agent: *" in lines
    assert f"Sitemap: {BASE}sitemap.xml" in lines


def test_sitemap_robots_and_feed_follow_the_base_url(built, tmp_path):
    other = "https://mirror.example.org/cardbench/"
    hugo = sitebuild.hugo(built, "--baseURL", other, destination=tmp_path / "public")
    assert hugo.returncode == 0, hugo.stdout + hugo.stderr
    locs = [loc.text for loc in ET.fromstring((tmp_path / "public" / "sitemap.xml").read_bytes()).iter(f"{SITEMAP}loc")]
    assert locs and all(loc.startswith(other) for loc in locs)
    assert f"Sitemap: {other}sitemap.xml" in (tmp_path / "public" / "robots.txt").read_text(encoding="utf-8")
    feed = ET.fromstring((tmp_path / "public" / "feed.xml").read_bytes())
    assert all(e.find(f"{ATOM}id").text.startswith(other) for e in feed.iter(f"{ATOM}entry"))
    # Addresses in the finished HTML cardbench aggregate writes follow the site's path too: the lists'
    # through Hugo, a card page's relative to the page
    slug = slugs(built / "public")[0]
    home = (tmp_path / "public" / "index.html").read_text(encoding="utf-8")
    page = (tmp_path / "public" / "cards" / slug / "index.html").read_text(encoding="utf-8")
    assert f"/cardbench/cards/{slug}/" in home and "<base>" not in home
    yaml_link = re.search(rf'href="?([^" >]*data/cards/{re.escape(slug)}\.yaml)', page).group(1)
    assert urljoin(f"{other}cards/{slug}/", yaml_link) == f"{other}data/cards/{slug}.yaml"
    assert "<base>" not in page and "<repo>" not in page
    assert f"/commits/main/data/cards/{slug}.yaml" in page


# --- 404, favicon, link previews ---------------------------------------------------------------------

def test_not_found_page_has_the_site_look_and_the_way_back(public):
    page = (public / "404.html").read_text(encoding="utf-8")
    assert 'class="site-header"' in page or "class=site-header" in page
    assert "/css/site." in page  # the site's own stylesheet, by an address that works from any folder
    assert ">Back to the leaderboard of every card</a>" in page
    assert "href=/ " in page or 'href="/"' in page or "href=/>" in page


def test_favicon_is_a_small_self_drawn_svg_linked_from_every_page(public):
    icon = public / "favicon.svg"
    svg = ET.fromstring(icon.read_bytes())
    assert svg.tag == "{http://www.w3.org/2000/svg}svg"
    assert icon.stat().st_size < 2000
    text = icon.read_text(encoding="utf-8")
    assert "http" not in text.replace('xmlns="http://www.w3.org/2000/svg"', "")  # nothing fetched from elsewhere
    assert not (ROOT / "static" / "favicon.svg").is_symlink()
    for page in html_pages(public):
        icons = [link for link in head(page).links if link.get("rel") == "icon"]
        assert icons == [{"rel": "icon", "href": "/favicon.svg", "type": "image/svg+xml"}], page


def test_every_page_has_link_preview_tags(public):
    for page in html_pages(public):
        meta = head(page).meta
        for key in ("og:title", "og:description", "og:url", "twitter:card", "twitter:title", "twitter:description",
                    "description"):
            assert meta.get(key), (page, key)
        assert meta["og:title"] == meta["twitter:title"] and meta["og:description"] == meta["twitter:description"]


def test_card_previews_name_the_card_and_its_figures_from_the_page_model(built, public):
    for slug in slugs(public):
        meta = head(public / "cards" / slug / "index.html").meta
        served = twin(public, slug)  # the page model's title and description are the twin's
        assert meta["og:title"] == served["title"]
        assert meta["og:description"] == meta["description"] == card_description(served)
        assert meta["og:url"] == f"{BASE}cards/{slug}/"
    odd = head(public / "cards" / "odd-names-card" / "index.html").meta
    assert odd["og:title"] == f"{ODD_BRAND} {ODD_MODEL} 64 GB microSD"  # markup kept as text, quotes too
    assert "MB/s" in odd["og:description"] and "+Lab & <Co>" in odd["og:description"]


# --- the Atom feed -----------------------------------------------------------------------------------

def test_feed_is_valid_atom_with_an_entry_per_dated_session(public):
    feed = ET.fromstring((public / "feed.xml").read_bytes())
    assert feed.tag == f"{ATOM}feed"
    for field in ("title", "id", "updated", "author"):
        assert feed.find(f"{ATOM}{field}") is not None, field
    entries = feed.findall(f"{ATOM}entry")
    dated = [(t["title"], s) for t in map(lambda slug: twin(public, slug), slugs(public)) for s in t["sessions"]
             if s.get("date") or t["source"].get("date")]
    assert len(entries) == min(len(dated), 100)
    updated = [e.find(f"{ATOM}updated").text for e in entries]
    assert updated == sorted(updated, reverse=True)
    assert feed.find(f"{ATOM}updated").text == updated[0] == "2026-11-20T00:00:00Z"
    for entry in entries:
        link = entry.find(f"{ATOM}link").get("href")
        assert link == entry.find(f"{ATOM}id").text and link.startswith(BASE + "cards/")
        path, anchor = link[len(BASE):].split("#")
        assert anchor.startswith("session-") and (public / path / "index.html").is_file()
    newest = entries[0]
    title = f"{ODD_BRAND} {ODD_MODEL} 64 GB microSD"
    assert newest.find(f"{ATOM}title").text == f"{title}: {ODD_LABEL}"  # '<' and '&' stay text
    assert newest.find(f"{ATOM}summary").text.startswith(f"New card: {title}, {ODD_LABEL} (2026-11-20)")


def test_pages_point_feed_readers_to_the_feed(public):
    alternates = [link for link in head(public / "index.html").links if link.get("rel") == "alternate"]
    assert {"type": "application/atom+xml", "href": "/feed.xml"}.items() <= alternates[0].items()


# --- every run as CSV --------------------------------------------------------------------------------

def read_csv(path):
    with open(path, encoding="utf-8", newline="") as handle:
        return list(csv.reader(handle))


def expected_rows(card):
    """Every run of every subtest, then of every other tool's figures (hdparm, iozone, H2testw…), per session."""
    for session in card["sessions"]:
        for sub in session["subtests"] + (session.get("tool_results") or []):
            for index, value in enumerate(sub["runs"]):
                yield (session["id"], sub["test"], sub.get("op"), sub["unit"], index + 1, value,
                       sub["mb_s"]["runs"][index] if sub.get("mb_s") else None)


def as_read(row):
    """A CSV row's session, subtest, unit, run and figures, typed."""
    record = dict(zip(COLUMNS, row))
    return (record["session_id"], record["test"], record["op"] or None, record["unit"], int(record["run"]),
            float(record["value"]), float(record["value_mb_s"]) if record["value_mb_s"] else None)


def test_each_card_has_every_run_as_csv(public):
    for slug in slugs(public):
        card = twin(public, slug)
        rows = read_csv(public / "cards" / slug / "runs.csv")
        assert rows[0] == COLUMNS
        assert {r[0] for r in rows[1:]} <= {slug}
        assert [as_read(r) for r in rows[1:]] == list(expected_rows(card)), slug


def test_runs_csv_joins_every_card(public):
    rows = read_csv(public / "runs.csv")
    assert rows[0] == COLUMNS
    assert len(rows) - 1 == sum(len(sub["runs"]) for slug in slugs(public) for s in twin(public, slug)["sessions"]
                                for sub in s["subtests"] + (s.get("tool_results") or []))
    per_card = [row for slug in slugs(public) for row in read_csv(public / "cards" / slug / "runs.csv")[1:]]
    assert sorted(rows[1:]) == sorted(per_card)


def test_runs_csv_keeps_the_unit_as_stored_and_mb_s_from_the_statistics(public):
    rows = [dict(zip(COLUMNS, r)) for r in read_csv(public / "cards" / "odd-names-card" / "runs.csv")[1:]]
    seq = [r for r in rows if r["test"] == "SEQ1M Q8T1"]
    assert ([(r["unit"], r["value"], r["value_mb_s"]) for r in seq]
            == [("MiB/s", "50", "52.429"), ("MiB/s", "51.5", "54.002")])
    iops = [r for r in rows if r["unit"] == "IOPS"]
    assert [r["value_mb_s"] for r in iops] == ["", ""]  # not a rate: no MB/s
    assert {r["tool"] for r in rows} == {"fio"} and {r["date"] for r in rows} == {"2026-11-20"}


def test_card_text_in_the_csv_is_never_a_formula(public):
    for path in (public / "cards" / "odd-names-card" / "runs.csv", public / "runs.csv"):
        rows = [dict(zip(COLUMNS, r)) for r in read_csv(path)[1:] if r[0] == "odd-names-card"]
        assert rows
        for row in rows:
            assert row["card_name"] == f"'{ODD_BRAND} {ODD_MODEL} 64 GB microSD"
            assert row["session_id"] == "s1"
            for column in ("card_slug", "card_name", "session_id", "date", "tool", "test", "op", "unit"):
                assert not row[column].startswith(("=", "+", "-", "@")), (column, row[column])


def test_home_and_card_pages_link_their_csv(public):
    assert 'href="/runs.csv"' in (public / "index.html").read_text(encoding="utf-8")
    for slug in slugs(public):
        card_page = (public / "cards" / slug / "index.html").read_text(encoding="utf-8")
        assert f'href="../../cards/{slug}/runs.csv"' in card_page


# --- format version ----------------------------------------------------------------------------------

def test_public_json_says_its_format_version(public):
    assert json.loads((public / "index.json").read_text(encoding="utf-8"))["format_version"] == 2
    for slug in slugs(public):
        assert twin(public, slug)["format_version"] == 2
    documented = (ROOT / "docs" / "card-json.md").read_text(encoding="utf-8")
    assert "`format_version`" in documented

