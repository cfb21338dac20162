"""A card folder written by imports, for the tests of the card transaction and of imports cut short."""

from pathlib import Path

from cardbench.card.checks.validate import validate_paths
from cardbench.imports.importer import import_file

SLUG = "test-card"
NAME = "Lexar Test 64GB"


def dd_log(seconds):
    """A dd write log whose rate agrees with its bytes and seconds (as dd prints it: 3 digits)."""
    rate = 33554432 / seconds / 1e6
    return ("$ dd if=/dev/zero of=/dev/sdc bs=4M count=8 oflag=direct\n8+0 records in\n8+0 records out\n"
            f"33554432 bytes (34 MB, 32 MiB) copied, {seconds:.5f} s, {rate:.3g} MB/s\n")


def snapshot(folder, folders=False):
    """{relative path: bytes} of every file under folder; with folders, every folder too (as None)."""
    return {p.relative_to(folder).as_posix(): p.read_bytes() if p.is_file() else None
            for p in sorted(Path(folder).rglob("*")) if folders or p.is_file()}


def card_folder(tmp_path):
    """tmp_path/data with an empty cards folder."""
    (tmp_path / "data" / "cards").mkdir(parents=True, exist_ok=True)
    return tmp_path / "data"


def card_with_one_import(tmp_path):
    """card_folder(tmp_path) whose card SLUG holds one session, imported from the dd log tmp_path/first.txt."""
    data = card_folder(tmp_path)
    first = tmp_path / "first.txt"
    first.write_text(dd_log(1.63627))
    import_file(first, data / "cards", SLUG, name=NAME)
    return data


def errors_of(data):
    """The error findings `validate` reports on every card under data/cards."""
    _, findings = validate_paths(sorted((data / "cards").glob("*.yaml")), data_dir=data)
    return [f for f in findings if f.severity == "error"]
