"""Which card files a change touches, from git: `cardbench validate --changed` checks only those."""

import subprocess
from pathlib import Path

from ...core.paths import ROOT
from ...errors import CardbenchError
from .review_pages import REVIEW_FOLDER_FILES
from .validate import card_paths
from ..wording import shorten


def _git(repo, *args):
    try:
        done = subprocess.run(["git", *args], cwd=repo, capture_output=True, text=True, check=False)
    except OSError as exc:
        raise CardbenchError(f"--changed needs git: {exc.strerror}") from None
    return done


def changed_card_paths(repo=ROOT, base_ref="origin/main"):
    """Card files changed against the merge base with base_ref (else HEAD), plus untracked ones.

    A change under data/raw/<slug>/ or to content/cards/<slug>.md brings in data/cards/<slug>.yaml
    (checked with its raw folder and the review pages); a schema change brings in every card. Any other
    changed file under data/ or content/cards/ is returned itself, so validate_paths refuses it.
    Returns (paths, description of the base compared against).
    """
    repo = Path(repo)
    merge_base = _git(repo, "merge-base", base_ref, "HEAD")
    if merge_base.returncode == 0 and merge_base.stdout.strip():
        base, described = merge_base.stdout.strip(), f"merge base with {base_ref} ({merge_base.stdout.strip()[:10]})"
    else:
        base, described = "HEAD", f"HEAD ({base_ref} not found)"
    diff = _git(repo, "diff", "--name-only", "-z", "--no-renames", "--diff-filter=d", base,
                "--", "data", "content/cards")
    if diff.returncode != 0:
        raise CardbenchError(f"--changed: git diff failed: {shorten(diff.stderr.strip(), 200)}")
    untracked = _git(repo, "ls-files", "--others", "--exclude-standard", "-z", "--", "data", "content/cards")
    names = [n for n in (diff.stdout + "\0" + untracked.stdout).split("\0") if n]
    cards_dir = repo / "data" / "cards"
    if "data/schema/card.schema.json" in names:
        return card_paths(cards_dir), described + "; the schema changed, so every card"
    picked = set()
    for name in names:
        parts = name.split("/")
        if parts[:2] == ["data", "cards"]:
            picked.add(repo / name)  # a card file, or anything else there (reported: cards are <slug>.yaml)
        elif len(parts) >= 4 and parts[1] == "raw" and (cards_dir / f"{parts[2]}.yaml").is_file():
            picked.add(cards_dir / f"{parts[2]}.yaml")  # checked with its card, its folder's other files too
        elif parts[:2] == ["data", "raw"]:
            picked.add(repo / name)  # in data/raw/ itself or in a folder of no card: refused
        elif parts[:2] == ["content", "cards"] and len(parts) == 3 and parts[2] in REVIEW_FOLDER_FILES:
            continue  # the section's own files
        elif parts[:2] == ["content", "cards"]:
            slug = parts[2].removesuffix(".md")
            review = len(parts) == 3 and (cards_dir / f"{slug}.yaml").is_file()
            picked.add(cards_dir / f"{slug}.yaml" if review else repo / name)  # a review comes with its card
    return sorted(p for p in picked if p.is_file()), described
