"""Card text on charts, in headless Chromium: links, restyled spans and template fields in card files
show literally in chart hovers, legends and labels on the comparison and card pages, and an ampersand
reads as one."""


import markupcards
import sitebuild
from browser import NEEDS_CHROMIUM, drawn_traces, open_page, serve_dir
from markupcards import AMPERSAND_BRAND, LINK, SPAN

pytestmark = NEEDS_CHROMIUM


def restyled(element):
    """Whether any text under `element` took a style from card text (the 60 px span)."""
    return element.evaluate("e => [...e.querySelectorAll('[style]')]"
                            ".some(t => t.getAttribute('style').includes('60px'))")


def hover_labels(page, chart, points):
    """The hover label of every point (bar or marker) of a chart, the mouse put on each in turn; each label
    checked to be text only: no link, no restyled span."""
    labels = []
    marks = chart.locator(points)
    for index in range(marks.count()):
        marks.nth(index).scroll_into_view_if_needed()
        box = marks.nth(index).bounding_box()
        if not box or box["width"] < 1 or box["height"] < 1:
            continue
        page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        chart.locator(".hoverlayer .hovertext").first.wait_for(state="attached")
        layer = chart.locator(".hoverlayer")
        assert layer.locator("a").count() == 0 and not restyled(layer)
        labels.append(layer.text_content())
        page.mouse.move(0, 0)
        chart.locator(".hoverlayer .hovertext").first.wait_for(state="detached")
    assert labels, "no point to hover"
    return labels


def assert_chart_text_only(chart):
    """No Plotly markup of card text took effect anywhere on a chart: legend, ticks, titles."""
    assert chart.locator("a").count() == 0 and not restyled(chart)


def test_card_text_in_chart_hovers_shows_as_text(tmp_path, browser):
    cards = markupcards.write_cards(tmp_path / "cards")
    project, agg, built = sitebuild.build(tmp_path / "site", cards_dir=cards)
    assert agg.returncode == 0, agg.stderr
    assert built.returncode == 0, built.stdout + built.stderr
    with serve_dir(project / "public") as url:
        # Comparison: one card's subtests (its title in each hover), then both on headline figures, where the
        # summary card's hover names the reviewer's figure behind it.
        page, problems = open_page(browser, f"{url}/compare/?cards=markup-runs")
        drawn_traces(page, "#picked-charts .chart")
        chart = page.locator("#picked-charts .chart")
        labels = hover_labels(page, chart, "g.trace.bars g.point path")
        assert all(LINK in label and SPAN in label and AMPERSAND_BRAND in label for label in labels), labels
        assert not any("&amp;" in label for label in labels)
        assert_chart_text_only(chart)
        page.goto(f"{url}/compare/?cards=markup-runs,markup-summary")
        page.wait_for_function("() => document.querySelector('#picked-charts figcaption')"
                               "?.textContent.startsWith('Sequential')")
        drawn_traces(page, "#picked-charts .chart")
        chart = page.locator("#picked-charts .chart")
        labels = hover_labels(page, chart, "g.trace.bars g.point path")
        summary = [label for label in labels if "reviewer's summary" in label]
        assert summary and all(f"90 MB/s {LINK}{SPAN} %{{x}}" in label for label in summary), labels
        assert_chart_text_only(chart)
        # Card page: the runs' bars, and the alignment scan, whose traces are named after the session.
        page.goto(f"{url}/cards/markup-runs/")
        page.wait_for_load_state("networkidle")
        drawn_traces(page)
        for chart_box in page.locator(".chart-box .chart").all():
            assert_chart_text_only(chart_box)
        hover_labels(page, page.locator(".chart").first, "g.trace.bars g.point path")
        align = page.locator("#chart-align .chart")
        labels = hover_labels(page, align, "g.trace.scatter path.point")
        assert all('<a href=' in label or '<span' in label for label in labels), labels
        legend = align.locator(".legend").text_content()
        assert LINK in legend and SPAN in legend
        assert problems.messages == []
