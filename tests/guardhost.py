"""The fake '/' the guard and identify tests read (sysfs, mountinfo, swaps), built once per test process
by tests/fixtures/guard/make_host_tree.py into a temporary folder."""

import atexit
import functools
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

GENERATOR = Path(__file__).parent / "fixtures" / "guard" / "make_host_tree.py"


def build_host_tree(folder):
    """make_host_tree.py's tree at folder/host; returns that path."""
    subprocess.run([sys.executable, str(GENERATOR), str(Path(folder) / "host")], check=True)
    return Path(folder) / "host"


@functools.cache
def host_tree():
    """The tree of this test process, removed when it ends."""
    folder = tempfile.mkdtemp(prefix="cardbench-guard-host-")
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    return build_host_tree(folder)


def tree_listing(root):
    """{relative path: file text, link target or "dir"} of every entry under root."""
    out = {}
    for path in sorted(Path(root).rglob("*")):
        name = path.relative_to(root).as_posix()
        if path.is_symlink():
            out[name] = "-> " + str(path.readlink())
        elif path.is_dir():
            out[name] = "dir"
        else:
            out[name] = path.read_text(encoding="utf-8")
    return out
