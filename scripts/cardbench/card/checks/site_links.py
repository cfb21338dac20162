"""Symbolic links among the site's inputs: refused, because Hugo and `cardbench aggregate` follow them.

A link under static/ or assets/ (or a card file, a raw file, data/raw/<slug>/ itself) would publish
whatever it points to: a folder outside the repository, a file of the machine that builds the site.
Every input is a real file or folder; each link found is an error naming it and its target.
"""

import os
from pathlib import Path

from .problems import file_finding
from ..wording import shorten

# What Hugo and the build read (config.toml's mounts, and the folders Hugo reads unmounted), relative
# to the project root.
SITE_INPUTS = ("config.toml", "static", "assets", "layouts", "content", "data", "i18n", "archetypes", "themes")


def link_finding(path):
    """The error for one symbolic link."""
    try:
        target = os.readlink(path)
    except OSError:
        target = "?"
    return file_finding(path, f"is a symbolic link (to {shorten(target)}); the site would publish what it "
                              "points to, so put the real file or folder here", "symlink")


def links_under(folder):
    """Every symbolic link in a folder's tree, links to folders included (never followed), sorted. Read from
    the folders' entries alone (no call per file): the card folder holds thousands."""
    found, todo = [], [os.fspath(folder)]
    while todo:
        try:
            with os.scandir(todo.pop()) as entries:
                for entry in entries:
                    if entry.is_symlink():
                        found.append(Path(entry.path))
                    elif entry.is_dir(follow_symlinks=False):
                        todo.append(entry.path)
        except OSError:  # gone, or not a folder: as os.walk, nothing to report
            continue
    return sorted(found)


def site_link_findings(root):
    """An error for each symbolic link among the site's inputs under project root `root`."""
    root = Path(root)
    out = []
    for name in SITE_INPUTS:
        path = root / name
        if path.is_symlink():
            out.append(link_finding(path))
        elif path.is_dir():
            out += [link_finding(link) for link in links_under(path)]
    return out


def project_link_findings(data_dir, cards_dir=None):
    """The links a check of `data_dir` (and a card folder outside it) must refuse: every site input when
    data_dir is a project's data/ folder, else that folder's own tree; each link once."""
    data_dir = Path(data_dir)
    found = site_link_findings(data_dir.parent) if data_dir.name == "data" else \
        [link_finding(link) for link in links_under(data_dir)]
    data_dir_prefix = os.path.join(os.path.abspath(data_dir), "")
    inside = cards_dir is not None and os.path.abspath(cards_dir).startswith(data_dir_prefix)
    if cards_dir is not None and not inside:  # a card folder inside data_dir was walked with it
        found += [link_finding(Path(cards_dir))] if Path(cards_dir).is_symlink() else \
            [link_finding(link) for link in links_under(cards_dir)]
    unique = {}
    for finding in found:
        unique.setdefault(os.path.abspath(finding.path), finding)
    return list(unique.values())


__all__ = ["SITE_INPUTS", "link_finding", "links_under", "site_link_findings", "project_link_findings"]
