"""Run a tool on the card: output into the raw folder, progress while it runs, a clean stop.

A tool that exits non-zero raises ToolFailedError, or DeviceVanishedError when the card is gone.
No tool keeps writing to a card nobody watches: each runs in its own process group, which a stop
ends as a whole (killpg), and gets SIGKILL when the collector dies, even by kill -9
(PR_SET_PDEATHSIG). That signal reaches only the process the collector started, not processes it
forks, so fio runs its jobs as threads (tools.fio_argv: --thread).
"""

import ctypes
import datetime
import os
import signal
import subprocess
import time
from pathlib import Path

from . import tools
from .errors import DeviceVanishedError, ToolFailedError

PR_SET_PDEATHSIG = 1

try:
    _PRCTL = ctypes.CDLL(None, use_errno=True).prctl  # looked up here: the child only calls it
except (OSError, AttributeError):
    _PRCTL = None


def _die_with_parent(parent):
    """The child's set-up: SIGKILL when the collector dies, so no tool keeps writing an orphaned card."""

    def setup():
        if _PRCTL is not None:
            _PRCTL(PR_SET_PDEATHSIG, int(signal.SIGKILL))
        if os.getppid() != parent:  # the collector died before the request took effect
            os._exit(137)

    return setup


def _kill_group(pgid, sig=signal.SIGKILL):
    try:
        os.killpg(pgid, sig)
        return True
    except (ProcessLookupError, PermissionError):
        return False


class Log:
    """A readable log in the raw folder: one timestamped line per event."""

    def __init__(self, path):
        self.path = path

    def __call__(self, text):
        stamp = datetime.datetime.now().strftime("%Y-%m-%d %H:%M:%S")
        with open(self.path, "a", encoding="utf-8") as handle:
            for line in str(text).splitlines() or [""]:
                handle.write(f"{stamp}  {line}\n")


class RunContext:
    """What steps need: the device, tools, raw folder, and a way to run a tool safely.

    `device_fd_path` and `test_file_fd_path` are the paths tools open: /proc/<pid>/fd/N of the descriptors
    the collector holds, so a name repointed meanwhile changes nothing. `shown` maps them to the names
    recorded in commands and messages (`device_node`, the kernel's /dev/sdb; the test file's path), and
    `before_tool` (if given) runs before every tool run: it raises when the card is no longer there.
    """

    def __init__(self, device_fd_path, majmin, raw_dir, raw_rel, tool_paths, log, tracker, device_bytes,
                 test_file_fd_path=None, shown=None, before_tool=None):
        self.device_fd_path = device_fd_path
        self.shown = dict(shown or {})
        self.device_node = self.shown.get(device_fd_path, device_fd_path)
        self.before_tool = before_tool
        self.majmin = majmin
        self.raw_dir = raw_dir
        self.raw_rel = raw_rel
        self.tool_paths = tool_paths
        self.log = log
        self.tracker = tracker
        self.device_bytes = device_bytes
        self.test_file_fd_path = test_file_fd_path

    def tool(self, name):
        return self.tool_paths[name]

    def rel(self, name):
        return f"{self.raw_rel}/{name}"

    def display(self, argv, env=None):
        """The command as recorded: the device and test file by their names, not the descriptors used."""
        def named(arg):
            arg = str(arg)
            for path, name in self.shown.items():
                if arg == path:
                    return name
                key, sep, value = arg.partition("=")
                if sep and value == path:
                    return f"{key}={name}"
            return arg

        return tools.display([named(a) for a in argv], env)

    def device_present(self):
        try:
            st = os.stat(self.device_node)
        except OSError:
            return False
        return f"{os.major(st.st_rdev)}:{os.minor(st.st_rdev)}" == self.majmin

    def run_tool(self, argv, stdout=None, stderr=None, env=None, detail="", append=False, check_output=None):
        """Run argv in the raw folder; stdout/stderr go to raw files (names) or are captured."""
        mode = "ab" if append else "wb"
        if self.before_tool is not None:
            self.before_tool(Path(str(argv[0])).name)  # each run opens the card anew: is it still the same?
        self.log(f"$ {self.display(argv, env)}")
        self.tracker.tick(detail, force=True)
        opened = {}

        def handle(name):
            if name is None:
                return None
            if name not in opened:
                opened[name] = open(self.raw_dir / name, mode)
            return opened[name]

        capture_path = self.raw_dir / ".stderr.tmp"
        err_capture = open(capture_path, "w+b") if stderr is None else None
        out = handle(stdout) or subprocess.DEVNULL
        err = handle(stderr) or err_capture
        started = time.monotonic()
        proc = None
        message = ""
        try:
            proc = subprocess.Popen([str(a) for a in argv], cwd=self.raw_dir, stdin=subprocess.DEVNULL, stdout=out,
                                    stderr=err, env=tools.run_env(env), start_new_session=True,
                                    preexec_fn=_die_with_parent(os.getpid()))
            while True:
                try:
                    proc.wait(timeout=0.25)
                    break
                except subprocess.TimeoutExpired:
                    self.tracker.tick(detail)
        finally:
            if proc is not None:
                if proc.poll() is None:
                    self._stop(proc)
                _kill_group(proc.pid)  # anything the tool left behind in its group
            for item in opened.values():
                item.close()
            if err_capture is not None:
                err_capture.seek(0)
                message = err_capture.read().decode("utf-8", "replace").strip()
                err_capture.close()
                capture_path.unlink()
        seconds = time.monotonic() - started
        if stderr is not None:
            message = (self.raw_dir / stderr).read_text(encoding="utf-8", errors="replace").strip()[-400:]
        self.log(f"  exit {proc.returncode} after {seconds:.1f} s")
        if proc.returncode != 0:
            if not self.device_present():
                raise DeviceVanishedError(f"{self.device_node} disappeared during {Path(argv[0]).name} "
                                          "(card removed or reader reset)")
            last = message.splitlines()[-1] if message else "no error message"
            raise ToolFailedError(Path(argv[0]).name, proc.returncode, last,
                                  raw_path=self.rel(stdout or stderr or check_output or "collect.log"))
        return seconds

    def _stop(self, proc):
        """Ask the tool's whole process group to stop, then make sure it does."""
        for sig, wait in ((signal.SIGINT, 3.0), (signal.SIGKILL, 5.0)):
            if not _kill_group(proc.pid, sig):
                proc.poll()
                return
            try:
                proc.wait(timeout=wait)
                return
            except subprocess.TimeoutExpired:
                continue
