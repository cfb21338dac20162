"""Writing the site's files into the output folder (their texts and names: sitedata.py).

Files are replaced through a temp file and a rename (never seen half-written) and left alone when their text
is the same, so a running preview reloads only what changed. Card files are written before the lists that
name them, and removals come last: a running Hugo server never sees a card listed whose files are missing.
"""

import os
import shutil
from pathlib import Path

from ..card.store.atomicfile import atomic_write_text
from ..core.paths import DATA_DIR
from .raw_copies import publish_raw
from .runs_csv import HEADER as CSV_HEADER
from .sitedata import (ALL_RUNS_CSV, CARD_CSV_DIR, CARD_FILE_DIR, CHARTS_NAME, COMPARE_DIR, PER_CARD_DIRS,
                       RUNS_CSV_ORDER, TWIN_NAME, parts_from_result, site_texts)


def replace_text(path, text):
    """Write through a temp file and a rename; no fsync: everything here can be made again."""
    atomic_write_text(path, text, fsync=False)


def holds_text(path, text):
    """Whether the file holds exactly this text (read as written: "\r\n" stays itself)."""
    try:
        with open(path, encoding="utf-8", newline="") as handle:
            return handle.read() == text
    except (FileNotFoundError, NotADirectoryError, UnicodeDecodeError):
        return False


def write_if_changed(path, text):
    """Replace the file unless it already holds this text. Returns True when written."""
    if holds_text(path, text):
        return False
    replace_text(path, text)
    return True


def card_file_path(out_dir, folder, slug):
    """Where a card's file of one kind ('twin', 'pages', 'runs', 'charts', 'compare', 'card') goes under out_dir."""
    if folder == "runs":
        return out_dir / CARD_CSV_DIR / slug / "runs.csv"
    if folder == "twin":
        return out_dir / CARD_CSV_DIR / slug / TWIN_NAME
    if folder == "charts":
        return out_dir / CARD_CSV_DIR / slug / CHARTS_NAME
    if folder == "compare":
        return out_dir / COMPARE_DIR / f"{slug}.json"
    if folder == "card":
        return out_dir / CARD_FILE_DIR / f"{slug}.yaml"
    return out_dir / folder / f"{slug}.html"


def _write_card_file(path, text):
    path.parent.mkdir(parents=True, exist_ok=True)
    return write_if_changed(path, text)


def write_card_files(out_dir, files):
    """Write the card files in `files` ({slug: {kind: text}}) that changed; returns [(path, written)]."""
    # One after another: without fsync each write only fills the page cache, and threads here cost more
    # (locks, one future per file) than the writes they would overlap.
    return [(path, _write_card_file(path, text)) for path, text in
            ((card_file_path(out_dir, kind, slug), text)
             for slug, texts in files.items() for kind, text in texts.items())]


def write_shared(out_dir, name, text, known):
    """Write one shared file (`name` under out_dir) unless it holds this text; `known` (name → text as last
    written, kept by the caller) spares reading it back. Returns True when written."""
    if known.get(name) == text and (out_dir / name).exists():
        return False
    (out_dir / name).parent.mkdir(parents=True, exist_ok=True)
    did = write_if_changed(out_dir / name, text)
    known[name] = text
    return did


def join_runs_csv(out_dir, slugs, changed):
    """static/runs.csv: every card's runs.csv in card order under one header. Joined again only when a
    card's CSV changed (`changed`), the cards or their order did, or the file is missing: at thousands
    of cards it is hundreds of MB, read back from the cards' own files rather than kept in memory."""
    target, order_file = out_dir / ALL_RUNS_CSV, out_dir / RUNS_CSV_ORDER
    order = "\n".join(slugs)
    try:
        same_order = order_file.read_text(encoding="utf-8") == order
    except OSError:
        same_order = False
    if not changed and same_order and target.exists():
        return False
    scratch = out_dir / f".runs-csv-{os.getpid()}.tmp"  # outside the served folder until complete
    header = CSV_HEADER.encode("utf-8")
    with open(scratch, "wb") as out:
        out.write(header)
        for slug in slugs:  # bytes as they are, past each card's header: no decoding of hundreds of MB
            with open(card_file_path(out_dir, "runs", slug), "rb") as handle:
                if handle.read(len(header)) == header:
                    shutil.copyfileobj(handle, out)
    os.replace(scratch, target)
    replace_text(order_file, order)
    return True


def write_site_data(out_dir, parts, files, written=None, data_dir=DATA_DIR, join_all_runs=True, place_staged=None,
                    before_lists=None, shared=True):
    """Write the shared files from every card's parts, and the per-card files given in `files`
    ({slug: {folder: text}}, e.g. only the cards that changed); publish the raw files the cards name
    (from data_dir/raw); remove per-card files of cards no longer present. `written` (name → text),
    kept by the caller between calls, spares reading unchanged shared files again; `join_all_runs`
    False leaves the all-cards runs.csv alone (the preview); `place_staged`, called where the card files
    are written, moves card files worker processes staged into place and returns their paths
    (staging.py); `before_lists`, called once the card files are in place, before the lists (the preview
    waits there: cards_first.py); `shared` False leaves the shared files as they are (the caller knows that
    they hold these cards' texts: incremental.py). Returns the number of files written."""
    out_dir = Path(out_dir)
    shared = site_texts(parts) if shared else {}  # made (and its models checked) before anything is written
    for folder in PER_CARD_DIRS + ("api", "data", "site", CARD_CSV_DIR, COMPARE_DIR, CARD_FILE_DIR):
        (out_dir / folder).mkdir(parents=True, exist_ok=True)
    publish_raw(out_dir, [ref for p in parts for ref in p.get("raw", ())], data_dir)
    done = write_card_files(out_dir, files)
    written_now = sum(did for _, did in done)
    csv_changed = any(did and path.name == "runs.csv" for path, did in done)
    if place_staged:
        placed = place_staged()
        written_now += len(placed)
        csv_changed = csv_changed or any(path.name == "runs.csv" for path in placed)
    # Card files first, then the lists that name them, then removals: a running Hugo server never
    # sees a card listed whose files are missing.
    known = {} if written is None else written
    count = written_now
    if before_lists:
        before_lists()
    for name, text in shared.items():
        count += write_shared(out_dir, name, text, known)
    wanted = {f"{p['slug']}.html" for p in parts}
    for folder in PER_CARD_DIRS:
        for name in os.listdir(out_dir / folder):
            if name.endswith((".html", ".json")) and name not in wanted:  # .json: page models of earlier versions
                os.unlink(out_dir / folder / name)
    for folder, suffix in ((COMPARE_DIR, ".json"), (CARD_FILE_DIR, ".yaml")):
        wanted = {f"{p['slug']}{suffix}" for p in parts}
        for name in os.listdir(out_dir / folder):
            if name.endswith(suffix) and name not in wanted:
                os.unlink(out_dir / folder / name)
    slugs = [p["slug"] for p in parts]
    for name in set(os.listdir(out_dir / CARD_CSV_DIR)) - set(slugs):
        shutil.rmtree(out_dir / CARD_CSV_DIR / name)
        csv_changed = True
    if join_all_runs:
        count += join_runs_csv(out_dir, slugs, csv_changed)
    elif (out_dir / RUNS_CSV_ORDER).exists():
        os.unlink(out_dir / RUNS_CSV_ORDER)  # cards may change now: the next full build joins it again
    return count


def missing_card_files(out_dir, slugs):
    """Slugs whose per-card files are not all in out_dir."""
    present = [set(os.listdir(Path(out_dir) / folder)) if (Path(out_dir) / folder).is_dir() else set()
               for folder in PER_CARD_DIRS]
    missing = {slug for slug in slugs if any(f"{slug}.html" not in names for names in present)}
    for folder, suffix in ((COMPARE_DIR, ".json"), (CARD_FILE_DIR, ".yaml")):
        have = set(os.listdir(Path(out_dir) / folder)) if (Path(out_dir) / folder).is_dir() else set()
        missing |= {slug for slug in slugs if f"{slug}{suffix}" not in have}
    csv_dir = os.path.join(out_dir, CARD_CSV_DIR)
    have_dir = set(os.listdir(csv_dir)) if os.path.isdir(csv_dir) else set()
    # One listing per card's folder, not a check per file: thousands of cards.
    wanted = {TWIN_NAME, "runs.csv", CHARTS_NAME}
    return missing | {slug for slug in slugs if slug not in have_dir or not wanted.issubset(_names_in(csv_dir, slug))}


def _names_in(folder, name):
    try:
        return os.listdir(os.path.join(folder, name))
    except OSError:  # not a folder, or gone
        return ()


def write_outputs(result, out_dir, card_texts=None):
    """Every card of an aggregate() result written at once, without the cache: the reference the
    cached build (incremental) is tested against. Replaces the folder's cards. `card_texts`: slug → the
    card file's text, served beside its pages (none given: no card files)."""
    pieces = parts_from_result(result)
    files = {parts["slug"]: files for parts, files in pieces}
    for slug, text in (card_texts or {}).items():
        files[slug]["card"] = text
    write_site_data(out_dir, [parts for parts, _ in pieces], files)
