"""Rules on data/raw/: the raw tool outputs a card names (inside data/raw, of a type served as text,
present, recorded in SHA256SUMS with the same hash), and the files and SHA256SUMS lines there that no
card names (orphans)."""

import unicodedata
from pathlib import Path

from ...core.paths import RAW_TYPES, raw_refs, unportable_name
from ...errors import CardFileError
from ..store.checksums import SUMS_NAME, read_sha256sums, sha256_file
from .problems import file_finding
from ..walk import sessions_of
from ..wording import shorten

RAW_SKIPPED = ".tmp"  # still being written by the collector or importer; git ignores them


COLLECTOR_LOG = "collect.log"  # grows while a run goes on, so it is neither hashed nor listed

def raw_type_allowed(name):
    """True when a raw file's name ends in one of RAW_TYPES (in any case: web servers map types so)."""
    return Path(name).suffix.lower() in RAW_TYPES


def raw_references(check):
    """The card rule on every raw path its sessions name (a CardCheck, as in rules.py)."""
    slug = check.data.get("slug") if isinstance(check.data.get("slug"), str) else None
    raw_root = (check.data_dir / "raw").resolve()
    sums_cache = {}
    hashes = {}
    folded = {}
    for index, session in sessions_of(check.card):
        for path, raw in raw_refs(session):
            place = ("sessions", index) + path
            other = folded.setdefault(_folded(raw), raw)
            if other != raw:
                check.add(place, f"raw path '{shorten(raw)}' differs from '{shorten(other)}' only in letter case or "
                                 "in how its accents are encoded; on macOS and Windows both are one file: rename "
                                 "one", "raw-path")
                continue
            parts = raw.split("/")
            if any(part in ("", ".", "..") for part in parts):
                check.add(place, f"raw path '{shorten(raw)}' has an empty, '.' or '..' part", "raw-path")
                continue
            unportable = next(filter(None, map(unportable_name, parts)), None)
            if unportable:
                check.add(place, f"raw path '{shorten(raw)}': {unportable}; rename the file so every "
                                 "contributor can check it out", "raw-path")
                continue
            try:
                target = (check.data_dir / raw).resolve()
            except (OSError, RuntimeError):  # a symbolic link that leads to itself
                check.add(place, f"raw path '{shorten(raw)}' is a loop of symbolic links", "raw-path")
                continue
            if raw_root not in target.parents:
                check.add(place, f"raw path '{shorten(raw)}' leads outside data/raw", "raw-path")
                continue
            if not raw_type_allowed(raw):
                check.add(place, f"raw file data/{raw} is not of a type the site serves as text; raw files end "
                                 f"in {', '.join(RAW_TYPES)}", "raw-type")
                continue
            if not target.is_file():
                check.add(place, f"raw file data/{raw} is missing", "raw-present")
                continue
            folder = parts[1]
            if slug and folder != slug:
                check.add(place, f"raw file is in data/raw/{folder}/, not this card's data/raw/{slug}/",
                          "raw-folder", "warning")
            _raw_hash(check, place, raw, folder, "/".join(parts[2:]), target, sums_cache, hashes)


def _folded(raw):
    """The path as a case-insensitive, normalising file system (macOS, Windows) sees it."""
    return unicodedata.normalize("NFC", raw).casefold()


def _raw_hash(check, place, raw, folder, name, target, sums_cache, hashes):
    """The raw file's SHA-256 against its line in data/raw/<folder>/SHA256SUMS (each read once per card)."""
    if folder not in sums_cache:
        sums_path = check.data_dir / "raw" / folder / SUMS_NAME
        if not sums_path.is_file():
            sums_cache[folder] = None
            check.add(place, f"data/raw/{folder}/{SUMS_NAME} is missing, so the raw files cannot be checked against "
                             "the hashes recorded when they were written; restore it (git checkout) rather than "
                             "recording the files' hashes anew", "raw-hash")
        else:
            try:
                sums_cache[folder] = read_sha256sums(sums_path)
            except CardFileError as exc:
                sums_cache[folder] = None
                where = f" line {exc.line}" if exc.line else ""
                check.add(place, f"data/raw/{folder}/{SUMS_NAME}{where}: {exc.message}", "raw-hash")
    sums = sums_cache[folder]
    if sums is None:
        return
    if name not in sums:
        check.add(place, f"data/{raw} is not listed in data/raw/{folder}/{SUMS_NAME}", "raw-hash")
        return
    if target not in hashes:
        hashes[target] = sha256_file(target)
    expected, line = sums[name]
    if hashes[target] != expected:
        check.add(place, f"data/{raw} has sha256 {hashes[target][:16]}…, but data/raw/{folder}/{SUMS_NAME} "
                         f"line {line} says {expected[:16]}…; the file changed after it was recorded", "raw-hash")


def unfinished_folders(card_data):
    """raw/<slug>/<session id>/ of the card's unfinished sessions (complete: false): a collector run that
    stopped keeps the output of the test it was in there until the same command resumes and replaces it."""
    slug = card_data.get("slug") if isinstance(card_data, dict) else None
    sessions = card_data.get("sessions") if isinstance(card_data, dict) else None
    if not isinstance(slug, str) or not isinstance(sessions, list):
        return set()
    return {f"raw/{slug}/{s['id']}/" for s in sessions
            if isinstance(s, dict) and s.get("complete") is False and isinstance(s.get("id"), str)}


def raw_file_findings(path, data_dir, named, unfinished=()):
    """Findings for one file under data_dir/raw/. It must lie in the folder of an existing card, be of
    a raw type and be named by a session (a file no session names is an orphan: an interrupted import
    or collector run leaves such files, and it would be published as if a card stood behind it), or be
    that folder's SHA256SUMS, every line of which must name a file a session names. `named`: the raw
    paths (raw/<slug>/…) the cards name; `unfinished`: unfinished_folders() of the cards, where an
    orphan is only a warning."""
    data_dir = Path(data_dir)
    parts = Path(path).relative_to(data_dir / "raw").parts
    ref = "raw/" + "/".join(parts)
    if parts[-1].endswith(RAW_SKIPPED):
        return []
    if len(parts) == 1:
        return [file_finding(path, "a file directly in data/raw/; raw files go in their card's folder, "
                                   "data/raw/<slug>/", "raw-orphan")]
    folder = parts[0]
    if not (data_dir / "cards" / f"{folder}.yaml").is_file():
        return [file_finding(path, f"data/raw/{shorten(folder)}/ belongs to no card: there is no "
                                   f"data/cards/{shorten(folder)}.yaml", "raw-orphan")]
    if len(parts) == 2 and parts[1] == SUMS_NAME:
        return _orphan_sums_lines(path, folder, named)
    if not raw_type_allowed(parts[-1]):
        return [file_finding(path, f"not a raw file type: raw files end in {', '.join(RAW_TYPES)} (the site serves "
                                   f"them as text; a page, image or script is never allowed here)", "raw-type")]
    if ref in named:
        return []
    if len(parts) == 3 and parts[2] == COLLECTOR_LOG and any(r.startswith(f"raw/{folder}/{parts[1]}/") for r in named):
        return []  # the collector's own log of a session the card names: kept beside, never published
    if any(ref.startswith(folder_ref) for folder_ref in unfinished):
        return [file_finding(path, f"no session names data/{shorten(ref)}: the unfinished session of its folder "
                                   "left it; running the same collect command again resumes and replaces it",
                             "raw-orphan", "warning")]
    return [file_finding(path, f"no session names data/{shorten(ref)}: an orphan raw file (an interrupted import or "
                               f"collector run leaves such files); name it in a session's `raw` field or remove it",
                         "raw-orphan")]


def _orphan_sums_lines(sums_path, folder, named):
    """A SHA256SUMS line for a file no session names: what an interrupted import leaves, or a line
    vouching for a file nobody publishes. A malformed file is reported with the card (raw-hash) when
    its sessions name files here, else here."""
    try:
        entries = read_sha256sums(sums_path)
    except OSError:
        return []
    except CardFileError as exc:
        if any(ref.startswith(f"raw/{folder}/") for ref in named):
            return []
        return [file_finding(sums_path, exc.message, "raw-hash", line=exc.line)]
    return [file_finding(sums_path, f"line {line} lists {shorten(name)}, but no session names "
                                    f"data/raw/{shorten(folder)}/{shorten(name)}: an orphan line; remove it "
                                    "(or name the file in a session's "
                                    "`raw` field)", "raw-orphan", line=line)
            for name, (_, line) in sorted(entries.items(), key=lambda item: item[1][1])
            if f"raw/{folder}/{name}" not in named]
