"""The HTML pieces the pages Hugo makes share with card pages, written once from templates/shared/ (the one
home of each) into site/fragments.json, which Hugo's layouts place as they are:

    compare_unit_switch     the MB/s ⇄ MiB/s switch of the comparison page (layouts/compare.html)
    figures_table_template  the empty table under a chart, a <template> that charts.js clones for a chart it
                            tabulates itself (the comparison page; a page with a chart pasted into a review)
    chart_box_template      an empty chart box, a <template> the comparison page's script clones per chart
    pasted_chart            the box of a chart pasted into a review (layouts/_shortcodes/plotly.html), with
                            marks where the shortcode puts the chart's id, height and figure
    pasted_chart_marks      those marks (PASTED_CHART_MARKS), by what goes there

A mark holds "<", which no escaped text holds, so only the marks are replaced; the shortcode puts the figure
last, as JSON that holds no "<" either.
"""

from markupsafe import Markup

from .htmltemplates import render

PASTED_CHART_MARKS = {"id": "<chart-id>", "height": "<chart-height>", "figure_in_page": "<chart-figure>"}


def shared_fragments():
    """{name: finished HTML} of every piece Hugo's layouts place, and the pasted chart's marks (the names above)."""
    return {"compare_unit_switch": render("shared/unit-switch.html.j2", switch_name="compare"),
            "figures_table_template": render("shared/figures-table-template.html.j2"),
            "chart_box_template": render("shared/chart-box-template.html.j2"),
            "pasted_chart": render("shared/chart.html.j2",
                                   chart={key: Markup(mark) for key, mark in PASTED_CHART_MARKS.items()}),
            "pasted_chart_marks": PASTED_CHART_MARKS}


__all__ = ["PASTED_CHART_MARKS", "shared_fragments"]
