"""Card text on charts is Plotly plain text: every string of a figure is escaped in one place (`chart`),
hover templates are the chart code's own and never carry card text."""

import json

from markupcards import LINK, SPAN, TEMPLATE, runs_card, summary_card

from cardbench.figures.aggregate import aggregate
from cardbench.pages.chartmodel import BAR_HOVER, DOT_HOVER, chart
from cardbench.pages.pagemodel import card_page
from cardbench.pages.plottext import TEMPLATE_KEYS, plot_text


def strings(value, key=None):
    """(key, string) of every string in a figure."""
    if isinstance(value, dict):
        for k, v in value.items():
            yield from strings(v, k)
    elif isinstance(value, list):
        for v in value:
            yield from strings(v, key)
    elif isinstance(value, str):
        yield key, value


def card_figures():
    twin = aggregate([runs_card(), summary_card()])["cards"]["markup-runs"]
    page = card_page(twin)
    charts = [s["chart"] for s in page["sessions"] if s.get("chart")] + page["curves"]
    return [json.loads(c["figure"]) for c in charts]


def test_card_text_never_reaches_a_hover_template():
    figures = card_figures()
    assert len(figures) >= 3  # the session's runs, the sweep and the fill
    units = ("MB/s", "MiB/s")
    fixed = {t.replace("{unit}", u) for t in (BAR_HOVER, DOT_HOVER) for u in units}
    templates = [s for f in figures for k, s in strings(f) if k in TEMPLATE_KEYS]
    assert templates and set(templates) <= fixed
    for template in fixed:
        assert "example.invalid" not in template and "FAKE" not in template and TEMPLATE not in template


def test_every_card_string_on_a_card_page_chart_is_plain_text():
    shown = [s for f in card_figures() for k, s in strings(f) if k not in TEMPLATE_KEYS]
    assert plot_text(LINK) in " ".join(shown) and plot_text(SPAN) in " ".join(shown)
    assert not any("<" in s or ">" in s for s in shown)


def test_chart_escapes_every_text_field_but_keeps_its_templates():
    template = "%{text}<br>%{customdata[0]}<extra></extra>"
    figure = {"data": [{"type": "bar", "name": LINK, "y": [SPAN], "x": [1], "text": [LINK], "customdata": [[SPAN]],
                        "hovertext": [LINK], "hovertemplate": template}],
              "layout": {"height": 300, "title": {"text": SPAN}, "annotations": [{"text": LINK}],
                         "yaxis": {"ticktext": ["Lexar & Co"], "title": {"text": LINK}}}}
    drawn = json.loads(chart("c", "Title", figure)["figure"])
    trace = drawn["data"][0]
    assert trace["hovertemplate"] == template
    assert trace["name"] == trace["text"][0] == trace["hovertext"][0] == drawn["layout"]["annotations"][0]["text"] \
        == "&lt;a href=\"https://example.invalid/\"&gt;x&lt;/a&gt;"
    assert trace["y"] == [plot_text(SPAN)] and trace["customdata"] == [[plot_text(SPAN)]]
    assert drawn["layout"]["title"]["text"] == plot_text(SPAN)
    assert drawn["layout"]["yaxis"]["ticktext"] == ["Lexar &amp; Co"]  # Plotly draws &amp; as &
    assert figure["data"][0]["name"] == LINK  # the figure given is left as it was
