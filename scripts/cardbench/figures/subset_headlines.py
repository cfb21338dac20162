"""A card's headline figures over some of its sessions only: through one (host, reader) path for /readers/
(hosts_readers.path_headlines), on one (host, source) path for the card's standing (aggregate.standing_entries).

Each subset is the card with only the chosen sessions compared, picked by the same rules as the card's own
headline (headlines.pick_headline). A subset that compares exactly the sessions the card compares is the card:
its picks are the card's own. The other subsets of every card are computed together, from the rows of the
card's runs_frame with only their `compare` changed, in one statistics call (a call per subset costs far
more); each group holds the same runs in the same order as it would alone, so the figures are the same.
"""

import numpy as np

from .headlines import pick_headline
from .stats import POOL_KEYS, is_spi, statistics


def compared_indexes(card, keep=lambda session: True):
    """The indexes of the card's compared full-speed sessions (not SPI) that `keep` accepts: a subset's name."""
    return frozenset(i for i, s in enumerate(card.get("sessions") or [])
                     if s.get("compare", True) and not is_spi(s) and keep(s))


def _subset_card(card, indexes):
    return {**card, "sessions": [s if i in indexes else {**s, "compare": False}
                                 for i, s in enumerate(card.get("sessions") or [])]}


class SubsetHeadlines:
    """Headline picks of card subsets, asked for first (ask), computed together (compute), then read (picks)."""

    def __init__(self, keys):
        self._keys = keys
        self._asked = {}  # (slug, indexes) -> (card, indexes)
        self._picks = {}

    def ask(self, card, indexes):
        self._asked.setdefault((card["slug"], indexes), (card, indexes))

    def compute(self, whole, frames, card_picks):
        """whole: the cards' runs_frame (a RangeIndex); frames: {slug: the card's rows of it}; card_picks: {slug:
        the card's own headline picks}."""
        variants = []
        for key, (card, indexes) in self._asked.items():
            if indexes == compared_indexes(card):
                self._picks[key] = {name: card_picks[card["slug"]][name] for name in self._keys}
            elif indexes:
                variants.append((key, card, indexes))
            else:
                self._picks[key] = dict.fromkeys(self._keys)
        if not variants:
            return
        # every subset's rows taken at once from the cards' frame (its index: the rows' positions there)
        positions, names, compared = [], [], []
        for number, (_, card, indexes) in enumerate(variants):
            rows = frames.get(card["slug"])
            if rows is not None and not rows.empty:
                positions.append(rows.index.to_numpy())
                names.append(np.full(len(rows), str(number), dtype=object))
                compared.append(rows["session"].isin(indexes).to_numpy() & rows["compare"].to_numpy())
        pooled = {}
        if positions:
            frame = whole.take(np.concatenate(positions)).assign(slug=np.concatenate(names),
                                                                 compare=np.concatenate(compared))
            table = statistics(frame[frame["compare"]], POOL_KEYS)
            columns = table.columns.tolist()
            for values in zip(*(table[name].tolist() for name in columns)):
                row = dict(zip(columns, values))
                pooled.setdefault(row["slug"], {})[(row["test"], row["op"])] = row
        for number, (key, card, indexes) in enumerate(variants):
            subset = _subset_card(card, indexes)
            frame = frames.get(card["slug"])
            self._picks[key] = {name: pick_headline(subset, frame, pooled.get(str(number), {}), name)
                                for name in self._keys}

    def picks(self, card, indexes):
        """{key: pick or None} of the card over the sessions `indexes` (compared_indexes)."""
        return self._picks[(card["slug"], indexes)]


__all__ = ["SubsetHeadlines", "compared_indexes"]
