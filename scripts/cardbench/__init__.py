"""cardbench: collect, import, validate and aggregate SD card benchmark results."""

__version__ = "0.1.0"  # the one place: pyproject.toml and `cardbench --version` read it
