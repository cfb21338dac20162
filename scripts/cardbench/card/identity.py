"""What identifies a card, read one way for `make new-card`, `cardbench import` and the collector.

  check_slug(slug, option)       the slug that names data/cards/<slug>.yaml, held to the schema's rule
  make_slug(brand, model, …)     'SanDisk', 'Extreme PRO', 256, 'microSD', 'SDXC' → sandisk-extreme-pro-256gb-microsdxc
  card_family(capacity_gb)       SD, SDHC, SDXC or SDUC, as the SD standard assigns it
  parse_capacity(value)          a capacity as given: '256', '1TB', '1.5 TB' → GB as marketed
  capacity_from_name(name)       the capacity a name states ('Lexar PLAY PRO 1TB' → 1000), or None
  marketed_capacity_gb(bytes)    the capacity printed on a card that reports `bytes`
  form_factor_from_name(name)    (form factor, why): SD when the name says SD/SDXC without micro
  bus_from_name(name)            (bus, why): SD Express or UHS-II when the name says so, else UHS-I

The title readers see (core/titles.py) needs nothing of the card's files, so the site reads it there.
"""

import re
import unicodedata

from ..core.units import GB_IN_TB, gb_from_bytes, tb_from_gb
from ..errors import CardbenchError, quoted
from .checks.schema_findings import schema_validator

SLUG_EXAMPLE = "sandisk-ultra-64gb-microsdxc"
FROM_NAME = "from the name"  # why a value was used: the name says it
DEFAULT = "default"  # why a value was used: nothing said otherwise
# Capacities cards are sold in (GB as marketed); a card reports a little less than its marketed figure.
STANDARD_CAPACITIES_GB = (1, 2, 4, 8, 16, 32, 64, 128, 256, 400, 512, 1000, 1024, 1500, 2000)

# A capacity and its unit, as given ("256", "1TB", "1.5 TB") or inside a name ("64GB", "1TB", "64 GB").
# Possessive, and in a name only where a number starts: a run of digits read from each of its digits in
# turn would take quadratic time.
_NUMBER, _UNIT = r"(\d++(?:\.\d++)?+)\s*+", r"(GB|TB|G|T)"
_CAPACITY_GIVEN = re.compile(rf"\s*+{_NUMBER}{_UNIT}?\s*", re.IGNORECASE)
_CAPACITY_IN_NAME = re.compile(rf"(?<!\d){_NUMBER}{_UNIT}\b", re.IGNORECASE)
# What may stand before a capacity that is a word of its own: "(64GB)", "64GB/128GB", "Ultra 64GB".
_BEFORE_CAPACITY = " \t([/,"


# --- slugs --------------------------------------------------------------------------------------

def _schema_rule(field):
    return schema_validator().schema["properties"][field]


def _slug_rule():
    return _schema_rule("slug")


def slug_max():
    """The longest slug the schema allows (a file name must stay well under the file system's limit)."""
    return _slug_rule()["maxLength"]


def check_slug(slug, option, error=CardbenchError):
    """`slug` when it can name a card file, else `error` naming the option that sets it ("--card, CARD=").
    Checked before any path is made of it: a name too long for the file system, "../x". The whole text
    must match the schema's pattern, as JSON Schema means it: Python's `$` would let a final newline by."""
    most = slug_max()
    if isinstance(slug, str) and len(slug) > most:
        raise error(f"card slug of {len(slug)} characters ({option}): at most {most}; {quoted(slug)}")
    pattern = _slug_rule()["pattern"].removeprefix("^").removesuffix("$")
    if not isinstance(slug, str) or not re.fullmatch(pattern, slug):
        raise error(f"card slug {quoted(str(slug))} ({option}): use lowercase letters, digits and hyphens, "
                    f"starting and ending with a letter or digit, e.g. {SLUG_EXAMPLE}")
    return slug


def slug_words(text):
    """Text as a slug's words: accents dropped (NFKD), lower case, every other run of characters one hyphen."""
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    return re.sub(r"[^a-z0-9]+", "-", ascii_text.lower()).strip("-")


def make_slug(brand, model, capacity_gb, form_factor, family, bus=None):
    """'SanDisk', 'Extreme PRO', 256, 'microSD', 'SDXC' → 'sandisk-extreme-pro-256gb-microsdxc';
    SD Express cards end in -microsd-express / -sd-express instead. '' when nothing of brand and model
    survives in ASCII: the contributor picks the slug then."""
    if model.lower().startswith(brand.lower() + " "):
        model = model[len(brand) + 1:]  # 'Lexar' + 'Lexar Play' → lexar-play, not lexar-lexar-play
    if not slug_words(f"{brand} {model}"):
        return ""
    capacity = f"{tb_from_gb(capacity_gb):g}tb" if capacity_gb >= GB_IN_TB else f"{capacity_gb:g}gb"
    kind = ("micro" if form_factor == "microSD" else "") + ("sd-express" if bus == "SD Express" else family.lower())
    # A model that names its capacity ('Extreme 64GB') gives it once: sandisk-extreme-64gb-…, not …-64gb-64gb-…
    number, unit = capacity[:-2], capacity[-2:]
    name = re.sub(rf"(^|-){re.escape(number)}-?{unit}(?=-|$)", "", slug_words(f"{brand} {model}")).strip("-")
    slug = slug_words(f"{name or brand} {capacity} {kind}")
    if len(slug) > slug_max():
        slug = slug[:slug_max()].rsplit("-", 1)[0]
    return slug


# --- capacity -----------------------------------------------------------------------------------

def card_family(capacity_gb):
    """Capacity family the SD standard assigns: SD up to 2 GB, SDHC to 32, SDXC to 2 TB, SDUC above."""
    for limit, family in ((2, "SD"), (32, "SDHC"), (2000, "SDXC")):
        if capacity_gb <= limit:
            return family
    return "SDUC"


def _gigabytes(number, unit):
    value = float(number) * (1000 if (unit or "").upper().startswith("T") else 1)
    return int(value) if value.is_integer() else value


def parse_capacity(value):
    """GB as marketed (10^9 bytes): '256', '256GB', '256 GB', '1TB', '1.5 TB' → 256, 1000, 1500."""
    match = _CAPACITY_GIVEN.fullmatch(str(value))
    if not match:
        raise ValueError(f"capacity {value!r} is not a number of GB (e.g. 256, or 1TB)")
    number, most = _gigabytes(*match.groups()), _schema_rule("capacity_gb")["maximum"]
    if not 0 < number <= most:
        raise ValueError(f"capacity {value!r} is outside 0 to {most} GB")
    return number


def capacity_from_name(name):
    """GB as marketed from a name: 'Lexar PLAY PRO 1TB' -> 1000, 'SanDisk Ultra 64GB' -> 64; None if absent.
    Only a capacity that is a word of its own counts: ValueError for one glued to what stands before
    it ('-64GB', '1e308GB', 'x.5TB'), which would be read as another figure than meant."""
    match = _CAPACITY_IN_NAME.search(name)
    if not match:
        return None
    start = match.start()
    if start > 0 and name[start - 1] not in _BEFORE_CAPACITY:
        glued = name[:match.end()].split()[-1]
        raise ValueError(f"the capacity {quoted(glued)} in the name is not a plain figure like 64GB or 1TB")
    return _gigabytes(*match.groups())


def model_without_capacity(model, capacity_gb):
    """The model as a title shows it beside the capacity: a word of the model naming that same capacity
    ('Speedy 32GB' for a 32 GB card) is left out, so the title says it once. A model that is nothing but
    the capacity stays as it is."""
    def same(match):
        start, end = match.span()
        if (start > 0 and model[start - 1] not in " \t(") or (end < len(model) and model[end] not in " \t),"):
            return match.group(0)
        return "" if _gigabytes(*match.groups()) == capacity_gb else match.group(0)

    kept = " ".join(re.sub(r"\(\s*\)", "", _CAPACITY_IN_NAME.sub(same, model)).split())
    return kept.strip(" ,/") or model


def marketed_capacity_gb(size_bytes):
    """Capacity as printed on the card, from the bytes it reports: 63864569856 → 64; else GB to 0.1."""
    size_gb = gb_from_bytes(size_bytes)
    for capacity in STANDARD_CAPACITIES_GB:
        if 0.9 * capacity <= size_gb <= capacity * 1.001:
            return capacity
    return round(size_gb, 1)


# --- form factor and bus ------------------------------------------------------------------------

def form_factor_from_name(name):
    """(form factor, why): SD when the name says SD, SDHC, SDXC or SDUC as a word and nowhere micro;
    microSD when it says micro; else microSD as the default (most cards tested are microSD)."""
    name = name or ""
    if "micro" in name.lower():
        return "microSD", FROM_NAME
    if re.search(r"\bSD(HC|XC|UC)?\b", name):
        return "SD", FROM_NAME
    return "microSD", DEFAULT


def bus_from_name(name):
    """(bus, why): SD Express when the name says Express, UHS-II when it says so, else UHS-I."""
    lowered = (name or "").lower()
    if "express" in lowered:
        return "SD Express", "the name says Express"
    if re.search(r"uhs-?ii\b", lowered):
        return "UHS-II", FROM_NAME
    return "UHS-I", DEFAULT
