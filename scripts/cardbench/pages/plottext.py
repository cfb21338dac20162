"""Plotly figures as page data: every string shown as plain text, the JSON safe inside a data block.

Plotly reads a pseudo-HTML in every text it draws (trace names, category and tick labels, hover text
and the customdata a hover template shows, titles, annotations): <a href> makes a link, <span style>
restyles, <br> breaks, entities are decoded. Card text must show as written, so each string becomes
entities for < > &, which Plotly draws as the characters they stand for. Hover templates are code's
own strings (their %{…} and <br> are meant) and stay as written; card text never goes into one.
"""

from ..core.jsontext import script_safe_json

# Figure keys whose strings are Plotly templates written by the chart code, not text to show.
TEMPLATE_KEYS = frozenset({"hovertemplate", "texttemplate"})
# Values a figure holds by the thousand that are copied as they are (no call per number).
_AS_THEY_ARE = frozenset({int, float, bool, type(None)})


def plot_text(text):
    """Text Plotly shows literally ("A & B" still reads "A & B"; "<b>" reads "<b>", not bold)."""
    text = str(text)
    if "&" in text or "<" in text or ">" in text:
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return text


def plain_figure(value, key=None):
    """A copy of a figure (or any part of one) with every string but its templates made plain text."""
    # Numbers are copied as they are and plain strings made plain text here, without a call of this function each.
    if isinstance(value, dict):
        return {k: v if v.__class__ in _AS_THEY_ARE else (v if k in TEMPLATE_KEYS else plot_text(v))
                if v.__class__ is str else plain_figure(v, k) for k, v in value.items()}
    if isinstance(value, list):
        if _AS_THEY_ARE.issuperset(map(type, value)):  # a trace's numbers: copied whole, no test per number
            return value.copy()
        if key in TEMPLATE_KEYS:
            return [v if v.__class__ in _AS_THEY_ARE or v.__class__ is str else plain_figure(v, key) for v in value]
        return [v if v.__class__ in _AS_THEY_ARE else plot_text(v) if v.__class__ is str else _plain_list(v, key)
                if v.__class__ is list else plain_figure(v, key) for v in value]
    if isinstance(value, str) and key not in TEMPLATE_KEYS:
        return plot_text(value)
    return value


def _plain_list(value, key):
    """plain_figure of a list inside a list outside the templates (a hover's fields per point), in one step."""
    return [v if v.__class__ in _AS_THEY_ARE else plot_text(v) if v.__class__ is str else plain_figure(v, key)
            for v in value]


def figure_json(figure):
    """A figure's JSON for its page's <script type="application/json"> data block; none for an empty figure."""
    return script_safe_json(figure) if figure else ""


__all__ = ["TEMPLATE_KEYS", "plot_text", "plain_figure", "figure_json"]
