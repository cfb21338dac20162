"""Build the real site from any set of card files, in a temporary copy of the project.

Used by tests that need a site built from data other than the shipped cards (bad files, hostile
strings), so the work tree's build/ and public/ stay untouched.
"""

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent
COPIED = ["config.toml", "layouts", "content", "assets", "static", "data/schema"]


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
    return work_dir


def aggregate(project):
    """`cardbench aggregate` for the project copy; returns the CompletedProcess."""
    return subprocess.run([str(BIN / "python"), "-m", "cardbench", "aggregate", "--cards-dir",
                           str(project / "data" / "cards"), "--out", str(project / "build" / "hugo-data")],
                          capture_output=True, text=True, cwd=ROOT)


def hugo(project, *extra):
    """Hugo build of the project copy into project/public, as `make site` runs it."""
    return subprocess.run([str(BIN / "hugo"), "--panicOnWarning", "--gc", "--minify", "--source", str(project),
                           "--destination", str(project / "public"), *extra], capture_output=True, text=True)


def build(work_dir, cards_dir=None, raw_dir=None):
    """Aggregate and build; returns (project, aggregate result, hugo result or None)."""
    project = make_project(work_dir, cards_dir, raw_dir)
    agg = aggregate(project)
    if agg.returncode != 0:
        return project, agg, None
    return project, agg, hugo(project)
