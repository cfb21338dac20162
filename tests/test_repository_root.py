"""The repository's root holds only what the README's "What is where" names: a stray file or folder (a
process id file, a folder named after a mistyped option) fails here before it reaches main."""

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def named_in_readme():
    """The first path part of every `path` the README's "What is where" section names."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## What is where", 1)[1].split("\n## ", 1)[0]
    return {name.split("/")[0] for name in re.findall(r"`([^`\s]+)`", section)}


def top_level(paths):
    return {path.split("/")[0] for path in paths if path}


def test_every_tracked_entry_at_the_root_is_named_in_the_readme():
    tracked = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, text=True, check=True)
    unnamed = top_level(tracked.stdout.split("\0")) - named_in_readme()
    assert not unnamed, f"tracked at the root but not in the README's layout: {sorted(unnamed)}"


def test_no_untracked_file_is_left_at_the_root():
    untracked = subprocess.run(["git", "ls-files", "--others", "--exclude-standard", "-z"], cwd=ROOT,
                               capture_output=True, text=True, check=True)
    unnamed = top_level(untracked.stdout.split("\0")) - named_in_readme()
    assert not unnamed, f"untracked at the root and not in the README's layout: {sorted(unnamed)}"


def test_the_guard_catches_a_stray_file():
    assert "nspid" not in named_in_readme() and "-q" not in named_in_readme()
    assert top_level(["nspid", "data/cards/x.yaml"]) - named_in_readme() == {"nspid"}
