"""The checks a card file passes: the JSON Schema, the rules a schema cannot say, raw files, review pages."""
