"""Synthetic cards built into a folder with a cache, as `cardbench aggregate` builds them, for the cache's tests."""

from cardbench.bench.synth import write_cards
from cardbench.card.checks.validate import card_paths
from cardbench.publish.incremental import SiteDataBuilder, cache_path_for


def cached_project(tmp_path, count):
    """`count` synthetic cards, their output folder and cache, and a build of them by a new builder each time (as
    each `cardbench aggregate` process has)."""
    cards_dir = tmp_path / "cards"
    write_cards(cards_dir, count)
    out = tmp_path / "out"
    cache = cache_path_for(out)  # where `cardbench aggregate --out` keeps it

    def build():
        return SiteDataBuilder(cards_dir, out, cache, workers=1).build(card_paths(cards_dir))

    return cards_dir, out, cache, build
