"""The benchmark tools: where they are, their versions, and the exact argv of every command.

Commands are lists (never a shell line). fio always writes JSON; dd always runs with LANG=C;
flashbench always gets -o FILE (without it, it writes to a file descriptor that may not be
writable and fails with "Invalid argument").
"""

import os
import re
import shlex
import shutil
import subprocess

from ..core.units import size_arg_from_bytes
from .errors import ToolMissingError

# Command -> Debian package that installs it.
TOOL_PACKAGES = {"fio": "fio", "flashbench": "flashbench", "f3probe": "f3", "nvme": "nvme-cli", "dd": "coreutils"}

# Root's tools live in sbin folders that a user's PATH may lack.
EXTRA_PATH = ("/usr/local/sbin", "/usr/sbin", "/sbin", "/usr/local/bin", "/usr/bin", "/bin")

C_LOCALE = {"LANG": "C"}  # dd prints "MB/s" with a decimal point; run_env drops LC_* that would override it


def find_tool(name):
    """Absolute path of a tool, or ToolMissingError naming its Debian package."""
    search = os.pathsep.join([os.environ.get("PATH", ""), *EXTRA_PATH])
    path = shutil.which(name, path=search)
    if not path:
        raise ToolMissingError(name, TOOL_PACKAGES.get(name, name))
    return path


def _first_line(argv):
    try:
        done = subprocess.run(argv, capture_output=True, text=True, timeout=10, env=run_env(C_LOCALE))
    except (OSError, subprocess.TimeoutExpired):
        return None
    text = (done.stdout or done.stderr or "").strip()
    return text.splitlines()[0] if text else None


def _package_version(package):
    line = _first_line(["dpkg-query", "-W", "-f", "${Version}", package])
    return line or None


def tool_version(name, path):
    """Version string as the tool reports it (60 characters at most)."""
    if name == "fio":
        line = _first_line([path, "--version"])  # "fio-3.33"
        version = line[4:] if line and line.startswith("fio-") else line
    elif name == "dd":
        line = _first_line([path, "--version"])  # "dd (coreutils) 9.1"
        match = re.search(r"(\d+(?:\.\d+)+)", line or "")
        version = match.group(1) if match else line
    elif name == "f3probe":
        line = _first_line([path, "--version"])  # "F3 Probe 8.0"
        match = re.search(r"(\d+(?:\.\d+)+)", line or "")
        version = match.group(1) if match else line
    elif name == "nvme":
        line = _first_line([path, "version"])  # "nvme version 2.3 (git 2.3)"
        match = re.search(r"version\s+(\S+)", line or "")
        version = match.group(1) if match else line
    else:  # flashbench has no version option; the Debian package has one
        version = _package_version(name)
    return version[:60] if version else None


def run_env(extra=None):
    """The environment for a tool: ours, with the locale forced to C when asked."""
    env = dict(os.environ)
    if extra and "LANG" in extra:
        for key in list(env):
            if key.startswith("LC_") or key == "LANGUAGE":
                del env[key]
    env.update(extra or {})
    return env


def display(argv, env=None):
    """A command as one line a reader can paste into a shell (the tool by name, not its path)."""
    prefix = " ".join(f"{k}={shlex.quote(v)}" for k, v in (env or {}).items())
    text = shlex.join([os.path.basename(str(argv[0]))] + [str(a) for a in argv[1:]])
    return f"{prefix} {text}" if prefix else text


def fio_filename(path):
    """fio splits --filename at ':' into several files ('a:b' is a and b): escape it as fio reads '\\:'."""
    return str(path).replace(":", "\\:")


def fio_argv(fio, target, job, output_path, name=None, offset=0):
    """One fio job in CrystalDiskMark's shape: direct, libaio, random data, JSON to output_path.

    job: profiles.FioJob. A time-based job runs `runtime` seconds over a span of `size` bytes;
    otherwise it moves `size` bytes once. --thread: jobs run as threads of the one fio process, so
    the SIGKILL it gets when the collector dies ends every job (forked job processes would write on).
    """
    rw = {("SEQ", "read"): "read", ("SEQ", "write"): "write",
          ("RND", "read"): "randread", ("RND", "write"): "randwrite"}[(job.kind, job.op)]
    argv = [fio, f"--name={name or job.key}", f"--filename={fio_filename(target)}", f"--rw={rw}",
            f"--bs={size_arg_from_bytes(job.bs)}",
            f"--iodepth={job.iodepth}", f"--numjobs={job.numjobs}", "--direct=1", "--ioengine=libaio",
            "--refill_buffers", "--zero_buffers=0", "--randrepeat=0", "--norandommap", "--group_reporting", "--thread",
            f"--size={size_arg_from_bytes(job.size)}", f"--offset={offset}"]
    if job.op == "read":
        argv.append("--readonly")  # fio refuses to write in this job, whatever else is set
    if job.runtime:
        argv += ["--time_based", f"--runtime={job.runtime}"]
    if job.ramp:
        argv += [f"--ramp_time={job.ramp}"]
    argv += ["--output-format=json", f"--output={output_path}"]
    return argv


def dd_argv(dd, op, device, bs, count, direct=True, offset_blocks=0):
    """dd write from /dev/zero to the device, or read from it to /dev/null, with O_DIRECT."""
    argv = [dd]
    if op == "write":
        argv += ["if=/dev/zero", f"of={device}", f"bs={size_arg_from_bytes(bs)}", f"count={count}"]
        if offset_blocks:
            argv.append(f"seek={offset_blocks}")
        if direct:
            argv.append("oflag=direct")
        argv.append("conv=notrunc")  # a test file on a filesystem keeps its size between runs
    else:
        argv += [f"if={device}", "of=/dev/null", f"bs={size_arg_from_bytes(bs)}", f"count={count}"]
        if offset_blocks:
            argv.append(f"skip={offset_blocks}")
        if direct:
            argv.append("iflag=direct")
    return argv


def flashbench_align_argv(flashbench, device, out_path, blocksize, count):
    return [flashbench, "-a", f"--blocksize={blocksize}", f"--count={count}", "-o", str(out_path), device]


def flashbench_open_au_argv(flashbench, device, out_path, open_au, erasesize, blocksize, random=False, offset=None):
    argv = [flashbench, "--open-au", f"--open-au-nr={open_au}", f"--erasesize={erasesize}",
            f"--blocksize={blocksize}"]
    if random:
        argv.append("--random")
    if offset is not None:
        argv.append(f"--offset={offset}")
    return argv + ["-o", str(out_path), device]


def flashbench_find_fat_argv(flashbench, device, out_path, erasesize, blocksize, fat_nr):
    # -f: the long spelling differs between flashbench versions (--find-fat, --findfat).
    return [flashbench, "-f", f"--fat-nr={fat_nr}", f"--erasesize={erasesize}", f"--blocksize={blocksize}",
            "-o", str(out_path), device]


def fill_argv(fio, device, span, bs, iodepth, log_prefix, log_ms, output_path):
    """A sequential write over `span` bytes from the card's start (direct I/O, fresh random data so a
    compressing controller gains nothing), bandwidth averaged and logged every log_ms milliseconds
    to <log_prefix>_bw.log (KiB/s), the summary as JSON to output_path."""
    return [fio, f"--name={log_prefix}", f"--filename={fio_filename(device)}", "--rw=write",
            f"--bs={size_arg_from_bytes(bs)}",
            f"--iodepth={iodepth}", "--direct=1", "--ioengine=libaio", "--refill_buffers", "--zero_buffers=0",
            "--thread", f"--size={span}", "--offset=0", f"--write_bw_log={log_prefix}", f"--log_avg_msec={log_ms}",
            "--per_job_logs=0", "--output-format=json", f"--output={output_path}"]


def f3probe_argv(f3probe, device):
    # --destructive: the card is being overwritten anyway, and restoring blocks needs RAM and time.
    return [f3probe, "--destructive", "--time-ops", device]


def nvme_argv(nvme, command, controller):
    """nvme id-ctrl / smart-log as JSON."""
    return [nvme, command, controller, "--output-format=json"]
