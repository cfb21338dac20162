"""Importing results people already have: a tool's output file becomes a session on a card.

importer.import_file is the way in. Along the way: read (the file, safely), transcript.unwrap
(prompts, sudo, Markdown fences and indentation taken off, once, for every format),
parsers.registry (which format), one handler module per format family (fio, crystaldiskmark, dd,
flashbench, f3probe, nvme: parsed text -> result.SessionFields), naming (a new card from its
name), and result.ImportResult handed back.
"""
