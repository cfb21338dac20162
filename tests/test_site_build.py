"""A real Hugo build from card files: pages, JSON twins (the public API), and refusal of bad data."""

import json
import re
import shutil
from html import unescape
from html.parser import HTMLParser

import pytest

import sitebuild
from cardbench.card.dump import new_card_text

from conftest import ROOT
from planted import planted_copy


def shipped_slugs():
    return sorted(p.stem for p in (ROOT / "data" / "cards").glob("*.yaml"))


def test_every_card_has_a_page_and_a_json_twin(shipped_site):
    for slug in shipped_slugs():
        assert (shipped_site / "cards" / slug / "index.html").is_file(), slug
        twin = json.loads((shipped_site / "cards" / slug / "index.json").read_text(encoding="utf-8"))
        assert twin["slug"] == slug
        for session in twin["sessions"]:
            assert session["label"]
            for sub in session["subtests"]:
                assert {"test", "op", "unit", "runs", "mean", "min", "max"} <= set(sub)


def test_every_card_page_names_its_link_preview_image(shipped_site):
    from PIL import Image

    for slug in shipped_slugs():
        html = (shipped_site / "cards" / slug / "index.html").read_text(encoding="utf-8")
        assert '<meta property="og:image" content="' in html and f'/cards/{slug}/preview.png">' in html, slug
        assert '<meta name="twitter:card" content="summary_large_image">' in html
        with Image.open(shipped_site / "cards" / slug / "preview.png") as image:
            assert image.size == (1200, 630)
    home = (shipped_site / "index.html").read_text(encoding="utf-8")
    assert "og:image" not in home and '<meta name="twitter:card" content="summary">' in home


def test_home_lists_every_card_and_serves_the_catalogue(shipped_site):
    html = (shipped_site / "index.html").read_text(encoding="utf-8")
    catalogue = json.loads((shipped_site / "index.json").read_text(encoding="utf-8"))
    assert len(catalogue["cards"]) == len(shipped_slugs())
    for slug in shipped_slugs():
        assert f"/cards/{slug}/" in html


def test_compare_json_carries_means_worsts_and_bests(shipped_site):
    compare = json.loads((shipped_site / "compare" / "index.json").read_text(encoding="utf-8"))
    suites = {s["id"]: s for s in compare["suites"]}
    adata = next(c for c in suites["cdm-fio-sh-1g"]["cards"] if c["slug"].startswith("adata"))
    seq_read = adata["stats"]["SEQ1G Q1T1 read"]
    # ADATA, active cooling, seed 002: worst 676, best 772, average 753 (MiB/s)
    assert (seq_read["unit"], seq_read["min"], seq_read["max"], round(seq_read["mean"])) == ("MiB/s", 676, 772, 753)


def test_card_files_and_raw_outputs_are_served(shipped_site):
    for slug in shipped_slugs():
        assert (shipped_site / "data" / "cards" / f"{slug}.yaml").is_file()
    raws = list((ROOT / "data" / "raw").rglob("*.*"))
    for raw in raws:
        assert (shipped_site / "data" / raw.relative_to(ROOT / "data")).is_file()


def test_plotly_is_served_by_the_site(shipped_site):
    html = (shipped_site / "cards" / shipped_slugs()[0] / "index.html").read_text(encoding="utf-8")
    assert "cdn" not in html.lower()
    assert list((shipped_site / "vendor").glob("plotly-basic.min.*.js"))


def test_a_bad_card_file_publishes_nothing(tmp_path):
    cards = tmp_path / "cards"
    cards.mkdir()
    (cards / "broken-card.yaml").write_text("slug: broken-card\nbrand: [oops\n", encoding="utf-8")
    project, agg, hugo = sitebuild.build(tmp_path / "site", cards_dir=cards)
    assert agg.returncode != 0 and hugo is None
    assert "broken-card.yaml:" in agg.stderr
    assert not (project / "public").exists()
    assert not (project / "build" / "hugo-data").exists()


@pytest.mark.parametrize("name", ["static", "data/raw/sandisk-ultra-200gb-microsdxc"])
def test_a_symbolic_link_among_the_inputs_stops_the_build(tmp_path, name):
    """A folder linked in (static/, a card's raw folder) would be copied into the site: aggregate refuses,
    naming the link and its target, so `make site` never reaches Hugo."""
    project = sitebuild.make_project(tmp_path / "site")
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.txt").write_text("not for the site\n", encoding="utf-8")
    if (project / name).exists():
        shutil.rmtree(project / name)
    (project / name).symlink_to(outside, target_is_directory=True)
    agg = sitebuild.aggregate(project)
    assert agg.returncode == 1
    assert f"{name}: error: is a symbolic link (to " in agg.stderr and "[symlink]" in agg.stderr
    assert "nothing written" in agg.stderr and not (project / "build" / "hugo-data").exists()


def test_review_prose_wraps_the_generated_page(tmp_path):
    project = sitebuild.make_project(tmp_path / "site")
    slug = shipped_slugs()[0]
    (project / "content" / "cards" / f"{slug}.md").write_text(
        "---\ntitle: Hand-written review\n---\nThis card is *quiet* and cool.\n", encoding="utf-8")
    assert sitebuild.aggregate(project).returncode == 0
    result = sitebuild.hugo(project)
    assert result.returncode == 0, result.stdout + result.stderr
    html = (project / "public" / "cards" / slug / "index.html").read_text(encoding="utf-8")
    assert "<em>quiet</em>" in html and "Claimed and measured" in html
    assert (project / "public" / "cards" / slug / "index.json").is_file()


HOSTILE = '</script><script>alert(1)</script>'
IMG = '<img src=x onerror=alert(2)>'


def hostile_card():
    return {
        "schema_version": 1, "slug": "hostile-card", "brand": HOSTILE, "model": HOSTILE + IMG, "capacity_gb": 32,
        "form_factor": "microSD", "bus": "UHS-I", "notes": HOSTILE,
        "source": {"name": HOSTILE, "url": "https://example.org/?q=%3Cscript%3E"},
        "sessions": [{"id": "s1", "label": HOSTILE, "host": HOSTILE, "reader": HOSTILE,
                      "results": [{"test": "SEQ1M Q8T1", "op": "read", "unit": "MB/s", "runs": [50.0, 51.0]}],
                      "headline": [{"name": HOSTILE, "value": HOSTILE}]}],
    }


def build_hostile(tmp_path):
    cards = tmp_path / "cards"
    cards.mkdir()
    (cards / "hostile-card.yaml").write_text(new_card_text(hostile_card()), encoding="utf-8")
    project, agg, hugo = sitebuild.build(tmp_path / "site", cards_dir=cards)
    assert agg.returncode == 0, agg.stderr
    assert hugo.returncode == 0, hugo.stdout + hugo.stderr
    return project / "public"


class _TagAudit(HTMLParser):
    """Collects what a browser would execute: inline scripts, event-handler attributes, images."""

    def __init__(self):
        super().__init__()
        self.inline_scripts, self.handlers, self.images, self.texts = [], [], [], []
        self.data_blocks = []  # <script type="application/json">: data a browser never runs
        self._in_script = self._in_data = False

    def handle_starttag(self, tag, attrs):
        self.handlers += [(tag, name) for name, _ in attrs if name.startswith("on")]
        if tag == "img":
            self.images.append(attrs)
        self._in_data = tag == "script" and dict(attrs).get("type") == "application/json"
        self._in_script = tag == "script" and not self._in_data
        if self._in_script and not dict(attrs).get("src"):
            self.inline_scripts.append(attrs)

    def handle_endtag(self, tag):
        self._in_script = self._in_data = False

    def handle_data(self, data):
        if self._in_data:
            self.data_blocks.append(data)
            return
        if self._in_script and data.strip():
            self.inline_scripts.append(data)
        self.texts.append(data)


def test_hostile_strings_are_escaped_in_html_and_chart_json(tmp_path):
    public = build_hostile(tmp_path)
    for page in (public / "cards" / "hostile-card" / "index.html", public / "index.html"):
        audit = _TagAudit()
        audit.feed(page.read_text(encoding="utf-8"))
        assert audit.inline_scripts == [] and audit.handlers == [] and audit.images == []
        assert any(HOSTILE in text for text in audit.texts), "the payload shows as text"
        for block in audit.data_blocks:  # chart data: JSON whose text holds no markup at all
            assert "<" not in block and ">" not in block
            json.loads(block)
    twin = json.loads((public / "cards" / "hostile-card" / "index.json").read_text(encoding="utf-8"))
    assert twin["brand"] == HOSTILE


PASTED = ROOT / "tests" / "fixtures" / "plotly" / "plotly--lexar-active-runs.md"


def build_with_page(tmp_path, name, text):
    project = sitebuild.make_project(tmp_path / "site")
    (project / "content" / name).write_text(text, encoding="utf-8")
    assert sitebuild.aggregate(project).returncode == 0
    return project, sitebuild.hugo(project)


def test_plotly_shortcode_merges_common_data_into_every_trace(tmp_path):
    project, result = build_with_page(tmp_path, "pasted.md", PASTED.read_text(encoding="utf-8"))
    assert result.returncode == 0, result.stdout + result.stderr
    html = (project / "public" / "pasted" / "index.html").read_text(encoding="utf-8")
    figures = [json.loads(m) for m in re.findall(r'<script type=["\']?application/json["\']? '
                                                 r'class=["\']?chart-figure["\']?>(.*?)</script>', html, re.S)]
    assert len(figures) == 2
    runs, averages = figures
    assert len(runs["data"]) == 10 and all(len(t["y"]) == 12 for t in runs["data"])
    assert runs["data"][0]["name"] == "Test 10" and runs["data"][0]["orientation"] == "h"
    assert all(t["texttemplate"] == "%{x}" for t in averages["data"])
    assert runs["layout"]["xaxis"]["ticksuffix"] == " MB/s"


@pytest.mark.parametrize("inner, message", [
    ("{ not json", "not valid JSON"),
    ("", "is empty"),
    ('{"layout": {}}', 'needs a "data" list'),
])
def test_plotly_shortcode_errors_name_the_position(tmp_path, inner, message):
    text = "---\ntitle: Broken\n---\n\n{{< plotly >}}\n" + inner + "\n{{< /plotly >}}\n"
    _, result = build_with_page(tmp_path, "broken.md", text)
    assert result.returncode != 0
    output = result.stdout + result.stderr
    assert "broken.md:5:1" in output and message in output


def test_titles_that_look_like_front_matter_or_templates_stay_text(tmp_path):
    """A card's title travels through the card index into the page the content adapter makes: braces,
    quotes, backslashes and template or front-matter delimiters in it must reach the page as the same text."""
    tricky = 'Braces } { "x": 1 } \\" back\\slash {{ .Title }} --- +++'
    card = hostile_card()
    card.update(slug="tricky-card", brand="Tricky", model=tricky, notes="plain", source={"name": "test"})
    cards = tmp_path / "cards"
    cards.mkdir()
    (cards / "tricky-card.yaml").write_text(new_card_text(card), encoding="utf-8")
    project, agg, hugo = sitebuild.build(tmp_path / "site", cards_dir=cards)
    assert agg.returncode == 0 and hugo.returncode == 0, agg.stderr + hugo.stdout + hugo.stderr
    page = (project / "public" / "cards" / "tricky-card" / "index.html").read_text(encoding="utf-8")
    h1 = re.search(r"<h1>(.*?)</h1>", page, re.S).group(1)
    assert unescape(h1) == f"Tricky {tricky} 32 GB microSD"
    listing = (project / "public" / "cards" / "index.html").read_text(encoding="utf-8")
    assert f"Tricky {tricky} 32 GB microSD" in unescape(listing)


# --- raw files: only those a card names, only inert text types --------------------------------

RAW_LINK = re.compile(r'href="?((?:\.\./\.\./|/)data/raw/[^"\s>]+)')  # card pages link relative to themselves


def named_raw_files(cards_dir):
    from cardbench.core.paths import raw_refs
    import yaml

    return {ref for path in cards_dir.glob("*.yaml")
            for _, ref in raw_refs(yaml.safe_load(path.read_text(encoding="utf-8")))}


def published_raw_files(public):
    root = public / "data"
    return {p.relative_to(root).as_posix() for p in (root / "raw").rglob("*") if p.is_file()}


def test_every_raw_link_on_a_card_page_resolves(shipped_site):
    links = set()
    for page in (shipped_site / "cards").glob("*/index.html"):
        links.update(RAW_LINK.findall(page.read_text(encoding="utf-8")))
    assert links, "the shipped cards link raw outputs"
    for link in links:
        assert (shipped_site / link.removeprefix("../../").lstrip("/")).is_file(), link


def test_only_the_raw_files_cards_name_are_published(tmp_path):
    slug = "sandisk-ultra-200gb-microsdxc"
    raw = planted_copy(tmp_path, {
        f"{slug}/index.html": "<script>alert(1)</script>",
        f"{slug}/re-test-2025/evil.svg": '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>',
        f"{slug}/notes.txt": "a note no card names",
        "no-such-card/index.html": "<script>alert(2)</script>",
        "index.html": "<script>alert(3)</script>",
    }, ROOT / "data" / "raw")
    cards = planted_copy(tmp_path, {"notes.html": "<script>alert(4)</script>", "sub/x.yaml": "not: a card\n"},
                         ROOT / "data" / "cards")
    project, agg, hugo = sitebuild.build(tmp_path / "site", cards_dir=cards, raw_dir=raw)
    assert agg.returncode == 0, agg.stderr
    assert hugo.returncode == 0, hugo.stdout + hugo.stderr
    published = published_raw_files(project / "public")
    assert published == named_raw_files(ROOT / "data" / "cards")
    assert not any(name.endswith((".html", ".svg")) or name.endswith("SHA256SUMS") for name in published)
    served_cards = {p.relative_to(project / "public").as_posix()
                    for p in (project / "public" / "data" / "cards").rglob("*")}
    assert served_cards == {f"data/cards/{p.name}" for p in (ROOT / "data" / "cards").glob("*.yaml")}


def test_a_card_naming_an_active_file_type_is_refused(tmp_path):
    card = "sandisk-ultra-200gb-microsdxc.yaml"
    ref = "raw/sandisk-ultra-200gb-microsdxc/re-test-2025/dd-read"
    text = (ROOT / "data" / "cards" / card).read_text(encoding="utf-8").replace(f"{ref}.out", f"{ref}.html")
    cards = planted_copy(tmp_path, {card: text}, ROOT / "data" / "cards")
    raw = planted_copy(tmp_path, {f"{ref.removeprefix('raw/')}.html": "<script>alert(1)</script>"},
                       ROOT / "data" / "raw")
    project, agg, hugo = sitebuild.build(tmp_path / "site", cards_dir=cards, raw_dir=raw)
    assert agg.returncode != 0 and hugo is None
    assert "sandisk-ultra-200gb-microsdxc.yaml:" in agg.stderr and "[raw-type]" in agg.stderr


def test_a_raw_file_no_longer_named_is_unpublished(tmp_path):
    from cardbench.publish.raw_copies import publish_raw

    data, out = tmp_path / "data", tmp_path / "out"
    (data / "raw" / "card" / "s1").mkdir(parents=True)
    for name in ("a.out", "b.json"):
        (data / "raw" / "card" / "s1" / name).write_text(name, encoding="utf-8")
    assert publish_raw(out, ["raw/card/s1/a.out", "raw/card/s1/b.json"], data) == 2
    assert publish_raw(out, ["raw/card/s1/a.out", "raw/card/s1/b.json"], data) == 0  # unchanged: left alone
    publish_raw(out, ["raw/card/s1/b.json", "raw/card/../card/s1/a.out", "raw/card/s1/c.html"], data)
    assert [p.relative_to(out).as_posix() for p in (out / "raw").rglob("*") if p.is_file()] == ["raw/card/s1/b.json"]
    publish_raw(out, [], data)
    assert list((out / "raw").iterdir()) == []


# --- review pages: allowed front matter only, at their card's address --------------------------

REVIEWED = "sandisk-extreme-64gb-sdxc"


@pytest.fixture(scope="module")
def aggregated_project(tmp_path_factory):
    project = sitebuild.make_project(tmp_path_factory.mktemp("reviews") / "site")
    assert sitebuild.aggregate(project).returncode == 0
    return project


def build_with_review(project, name, text, tmp_path):
    review = project / "content" / "cards" / name
    if text is None:
        (review / "index.md").parent.mkdir(parents=True)
        (review / "index.md").write_text("---\ntitle: Bundle\n---\n", encoding="utf-8")
    else:
        review.write_text(text, encoding="utf-8")
    try:
        return sitebuild.hugo(project, destination=tmp_path / "public")
    finally:
        shutil.rmtree(review) if review.is_dir() else review.unlink()


@pytest.mark.parametrize("name, text, message", [
    (f"{REVIEWED}.md", '---\ntitle: Takeover\nurl: "/"\n---\nHi.\n', 'key "url" is not allowed'),
    (f"{REVIEWED}.md", "---\ntitle: T\naliases: [/, /compare/]\n---\n", 'key "aliases" is not allowed'),
    (f"{REVIEWED}.md", "---\ntitle: T\nslug: other\n---\n", 'key "slug" is not allowed'),
    (f"{REVIEWED}.md", "---\ntitle: T\noutputs: [json]\n---\n", 'key "outputs" is not allowed'),
    (f"{REVIEWED}.md", "---\ntitle: T\nbuild: {render: never}\n---\n", 'key "build" is not allowed'),
    (f"{REVIEWED}.md", "---\ntitle: T\ncascade: {url: /}\n---\n", 'key "cascade" is not allowed'),
    (f"{REVIEWED}.md", "---\ntitle: T\ndraft: true\n---\n", 'key "draft" is not allowed'),
    (f"{REVIEWED}.md", "---\ntitle: T\nlayout: compare\n---\n", 'key "layout" is not allowed'),
    (f"{REVIEWED}.md", "---\ntitle: T\nparams: {card: lexar-class-10-16gb-microsdhc}\n---\n",
     'key "params" is not allowed'),
    (f"{REVIEWED}.md", '---\ntitle: T\nURL: "/"\n---\n', 'key "URL" is not allowed'),
    (f"{REVIEWED}.md", '+++\ntitle = "T"\nurl = "/"\n+++\n', "starts with YAML front matter"),
    (f"{REVIEWED}.md", '{"title": "T", "url": "/"}\n', "starts with YAML front matter"),
    (f"{REVIEWED}.md", "---\ndescription: no title\n---\n", "front matter has no title"),
    ("no-such-card.md", "---\ntitle: T\n---\n", "a review of no card"),
    ("Not_A_Slug.md", "---\ntitle: T\n---\n", "holds only review pages named <slug>.md"),
    (f"{REVIEWED}.markdown", '---\ntitle: T\nurl: "/"\n---\n', "holds only review pages named <slug>.md"),
    (REVIEWED, None, "holds only review pages named <slug>.md"),
    (f"{REVIEWED}.md", "---\ntitle: T\n---\n{{< youtube id=x >}}\n", 'shortcode "youtube" is not used in reviews'),
    (f"{REVIEWED}.md", "---\ntitle: T\n---\n```\n{{< param x >}}\n```\n", 'shortcode "param" is not used'),
    (f"{REVIEWED}.md", '---\ntitle: T\n---\n{{< plotly >}}{"data": [], "layout": {"height": 100000}}{{< /plotly >}}\n',
     "layout.height must be a number of pixels from 100 to 2000"),
    (f"{REVIEWED}.md", '---\ntitle: T\n---\n{{< plotly >}}{"data": [], "config": {"showLink": true}}{{< /plotly >}}\n',
     'plotly config "showLink" is not used in reviews'),
    (f"{REVIEWED}.md", '---\ntitle: T\n---\n```text {style="position:fixed" id="hijack" class="x"}\nx\n```\n',
     "info string takes no {…} attributes"),
    (f"{REVIEWED}.md", '---\ntitle: T\n---\n{{< plotly >}}{"data": [], "layout": {"height": 0}}{{< /plotly >}}\n',
     "layout.height must be a number of pixels from 100 to 2000"),
])
def test_the_build_refuses_a_review_page_that_could_take_another_place(aggregated_project, tmp_path, name, text,
                                                                       message):
    result = build_with_review(aggregated_project, name, text, tmp_path)
    output = result.stdout + result.stderr
    assert result.returncode != 0
    assert f"content/cards/{name}" in output and message in output


def test_a_review_with_every_allowed_key_builds(aggregated_project, tmp_path):
    text = "---\ntitle: Review\ndescription: Short.\ndate: 2025-05-01\nlastmod: 2025-06-01\n---\nQuiet card.\n"
    result = build_with_review(aggregated_project, f"{REVIEWED}.md", text, tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    page = (tmp_path / "public" / "cards" / REVIEWED / "index.html").read_text(encoding="utf-8")
    assert "Quiet card." in page and "<title>Review · cardbench</title>" in page
    assert "All cards" in (tmp_path / "public" / "index.html").read_text(encoding="utf-8")


def test_an_attribute_list_in_a_review_styles_nothing(aggregated_project, tmp_path):
    text = '---\ntitle: Review\n---\n## Heading {style="position:fixed;height:100%" id="main"}\n\nQuiet card.\n'
    result = build_with_review(aggregated_project, f"{REVIEWED}.md", text, tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    page = (tmp_path / "public" / "cards" / REVIEWED / "index.html").read_text(encoding="utf-8")
    assert re.search(r"<h2[^>]*>Heading \{style=", page)  # shown as text, never applied
    assert not re.search(r"<h2[^>]*style=", page)


def test_the_build_and_the_validator_allow_the_same_front_matter_keys():
    from cardbench.card.checks.review_pages import REVIEW_KEYS

    template = (ROOT / "layouts" / "_partials" / "check-reviews.html").read_text(encoding="utf-8")
    listed = re.search(r'\$allowed := slice ((?:"[a-z]+" ?)+)', template).group(1)
    assert tuple(re.findall(r'"([a-z]+)"', listed)) == REVIEW_KEYS


def test_the_sites_address_from_the_deploy_reaches_every_page_feed_and_twin(tmp_path, monkeypatch):
    """The deploy sets HUGO_BASEURL from GitHub Pages: the sitemap, the feed, robots.txt, link previews and the
    JSON twins all use it, and none says the placeholder address of config.toml."""
    address = "https://owner.github.io/cardbench/"
    monkeypatch.setenv("HUGO_BASEURL", address)
    cards = tmp_path / "cards"
    cards.mkdir()
    for slug in ("lexar-play-pro-1tb-microsd-express", "sandisk-ultra-64gb-microsdxc"):
        shutil.copy2(ROOT / "data" / "cards" / f"{slug}.yaml", cards)
    project, agg, built = sitebuild.build(tmp_path / "site", cards_dir=cards)
    assert agg.returncode == 0, agg.stderr
    assert built.returncode == 0, built.stdout + built.stderr
    public = project / "public"
    for served in ("sitemap.xml", "feed.xml", "robots.txt", "cards/lexar-play-pro-1tb-microsd-express/index.html",
                   "cards/lexar-play-pro-1tb-microsd-express/index.json"):
        text = (public / served).read_text(encoding="utf-8")
        assert "cardbench.example" not in text and address in text, served
    assert "cardbench.example" not in (public / "index.json").read_text(encoding="utf-8")
    page = (public / "cards" / "lexar-play-pro-1tb-microsd-express" / "index.html").read_text(encoding="utf-8")
    assert f'property="og:url" content="{address}cards/lexar-play-pro-1tb-microsd-express/"' in page
