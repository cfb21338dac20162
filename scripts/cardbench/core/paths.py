"""Where things live: the project root, a card's file and raw folder, and the raw files a card names.

Every module that needs one of these asks here, so a path rule is written once.
"""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
DATA_DIR = ROOT / "data"
CARDS_DIR = DATA_DIR / "cards"
SCHEMA_PATH = DATA_DIR / "schema" / "card.schema.json"

# The site serves raw outputs as they are, and a web server picks the Content-Type by extension: only
# types a browser shows as text or downloads, never runs (.html, .svg, .xml, .js, .pdf and the like).
RAW_TYPES = (".out", ".txt", ".log", ".json", ".csv")
# Names Windows cannot create (a checkout there would fail): device names, whatever follows the first dot.
_WINDOWS_DEVICES = re.compile(r"^(?:CON|PRN|AUX|NUL|COM[0-9¹²³]|LPT[0-9¹²³])(?:\.|$)", re.IGNORECASE)
_NOT_PORTABLE = re.compile(r'[<>:"\\|?*\x00-\x1f]|[. ]$')


def card_path(cards_dir, slug):
    """data/cards/<slug>.yaml."""
    return Path(cards_dir) / f"{slug}.yaml"


def card_raw_dir(data_dir, slug):
    """data/raw/<slug>/: the card's raw tool outputs and their SHA256SUMS."""
    return Path(data_dir) / "raw" / slug


def raw_dir(data_dir, slug, session_id):
    """data/raw/<slug>/<session-id>/ (a Path; not created)."""
    return card_raw_dir(data_dir, slug) / session_id


# Values that hold nothing further: a list of only these (a subtest's runs) is passed over whole.
_LEAVES = frozenset({str, int, float, bool, type(None)})


def raw_refs(value, path=()):
    """[(field path, raw path)] for every string in a 'raw' list anywhere in a card or session."""
    found = []
    _refs_in(value, path, found)
    return found


def _refs_in(value, path, found):
    if isinstance(value, dict):
        for key, item in value.items():
            if key == "raw" and isinstance(item, list):
                found += [(path + (key, i), raw) for i, raw in enumerate(item) if isinstance(raw, str)]
            elif isinstance(item, (dict, list)):  # a card's thousands of figures hold no raw list
                _refs_in(item, path + (key,), found)
    elif isinstance(value, list) and not _LEAVES.issuperset(map(type, value)):
        for i, item in enumerate(value):
            if isinstance(item, (dict, list)):
                _refs_in(item, path + (i,), found)


def raw_strings(value):
    """The strings of raw_refs(value) without their field paths. The one walk serves both: a second one
    without paths, or a search of the value's JSON text, saved about 0.1 ms a card and was one more copy
    of the rule to keep equal."""
    return [raw for _, raw in raw_refs(value)]


def raw_names(value, slug):
    """Paths relative to data/raw/<slug>/ of the raw files a card or session names in that folder."""
    prefix = f"raw/{slug}/"
    return sorted({raw[len(prefix):] for raw in raw_strings(value) if raw.startswith(prefix)})


def unportable_name(part):
    """Why one part of a path cannot exist on every system a contributor clones to, or None."""
    if _WINDOWS_DEVICES.match(part):
        return f"'{part}' is a device name on Windows"
    if _NOT_PORTABLE.search(part):
        return f"'{part}' holds a character Windows forbids in names, or ends in a dot or space"
    return None
