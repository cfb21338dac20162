"""Files the site serves as they are, placed into the built site after Hugo, not copied by Hugo.

Hugo only copies these (the card files as they were checked, the raw outputs the cards name, every
card's JSON twin, comparison piece and runs.csv, the all-cards runs.csv: tens of thousands of files,
hundreds of MB at thousands of cards); `make site` places them into public/ after Hugo has run, as hard
links: they are cardbench aggregate's own files, always replaced whole, never written in place.
`make serve` renders in memory: its Hugo server mounts the same folders (serve_mounts), so the preview
serves the same addresses.
"""

import os
import shutil
from pathlib import Path

from ..pages.preview_image import draw_previews

PREVIEW_NAME = "preview.png"  # /cards/<slug>/preview.png: the card's link-preview image

def as_is(out_dir):
    """[(source folder, folder in the site)] of what is served as it is."""
    out_dir = Path(out_dir)
    # /cards/<slug>/index.json and runs.csv, /compare/cards/<slug>.json, /data/cards/<slug>.yaml, /runs.csv
    return [(out_dir / "static", ""),
            (out_dir / "raw", "data/raw")]  # the raw outputs the cards name (raw_copies.publish_raw)


# Not in the preview: the all-cards runs.csv (hundreds of MB at thousands of cards), which the preview
# does not join again after each change (serve.py) and Hugo's server would copy into memory each time.
PREVIEW_LEAVES_OUT = {"": ["! runs.csv"]}


def serve_mounts(out_dir, root):
    """The same folders as Hugo module mounts (paths relative to the project root), for the preview."""
    mounts = []
    for source, target in as_is(out_dir):
        mount = {"source": os.path.relpath(source, root), "target": f"static/{target}".rstrip("/")}
        if target in PREVIEW_LEAVES_OUT:
            mount["files"] = PREVIEW_LEAVES_OUT[target]
        mounts.append(mount)
    return mounts


def _place(source, target):
    """Link `target` to `source`, replacing a file already there; a copy where links cannot be made."""
    for _ in range(2):
        try:
            os.link(source, target)
            return
        except FileExistsError:
            os.unlink(target)
        except OSError:  # another file system, or links not allowed: a copy serves the same
            break
    shutil.copyfile(source, target)


def _place_folder(source, into):
    """Place the files of one folder and of its folders; returns how many."""
    placed = 0
    try:
        os.mkdir(into)
    except FileExistsError:
        pass
    with os.scandir(source) as entries:
        for entry in entries:
            if entry.name.startswith(".") or entry.is_symlink():
                continue  # a writer's temp files; a link is never followed (aggregate refuses them anyway)
            if entry.is_dir():
                placed += _place_folder(entry.path, os.path.join(into, entry.name))
            else:
                _place(entry.path, os.path.join(into, entry.name))
                placed += 1
    return placed


def publish(out_dir, public):
    """Place every file served as it is into `public` (a site Hugo has just built), and each card's link-preview
    image (drawn here when not drawn yet: preview_image.py). A file already there is replaced. Returns the number
    of files placed."""
    placed = 0
    for source, target in as_is(out_dir):
        if source.is_dir():
            into = Path(public) / target
            into.parent.mkdir(parents=True, exist_ok=True)
            placed += _place_folder(source, str(into))
    for slug, image in draw_previews(out_dir).items():
        page = Path(public) / "cards" / slug
        if page.is_dir():
            _place(image, str(page / PREVIEW_NAME))
            placed += 1
    return placed


__all__ = ["publish", "serve_mounts", "as_is"]
