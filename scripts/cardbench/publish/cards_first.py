"""The preview's first step after a card file changes: that card's own files, and the card index when it
changed, written before the shared lists are made again.

At thousands of cards the lists (home page, comparison, catalogue, readers) take most of a second to make
and write; a reviewer editing a card is looking at its page. The card's files come first, so a running Hugo
server never sees a card listed whose files are missing; the lists follow in the same build
(site_files.write_site_data), which then finds these files in place.
"""

import time

from .site_files import write_card_files, write_shared
from .sitedata import CARD_INDEX, card_index_text

# Hugo's server gathers file changes for half a second before it rebuilds (a fixed tick). Lists written this
# long after the card's files come in a later rebuild than the card's page, which then does not wait for them.
LISTS_AFTER_S = 0.55


def write_cards_first(out_dir, parts, files, written):
    """Write every card's files in `files` ({slug: {kind: text}}, which this empties) and the card index made
    from `parts` (every published card's, in card order); `written` is the builder's record of the shared
    files' texts as last written. Returns a function that waits, when called, until the shared lists may be
    written (LISTS_AFTER_S after these files)."""
    write_card_files(out_dir, files)
    files.clear()
    write_shared(out_dir, CARD_INDEX, card_index_text(parts), written)
    lists_from = time.monotonic() + LISTS_AFTER_S
    return lambda: time.sleep(max(0.0, lists_from - time.monotonic()))


__all__ = ["write_cards_first", "LISTS_AFTER_S"]
