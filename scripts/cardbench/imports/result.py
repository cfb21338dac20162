"""What an import hands back: SessionFields from a tool module's to_session(), ImportResult from import_file."""

from dataclasses import dataclass, field
from pathlib import Path

from ..parsers.fields import MEASUREMENT_KEYS, SessionFields  # noqa: F401  (part of this module's interface)


@dataclass(frozen=True)
class ImportResult:
    """One call of import_file: the session it added, or the one that already holds the file."""
    card_path: Path
    session_id: str
    sha256: str  # of the file's bytes
    already_imported: bool = False  # the card already had this file: nothing was written
    format: str | None = None  # registry name: "fio-json", "dd", …
    runs: int = 0
    entries: int = 0
    raw: tuple = ()  # raw copies, relative to the data folder: ("raw/<slug>/<session>/<file>",)
    notes: tuple = ()
    created_card: bool = False
    defaults: dict = field(default_factory=dict)  # for a new card, {field: (value, why)} assumed
    date: str | None = None  # the session's day, "YYYY-MM-DD"
    dated_by: str | None = None  # what says the day ("the `date` output on line 3"); None: today, nothing does
    host: str | None = None  # the session's host and reader as stored; None: unknown
    reader: str | None = None
    similar: tuple = ()  # for a new card, slugs of cards the site has with a close name ("did you mean")
