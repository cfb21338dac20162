"""Files the site serves as they are, placed into the built site after Hugo, not copied by Hugo.

Hugo only copies these (the card files, the raw outputs the cards name, every card's JSON twin and
runs.csv, the all-cards runs.csv: thousands of files, hundreds of MB at thousands of cards); `make
site` places them into public/ after Hugo has run, as hard links where the files are cardbench
aggregate's own (always replaced whole, never written in place) and as copies of the card files.
`make serve` renders in memory: its Hugo server mounts the same folders (serve_mounts), so the
preview serves the same addresses.
"""

import os
import shutil
from pathlib import Path


def as_is(out_dir, cards_dir):
    """[(source folder, folder in the site, name filter or None, linked)] of what is served as it is."""
    out_dir = Path(out_dir)
    return [(out_dir / "static", "", None, True),        # /cards/<slug>/index.json, runs.csv; /runs.csv
            (out_dir / "raw", "data/raw", None, True),    # the raw outputs the cards name (sitedata.publish_raw)
            (Path(cards_dir), "data/cards", ".yaml", False)]  # the card files, every figure's source


def serve_mounts(out_dir, cards_dir, root):
    """The same folders as Hugo module mounts (paths relative to the project root), for the preview."""
    mounts = []
    for source, target, suffix, _ in as_is(out_dir, cards_dir):
        mount = {"source": os.path.relpath(source, root), "target": f"static/{target}".rstrip("/")}
        if suffix:
            mount["files"] = [f"*{suffix}"]
        mounts.append(mount)
    return mounts


def _place(source, target, link):
    try:
        if link:
            os.link(source, target)
            return
    except OSError:  # another file system, or links not allowed: a copy serves the same
        pass
    shutil.copyfile(source, target)


def _place_folder(source, into, suffix, link, recurse):
    """Place the files of one folder (and, with `recurse`, of its folders); returns how many."""
    placed = 0
    into.mkdir(parents=True, exist_ok=True)
    with os.scandir(source) as entries:
        for entry in entries:
            if entry.name.startswith(".") or entry.is_symlink():
                continue  # a writer's temp files; a link is never followed (aggregate refuses them anyway)
            if entry.is_dir():
                if recurse:
                    placed += _place_folder(entry.path, into / entry.name, suffix, link, recurse)
            elif not suffix or entry.name.endswith(suffix):
                destination = into / entry.name
                if os.path.lexists(destination):
                    os.unlink(destination)
                _place(entry.path, destination, link)
                placed += 1
    return placed


def publish(out_dir, cards_dir, public):
    """Place every file served as it is into `public` (a site Hugo has just built). A file already there
    is replaced. Returns the number of files placed."""
    placed = 0
    for source, target, suffix, link in as_is(out_dir, cards_dir):
        if source.is_dir():  # the card files: that folder only, as Hugo's mount took them
            placed += _place_folder(source, Path(public) / target, suffix, link, recurse=not suffix)
    return placed


__all__ = ["publish", "serve_mounts", "as_is"]
