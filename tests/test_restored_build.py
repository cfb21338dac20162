"""A deploy restores the last deploy's aggregation (build/hugo-data and its cache) into a fresh checkout, where
every file is new to the file system (another inode, another time): a card whose file and raw outputs hold the
same bytes is taken from the cache, and one whose raw output changed is worked out again."""

import datetime
import os
import shutil
from pathlib import Path

from cardbench.publish.incremental import build_site_data

SHIPPED = Path(__file__).resolve().parents[1] / "data"
TODAY = datetime.date(2026, 11, 28)


def _cards_with_raw_outputs(count):
    """Shipped cards whose sessions name raw outputs, the first `count` by name."""
    picked = []
    for path in sorted((SHIPPED / "cards").glob("*.yaml")):
        if "raw/" in path.read_text(encoding="utf-8") and (SHIPPED / "raw" / path.stem).is_dir():
            picked.append(path.stem)
        if len(picked) == count:
            return picked
    raise AssertionError("the shipped data names too few raw outputs")


def _check_out(data, slugs):
    """The cards and their raw folders copied afresh, as a checkout writes them."""
    shutil.rmtree(data, ignore_errors=True)
    (data / "cards").mkdir(parents=True)
    for slug in slugs:
        shutil.copy(SHIPPED / "cards" / f"{slug}.yaml", data / "cards")
        shutil.copytree(SHIPPED / "raw" / slug, data / "raw" / slug)


def _build(data, out):
    return build_site_data(data / "cards", out, data_dir=data, workers=1, today=TODAY)


def test_a_fresh_checkout_reuses_every_unchanged_card_and_redoes_a_changed_raw_output(tmp_path):
    data, out = tmp_path / "data", tmp_path / "build" / "hugo-data"
    slugs = _cards_with_raw_outputs(3)
    _check_out(data, slugs)
    first = _build(data, out)
    assert (first.errors, first.reused, first.checked) == (0, 0, 3)
    pages = {p: p.read_bytes() for p in sorted(out.rglob("*")) if p.is_file()}

    _check_out(data, slugs)  # the next deploy's checkout: same bytes, new files
    again = _build(data, out)
    assert (again.errors, again.reused, again.checked) == (0, 3, 0)
    assert {p: p.read_bytes() for p in sorted(out.rglob("*")) if p.is_file()} == pages

    _check_out(data, slugs)
    raw = sorted(p for p in (data / "raw" / slugs[1]).rglob("*") if p.is_file() and p.name != "SHA256SUMS")[0]
    text = raw.read_bytes()
    raw.write_bytes(text[:-1] + (b"#" if text[-1:] != b"#" else b"%"))  # same size, another byte
    os.utime(raw, ns=(0, 0))
    changed = _build(data, out)
    assert changed.reused == 2 and changed.checked == 1
