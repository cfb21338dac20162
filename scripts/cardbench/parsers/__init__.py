"""Parsers for benchmark tool output: one module per tool.

Each module has
  parse(text) -> dict: pure (no I/O, no clock); raises `cardbench.errors.ParseError(tool,
      message, line=N, text=line)` naming the 1-based line it could not read. The dict layouts
      are documented in each module's docstring.
  detect(text) -> NOT_MINE, SHAPED or NAMED: how surely the text is that tool's output, so that
      what a format looks like is written down once, beside the code that reads it.
  to_session(parsed, **hints) -> SessionFields: the session's entries (parsers/tool.py says a tool
      module's whole shape).
parsers.registry lists the formats `cardbench import` reads, in the order detection tries them.
"""

from ..errors import ParseError

NOT_MINE = 0
SHAPED = 1  # lines shaped like the tool's output
NAMED = 2  # the output names its tool ("fio version", "CrystalDiskMark 8.0.4", "F3 probe 8.0")

__all__ = ["NAMED", "NOT_MINE", "ParseError", "SHAPED"]
