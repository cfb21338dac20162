"""Temporary copies of the site project for the benchmark: one with synthetic card files, and the
"floor" — the same site frame (config, baseof, header, footer, scripts) making N trivial pages."""

import shutil
from pathlib import Path

from ..sitedata import write_site_data

ROOT = Path(__file__).resolve().parents[3]
SITE_PARTS = ["config.toml", "layouts", "content", "assets", "static", "data/schema"]
PLOTLY = ROOT / "node_modules" / "plotly.js-basic-dist-min"

FLOOR_ADAPTER = """{{- /* N plain pages, no data, no charts: the floor the card pages are measured against. */ -}}
{{- range $i := seq %d -}}
  {{- $.AddPage (dict "path" (printf "page-%%05d" $i) "title" (printf "Plain page %%d" $i) "kind" "page" "outputs" (slice "html")) -}}
{{- end -}}
"""
FLOOR_PAGE = """{{- /* A plain page: a heading and a line of text in the site's frame. */ -}}
{{ define "main" }}<h1>{{ .Title }}</h1><p>A page without data or charts.</p>{{ end }}
"""


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
    """The site frame with `count` plain pages under /cards/ and empty statistics."""
    project = make_project(work_dir)
    adapter = project / "content" / "cards" / "_content.gotmpl"
    adapter.write_text(FLOOR_ADAPTER % count, encoding="utf-8")
    for review in (project / "content" / "cards").glob("*.md"):
        if review.name != "_index.md":
            review.unlink()
    (project / "layouts" / "cards" / "page.html").write_text(FLOOR_PAGE, encoding="utf-8")
    write_site_data(project / "build" / "hugo-data", [], {})  # the data files of a site without cards
    return project


__all__ = ["make_project", "make_floor_project", "ROOT"]
