"""Real capacity: f3probe's verdict, and a manufacturer ID that does not fit the brand on the label."""

from .common import finding, gb_text

# Manufacturer IDs (the CID register's first byte) that a brand's own cards carry. The SD
# Association assigns them without publishing the list; these come from mmc-utils' lsmmc.c table
# of SD manufacturers (0x01 Panasonic, 0x02 Toshiba, 0x03 and 0x30 SanDisk, 0x28 Lexar) and the
# Linux kernel's drivers/mmc/core/card.h (CID_MANFID_SANDISK_SD 0x3). Only brands that make their
# own cards are listed: many others sell cards made by someone else under their name (a Kingston
# card with a Gigastone ID 0x12 is genuine), so for them an unexpected ID proves nothing. Samsung
# is left out: lsmmc.c names its usual ID 0x1B Transcend.
BRAND_MANUFACTURER_IDS = {
    "sandisk": {0x03, 0x30},
    "lexar": {0x28},
    "panasonic": {0x01},
    "toshiba": {0x02},
    "kioxia": {0x02},
}
MID_SOURCE = "mmc-utils lsmmc.c and Linux drivers/mmc/core/card.h"


def f3probe_findings(card):
    out = []
    for session in card.get("sessions") or []:
        probe = session.get("f3probe")
        if not isinstance(probe, dict) or "fake" not in probe:
            continue
        announced, usable = probe.get("announced_bytes"), probe.get("usable_bytes")
        sizes = ""
        if isinstance(announced, int) and isinstance(usable, int):
            sizes = f": {gb_text(usable)} usable of {gb_text(announced)} announced"
        if probe["fake"]:
            text = "FAKE capacity" + (f": only {gb_text(usable)} of {gb_text(announced)}" if sizes else "")
            basis = f"f3probe finds the card reports more than it holds{sizes}"
        else:
            text = "genuine" + (f": {gb_text(usable)}" if isinstance(usable, int) else "")
            basis = f"f3probe finds every announced block holds data{sizes}"
        out.append(finding("fake_capacity", usable if isinstance(usable, int) else None, "bytes", basis, session,
                           text, fake=bool(probe["fake"]),
                           announced_bytes=announced if isinstance(announced, int) else None))
    return out, []


def manufacturer_id(facts):
    """The CID manufacturer ID in a collector's device facts (collect.json), or None."""
    sd = (facts or {}).get("sd") or {}
    value = (sd.get("cid_fields") or {}).get("manufacturer_id")
    if value is None and sd.get("manfid") is not None:
        try:
            value = int(str(sd["manfid"]), 16)
        except ValueError:
            return None
    return value if isinstance(value, int) and 0 <= value <= 0xFF else None


def manufacturer_findings(card, device_facts):
    """device_facts: session id -> the collector's device facts. A finding only where the brand is
    one whose own cards carry known IDs and the card's ID is none of them."""
    out = []
    expected = BRAND_MANUFACTURER_IDS.get(str(card.get("brand", "")).strip().casefold())
    for session in card.get("sessions") or []:
        mid = manufacturer_id((device_facts or {}).get(session["id"]))
        if mid is None or expected is None or mid in expected:
            continue
        known = ", ".join(f"0x{m:02X}" for m in sorted(expected))
        basis = (f"the card's CID register names manufacturer 0x{mid:02X}; {card['brand']} cards carry {known} "
                 f"({MID_SOURCE}): the card may not be what its label says")
        out.append(finding("manufacturer_id", mid, "MID", basis, session,
                           f"0x{mid:02X}, not {card['brand']}'s ({known})", contradicts_brand=True))
    return out, []
