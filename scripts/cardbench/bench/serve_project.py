"""`cardbench serve` for a copy of the project (the benchmark's preview server).

    python -m cardbench.bench.serve_project PROJECT PORT
"""

import sys
from pathlib import Path

from ..publish.serve import serve
from .measure import HUGO


def main(argv):
    project, port = Path(argv[0]), int(argv[1])
    report = lambda message: print(message, file=sys.stderr, flush=True)  # noqa: E731
    try:
        return serve(project / "data" / "cards", project / "build" / "hugo-data", HUGO, project, report, port=port)
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
