"""The machine a benchmark ran on: CPU, cores, memory, kernel, load, tool versions."""

import os
import platform
import re
import shutil
import subprocess
from importlib import metadata

from ..core.units import gib_from_kib


def _output(argv):
    try:
        done = subprocess.run(argv, capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return ""
    return (done.stdout or done.stderr).strip()


def _first_line(argv):
    text = _output(argv)
    return text.splitlines()[0] if text else None


def _cpu_model():
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as handle:
            for line in handle:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def _memory_gib():
    try:
        with open("/proc/meminfo", encoding="utf-8") as handle:
            for line in handle:
                if line.startswith("MemTotal:"):
                    return gib_from_kib(int(line.split()[1]))
    except OSError:
        pass
    return None


def _version(package):
    try:
        return metadata.version(package)
    except metadata.PackageNotFoundError:
        return None


def load_average():
    try:
        return os.getloadavg()
    except OSError:
        return None


def describe(hugo):
    """Facts about this machine and the tools the benchmark uses, as (label, value) pairs."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    memory = _memory_gib()
    hugo_text = _output([hugo, "version"])
    hugo_version = re.search(r"hugo v[0-9][^ +]*", hugo_text)
    chromium = shutil.which("chromium") or "/usr/bin/chromium"
    import yaml

    facts = [
        ("CPU", _cpu_model()),
        ("Cores available", str(cores)),
        ("Memory", f"{memory:.1f} GiB" if memory else "unknown"),
        ("Kernel", f"{platform.system()} {platform.release()}"),
        ("Python", platform.python_version()),
        ("Hugo", hugo_version.group(0) if hugo_version else "unknown"),
        ("PyYAML", f"{yaml.__version__} ({'with' if getattr(yaml, '__with_libyaml__', False) else 'without'} libyaml)"),
        ("pandas", _version("pandas") or "unknown"),
        ("jsonschema", _version("jsonschema") or "unknown"),
        ("Playwright", _version("playwright") or "not installed"),
        ("Chromium", _first_line([chromium, "--version"]) if os.path.exists(chromium) else "not installed"),
        ("fio", _first_line(["fio", "--version"]) if shutil.which("fio") else "not installed"),
    ]
    return facts


__all__ = ["describe", "load_average"]
