"""Names that pose as other names: a word mixing scripts (Latin 'SanDisk' with a Cyrillic 'а'), and a
brand that looks like another brand on the site without being it (Unicode's confusables data, UTS #39).

The fields checked are the names the schema already keeps free of hidden characters (brand, model,
controller, part number, shop and source names, session labels). Digits, punctuation and combining
marks belong to no script. One word may mix Han with Hiragana and Katakana (Japanese), with Bopomofo
(Chinese) or with Hangul (Korean), and Latin with any of those, as Unicode's "highly restrictive" level
allows; any other mix is refused, naming the character.
"""

import re
import unicodedata
from functools import lru_cache
from pathlib import Path

import yaml

from confusable_homoglyphs import categories, confusables

from ..core.units import KIB_BYTES
from .checks.schema_findings import hidden_words, identity_guard, schema_validator
from .wording import SURROGATE, lone_surrogate, surrogate_words

_NEUTRAL = {"COMMON", "INHERITED", "Unknown"}
# Visible characters that show nothing and are no white space (the schema refuses the invisible ones):
# 'SanDisk ⠀' would pass for 'SanDisk'.
_BLANK = frozenset("\u2800")
_SPACES = re.compile(r"[^\S\n\r\x0b\x0c\x1c-\x1f\x85\u2028\u2029]++")  # white space that breaks no line
_TOGETHER = ({"LATIN", "HAN", "HIRAGANA", "KATAKANA"}, {"LATIN", "HAN", "BOPOMOFO"}, {"LATIN", "HAN", "HANGUL"})


def script_of(char):
    return categories.alias(char)


def script_words(script):
    return script.replace("_", " ").title()


def describe(char):
    """'а' U+0430 CYRILLIC SMALL LETTER A"""
    return f"{char!r} U+{ord(char):04X} {unicodedata.name(char, 'unnamed character')}"


def _allowed(scripts):
    return len(scripts) <= 1 or any(scripts <= together for together in _TOGETHER)


@lru_cache(maxsize=4096)  # the same names (brands, hosts, readers) come again on card after card
def mixed_script(text):
    """None, or the first problem: a word of `text` (split at white space) whose letters mix scripts,
    or a character drawn as blank space that is no space, as a message naming the character and its
    1-based position in text."""
    blank = next((i for i, c in enumerate(text) if c in _BLANK), None)
    if blank is not None:
        return f"{describe(text[blank])} at position {blank + 1} is drawn as blank space; remove it"
    for word in re.finditer(r"\S+", text):
        problem = _mixed_word(word.group(), word.start())
        if problem:
            return problem
    return None


def name_problem(text):
    """None, or why `text` cannot be a name (brand, model, a session's label, host or reader), as the
    card's checks would say it: a lone surrogate (no character), a control, zero-width or format
    character (the schema's identity guard), or a word mixing scripts. For the ways in to refuse a
    name, naming their own field or option, before it reaches a card."""
    surrogate = lone_surrogate(text)
    if surrogate:
        return f"contains at position {surrogate.start()} {surrogate_words(surrogate.group())}; type it again"
    hidden = identity_guard().search(text)
    if hidden:
        return hidden_words(hidden)
    return mixed_script(text)


def single_spaced(text):
    """The text with each run of space characters (a tab, a no-break space, an ideographic space…) made one
    plain space, none at the ends: 'USB\u00a03.0 reader' and 'USB 3.0  reader' read as 'USB 3.0 reader'
    and would be two readers of their own on /readers/. Line breaks stay, for the checks to refuse."""
    return _SPACES.sub(" ", text).strip(" ")


def cleaned_name(text):
    """A name a machine reports (the collector's host and reader: os-release, DMI, USB strings) with each
    run of hidden characters and white space made one space: no one typed them, so they are not refused."""
    without = identity_guard().sub(" ", SURROGATE.sub(" ", text))
    return " ".join(without.split())


def _mixed_word(word, offset):
    letters = [(i, c, s) for i, c, s in ((i, c, script_of(c)) for i, c in enumerate(word)) if s not in _NEUTRAL]
    scripts = {s for _, _, s in letters}
    if _allowed(scripts):
        return None
    counts = {}
    for _, _, s in letters:
        counts[s] = counts.get(s, 0) + 1
    main = max(counts, key=lambda s: (counts[s], -next(i for i, _, t in letters if t == s)))
    stray = next(((i, c, s) for i, c, s in letters if s != main and not _allowed({main, s})),
                 next((i, c, s) for i, c, s in letters if s != main))
    index, char, script = stray
    return (f"{describe(char)} at position {offset + index + 1} mixes {script_words(script)} into a "
            f"{script_words(main)} word; write the name in one script")


@lru_cache(maxsize=1)
def _prototypes():
    """Each character of Unicode's confusables data -> one character standing for all that look alike."""
    parent = {}

    def root(char):
        while parent.get(char, char) != char:
            char = parent[char]
        return char

    sequences = {}  # a character whose prototype is a sequence: 'm' -> 'rn'
    for char, glyphs in confusables.confusables_data.items():
        for glyph in glyphs:
            other = glyph["c"].replace("\u200e", "").replace("\u200f", "")
            if len(char) != 1:
                continue
            if len(other) != 1:
                if len(glyphs) == 1:
                    sequences[char] = other
                continue
            a, b = root(char), root(other)
            if a != b:
                keep, drop = sorted((a, b), key=lambda c: (not c.isascii(), c))
                parent[drop] = keep
    table = {char: root(char) for char in parent}
    table.update({char: sequences.get(proto, proto) for char, proto in table.items()})
    table.update({char: seq for char, seq in sequences.items() if char not in table})
    return table


def skeleton(text):
    """The text with every character replaced by the one that stands for its look-alikes: two names with
    the same skeleton look the same. Compatibility forms (fullwidth 'Ｓ', mathematical bold '𝐒') are
    folded first, as they are drawn like their plain letters and the confusables data lists only some."""
    table = _prototypes()
    mapped = "".join(table.get(c, c) for c in unicodedata.normalize("NFKD", text))
    return unicodedata.normalize("NFD", mapped)


def brand_key(brand):
    """What two spellings of one brand share once letter case is set aside: the skeleton of the
    case-folded brand, with white space as a page shows it (runs as one space, none at the ends).
    'SANDISK', 'Sandisk ' and 'SаnDisk' are each 'sandisk', and would each be a brand of their own in
    the leaderboard's brand filter. Case is folded first: the confusables data draws a capital 'I' as
    'l', so folding after it would give 'SANDISK' a key of its own."""
    return _spaced(skeleton(unicodedata.normalize("NFKD", brand).casefold()))


def drawn_key(brand):
    """What two brands drawn alike share, capitals as drawn: 'K0DAK' is 'KODAK' and 'SANDlSK' is
    'SANDISK', though their lower-case forms differ ('k0dak', 'kodak')."""
    folded = skeleton(skeleton(brand).casefold())  # after folding, 'M' is 'm' is 'rn'
    return _spaced(folded)


def _spaced(text):
    return " ".join("".join(" " if c in _BLANK else c for c in text).split())


def lookalike_brands(brands):
    """{brand: the brand it poses as} among `brands` ({brand: number of cards}): two brands that look
    the same but differ, in any letter case (brand_key) or as drawn (drawn_key). The one more cards use
    is the site's; on a tie, the one with fewer non-ASCII characters, then the one spaced as a page
    shows it; when that ties too, both are reported."""
    group_of = {}  # brand -> the brands it is joined with, through either key
    for key in (brand_key, drawn_key):
        by_key = {}
        for brand in brands:
            by_key.setdefault(key(brand), []).append(brand)
        for members in by_key.values():
            joined = set(members).union(*(group_of.get(brand, ()) for brand in members))
            for brand in joined:
                group_of[brand] = joined
    order = {brand: i for i, brand in enumerate(brands)}
    out = {}
    for brand in brands:
        ranked = sorted(group_of[brand] - {brand}, key=lambda other: (_rank(other, brands), -order[other]),
                        reverse=True)
        if ranked and _rank(ranked[0], brands) >= _rank(brand, brands):
            out[brand] = ranked[0]
    return out


def _rank(brand, brands):
    return brands[brand], -sum(not c.isascii() for c in brand), " ".join(brand.split()) == brand


@lru_cache(maxsize=1)
def name_fields():
    """Field paths (ints as '*') of the names the schema keeps free of hidden characters."""
    found = set()

    def walk(schema, path):
        if not isinstance(schema, dict):
            return
        if "not" in schema and schema.get("type") == "string":
            found.add(path)
        for key, sub in (schema.get("properties") or {}).items():
            walk(sub, path + (key,))
        if isinstance(schema.get("items"), dict):
            walk(schema["items"], path + ("*",))

    walk(schema_validator().schema, ())
    return frozenset(found)


def field_pattern(path):
    return tuple("*" if isinstance(part, int) else part for part in path)


BRAND_WINDOW = 64 * KIB_BYTES  # the brand is among a card's first lines; a huge file is not read whole
_BRAND_LINE = re.compile(r"^brand:[ \t]*(.*?)[ \t]*$", re.MULTILINE)


def brand_of_file(path):
    """The brand a card file gives on its top-level `brand:` line (read without loading the whole
    card: the whole site is read for every change), or None."""
    try:
        with open(path, "rb") as handle:
            text = handle.read(BRAND_WINDOW).decode("utf-8", errors="replace")
    except OSError:
        return None
    match = _BRAND_LINE.search(text)
    if not match:
        return None
    try:
        value = yaml.safe_load(match.group(1))
    except yaml.YAMLError:
        return None
    return value if isinstance(value, str) else None


def site_brands(cards_dir, known=None):
    """{card file path: brand} of every card file in cards_dir; `known` ({path: brand}) overrides
    what is on disk (cards being checked or written)."""
    found = {}
    folder = Path(cards_dir)
    for path in sorted(folder.glob("*.yaml")) if folder.is_dir() else ():
        brand = brand_of_file(path)
        if brand is not None:
            found[str(path.resolve())] = brand
    for path, brand in (known or {}).items():
        key = str(Path(path).resolve())
        if isinstance(brand, str):
            found[key] = brand
        else:
            found.pop(key, None)
    return found


def brand_lookalikes(brands_by_path):
    """{path: message} (paths as given) for each card whose brand looks like another card's brand without being it."""
    counts = {}
    for brand in brands_by_path.values():
        counts[brand] = counts.get(brand, 0) + 1
    posing = lookalike_brands(counts)
    out = {}
    for path, brand in brands_by_path.items():
        if brand in posing:
            other = posing[brand]
            differ = [i for i, (c, d) in enumerate(zip(brand, other)) if c != d] if len(brand) == len(other) else []
            which = f" ({describe(brand[differ[0]])} at position {differ[0] + 1})" if differ else ""
            out[path] = (f"brand {brand!r} looks like the brand {other!r} of {counts[other]} card(s) on the site "
                         f"but is not the same text{which}; spell it as that brand does")
    return out
