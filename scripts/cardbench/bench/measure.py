"""Run a child process and measure it: wall time and peak memory (rusage of the child)."""

import os
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from ..core.units import mib_from_kib

PYTHON = sys.executable
HUGO = str(Path(sys.executable).with_name("hugo"))  # the pinned Hugo the Makefile runs (it execs the binary)
# Hugo exactly as `make site` runs it (the Makefile adds --cleanDestinationDir; every run here starts empty).
HUGO_FLAGS = ["--panicOnWarning", "--gc", "--minify"]


@dataclass
class Measured:
    argv: list
    seconds: float
    max_rss_kib: int  # peak resident memory of the child (and of children it waited for)
    returncode: int
    stdout: str
    stderr: str
    placed_seconds: float = 0.0  # of `seconds`, the step after Hugo placing the files served as they are
    cpu_seconds: float = 0.0     # user + system time of the child (and of children it waited for)

    @property
    def ok(self):
        return self.returncode == 0

    @property
    def max_rss_mib(self):
        return mib_from_kib(self.max_rss_kib)

    def tail(self, lines=20):
        return "\n".join((self.stdout + self.stderr).strip().splitlines()[-lines:])


def run(argv, cwd=None, env=None):
    """Run argv to completion; its output goes to temp files (no pipe can fill up and stall it)."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        start = time.perf_counter()
        proc = subprocess.Popen([str(a) for a in argv], cwd=cwd, env=env, stdout=out, stderr=err,
                                stdin=subprocess.DEVNULL)
        _, status, usage = os.wait4(proc.pid, 0)
        seconds = time.perf_counter() - start
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        return Measured([str(a) for a in argv], seconds, usage.ru_maxrss, proc.returncode,
                        out.read().decode("utf-8", "replace"), err.read().decode("utf-8", "replace"),
                        cpu_seconds=usage.ru_utime + usage.ru_stime)


def code_env(project):
    """Environment that runs the project copy's own cardbench package (see project.make_project)."""
    env = dict(os.environ)
    # Python keeps each module compiled beside its source (__pycache__), as on a reviewer's machine, so a build
    # after the first reads the compiled modules; a shell that turns that off would measure compiling them too.
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(Path(project) / "scripts"), env.get("PYTHONPATH")]))
    return env


def aggregate(project, no_cache=False):
    """`cardbench aggregate` for a project copy, as `make aggregate` runs it."""
    argv = [PYTHON, "-m", "cardbench", "aggregate", "--cards-dir", project / "data" / "cards",
            "--out", project / "build" / "hugo-data"] + (["--no-cache"] if no_cache else [])
    return run(argv, cwd=project, env=code_env(project))


def hugo(project, destination, publish=True):
    """A site build as `make site` runs it: Hugo, then (with `publish`) `cardbench publish` placing the files
    served as they are. One Measured: the wall times added, the larger peak memory."""
    built = run([HUGO, *HUGO_FLAGS, "--source", project, "--destination", destination], cwd=project)
    if not publish or not built.ok:
        return built
    placed = run([PYTHON, "-m", "cardbench", "publish", "--out", Path(project) / "build" / "hugo-data",
                  "--public", destination], cwd=project, env=code_env(project))
    return Measured(built.argv + ["&&"] + placed.argv, built.seconds + placed.seconds,
                    max(built.max_rss_kib, placed.max_rss_kib),
                    placed.returncode, built.stdout + placed.stdout, built.stderr + placed.stderr, placed.seconds,
                    built.cpu_seconds + placed.cpu_seconds)


__all__ = ["run", "aggregate", "hugo", "code_env", "Measured", "HUGO", "PYTHON"]
