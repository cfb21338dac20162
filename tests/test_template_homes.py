"""Each piece of markup the pages share is written in one template, pages/templates/shared/: the chart box, the
figures table under a chart, the MB/s ⇄ MiB/s switch and the switchable unit name. Card pages render it with
Jinja; Hugo's layouts place it as cardbench aggregate wrote it (site/fragments.json, pages/sharedhtml.py); the
scripts clone the empty box and table the page holds as <template> elements. Two copies drift apart: one gains
an attribute the other lacks, and the same table reads differently on two pages.

Where markup is written: Hugo's layouts, the Jinja templates, the Python package (an f-string) and the scripts
(assets/js, static/ but its vendor/ folder). A piece counts as written where its class is in a quoted class list
(class="chart-box", el('figure', 'chart-box'), className = 'figures-table') or, for the unit name, where its
MB/s text is given to a data-mb attribute. A selector ('.chart-box > script') or a stylesheet rule only reads it.
"""

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SHARED = "scripts/cardbench/pages/templates/shared"


def _class_list_with(name):
    """A quoted class list holding `name` as one of its classes."""
    return re.compile(r"""(["'])(?:[\w-]+ )*""" + re.escape(name) + r"""(?: [\w-]+)*\1""")


# Each piece: its one home, and how writing it looks.
HOMES = {
    "chart box": (f"{SHARED}/chart.html.j2", [_class_list_with("chart-box")]),
    "figures table": (f"{SHARED}/chart-table.html.j2", [_class_list_with("figures-table")]),
    "unit switch": (f"{SHARED}/unit-switch.html.j2", [_class_list_with("unit-switch")]),
    "unit name": (f"{SHARED}/words.html.j2", [re.compile(r"""data-mb=(["'])MB/s\1"""),
                                              re.compile(r"""(["'])data-mb\1\s*,\s*(["'])MB/s\2""")]),
}


def markup_sources(root=ROOT):
    """{path relative to root: text} of every file that writes markup."""
    patterns = ["layouts/**/*.html", "scripts/cardbench/**/*.j2", "scripts/cardbench/**/*.py", "assets/**/*.js",
                "static/**/*.js", "static/**/*.html"]
    found = {}
    for pattern in patterns:
        for path in root.glob(pattern):
            relative = path.relative_to(root).as_posix()
            if path.is_file() and not relative.startswith("static/vendor/"):
                found[relative] = path.read_text(encoding="utf-8")
    return found


def second_copies(sources):
    """What breaks the rule: a piece written outside its home, or missing from it, one line each."""
    problems = []
    for piece, (home, patterns) in HOMES.items():
        if not any(p.search(sources.get(home, "")) for p in patterns):
            problems.append(f"{home}: the home of the {piece} does not write it")
        for path, text in sorted(sources.items()):
            if path == home:
                continue
            for number, line in enumerate(text.splitlines(), 1):
                if any(p.search(line) for p in patterns):
                    problems.append(f"{path}:{number}: a second copy of the {piece} (its home: {home})")
    return problems


def test_each_shared_piece_of_markup_has_one_home():
    assert second_copies(markup_sources()) == []


def test_hugo_has_no_partial_of_its_own_for_them():
    partials = ROOT / "layouts" / "_partials"
    for name in ("chart.html", "chart-table.html", "unit-switch.html", "unit-name.html"):
        assert not (partials / name).exists(), name


@pytest.mark.parametrize("path, line, piece", [
    ("layouts/_partials/chart.html", '<figure class="chart-box" id="{{ .id }}">', "chart box"),
    ("layouts/compare.html", '<fieldset class="unit-switch" data-unit-switch hidden>', "unit switch"),
    ("assets/js/compare/table.js", "  var details = el('details', 'figures-table');", "figures table"),
    ("assets/js/charts.js", "    details.className = 'figures-table';", "figures table"),
    ("assets/js/compare/draw.js", "  var box = el('figure', 'chart-box wide');", "chart box"),
    ("scripts/cardbench/pages/figurehtml.py", """    return f'<span class="unit">{text}</span><span data-mb="MB/s">'""",
     "unit name"),
    ("assets/js/compare/table.js", "  span.setAttribute('data-mb', 'MB/s');", "unit name"),
    ("scripts/cardbench/pages/templates/card/grid.html.j2",
     '<details class="figures-table open"><summary>The figures as a table</summary>', "figures table"),
])
def test_a_planted_copy_is_reported(path, line, piece):
    sources = markup_sources()
    sources[path] = sources.get(path, "") + "\n" + line + "\n"
    problems = second_copies(sources)
    assert len(problems) == 1 and problems[0].startswith(f"{path}:") and f"copy of the {piece}" in problems[0]


def test_a_home_that_lost_its_piece_is_reported():
    sources = markup_sources()
    sources[f"{SHARED}/unit-switch.html.j2"] = "{# moved elsewhere #}\n"
    assert second_copies(sources) == [f"{SHARED}/unit-switch.html.j2: the home of the unit switch does not write it"]


@pytest.mark.parametrize("line", [
    "    Array.prototype.forEach.call(document.querySelectorAll('.chart-box > script.chart-figure'), f);",
    "    var boxes = document.querySelectorAll('[data-charts] .chart-box[data-figure]');",
    ".unit-switch { display: inline-flex; }",
    "  unitLabel.setAttribute('data-mb', '(MB/s: mean, slowest–fastest)');",
    "  var template = document.querySelector('template[data-figures-table]');",
])
def test_reading_a_piece_is_no_copy(line):
    sources = markup_sources()
    sources["assets/js/reader.js"] = line + "\n"
    assert second_copies(sources) == []


def test_hugo_places_only_pieces_that_are_written():
    from cardbench.pages.sharedhtml import shared_fragments

    written = shared_fragments()
    placed = {name for path in (ROOT / "layouts").rglob("*.html")
              for name in re.findall(r"\$fragments\.(\w+)", path.read_text(encoding="utf-8"))}
    assert placed and placed <= set(written)
    assert set(written) - placed == set(), "a piece no layout places"


def test_the_pasted_chart_holds_each_mark_once():
    from cardbench.pages.sharedhtml import PASTED_CHART_MARKS, shared_fragments

    box = shared_fragments()["pasted_chart"]
    assert all(box.count(mark) == 1 for mark in PASTED_CHART_MARKS.values())
    assert 'id="<chart-id>"' in box and "height: <chart-height>px" in box and "data-figure" not in box
    assert '<script type="application/json" class="chart-figure"><chart-figure></script>' in box
