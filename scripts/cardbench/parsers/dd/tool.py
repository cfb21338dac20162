"""dd: the tool module. Its summary lines are read by dd/lines.py (parse, progress, failure,
detect: see there), a log of dd commands and their output by dd/session.py.

parse_file(text) -> the log's runs, each with the command that printed it (dd/session.py).
to_session(parsed, op=None, block_size=None) -> SessionFields.
"""

from .lines import TO_MB_S, detect, dd_message, failure, parse, progress, summary_roles
from .session import parse_file, to_session
from ..tool import ToolInfo

TOOL = "dd"
INFO = ToolInfo(name="dd", programs=("dd",), family="sequential",
                description="dd summaries, each below its logged dd command",
                units={"kB/s": "10^3 bytes a second", "MB/s": "10^6 bytes a second",
                       "bytes/sec": "bytes a second (BSD)",
                       "KB/s, MB/s (BusyBox)": "KiB/s, MiB/s (2^10, 2^20 bytes a second)",
                       "GB/s": "10^9 bytes a second"},
                hints=("op", "block_size"))

__all__ = ["INFO", "TOOL", "TO_MB_S", "detect", "dd_message", "failure", "parse", "parse_file", "progress",
           "summary_roles", "to_session"]
