"""The one way a card's files change: atomic writes, the journal, checksums, sessions placed into the text."""
