"""The preview's first change to the cards section, made by the serve loop itself as soon as Hugo's server
answers, so that a reviewer's first edit is rebuilt as quickly as the later ones.

Until something in the cards section changes, Hugo's server checks every card page's dependencies after
each change; at 10,000 cards that first rebuild takes about 0.4 s instead of 0.15 s. Every card page depends
on its section (layouts/cards/card.html), so once the section changes Hugo's server renders a card page
only when it is next visited and checks none of the others. The change is a page that is neither rendered
nor listed (content/cards/_content.gotmpl), made from a data file only the preview mounts: `make site`
never sees it.
"""

import http.client
import json
import os
import time
from pathlib import Path

from ..card.store.atomicfile import atomic_write_text, remove_stale_temps

WARM_FILE = "preview.json"  # hugo.Data.preview in the content adapter


class PreviewDataError(ValueError):
    """The preview's data folder is not the preview's alone."""


def preview_data_path(out_dir):
    """Where the preview's own data folder is: beside out_dir (build/hugo-data)."""
    return Path(out_dir).resolve().parent / "hugo-serve-data"


def preview_data_dir(out_dir):
    """The folder the preview's Hugo server mounts as data beside build/hugo-data/data, made if missing. Hugo
    reads every data file there, so it must be a real folder holding nothing but the preview's own file."""
    folder = preview_data_path(out_dir)
    try:
        folder.mkdir(parents=True)
    except FileExistsError:
        pass
    if folder.is_symlink() or not folder.is_dir():
        raise PreviewDataError(f"{folder}: the preview's data folder is a symbolic link or not a folder; remove it")
    remove_stale_temps(folder)  # a killed preview's half-written file
    others = sorted(name for name in os.listdir(folder) if name != WARM_FILE)
    if others:
        raise PreviewDataError(f"{folder}: holds files the preview did not write ({', '.join(others[:5])}); "
                               "Hugo's server would read them as data: remove them")
    return folder


def unwarm(folder):
    """Remove a previous preview's file: Hugo's server starts without it."""
    (Path(folder) / WARM_FILE).unlink(missing_ok=True)


def server_answers(bind, port):
    """Whether Hugo's server answers HTTP yet, which it does once its first build is done (it accepts
    connections before that)."""
    host = {"0.0.0.0": "127.0.0.1", "": "127.0.0.1", "::": "::1"}.get(bind, bind)
    connection = http.client.HTTPConnection(host, port, timeout=0.2)
    try:
        connection.request("HEAD", "/")
        connection.getresponse()
        return True
    except (OSError, http.client.HTTPException):
        return False
    finally:
        connection.close()


def warm(folder):
    """Write the file that adds the section's hidden page."""
    atomic_write_text(Path(folder) / WARM_FILE, json.dumps({"started": time.time_ns()}), fsync=False)


__all__ = ["preview_data_dir", "preview_data_path", "server_answers", "unwarm", "warm", "WARM_FILE", "PreviewDataError"]
