"""Review pages content/cards/<slug>.md: a body of Markdown and the site's own shortcodes, nothing that
places itself on the page (raw HTML, attribute lists, Hugo's embedding shortcodes, an endless chart)."""

import re
from pathlib import Path

import pytest

from cardbench.card.checks.review_pages import PLOTLY_CONFIG_KEYS, PLOTLY_HEIGHT_PX, REVIEW_SHORTCODES, review_findings

ROOT = Path(__file__).resolve().parents[1]
FRONT = "---\ntitle: Review\n---\n"


def findings_of(tmp_path, body, front=FRONT):
    (tmp_path / "cards").mkdir(exist_ok=True)
    (tmp_path / "cards" / "acme-a.yaml").write_text("slug: acme-a\n", encoding="utf-8")
    review = tmp_path / "content" / "cards" / "acme-a.md"
    review.parent.mkdir(parents=True, exist_ok=True)
    review.write_text(front + body, encoding="utf-8")
    return [(f.error.line, f.error.message) for f in review_findings(review, tmp_path)]


def test_plain_markdown_and_the_sites_own_chart_pass(tmp_path):
    body = ("Quiet card, set {a, b} of runs.\n\nSee <https://example.org> and `<b>` in code.\n\n"
            "```html\n<script>\n```\n"
            '{{< plotly >}}\n{"data": [{"type": "bar", "x": [1], "y": [2], "name": "<b>run</b>"}],\n'
            ' "layout": {"height": 400}, "config": {"scrollZoom": false}}\n{{< /plotly >}}\n')
    assert findings_of(tmp_path, body) == []


@pytest.mark.parametrize("line, message", [
    ('## Heading {style="position:fixed;top:0;height:100%"}', "attribute lists"),
    ("Paragraph.\n{.warning}", "attribute lists"),
    ("{{< youtube id=x >}}", "shortcode 'youtube' is not used"),
    ("```\n{{< figure src=x >}}\n```", "shortcode 'figure' is not used"),  # Hugo runs shortcodes in code too
    ("{{% details summary=x %}}body{{% /details %}}", "shortcode 'details' is not used"),
    ("<div style=\"position:fixed\">x</div>", "raw HTML"),
    ("<!-- note -->", "raw HTML"),
    ('{{< plotly >}}\n{"data": [], "layout": {"height": 100000}}\n{{< /plotly >}}', "layout.height must be"),
    ('{{< plotly >}}\n{"data": [], "config": {"plotlyServerURL": "javascript:x"}}\n{{< /plotly >}}',
     "plotly config 'plotlyServerURL'"),
    ('{{< plotly >}}\n{"data": 1}\n{{< /plotly >}}', 'needs a JSON object with a "data" list'),
    ("{{< plotly >}}\n{data}\n{{< /plotly >}}", "not valid JSON"),
    ('```text {style="position:fixed" id="hijack" class="x"}\nx\n```', "info string takes no {…} attributes"),
    ('~~~ go {.x}\nx\n~~~', "info string takes no {…} attributes"),
    ('<script>x</script> {{< plotly >}}{"data": []}{{< /plotly >}} <iframe>', "raw HTML"),
    ('{{< plotly >}}{"data": []}{{< /plotly >}} {{< youtube id=x >}}', "shortcode 'youtube' is not used"),
    ('{{< plotly >}}\n{"data": []}\n{{< /plotly >}} {.x}', "attribute lists"),
    ('{{< plotly >}}\n{"data": [], "layout": {"height": 0}}\n{{< /plotly >}}', "layout.height must be"),
    ("![i](https://example.com/t.png)", "must be files of the site"),
    ("![i]( <//example.com/t.png> )", "must be files of the site"),
    ("![i][pic]\n\n[pic]: HTTP://example.com/t.png", "must be files of the site"),
])
def test_what_a_review_body_may_not_hold_is_named_at_its_line(tmp_path, line, message):
    found = findings_of(tmp_path, "Intro.\n\n" + line + "\n")
    assert found and all(message in text for _, text in found[:1]), found
    assert found[0][0] >= 6  # counted in the file: 3 lines of front matter, then "Intro.", a blank line


def test_images_of_the_site_and_links_elsewhere_pass(tmp_path):
    body = ("![chart](/images/chart.png) ![rel](chart.png \"t\") ![ref][local] and [a link](https://example.org)\n\n"
            "[local]: /images/x.png\n[elsewhere]: https://example.org\n\n`![i](https://example.com/t.png)`\n")
    assert findings_of(tmp_path, body) == []


def test_the_build_refuses_and_bounds_what_the_validator_does():
    """layouts/ holds the same shortcode list, chart height and config keys as the validator."""
    checks = (ROOT / "layouts" / "_partials" / "check-reviews.html").read_text(encoding="utf-8")
    listed = re.search(r"\$shortcodes := slice ([^}]*)", checks).group(1)
    assert re.findall(r'"(\w+)"', listed) == list(REVIEW_SHORTCODES)
    assert sorted(p.stem for p in (ROOT / "layouts" / "_shortcodes").glob("*.html")) == sorted(REVIEW_SHORTCODES)
    plotly = (ROOT / "layouts" / "_shortcodes" / "plotly.html").read_text(encoding="utf-8")
    low, high = PLOTLY_HEIGHT_PX
    assert f"(lt $height {low}) (gt $height {high})" in plotly
    assert f'(slice {" ".join(chr(34) + k + chr(34) for k in PLOTLY_CONFIG_KEYS)})' in plotly
    config = (ROOT / "config.toml").read_text(encoding="utf-8")
    assert re.search(r"\[markup\.goldmark\.parser\.attribute\]\s*block = false\s*title = false", config)
