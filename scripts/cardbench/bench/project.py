"""Temporary copies of the site project for the benchmark: one with synthetic card files, and the
"floor" — the same site frame (config, baseof, header, footer, scripts) making N trivial pages."""

import json
import shutil
from contextlib import contextmanager
from pathlib import Path

from ..publish.site_files import write_site_data

ROOT = Path(__file__).resolve().parents[3]
SITE_PARTS = ["config.toml", "layouts", "content", "assets", "static", "data/schema"]
PLOTLY = ROOT / "node_modules" / "plotly.js-basic-dist-min"

FLOOR_ADAPTER = """{{- /* Plain pages, no data, no charts: the floor the card pages are measured against.
     Listed as the card pages are (build/hugo-data/data/cards.json), so adding one is the same change. */ -}}
{{- range $slug, $page := hugo.Data.cards -}}
  {{- $.AddPage (dict "path" $slug "title" $page.title "kind" "page" "outputs" (slice "html")) -}}
{{- end -}}
"""
FLOOR_SECTION_INDEX = """---
title: "Pages"
---
"""
FLOOR_SECTION = """{{- /* The floor's section page: a heading only. */ -}}
{{ define "main" }}<h1>{{ .Title }}</h1>{{ end }}
"""
FLOOR_PAGE = """{{- /* A plain page: a heading and a line of text in the site's frame. */ -}}
{{ define "main" }}<h1>{{ .Title }}</h1><p>A page without data or charts.</p>{{ end }}
"""


STUB_CARD_PAGE = ("{{- /* A card page reduced to reading its text and printing its title: "
                  """the full page places the whole body. */ -}}
{{ define "main" }}
{{- $text := readFile (printf "build/hugo-data/pages/%s.html" (.Params.card | default .File.ContentBaseName)) -}}
<h1>{{ index (split $text "<!--cardbench-->") 0 | htmlUnescape }}</h1>
{{ end }}
""")


@contextmanager
def stubbed_card_page(project):
    """The project with its card page template (layouts/cards/card.html) replaced by STUB_CARD_PAGE for the duration."""
    page = Path(project) / "layouts" / "cards" / "card.html"
    original = page.read_text(encoding="utf-8")
    page.write_text(STUB_CARD_PAGE, encoding="utf-8")
    try:
        yield project
    finally:
        page.write_text(original, encoding="utf-8")


def make_project(work_dir, cards_dir=None):
    """A copy of the site and of the cardbench package in work_dir whose data/cards holds cards_dir's
    files (default: none). Run the copy's package with measure.code_env(work_dir)."""
    work_dir = Path(work_dir)
    for name in SITE_PARTS:
        src, dst = ROOT / name, work_dir / name
        if src.is_dir():
            shutil.copytree(src, dst, ignore=shutil.ignore_patterns(".*"))
        elif src.exists():
            dst.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dst)
    cards = work_dir / "data" / "cards"
    if cards_dir:
        shutil.copytree(cards_dir, cards)
    else:
        cards.mkdir(parents=True)
    (work_dir / "data" / "raw").mkdir(parents=True, exist_ok=True)
    shutil.copytree(PLOTLY, work_dir / "node_modules" / PLOTLY.name)
    # The package too: every measurement runs one version of the code, whatever changes in the work tree.
    shutil.copytree(ROOT / "scripts" / "cardbench", work_dir / "scripts" / "cardbench",
                    ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    return work_dir


def make_floor_project(work_dir, count):
    """The site frame with `count` plain pages under /cards/ (listed in build/hugo-data/data/cards.json,
    made by a content adapter, as the card pages are) and empty statistics."""
    project = make_project(work_dir)
    cards = project / "content" / "cards"
    for review in cards.glob("*.md"):
        review.unlink()
    (cards / "_index.md").write_text(FLOOR_SECTION_INDEX, encoding="utf-8")  # HTML only: no JSON twins
    (cards / "_content.gotmpl").write_text(FLOOR_ADAPTER, encoding="utf-8")
    (project / "layouts" / "cards" / "page.html").write_text(FLOOR_PAGE, encoding="utf-8")
    (project / "layouts" / "cards" / "section.html").write_text(FLOOR_SECTION, encoding="utf-8")
    out = project / "build" / "hugo-data"
    write_site_data(out, [], {})  # the data files of a site without cards
    pages = {f"page-{i:05d}": {"title": f"Plain page {i}"} for i in range(count)}
    (out / "data" / "cards.json").write_text(json.dumps(pages), encoding="utf-8")
    return project


__all__ = ["make_project", "make_floor_project", "stubbed_card_page", "ROOT"]
