"""Write the collector's session into the card file after every finished test.

The first write appends the session. Later writes replace that session, found by its id: the text
before it stays byte-identical (but for a raised bus line), and sessions imported meanwhile stay
after it. Both go through the card transaction (card/store/transaction.py), which holds the card's
lock, records the raw files' SHA-256, validates and renames into place.
"""

from pathlib import Path

from ..card.store.transaction import card_change, unique_session_id
from ..card.load import load_card
from ..core.paths import card_path

COLLECTOR_SOURCE = "cardbench collector"


class SessionStore:
    """One card file and the collector's session in it; every write goes through the card transaction."""

    def __init__(self, data_dir, slug):
        self.data_dir = Path(data_dir)
        self.cards_dir = self.data_dir / "cards"
        self.slug = slug
        self.path = card_path(self.cards_dir, slug)
        self.written_id = None  # id of our session once it is in the file

    def load(self):
        """The card as a LoadedCard, or None when the file does not exist yet."""
        return load_card(self.path) if self.path.exists() else None

    def resume_candidates(self):
        """The card's unfinished collector sessions, newest first (sessions imported after one do not hide it)."""
        card = self.load()
        found = (card.data.get("sessions") or []) if card else []
        return [s for s in reversed(found if isinstance(found, list) else [])
                if isinstance(s, dict) and s.get("complete") is False
                and (s.get("source") or {}).get("name") == COLLECTOR_SOURCE]

    def unique_id(self, wanted):
        card = self.load()
        return unique_session_id({s.get("id") for s in (card.data.get("sessions") or []) if isinstance(s, dict)}
                                 if card else set(), wanted)

    def adopt(self, session_id):
        """Continue a session that is already in the file."""
        self.written_id = session_id

    def write(self, session, new_card=None, bus=None):
        """Put the session into the card file (append the first time, replace it by id afterwards), with
        the SHA-256 of every raw file it names; bus raises the card's bus (a guess too low) in the same change.
        Sessions imported meanwhile stay where they are."""
        with card_change(self.data_dir, self.slug) as change:
            if self.written_id is None:
                change.append_session(session, new_card=new_card if change.loaded is None else None)
            else:
                change.replace_session(session)
            if bus is not None:
                change.set_card_field("bus", bus)
            change.commit()
        self.written_id = session["id"]
        return self.path
