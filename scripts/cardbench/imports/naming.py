"""A new card from its display name, for an import into a card that does not exist yet.

Capacity, bus and form factor come from what the contributor gave (CAPACITY=, BUS=, FORM= on
make import; --capacity, --bus, --form), read as `make new-card` reads them; else from the name:
the capacity ("64GB", "1TB") and a hint at the bus ("Express", "UHS-II"). What neither says is
assumed and listed, so the command line can ask the contributor to check it.
"""

import re

from ..card import sessions
from ..card.newcard import normalize_answer
from ..card.schema_findings import schema_validator
from ..errors import CardbenchError, CardFileError, quoted

DEFAULT_SOURCE = {"name": "contributor's own run (imported)"}
DEFAULT_FORM_FACTOR = "microSD"
GIVEN = "given"  # why a value was used: the contributor gave it
# The card field, the make variable and the cardbench import option that set it.
CARD_OPTIONS = {"capacity_gb": ("CAPACITY", "--capacity"), "bus": ("BUS", "--bus"), "form_factor": ("FORM", "--form")}


# A capacity in a name: a figure and its unit, "64GB", "1TB", "64 GB", "1.5TB".
_CAPACITY = re.compile(r"(\d+(?:\.\d+)?)\s*(GB|TB|G|T)\b", re.IGNORECASE)
# What may stand before a capacity that is a word of its own: "(64GB)", "64GB/128GB", "Ultra 64GB".
_BEFORE_CAPACITY = " \t([/,"


def capacity_from_name(name):
    """GB as marketed from a name: 'Lexar PLAY PRO 1TB' -> 1000, 'SanDisk Ultra 64GB' -> 64; None if absent.
    Only a capacity that is a word of its own counts: ValueError for one glued to what stands before
    it ('-64GB', '1e308GB', 'x.5TB'), which would be read as another figure than meant."""
    match = _CAPACITY.search(name)
    if not match:
        return None
    start = match.start()
    if start > 0 and name[start - 1] not in _BEFORE_CAPACITY:
        glued = name[:match.end()].split()[-1]
        raise ValueError(f"the capacity {quoted(glued)} in the name is not a plain figure like 64GB or 1TB")
    value = float(match.group(1)) * (1000 if match.group(2).upper().startswith("T") else 1)
    return int(value) if value.is_integer() else value


def check_slug(slug):
    """CardbenchError when `slug` cannot name a card file: longer than the schema's slug allows, or
    not of its form (lowercase letters, digits and hyphens). Checked before any file is opened."""
    rule = schema_validator().schema["properties"]["slug"]
    most = rule.get("maxLength")
    if most is not None and len(slug) > most:
        raise CardbenchError(f"card slug of {len(slug)} characters (--card, CARD=): at most {most}; "
                             f"{quoted(slug)}")
    if "pattern" in rule and not re.search(rule["pattern"], slug):
        raise CardbenchError(f"card slug {quoted(slug)} (--card, CARD=): use lowercase letters, digits and hyphens, "
                             "starting and ending with a letter or digit, e.g. sandisk-ultra-64gb-microsdxc")


def bus_from_name(name):
    """(bus, why): SD Express when the name says Express, UHS-II when it says so, else UHS-I."""
    lowered = name.lower()
    if "express" in lowered:
        return "SD Express", "the name says Express"
    if re.search(r"uhs-?ii\b", lowered):
        return "UHS-II", "from the name"
    return "UHS-I", "default"


def given_values(given, path):
    """The card fields the contributor gave ({"capacity_gb": "1TB", "bus": "uhs-ii", …}), read as
    make new-card reads them; CardFileError naming the field and its option when one is not valid."""
    out = {}
    for field, value in (given or {}).items():
        if value is None or field not in CARD_OPTIONS:
            continue
        try:
            out[field] = normalize_answer(field, value)
        except ValueError as exc:
            variable, option = CARD_OPTIONS[field]
            raise CardFileError(path, f"{exc} ({variable}= on make import, {option} on cardbench import)",
                                field=field) from None
    return out


def card_for_name(slug, name, source=None, path=None, given=None):
    """A new card dict from a display name and the values given for it, and where each of capacity,
    bus and form factor came from ({field: (value, why)}: "given", "from the name", "default", …)."""
    path = path or f"data/cards/{slug}.yaml"
    if not name:
        raise CardFileError(path, "card does not exist yet; give its name (--name \"Lexar PLAY PRO 1TB\") to create it")
    chosen = {field: (value, GIVEN) for field, value in given_values(given, path).items()}
    if "capacity_gb" not in chosen:
        try:
            capacity = capacity_from_name(name)
            if capacity is not None:
                capacity = normalize_answer("capacity_gb", capacity)
        except ValueError as exc:
            raise CardFileError(path, f"{exc}: give CAPACITY= (e.g. CAPACITY=64GB) on make import, "
                                      "--capacity on cardbench import", field="capacity_gb") from None
        if capacity is None:
            raise CardFileError(path, f"cannot tell the capacity from the name {name!r}: give CAPACITY= (e.g. "
                                      "CAPACITY=64GB) on make import, --capacity on cardbench import, or include it "
                                      "in the name like '64GB' or '1TB'", field="capacity_gb")
        chosen["capacity_gb"] = (capacity, "from the name")
    chosen.setdefault("bus", bus_from_name(name))
    chosen.setdefault("form_factor", (DEFAULT_FORM_FACTOR, "default"))
    defaults = {field: chosen[field] for field in ("capacity_gb", "bus", "form_factor")}
    card = sessions.new_card(slug, name, defaults["capacity_gb"][0], defaults["form_factor"][0], defaults["bus"][0],
                             source or DEFAULT_SOURCE)
    return card, defaults
