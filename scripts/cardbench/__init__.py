"""cardbench: collect, import, validate and aggregate SD card benchmark results."""

__version__ = "0.1.0"
