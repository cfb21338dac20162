"""The home page's leaderboard row: sequential figures in MB/s, random 4K in IOPS as recorded, else
bandwidth ÷ 4 KiB marked as derived; the basis of each figure behind it."""

import json
from pathlib import Path

import pytest

from cardbench.card.load import load_card
from cardbench.core.paths import CARDS_DIR
from cardbench.site.aggregate import aggregate
from cardbench.site.pagemodel import leader_row


@pytest.fixture(scope="module")
def rows():
    cards = [load_card(path).data for path in sorted(Path(CARDS_DIR).glob("*.yaml"))]
    out = aggregate(cards)
    by_slug = out["cards"]  # slug -> the card's JSON
    return {row["slug"]: leader_row(row, by_slug[row["slug"]]) for row in out["leaderboard"]}


def test_recorded_or_cdm_derived_iops_are_shown_as_iops(rows):
    # Lexar PLAY PRO 1TB (cdm_fio.sh, seed 002): RND4K Q1T1 read mean 27 MiB/s = 28.31 MB/s → 6,912 IOPS.
    read = rows["lexar-play-pro-1tb-microsd-express"]["cells"][2]
    assert read["value"] == pytest.approx(28.31e6 / 4096, rel=0.01) and read["text"].endswith("*")
    assert "RND4K Q1T1 read" in read["from"]


def test_a_reviewers_4k_figure_in_mb_s_becomes_iops_marked_derived(rows):
    # Lexar 16GB (seed 004): the reviewer's random 4 KiB write of 1.20 MB/s is 293 IOPS.
    write = rows["lexar-class-10-16gb-microsdhc"]["cells"][3]
    assert write["text"] == "293*" and "bandwidth ÷ 4 KiB" in write["from"]


def test_sequential_cells_stay_in_mb_s(rows):
    assert rows["sandisk-extreme-256gb-microsdxc"]["cells"][0]["text"] == "86.3"
    json.dumps(rows)  # the rows go into the site's JSON as they are
