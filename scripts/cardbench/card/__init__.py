"""The card: its one file, data/cards/<slug>.yaml, and the raw outputs beside it."""
