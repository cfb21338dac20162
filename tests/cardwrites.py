"""A card folder written by imports, for the tests of the card transaction and of imports cut short."""

from pathlib import Path

from cardbench.card.checks.validate import validate_paths

SLUG = "test-card"
NAME = "Lexar Test 64GB"


def dd_log(seconds):
    """A dd write log whose rate agrees with its bytes and seconds (as dd prints it: 3 digits)."""
    rate = 33554432 / seconds / 1e6
    return ("$ dd if=/dev/zero of=/dev/sdc bs=4M count=8 oflag=direct\n8+0 records in\n8+0 records out\n"
            f"33554432 bytes (34 MB, 32 MiB) copied, {seconds:.5f} s, {rate:.3g} MB/s\n")


def snapshot(folder):
    """{relative path: bytes} of every file under folder."""
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(Path(folder).rglob("*")) if p.is_file()}


def errors_of(data):
    """The error findings `validate` reports on every card under data/cards."""
    _, findings = validate_paths(sorted((data / "cards").glob("*.yaml")), data_dir=data)
    return [f for f in findings if f.severity == "error"]
