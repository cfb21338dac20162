"""Run benchmarks on a card (fio, dd, flashbench, f3probe, nvme-cli) and store them in its card file.

collect(CollectRequest(...), progress=callback, confirm=ask) -> CollectReport; see runner.py.
"""

from .errors import CollectError, CollectInterrupted, DeviceVanishedError, GuardError
from .profiles import PROFILES
from .progress import ProgressEvent, render
from .closing_summary import interrupted_lines, summary_lines
from .runner import CollectReport, CollectRequest, collect

__all__ = ["collect", "CollectRequest", "CollectReport", "CollectError", "CollectInterrupted", "DeviceVanishedError",
           "GuardError", "PROFILES", "ProgressEvent", "render", "summary_lines", "interrupted_lines"]
