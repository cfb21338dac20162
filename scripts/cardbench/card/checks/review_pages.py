"""Rules on the review pages content/cards/<slug>.md: one per existing card, front matter limited to
keys that cannot move the page or change how it renders, and a body of plain Markdown with the
site's own shortcodes only (no raw HTML, no attribute lists, no Hugo built-ins that fetch or embed)."""

import json
import re
from pathlib import Path

import yaml

from .problems import file_finding
from ..wording import describe, shorten

SLUG_FORM = re.compile(r"^[a-z0-9][a-z0-9-]*$")
# The only front-matter keys of a review page (layouts/_partials/check-reviews.html has the same list):
# none can move a page to another address (url, slug, aliases), or change what or whether it renders
# (layout, type, outputs, build, draft, cascade, params).
REVIEW_KEYS = ("title", "description", "date", "lastmod")
REVIEW_FOLDER_FILES = ("_index.md", "_content.gotmpl")  # the section's own files, not reviews
_FRONT_MATTER = re.compile(r"\A\s*---[ \t]*\r?\n(.*?)\r?\n---[ \t]*(?:\r?\n|\Z)", re.S)


def review_findings(path, data_dir):
    """Findings for one entry of content/cards/: a review page <slug>.md of an existing card (data_dir/
    cards/<slug>.yaml), with front matter as _front_matter_findings says; the section's own files pass."""
    path = Path(path)
    if path.name in REVIEW_FOLDER_FILES and path.parent.name == "cards":
        return []
    if path.is_dir() or path.suffix != ".md" or path.parent.name != "cards" or not SLUG_FORM.match(path.stem):
        return [file_finding(path, "content/cards/ holds only review pages named <slug>.md, after a card's slug "
                                   "(lowercase letters, digits and hyphens)", "review-file")]
    findings = []
    if not (Path(data_dir) / "cards" / f"{path.stem}.yaml").is_file():
        findings.append(file_finding(path, f"a review of no card: there is no data/cards/{path.stem}.yaml",
                                     "review-file", line=1))
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        return findings + [file_finding(path, f"cannot read the review as UTF-8 text: {shorten(exc, 100)}",
                                        "review-file")]
    return findings + _front_matter_findings(path, text) + _body_findings(path, text)


def _front_matter_findings(path, text):
    """A review's front matter: YAML between --- lines, a title, and no key outside REVIEW_KEYS."""
    match = _FRONT_MATTER.match(text.removeprefix("\ufeff"))
    if not match:
        return [file_finding(path, "a review starts with YAML front matter between --- lines, with a title "
                                   "(TOML or JSON front matter is not used)", "review-file", line=1)]
    first = text[:match.start(1)].count("\n") + 1  # the line the YAML starts on
    try:
        node = yaml.compose(match.group(1), Loader=yaml.SafeLoader)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        return [file_finding(path, f"front matter is not valid YAML: {shorten(getattr(exc, 'problem', exc), 100)}",
                             "review-file", line=first + mark.line if mark else first)]
    if not isinstance(node, yaml.MappingNode):
        return [file_finding(path, "front matter must be a mapping (key: value)", "review-file", line=first)]
    out, seen = [], set()
    for key, value in node.value:
        line = first + key.start_mark.line
        name = key.value if isinstance(key, yaml.ScalarNode) and key.tag == "tag:yaml.org,2002:str" else None
        if name not in REVIEW_KEYS:
            shown = shorten(name) if name is not None else describe(getattr(key, "value", None))
            out.append(file_finding(path, f"front matter key '{shown}' is not allowed in a review; allowed: "
                                          f"{', '.join(REVIEW_KEYS)}", "review-key", line=line))
        elif name in seen:
            out.append(file_finding(path, f"front matter key '{name}' is given twice", "review-key", line=line))
        elif not isinstance(value, yaml.ScalarNode):
            out.append(file_finding(path, f"front matter '{name}' must be a single value", "review-key", line=line))
        seen.add(name)
    if "title" not in seen:
        out.append(file_finding(path, "front matter has no title", "review-key", line=first))
    return out


# The body: Markdown as prose and figures, nothing that places itself on the page. The build refuses
# the same shortcodes (layouts/_partials/check-reviews.html) and ignores attribute lists (config.toml).
REVIEW_SHORTCODES = ("plotly",)  # the site's own (layouts/_shortcodes/); Hugo's built-ins embed or fetch
PLOTLY_HEIGHT_PX = (100, 2000)  # a chart box the reader can scroll past (layouts/_shortcodes/plotly.html)
PLOTLY_CONFIG_KEYS = ("displayModeBar", "displaylogo", "responsive", "scrollZoom", "staticPlot")  # harmless; links
# and server URLs stay out, and charts.js sets responsive and the mode bar itself
_FENCE = re.compile(r"[ ]{0,3}(`{3,}|~{3,})")
_SHORTCODE = re.compile(r"\{\{[<%][ \t]*+(/?)[ \t]*+([^ \t>%}]{0,80})")
_HTML = re.compile(r"<(?:[A-Za-z][A-Za-z0-9-]{0,40}(?=[\s/>])|/[A-Za-z]|!--|\?|!\[CDATA)")
# Goldmark's attribute list at a line's end: {#id}, {.class}, {key=value …}; "{a, b}" in prose is not one.
_ATTRIBUTES = re.compile(r"\{[ \t]*+(?:[#.][A-Za-z_-]|[A-Za-z_:-]{1,40}+[ \t]*+=)[^{}]{0,400}+\}[ \t]*+$")
# A code span opens at the start of a run of backticks (the whole run: a run tried from each of its backticks
# in turn is quadratic in its length).
_CODE_SPAN = re.compile(r"(?<!`)(`++)(?:(?!\1).){0,2000}?\1")
_PLOTLY_OPEN = re.compile(r"\{\{<[ \t]*+plotly[ \t]*+>\}\}")
_PLOTLY_CLOSE = re.compile(r"\{\{<[ \t]*+/[ \t]*+plotly[ \t]*+>\}\}")
# A fence line whose info string holds "{": Hugo reads {…} there as attributes of the code block.
_FENCE_ATTRIBUTES = re.compile(r"[ ]{0,3}+(?:`{3,}+|~{3,}+).*\{")  # runs taken whole: linear
# Images: ![alt](url …) and ![alt][label] / ![label][] / ![label] with [label]: url defined elsewhere.
_INLINE_IMAGE = re.compile(r"!\[[^\]]{0,2000}\]\([ \t]*+<?([^\s)>]*)")
_REFERENCE_IMAGE = re.compile(r"!\[([^\]]{0,2000})\](?!\()(?:\[([^\]]{0,999})\])?")
_DEFINITION = re.compile(r"^[ ]{0,3}\[([^\]]{1,999})\]:[ \t]*+<?([^\s>]*)")
_OUTSIDE_URL = re.compile(r"^(?:[A-Za-z][A-Za-z0-9+.-]*:|[/\\]{2})")  # a scheme, or //host


def _body_findings(path, text):
    """What a review's body may not hold, each at its line (front matter lines count)."""
    out, fence, seen = [], None, set()
    front = _FRONT_MATTER.match(text.removeprefix("\ufeff"))
    first_body = text[:front.end()].count("\n") + 1 if front else 1
    in_plotly = False  # figure JSON: Plotly draws its text itself, with its own limits on markup
    lines = text.split("\n")
    outside_urls = _outside_definitions(lines[first_body - 1:])
    for number, line in enumerate(lines, start=1):
        if number < first_body:
            continue
        if _FENCE_ATTRIBUTES.match(line):  # the build refuses the same lines (check-reviews.html)
            out.append(file_finding(path, "a code fence's info string takes no {…} attributes; write the language "
                                          "alone (```text)", "review-body", line=number))
        on_plotly_line = in_plotly or (fence is None and _PLOTLY_OPEN.search(line))
        if on_plotly_line:  # what is left of the line outside the figure JSON is still prose
            line, in_plotly = _outside_plotly(line, in_plotly)
        for shortcode in _SHORTCODE.finditer(line):  # Hugo runs shortcodes inside code too
            name = shortcode.group(2)
            if name not in REVIEW_SHORTCODES and (number, name) not in seen:
                seen.add((number, name))
                out.append(file_finding(path, f"shortcode '{shorten(name)}' is not used in reviews; the site's "
                                              f"own: {', '.join(REVIEW_SHORTCODES)}", "review-body", line=number))
        opened = None if on_plotly_line else _FENCE.match(line)
        if fence is not None:
            if opened and opened.group(1)[0] == fence[0] and len(opened.group(1)) >= len(fence):
                fence = None
            continue
        if opened:
            fence = opened.group(1)
            continue
        prose = _CODE_SPAN.sub("", line)
        if _HTML.search(prose):
            out.append(file_finding(path, "raw HTML is not used in reviews (it is left out of the page); write "
                                          "Markdown", "review-body", line=number))
        if _ATTRIBUTES.search(prose):
            out.append(file_finding(path, "attribute lists {…} are not used in reviews; headings and paragraphs "
                                          "take the site's own style", "review-body", line=number))
        if _outside_images(prose, outside_urls):
            out.append(file_finding(path, "images in reviews must be files of the site (a path such as "
                                          "/images/x.png); the page does not load images from other addresses",
                                    "review-body", line=number))
    return out + _plotly_findings(path, text)


def _outside_plotly(line, in_plotly):
    """The text of one line outside plotly blocks, and whether a block is still open at its end."""
    parts, at = [], 0
    while True:
        if in_plotly:
            closed = _PLOTLY_CLOSE.search(line, at)
            if not closed:
                return " ".join(parts), True
            at, in_plotly = closed.end(), False
        opened = _PLOTLY_OPEN.search(line, at)
        parts.append(line[at:opened.start() if opened else len(line)])
        if not opened:
            return " ".join(parts), False
        at, in_plotly = opened.end(), True


def _label(text):
    return " ".join(text.split()).casefold()  # reference labels match case- and space-insensitively


def _outside_definitions(lines):
    """Labels of link reference definitions ([label]: url) whose URL is not a file of the site."""
    return {_label(m.group(1)) for m in map(_DEFINITION.match, lines) if m and _OUTSIDE_URL.match(m.group(2))}


def _outside_images(prose, outside_urls):
    if any(_OUTSIDE_URL.match(m.group(1)) for m in _INLINE_IMAGE.finditer(prose)):
        return True
    return any(_label(m.group(2) or m.group(1)) in outside_urls for m in _REFERENCE_IMAGE.finditer(prose))


def _plotly_findings(path, text):
    """The figure JSON of each plotly shortcode: valid, a data list, a height the page can hold."""
    out, at = [], 0
    while (opened := _PLOTLY_OPEN.search(text, at)) and (closed := _PLOTLY_CLOSE.search(text, opened.end())):
        at = closed.end()
        line = text.count("\n", 0, opened.start()) + 1
        try:
            figure = json.loads(text[opened.end():closed.start()])
        except ValueError as exc:
            out.append(file_finding(path, f"the plotly figure is not valid JSON: {shorten(exc, 100)}", "review-body",
                                    line=line))
            continue
        if not isinstance(figure, dict) or not isinstance(figure.get("data"), list):
            out.append(file_finding(path, "the plotly figure needs a JSON object with a \"data\" list",
                                    "review-body", line=line))
            continue
        layout = figure.get("layout") if isinstance(figure.get("layout"), dict) else {}
        low, high = PLOTLY_HEIGHT_PX
        height = layout.get("height", low)
        if isinstance(height, bool) or not isinstance(height, (int, float)) or not low <= height <= high:
            out.append(file_finding(path, f"the plotly figure's layout.height must be a number of pixels from {low} "
                                          f"to {high}", "review-body", line=line))
        config = figure.get("config") if isinstance(figure.get("config"), dict) else {}
        for key in config:
            if key not in PLOTLY_CONFIG_KEYS:
                out.append(file_finding(path, f"plotly config '{shorten(key)}' is not used in reviews; allowed: "
                                              f"{', '.join(PLOTLY_CONFIG_KEYS)}", "review-body", line=line))
    return out
