"""A card's own files written by the worker process that made them, into a staging folder beside the
output folder (same file system), and moved into place by rename only once the whole build has no error.

The staging folder is `.<out name>.staging-<pid>` beside the output folder (pid: the build's main
process), laid out as the output folder is. A worker stages only the files whose text differs from the
one in place, so unchanged files are left alone, as write_if_changed leaves them. A staging folder
whose build was killed is removed by the next build of that output folder.
"""

import os
import re
import shutil
from pathlib import Path

from ..card.store.atomicfile import process_alive
from .site_files import card_file_path, holds_text

_STAGING = re.compile(r"^\.(?P<out>.+)\.staging-(?P<pid>\d{1,10})$")


def staging_dir_for(out_dir, pid=None):
    out_dir = Path(out_dir)
    return out_dir.with_name(f".{out_dir.name}.staging-{os.getpid() if pid is None else pid}")


def remove_stale_staging(out_dir):
    """Remove the staging folders of this output folder whose build process is gone. Returns them."""
    out_dir = Path(out_dir)
    try:
        names = os.listdir(out_dir.parent)
    except OSError:
        return []
    removed = []
    for name in names:
        match = _STAGING.match(name)
        pid = int(match["pid"]) if match else 0
        # This process's own name is stale too: left by a killed build whose process id it now has.
        if match and match["out"] == out_dir.name and (pid == os.getpid() or not process_alive(pid)):
            shutil.rmtree(out_dir.parent / name, ignore_errors=True)
            removed.append(out_dir.parent / name)
    return removed


def _make_parent(path, made):
    """Make the file's folder once per build (`made`: the folders made so far)."""
    if path.parent not in made:
        path.parent.mkdir(parents=True, exist_ok=True)
        made.add(path.parent)


def stage_card_files(out_dir, staging, slug, texts):
    """Write a card's files ({kind: text}) under `staging` unless the file in out_dir already holds that
    text. Returns the kinds staged."""
    staged = []
    made = set()
    for kind, text in texts.items():
        if holds_text(card_file_path(out_dir, kind, slug), text):
            continue
        path = card_file_path(staging, kind, slug)
        _make_parent(path, made)
        with open(path, "w", encoding="utf-8") as handle:  # as replace_text writes it
            handle.write(text)
        staged.append(kind)
    return staged


def place_staged(out_dir, staging, staged):
    """Move the staged files ({slug: [kind]}) into out_dir, each replacing its file whole.
    Returns the paths placed."""
    out_dir, staging = Path(out_dir), Path(staging)
    placed, made = [], set()
    for slug, kinds in staged.items():
        for kind in kinds:
            target = card_file_path(out_dir, kind, slug)
            _make_parent(target, made)
            os.replace(card_file_path(staging, kind, slug), target)
            placed.append(target)
    return placed


__all__ = ["staging_dir_for", "remove_stale_staging", "stage_card_files", "place_staged"]
