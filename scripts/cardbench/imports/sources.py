"""Published results the site carries, re-derived from the sources they were read from.

data/sources/<source>/source.yaml names one public source and lists what was imported from it; beside it
are the files kept from the source (its tool output and result tables, as printed). Every import is one
part of a kept file (from a heading line to the next heading of its level, or the whole file) read by a
tool module exactly as a contributor's log is read (imports.importer.import_file), into the card it
names. `cardbench sources` runs every import; a parser fix then reaches every card made from a source.

source.yaml:
  source: {name, author, repository, path, commit, url, license, license_note} | {…, read_on}
      the session's `source`: where the figures come from, for every session of this source
  kept: how much of the source is kept, and why (its licence)
  session: {host, reader, …}        defaults for every import's session below
  card: {bus, form_factor, …}       defaults for every import's card below
  imports:
    - file: <kept file>             the file beside source.yaml
      part: "<heading line>"        optional: the part from this line (exactly) to the next heading of its level
                                    (a Markdown or HTML heading line); or a list of such lines: those parts, in
                                    the list's order, one after another
      format: <registry name>       the tool module that reads it (table: with `layout`)
      layout: {…}                   for a result table (parsers.result_table)
      card: {brand, model, capacity_gb, form_factor, bus, markings}
      session: {label, date | "not stated", card_label, host, reader, interface, clock_mhz, conditions,
                compare, target, notes}
      source: {path, commit, url}   optional: this file's own place, where the source's files differ

A card is found or made from its brand, model, capacity, form factor and bus (one card per product):
the same product from two sources is one card with a session from each.

rederive(data_dir) runs the imports into a data folder: the sessions each source made before are taken
out of their cards first (found by their `source` and label), cards only sources made are made anew, and
every other byte of a card stays. check(data_dir) does it in a copy and lists every file that differs.
"""

import filecmp
import re
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path

import yaml

from ..card import identity
from ..card.store.checksums import SUMS_NAME
from ..card.load import load_card
from ..card.store.session_text import sessions_place
from ..core.paths import card_path
from ..errors import CardbenchError
from .importer import DATE_NOT_STATED, import_file

SOURCES_FOLDER = "sources"
MANIFEST = "source.yaml"
SESSION_FIELDS = ("label", "date", "card_label", "host", "reader", "interface", "clock_mhz", "conditions", "compare",
                  "target", "notes")
CARD_FIELDS = ("brand", "model", "capacity_gb", "form_factor", "bus", "markings")


class SourceError(CardbenchError):
    """A source manifest that cannot be followed: names the manifest and the import."""


@dataclass(frozen=True)
class Import:
    source_dir: Path
    number: int  # 1-based, in the manifest's order
    file: str
    part: str | tuple | None
    format: str
    layout: dict | None
    card: dict
    session: dict
    source: dict

    @property
    def where(self):
        return f"{self.source_dir / MANIFEST}: import {self.number}"

    def slug(self):
        card = self.card
        return identity.make_slug(card["brand"], card["model"], card["capacity_gb"], card["form_factor"],
                                  identity.card_family(card["capacity_gb"]), card["bus"])

    def text(self):
        """The kept file's part this import reads, its lines exactly as kept."""
        path = self.source_dir / self.file
        if path.parent != self.source_dir or not path.is_file():
            raise SourceError(f"{self.where}: no kept file {self.file!r} beside the manifest")
        lines = path.read_text(encoding="utf-8").split("\n")
        if self.part is None:
            return "\n".join(lines)
        parts = (self.part,) if isinstance(self.part, str) else tuple(self.part)
        return "\n".join(self._part_text(lines, part) for part in parts)

    def _part_text(self, lines, part):
        starts = [i for i, line in enumerate(lines) if line == part]
        if len(starts) != 1:
            raise SourceError(f"{self.where}: the part {part!r} starts {len(starts)} times in {self.file}")
        start = starts[0]
        level = _heading_level(part) or 7
        end = next((i for i in range(start + 1, len(lines))
                    if _heading_level(lines[i]) is not None and _heading_level(lines[i]) <= level), len(lines))
        return "\n".join(lines[start:end]).rstrip("\n") + "\n"


def _heading_level(line):
    """A heading line's level: '#' 1 to '######' 6 (a '#[label]' line is 1), an HTML heading line '<h1…>' to
    '<h6…>' 1 to 6, a line all in bold 7; None for other lines. A part runs to the next heading of its level
    or above."""
    stripped = line.strip()
    if stripped.startswith("#["):
        return 1
    html_heading = re.match(r"<h([1-6])\b", stripped, re.I)
    if html_heading:
        return int(html_heading.group(1))
    hashes = len(stripped) - len(stripped.lstrip("#"))
    if 1 <= hashes <= 6 and stripped[hashes:hashes + 1] == " ":
        return hashes
    if stripped.startswith("**") and stripped.endswith("**") and len(stripped) > 4:
        return 7
    return None


_SAFE_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def read_manifests(data_dir):
    """Every Import of every source under data/sources/, in folder then manifest order."""
    out = []
    for folder in sorted((Path(data_dir) / SOURCES_FOLDER).glob("*/")):
        manifest = folder / MANIFEST
        if not manifest.is_file():
            continue
        # libyaml's safe loader where PyYAML has it: the same values as safe_load, read many times faster
        doc = yaml.load(manifest.read_text(encoding="utf-8"), Loader=_SAFE_LOADER) or {}
        source = doc.get("source")
        if not isinstance(source, dict) or not source.get("name"):
            raise SourceError(f"{manifest}: no source with a name")
        for number, item in enumerate(doc.get("imports") or [], start=1):
            card = {**(doc.get("card") or {}), **(item.get("card") or {})}
            session = {**(doc.get("session") or {}), **(item.get("session") or {})}
            missing = [field for field in ("brand", "model", "capacity_gb", "form_factor", "bus") if field not in card]
            if missing or "label" not in session or "format" not in item or "file" not in item:
                raise SourceError(f"{manifest}: import {number} lacks {', '.join(missing) or 'file, format or label'}")
            unknown = set(session) - set(SESSION_FIELDS) | set(card) - set(CARD_FIELDS)
            if unknown:
                raise SourceError(f"{manifest}: import {number}: unknown field(s) {', '.join(sorted(unknown))}")
            own_source = {**source, **(item.get("source") or {})}  # a file of its own commit, in a source of many
            part = item.get("part")
            if isinstance(part, list):
                part = tuple(part)
            out.append(Import(folder, number, item["file"], part, item["format"], item.get("layout"), card,
                              session, own_source))
    return out


def _is_from(session, item):
    found = session.get("source") if isinstance(session, dict) else None
    return isinstance(found, dict) and found == item.source and session.get("label") == item.session["label"]


def _without_source_sessions(data_dir, imports):
    """Take every session a source made out of its card (the rest of the file as it was); a card left
    with no session that a source made alone goes. Returns the slugs whose files were removed."""
    removed = []
    by_slug = {}
    for item in imports:
        by_slug.setdefault(item.slug(), []).append(item)
    for slug, items in by_slug.items():
        path = card_path(Path(data_dir) / "cards", slug)
        if not path.exists():
            continue
        card = load_card(path)
        sessions = card.data.get("sessions") or []
        drop = [i for i, s in enumerate(sessions) if any(_is_from(s, item) for item in items)]
        if not drop:
            continue
        made_by_a_source = any(card.data.get("source") == item.source for item in imports)
        if len(drop) == len(sessions) and made_by_a_source:
            path.unlink()
            shutil.rmtree(Path(data_dir) / "raw" / slug, ignore_errors=True)
            removed.append(slug)
            continue
        text = card.text
        place = sessions_place(text, path)
        for index in reversed(drop):
            start, stop = place.items[index]
            raw_folder = Path(data_dir) / "raw" / slug / sessions[index]["id"]
            shutil.rmtree(raw_folder, ignore_errors=True)
            text = place.text_of(0, start) + place.text_of(stop)
            place = sessions_place(text, path) if index else place
        path.write_text(text, encoding="utf-8")
        _forget_raw_sums(Path(data_dir) / "raw" / slug, [sessions[i]["id"] for i in drop])
    return removed


def _forget_raw_sums(raw_root, session_ids):
    """SHA256SUMS without the lines of the raw files of these sessions (their folders are gone)."""
    sums = raw_root / SUMS_NAME
    if not sums.exists():
        return
    folders = tuple(f"{sid}/" for sid in session_ids)
    kept = [line for line in sums.read_text(encoding="utf-8").splitlines(True)
            if not line[66:].startswith(folders)]
    sums.write_text("".join(kept), encoding="utf-8")


def rederive(data_dir, progress=None):
    """Run every source's imports into data_dir (see the module's docstring), all or nothing: they run in a copy,
    whose card and raw files replace data_dir's only when every import landed. Returns the number run."""
    data_dir = Path(data_dir)
    with tempfile.TemporaryDirectory(prefix="cardbench-sources-copy-") as scratch:
        copy = Path(scratch) / "data"
        shutil.copytree(data_dir, copy, ignore=shutil.ignore_patterns(".locks"))
        count = _rederive_in(copy, progress)
        for name in _differences(data_dir, copy, ("cards", "raw")):
            target, made = data_dir / name, copy / name
            if made.is_file():
                target.parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(made, target)
            else:
                target.unlink()
        for folder in ("cards", "raw"):  # folders a source's card no longer has
            for path in sorted((data_dir / folder).rglob("*"), reverse=True):
                if path.is_dir() and not any(path.iterdir()):
                    path.rmdir()
    return count


def _rederive_in(data_dir, progress=None):
    say = progress or (lambda message: None)
    imports = read_manifests(data_dir)
    _without_source_sessions(data_dir, imports)
    with tempfile.TemporaryDirectory(prefix="cardbench-sources-") as scratch:
        for item in imports:
            text = item.text()
            name = Path(item.file).name
            part_file = Path(scratch) / str(item.number) / name
            part_file.parent.mkdir(parents=True, exist_ok=True)
            part_file.write_text(text, encoding="utf-8")
            session = dict(item.session)
            label, date = session.pop("label"), session.pop("date", DATE_NOT_STATED)
            date = date.isoformat() if hasattr(date, "isoformat") else str(date)
            host, reader = session.pop("host", None), session.pop("reader", None)
            card = item.card
            name_text = f"{card['brand']} {card['model']} {card['capacity_gb']}GB"
            try:
                import_file(part_file, data_dir / "cards", item.slug(), name=name_text, label=label, fmt=item.format,
                            data_dir=data_dir, date=date, source=item.source, card=dict(card),
                            hints={"layout": item.layout} if item.layout else None, host=host, reader=reader,
                            session_facts=session, per_label=True)
            except CardbenchError as exc:
                raise SourceError(f"{item.where} ({item.slug()}): {exc}") from None
            say(f"{item.where}: {item.slug()}")
    return len(imports)


def check(data_dir):
    """The card and raw files a re-derivation would change, made in a copy of data_dir: [] when none."""
    data_dir = Path(data_dir)
    with tempfile.TemporaryDirectory(prefix="cardbench-sources-check-") as scratch:
        copy = Path(scratch) / "data"
        shutil.copytree(data_dir, copy, ignore=shutil.ignore_patterns(".locks"))
        _rederive_in(copy)
        return _differences(data_dir, copy, ("cards", "raw"))


def _differences(left, right, folders):
    out = []
    for folder in folders:
        a, b = Path(left) / folder, Path(right) / folder
        names = {p.relative_to(a) for p in a.rglob("*") if p.is_file()} | \
                {p.relative_to(b) for p in b.rglob("*") if p.is_file()}
        for name in sorted(names):
            x, y = a / name, b / name
            if not (x.is_file() and y.is_file() and filecmp.cmp(x, y, shallow=False)):
                out.append(f"{folder}/{name}")
    return out
