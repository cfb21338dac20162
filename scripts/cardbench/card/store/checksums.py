"""The fingerprints of raw tool outputs: data/raw/<slug>/SHA256SUMS, in `sha256sum` format.

Each line: 64 hex digits, two spaces (or space and '*'), a path relative to data/raw/<slug>/.
`cd data/raw/<slug> && sha256sum -c SHA256SUMS` checks them by hand.
"""

import hashlib
import re
from pathlib import Path

from ...errors import CardFileError
from ...core.units import MIB_BYTES
from .atomicfile import atomic_write_text
from ..wording import shorten

SUMS_NAME = "SHA256SUMS"
MAX_SUMS_BYTES = 4 * MIB_BYTES  # some 40 000 lines: far more raw files than any card has
_SUMS_LINE = re.compile(r"^([0-9a-f]{64}) [ *](\S(?:.*\S)?)$")


def sha256_file(path):
    """Hex SHA-256 of a file's bytes."""
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(MIB_BYTES), b""):
            digest.update(block)
    return digest.hexdigest()


def read_sha256sums(sums_path):
    """{relative path: (hex digest, line number)} from a SHA256SUMS file; CardFileError on a bad line."""
    entries = {}
    size = Path(sums_path).stat().st_size
    if size > MAX_SUMS_BYTES:
        raise CardFileError(sums_path, f"{size} bytes; a card's SHA256SUMS holds at most {MAX_SUMS_BYTES} (one line "
                                       "per raw file)", rule="raw-hash")
    text = Path(sums_path).read_text(encoding="utf-8", errors="replace")
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        match = _SUMS_LINE.match(line)
        if not match:
            raise CardFileError(sums_path, "line is not '<sha256 hex>  <file>'", line=number, rule="raw-hash")
        name = match.group(2)
        if name in entries:
            raise CardFileError(sums_path, f"'{shorten(name)}' is listed twice (first at line {entries[name][1]})",
                                line=number, rule="raw-hash")
        entries[name] = (match.group(1), number)
    return entries


def update_sha256sums(card_raw_dir, relative_paths):
    """Record the SHA-256 of files (paths relative to data/raw/<slug>/) in that folder's SHA256SUMS.

    Existing lines for other files are kept; entries are sorted by path. A name that is not a file in
    the folder (missing, or reaching outside it) is left out: validation reports it, naming the card
    field. The card transaction records every raw file of a change through here. Returns the digests
    written.
    """
    folder = Path(card_raw_dir)
    sums_path = folder / SUMS_NAME
    entries = {name: digest for name, (digest, _) in read_sha256sums(sums_path).items()} if sums_path.exists() else {}
    written = {}
    for rel in relative_paths:
        rel = Path(rel).as_posix()
        if rel.startswith("/") or ".." in rel.split("/") or not (folder / rel).is_file():
            continue
        written[rel] = entries[rel] = sha256_file(folder / rel)
    atomic_write_text(sums_path, "".join(f"{digest}  {name}\n" for name, digest in sorted(entries.items())))
    return written
