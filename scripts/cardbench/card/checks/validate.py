"""Check card files: load each, run the JSON Schema and the rules a schema cannot say on it, then the
rules across cards and on the files beside them (raw outputs, review pages).

The parts: problems.py (what a Finding is, every rule id), load.py (reading a card),
schema_findings.py (schema errors in words), rules.py with figure_rules.py and raw_files.py (one
card's rules), review_pages.py (content/cards/), changed.py (which cards a git change touches).
"""

import os
from pathlib import Path

from ...core.paths import DATA_DIR, raw_strings
from ...errors import CardFileError
from .problems import Finding
from ..load import load_card
from ..lookalike import brand_lookalikes, site_brands
from .raw_files import raw_file_findings, unfinished_folders
from .review_pages import SLUG_FORM, review_findings
from .rules import rule_findings
from .schema_findings import schema_findings
from .site_links import link_finding, project_link_findings
from ..wording import shorten


def check_card(card, today=None, data_dir=DATA_DIR):
    """Every finding for one loaded card, in file order (schema and rules)."""
    findings = schema_findings(card)
    # a character the schema refused in a name is not reported a second time as text-control
    named = {f.error.field for f in findings if f.rule == "schema:not"}
    findings += [f for f in rule_findings(card, today=today, data_dir=data_dir)
                 if not (f.rule == "text-control" and f.error.field in named)]
    findings.sort(key=lambda f: (f.error.line or 0, f.error.column or 0))
    return findings


def cross_card_findings(cards):
    """Rules across files: slugs unique (also ignoring case)."""
    out = []
    seen = {}
    for card in cards:
        slug = card.data.get("slug")
        if not isinstance(slug, str):
            continue
        key = slug.lower()
        if key in seen:
            out.append(Finding("error", card.error(("slug",), f"slug '{shorten(slug)}' is also used by {seen[key]}",
                                                   rule="slug-unique")))
        seen.setdefault(key, card.path.name)
    return out


def brand_findings(cards, data_dir=None):
    """A checked card whose brand looks like another brand on the site (the cards beside it in its
    data/cards/ folder, checked or not) without being the same text."""
    by_folder = {}
    for card in cards:
        folder = (Path(data_dir) if data_dir else data_dir_of(card.path)) / "cards"
        brand = card.data.get("brand") if isinstance(card.data, dict) else None
        by_folder.setdefault(folder, {})[str(Path(card.path).resolve())] = (card, brand)
    out = []
    for folder, checked in by_folder.items():
        posing = brand_lookalikes(site_brands(folder, {path: brand for path, (_, brand) in checked.items()}))
        for path, (card, _) in sorted(checked.items()):
            if path in posing:
                out.append(Finding("error", card.error(("brand",), posing[path], rule="brand-lookalike")))
    return out


def data_dir_of(card_path):
    """The data/ folder a card's raw paths are relative to: the parent of its cards/ folder, else data/."""
    folder = Path(card_path).parent
    return folder.parent if folder.name == "cards" else DATA_DIR


def validate_paths(paths, today=None, data_dir=None):
    """Load and check files. Returns (valid LoadedCards, findings). A card with an error is not valid.
    Raw paths are checked under data_dir, by default the data/ folder holding each card's cards/ folder."""
    cards, findings, beside, checked = [], [], [], []
    for path in sorted(Path(p) for p in paths):
        if path.is_symlink():  # never followed: what it points to is no card of this repository
            findings.append(link_finding(path))
            continue
        if _beside_cards(path):
            beside.append(path)
            continue
        if path.suffix != ".yaml":
            findings.append(Finding("error", CardFileError(path, "card files are named <slug>.yaml", rule="file-name")))
            continue
        try:
            card = load_card(path)
        except CardFileError as exc:
            findings.append(Finding("error", exc))
            continue
        own = check_card(card, today=today, data_dir=data_dir or data_dir_of(path))
        findings += own
        checked.append(card)
        if not any(f.severity == "error" for f in own):
            cards.append(card)
    linked = {os.path.abspath(f.path) for f in findings if f.rule == "symlink"}
    findings += [f for f in beside_cards_findings(checked, beside, data_dir)
                 if not (f.rule == "symlink" and os.path.abspath(f.path) in linked)]
    findings += brand_findings(checked, data_dir)
    cross = cross_card_findings(cards)
    findings += cross
    bad = {f.error.path for f in cross if f.severity == "error"}
    return [c for c in cards if str(c.path) not in bad], findings


def with_site_links(findings, data_dir=DATA_DIR):
    """`findings` and an error for each symbolic link among the site's inputs of data_dir's project not
    already among them: a check of some cards only (--changed) still sees a linked static/ or layout."""
    linked = {os.path.abspath(f.path) for f in findings if f.rule == "symlink"}
    return findings + [f for f in project_link_findings(data_dir) if os.path.abspath(f.path) not in linked]


def card_paths(cards_dir):
    """Card files of a folder: every *.yaml, and mis-named *.yml / *.YAML so they are reported, not skipped."""
    if not Path(cards_dir).is_dir():
        return []
    return sorted(p for p in Path(cards_dir).iterdir()
                  if p.suffix.lower() in (".yaml", ".yml") and not p.name.startswith("."))


# --- files beside the card files: data/raw/ and review pages ------------------------------------

def _beside_cards(path):
    """('raw', data dir) for a path under <data>/raw/, ('review', data dir) for one under
    <root>/content/cards/, else None."""
    path = Path(path)
    for parent in path.parents:
        if parent.name == "raw" and (parent.parent / "cards").is_dir():
            return "raw", parent.parent
        if parent.name == "cards" and parent.parent.name == "content":
            return "review", parent.parent.parent / "data"
    return None


def _files_under(folder):
    return sorted(Path(d) / name for d, _, names in os.walk(folder) for name in names)


def beside_cards_findings(cards, paths=(), data_dir=None):
    """Rules for what lies beside the card files, for the projects of the checked `cards` (LoadedCards)
    and the raw files or review pages given in `paths`: every file of each card's data/raw/<slug>/;
    files directly in data/raw/ and folders of no card; every entry of content/cards/ (see
    raw_file_findings, review_findings); symbolic links among the site's inputs (site_links.py).
    Cards outside a data/cards/ folder bring in nothing but their own raw folder."""
    raw_files, reviews, projects, named, unfinished = set(), set(), set(), set(), set()
    for card in cards:
        folder = Path(card.path).parent
        own_dir = Path(data_dir) if data_dir else data_dir_of(card.path)
        if data_dir or folder.name == "cards":
            projects.add(own_dir)
        slug = card.data.get("slug") if isinstance(card.data, dict) else None
        named.update(raw_strings(card.data))
        unfinished.update(unfinished_folders(card.data))
        if isinstance(slug, str) and SLUG_FORM.match(slug) and (own_dir / "raw" / slug).is_dir():
            raw_files.update((own_dir, f) for f in _files_under(own_dir / "raw" / slug))
    for path in paths:
        kind, own_dir = _beside_cards(path)
        projects.add(own_dir)
        (raw_files if kind == "raw" else reviews).add((own_dir, Path(path)))
    for project in projects:
        raw_root = project / "raw"
        for entry in (sorted(raw_root.iterdir()) if raw_root.is_dir() else []):
            if entry.is_dir() and (project / "cards" / f"{entry.name}.yaml").is_file():
                continue  # checked with its card
            raw_files.update((project, f) for f in ([entry] if not entry.is_dir() else _files_under(entry)))
        content = project.parent / "content" / "cards"
        if project.name == "data" and content.is_dir():
            reviews.update((project, entry) for entry in content.iterdir())
    checked = {Path(card.path).resolve() for card in cards}
    for project, path in raw_files:  # a raw file given alone: its own card says which files it names
        parts = Path(path).relative_to(project / "raw").parts
        own = project / "cards" / f"{parts[0]}.yaml"
        if len(parts) > 1 and own.is_file() and own.resolve() not in checked:
            checked.add(own.resolve())
            try:
                own_data = load_card(own).data
                named.update(raw_strings(own_data))
                unfinished.update(unfinished_folders(own_data))
            except CardFileError:
                pass  # the card's own findings say why
    out = []
    for project in sorted(projects):  # symbolic links among the site's inputs (card and raw files too)
        out += project_link_findings(project)
    for project, path in sorted(raw_files):
        out += raw_file_findings(path, project, named, unfinished)
    for project, path in sorted(reviews):
        out += review_findings(path, project)
    return out
