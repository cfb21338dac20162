"""A new card from its display name, for an import into a card that does not exist yet.

The name gives the capacity ("64GB", "1TB") and hints at the bus ("Express", "UHS-II"); what the
name cannot say is assumed and listed, so the command line can ask the contributor to check it.
"""

import re

from ..card import sessions
from ..errors import CardFileError

DEFAULT_SOURCE = {"name": "contributor's own run (imported)"}
DEFAULT_FORM_FACTOR = "microSD"


def capacity_from_name(name):
    """GB as marketed from a name: 'Lexar PLAY PRO 1TB' -> 1000, 'SanDisk Ultra 64GB' -> 64; None if absent."""
    match = re.search(r"(\d+(?:\.\d+)?)\s*(GB|TB|G|T)\b", name, re.IGNORECASE)
    if not match:
        return None
    value = float(match.group(1)) * (1000 if match.group(2).upper().startswith("T") else 1)
    return int(value) if value.is_integer() else value


def bus_from_name(name):
    """(bus, why): SD Express when the name says Express, UHS-II when it says so, else UHS-I."""
    lowered = name.lower()
    if "express" in lowered:
        return "SD Express", "the name says Express"
    if re.search(r"uhs-?ii\b", lowered):
        return "UHS-II", "from the name"
    return "UHS-I", "default"


def card_for_name(slug, name, source=None, path=None):
    """A new card dict from a display name, and the defaults assumed ({field: (value, why)})."""
    path = path or f"data/cards/{slug}.yaml"
    if not name:
        raise CardFileError(path, "card does not exist yet; give its name (--name \"Lexar PLAY PRO 1TB\") to create it")
    capacity = capacity_from_name(name)
    if capacity is None:
        raise CardFileError(path, f"cannot tell the capacity from the name {name!r}; include it like '64GB' or "
                                  "'1TB'", field="capacity_gb")
    bus, why = bus_from_name(name)
    defaults = {"capacity_gb": (capacity, "from the name"), "bus": (bus, why),
                "form_factor": (DEFAULT_FORM_FACTOR, "default")}
    card = sessions.new_card(slug, name, capacity, DEFAULT_FORM_FACTOR, bus, source or DEFAULT_SOURCE)
    return card, defaults
