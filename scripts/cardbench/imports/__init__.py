"""Importing results people already have: a tool's output file becomes a session on a card.

importer.import_file is the way in. Along the way: read (the file, safely), transcript.unwrap
(prompts, sudo, Markdown fences and indentation taken off, once, for every format),
parsers.registry (which format, and its tool module: parse_file, then to_session -> SessionFields),
several_tools (a log of several tools' commands cut into one part per tool), naming (a new card
from its name), and result.ImportResult handed back.
"""
