"""Real capacity: f3probe's verdict, H2testw's and f3read's checks of data read back, and a manufacturer ID
that does not fit the brand on the label."""

from ...core.sd_registers import decode_cid
from .finding import finding, gb_text

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
        damaged = probe.get("verdict") == "damaged"
        if damaged:  # fails to keep data at all: a broken card, not one that lies about its size
            text = "DAMAGED: the card does not keep the data written to it"
            basis = f"f3probe's own verdict: the device is damaged{sizes}"
        elif probe["fake"]:
            text = "FAKE capacity" + (f": only {gb_text(usable)} of {gb_text(announced)}" if sizes else "")
            basis = f"f3probe finds the card reports more than it holds{sizes}"
        else:
            text = "genuine" + (f": {gb_text(usable)}" if isinstance(usable, int) else "")
            basis = f"f3probe finds every announced block holds data{sizes}"
        out.append(finding("fake_capacity", usable if isinstance(usable, int) else None, "bytes", basis, session,
                           text, fake=bool(probe["fake"]), damaged=damaged,
                           announced_bytes=announced if isinstance(announced, int) else None))
    return out, []


# Usable capacity below this share of the announced one is a fake: a genuine card's filesystem holds about 93 %
# of its marketed bytes (GiB against GB, less the filesystem's own), never under 90 %.
FAKE_SHARE = 0.9
# What each capacity check tool is called where a finding names its basis.
CHECK_TOOLS = {"h2testw": "H2testw", "f3rw": "f3write/f3read"}


def capacity_check_findings(card):
    """H2testw's and f3read's verdicts on data written to the card's filesystem and read back. Lost data
    is not proof of a fake (a failing card loses data too), so the finding says what was lost, in the
    tool's own words, and leaves "fake" to f3probe."""
    out = []
    for session in card.get("sessions") or []:
        check = session.get("capacity_check")
        if not isinstance(check, dict) or check.get("verdict") not in ("ok", "data lost"):
            continue
        tool = CHECK_TOOLS.get(check.get("tool"), str(check.get("tool")))
        written, ok, lost = (check.get(key) for key in ("bytes_written", "bytes_ok", "bytes_lost"))
        words = f" (\u201c{check['verdict_text']}\u201d)" if check.get("verdict_text") else ""
        usable, announced = check.get("usable_bytes"), check.get("announced_bytes")
        if isinstance(usable, int) and isinstance(announced, int) and announced and usable < FAKE_SHARE * announced:
            text = f"FAKE capacity: only {gb_text(usable)} of {gb_text(announced)} holds data"
            basis = (f"{tool} found {gb_text(usable)} usable on a card announced as {gb_text(announced)}"
                     + (" and lost data" if check["verdict"] == "data lost" else ""))
            out.append(finding("fake_capacity", usable, "bytes", basis, session, text, fake=True,
                               data_lost=check["verdict"] == "data lost", tool=check.get("tool"),
                               announced_bytes=announced))
            continue
        if check["verdict"] == "data lost":
            amount = f"{gb_text(lost)} of {gb_text(written)} written" if isinstance(lost, int) and written else ""
            text = "DATA LOST" + (f": {amount}" if amount else "")
            basis = f"{tool}'s own verdict{words}: data written to the card did not read back as written"
        else:
            text = "all data read back" + (f": {gb_text(written)}" if isinstance(written, int) else
                                       f": {gb_text(usable)} usable" if isinstance(usable, int) else "")
            basis = f"{tool}'s own verdict{words}: every test file read back as written"
        out.append(finding("fake_capacity", ok if isinstance(ok, int) else None, "bytes", basis, session, text,
                           fake=False, data_lost=check["verdict"] == "data lost", tool=check.get("tool")))
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
        if mid is None and session.get("cid"):  # the register as a source printed it
            mid = (decode_cid(session["cid"]) or {}).get("manufacturer_id")
        if mid is None or expected is None or mid in expected:
            continue
        known = ", ".join(f"0x{m:02X}" for m in sorted(expected))
        basis = (f"the card's CID register names manufacturer 0x{mid:02X}; {card['brand']} cards carry {known} "
                 f"({MID_SOURCE}): the card may not be what its label says")
        out.append(finding("manufacturer_id", mid, "MID", basis, session,
                           f"0x{mid:02X}, not {card['brand']}'s ({known})", contradicts_brand=True))
    return out, []
