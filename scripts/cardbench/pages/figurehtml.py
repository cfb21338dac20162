"""Figures as finished HTML for a card page: the page model holds each table's figures as the text the
page prints, so the page templates place one string per row instead of running a template for each of
a page's hundreds of figures.

Only figures are written here: numbers formatted by formatting.py, a dash, and fixed words of the
site ("excluded", "n = 3"). Every value still goes through html.escape, so a string can never carry
markup whatever it holds; the templates (pages/templates/) place these cells as they are. Names a
card supplies (subtests, tools, hosts, readers) are not written here: the templates place and escape
them (htmltemplates.py).
"""

import functools
from html import escape

# Where an address on the site starts: the templates replace it with the site's own path (relURL).
# Escaped text never holds "<", so only these placeholders are replaced.
BASE = "<base>"


def value_text(value):
    """A number as Hugo prints a JSON number: whole figures without '.0'; '' for none."""
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def rate_html(cell):
    """A rate cell ({mb, mib} texts, or {text}) in the unit the reader picked: MB/s shown, MiB/s beside it
    for units.js to switch to."""
    if cell.get("mb"):
        return _rate_span(cell["mb"], cell["mib"])
    return escape(cell.get("text") or "")


@functools.lru_cache(maxsize=1 << 16)  # a page's runs repeat their figures, card after card
def _rate_span(mb, mib):
    mb = escape(mb)
    return f'<span data-mb="{mb}" data-mib="{escape(mib)}">{mb}</span>'


def figure_cells_html(cells, strong_first=False):
    """Table cells of figures, one <td class="num"> each; the first in bold with `strong_first` (a mean)."""
    out = []
    for i, cell in enumerate(cells):
        figure = rate_html(cell)
        out.append(f'<td class="num"><strong>{figure}</strong></td>' if strong_first and i == 0
                   else f'<td class="num">{figure}</td>')
    return "".join(out)


def run_cells_html(cells):
    """The cells of a chart's "The figures as a table" row: each figure, marked when the source excluded it."""
    return "".join(f'<td class="num">{rate_html(c)}'
                   + (f' <span class="muted">({escape(c["note"])})</span>' if c.get("note") else "") + "</td>"
                   for c in cells)


def path_cells_html(cells):
    """The cells of a "By host and reader" row: each path's mean with its run count, or a dash."""
    return "".join(f'<td class="num">{rate_html(c)} <span class="muted">(n = {int(c["runs"])})</span></td>'
                   if c.get("runs")
                   else '<td class="num"><span class="muted" title="not measured through this path">'
                        f'{escape(c.get("text") or "")}</span></td>'
                   for c in cells)


def with_table_html(chart):
    """A chart whose table rows hold their cells as finished HTML (`cells`), or the chart as it is."""
    table = (chart or {}).get("table")
    if not table:
        return chart
    rows = [dict(row, cells=run_cells_html(row["cells"])) for row in table["rows"]]
    return dict(chart, table=dict(table, rows=rows))


__all__ = ["BASE", "value_text", "rate_html", "figure_cells_html", "run_cells_html", "path_cells_html",
           "with_table_html"]
