"""Parsers for benchmark tool output: one module per tool.

Each module has `parse(text) -> dict`: pure (no I/O, no clock), and raises
`cardbench.errors.ParseError(tool, message, line=N, text=line)` naming the 1-based line it
could not read. The dict layouts are documented in each module's docstring.
"""

from ..errors import ParseError

__all__ = ["ParseError"]
