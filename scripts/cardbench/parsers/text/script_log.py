"""Logs of benchmark scripts that run several tools and print a heading before each (Jeff Geerling's
microsd-benchmarks.sh, PiBenchmarks' Storage.sh): the log cut at those headings, line for line.

sections(text, headings) -> {key: text}: for each heading regex (key -> pattern), the lines from that
    heading to the next heading, every other line blank, so that a parser's error still names the
    line of the whole file. ANSI colours are taken out of every line.
"""

from .terminal import plain


def sections(text, headings):
    lines = [plain(line) for line in text.splitlines()]
    owner, owners = None, []
    for line in lines:
        found = next((key for key, pattern in headings.items() if pattern.match(line)), None)
        owner = found or owner
        owners.append(None if found else owner)
    return {key: "\n".join(line if owners[i] == key else "" for i, line in enumerate(lines))
            for key in headings if key in owners}


def merge_measurements(*parts):
    """{session field: entries} of several tools' measurements put together, in order."""
    out = {}
    for part in parts:
        for key, entries in part.items():
            out.setdefault(key, []).extend(entries)
    return out
