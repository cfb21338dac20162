"""What a problem found in a card's files is, how it prints, and every rule id it can carry.

A Finding names the file, line, field and rule, as an error (stops the build) or a warning (shown,
does not stop it). Printed as

    data/cards/<slug>.yaml:12:7: error: sessions[0].date: date 2999-01-01 is in the future [date-not-future]

Rule ids, as printed in brackets, are the keys of RULES; CONTRIBUTING.md explains each.
"""

from dataclasses import dataclass
from pathlib import Path

from ...errors import CardFileError
from ..wording import one_line

# Every rule id a finding can carry (besides schema:<keyword>), with the severity it has.
RULES = {
    # loading (load.py)
    "yaml": "error", "tab-indent": "error", "duplicate-key": "error", "tag": "error", "merge-key": "error",
    "key-type": "error", "aliases": "error", "depth": "error", "size": "error", "encoding": "error",
    "type": "error", "read": "error", "file-name": "error", "number-form": "error",
    # identity
    "slug-equals-filename": "error", "slug-unique": "error", "session-id-unique": "error",
    # values
    "finite": "error", "positive": "error", "runs-parallel": "error", "date-not-future": "error",
    "text-control": "error", "url-form": "error", "name-script": "error", "brand-lookalike": "error",
    "dd-block-size": "error",
    # raw files
    "raw-path": "error", "raw-present": "error", "raw-hash": "error", "raw-folder": "warning",
    # physics and consistency
    "bus-ceiling": "error or warning", "bw-iops": "error or warning", "unit-consistent": "warning",
    "below-precision": "error",
    "runs-present": "warning", "host-reader": "warning",
}
# Files beside the card files: data/raw/ and the review pages content/cards/<slug>.md.
RULES.update({"raw-type": "error", "raw-orphan": "error or warning",
              "review-file": "error", "review-key": "error"})
# The site's inputs (site_links.py): no symbolic links.
RULES["symlink"] = "error"


@dataclass
class Finding:
    severity: str  # "error" or "warning"
    error: CardFileError

    @property
    def rule(self):
        return self.error.rule

    @property
    def path(self):
        return self.error.path

    def __str__(self):
        e = self.error
        where = one_line(display_path(e.path))
        if e.line is not None:
            where += f":{e.line}" + (f":{e.column}" if e.column is not None else "")
        field = f" {one_line(e.field)}:" if e.field else ""
        rule = f" [{e.rule}]" if e.rule else ""
        return f"{where}: {self.severity}:{field} {one_line(e.message)}{rule}"


def file_finding(path, message, rule, severity="error", line=None):
    """A Finding about a whole file (not a card field): a raw file or a review page."""
    return Finding(severity, CardFileError(path, message, line=line, rule=rule))


def display_path(path):
    """A path relative to the working folder when it lies inside it (as editors and CI link it). The
    last part is not resolved: a symbolic link is named as itself, not as what it points to."""
    path = Path(path)
    try:
        here = path.resolve() if path.name in ("", ".", "..") else path.parent.resolve() / path.name
        return str(here.relative_to(Path.cwd().resolve()))
    except (ValueError, OSError):
        return str(path)
