"""Rules on the review pages content/cards/<slug>.md: one per existing card, front matter limited to
keys that cannot move the page or change how it renders."""

import re
from pathlib import Path

import yaml

from .findings import file_finding
from .wording import describe, shorten

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
    return findings + _front_matter_findings(path, text)


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
