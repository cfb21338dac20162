"""A new card from its display name, for an import into a card that does not exist yet.

Capacity, bus and form factor come from what the contributor gave (CAPACITY=, BUS=, FORM= on
make import; --capacity, --bus, --form), read as `make new-card` reads them; else from the name, as
card.identity reads it: the capacity ("64GB", "1TB"), a hint at the bus ("Express", "UHS-II") and
the form factor ("SDXC" without micro is a full-size card). What neither says is
assumed and listed, so the command line can ask the contributor to check it.
"""

import difflib

from ..card import identity
from ..card import new_card_data
from ..card.store.newcard import normalize_answer
from ..errors import CardFileError

DEFAULT_SOURCE = {"name": "contributor's own run (imported)"}
GIVEN = "given"  # why a value was used: the contributor gave it
# The card field, the make variable and the cardbench import option that set it.
CARD_OPTIONS = {"capacity_gb": ("CAPACITY", "--capacity"), "bus": ("BUS", "--bus"), "form_factor": ("FORM", "--form")}
ASK_OF = {"capacity_gb": "capacity", "bus": "bus", "form_factor": "form_factor"}  # errors.ASKS keys
IDENTITY_GIVEN = ("brand", "model", "markings")  # card fields a source's manifest may give beside the name


def check_slug(slug):
    """CardbenchError when `slug` cannot name a card file (card.identity's rule), naming the import's option."""
    return identity.check_slug(slug, "--card, CARD=")


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
                                field=field, asks=(ASK_OF[field],), reason=str(exc)) from None
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
            capacity = identity.capacity_from_name(name)
            if capacity is not None:
                capacity = normalize_answer("capacity_gb", capacity)
        except ValueError as exc:
            raise CardFileError(path, f"{exc}: give CAPACITY= (e.g. CAPACITY=64GB) on make import, "
                                      "--capacity on cardbench import", field="capacity_gb", asks=("capacity",),
                                reason=str(exc)) from None
        if capacity is None:
            raise CardFileError(path, f"cannot tell the capacity from the name {name!r}: give CAPACITY= (e.g. "
                                      "CAPACITY=64GB) on make import, --capacity on cardbench import, or include it "
                                      "in the name like '64GB' or '1TB'", field="capacity_gb", asks=("capacity",),
                                reason=f"cannot tell the capacity from the name {name!r}")
        chosen["capacity_gb"] = (capacity, identity.FROM_NAME)
    chosen.setdefault("bus", identity.bus_from_name(name))
    chosen.setdefault("form_factor", identity.form_factor_from_name(name))
    defaults = {field: chosen[field] for field in ("capacity_gb", "bus", "form_factor")}
    card = new_card_data.new_card(slug, name, defaults["capacity_gb"][0], defaults["form_factor"][0],
                                  defaults["bus"][0], source or DEFAULT_SOURCE)
    # A brand of two words ("Amazon Basics", "Silicon Power") is given apart from the name by a source's manifest.
    for field in IDENTITY_GIVEN:
        if (given or {}).get(field):
            card[field] = given[field]
    if card.get("markings"):
        card = {**{k: v for k, v in card.items() if k != "sessions"}, "sessions": card["sessions"]}
    return card, defaults


def slug_for_name(name, given=None, path="data/cards/<card>.yaml"):
    """The slug a name makes (as the "Add a result" form makes it): brand, model, capacity, form factor
    and bus from what was given, else from the name; CardFileError when the name cannot make one."""
    card, _ = card_for_name("placeholder", name, path=path, given=given)
    slug = identity.make_slug(card["brand"], card["model"], card["capacity_gb"], card["form_factor"],
                              identity.card_family(card["capacity_gb"]), card["bus"])
    if not slug:
        raise CardFileError(path, f"the name {name!r} has no letters or digits a web address can use; give the card's "
                                  "slug (CARD=, --card), e.g. " + identity.SLUG_EXAMPLE, field="slug")
    return slug


def similar_cards(cards_dir, slug, most=3):
    """Slugs of cards the site has that are close to a new card's: the same brand and model with another
    capacity or size, or nearly the same letters (a typo); the closest first."""
    known = sorted(path.stem for path in cards_dir.glob("*.yaml") if path.stem != slug)
    base = _without_capacity_and_kind(slug)
    # The same capacity in the other size first (a microSD taken for the SD card), then other capacities.
    same_model = sorted((other for other in known if base and _without_capacity_and_kind(other) == base),
                        key=lambda other: (_capacity_word(other) != _capacity_word(slug),
                                           -difflib.SequenceMatcher(None, slug, other).ratio()))
    close = difflib.get_close_matches(slug, known, n=most, cutoff=0.9)
    return list(dict.fromkeys(same_model + close))[:most]


def _capacity_at(words):
    return next((i for i, word in enumerate(words)
                 if word[:-2].replace(".", "").isdigit() and word[-2:] in ("gb", "tb")), None)


def _without_capacity_and_kind(slug):
    """'sandisk-extreme-64gb-microsdxc' -> 'sandisk-extreme'."""
    words = slug.split("-")
    at = _capacity_at(words)
    return "-".join(words[:at]) if at else ""


def _capacity_word(slug):
    """'sandisk-extreme-64gb-microsdxc' -> '64gb'."""
    words = slug.split("-")
    at = _capacity_at(words)
    return words[at] if at is not None else ""
