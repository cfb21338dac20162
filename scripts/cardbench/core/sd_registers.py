"""The SD card's CID register read into its fields, and the manufacturer IDs it may carry.

decode_cid(hex) -> {manufacturer_id, manufacturer, oem_id, product_name, product_revision, serial, manufactured}
manufacturer_name(manfid) -> a name, or None when the ID is not known
"""

import re

# SD manufacturer IDs (CID MID byte). Assigned by the SD Association and not published; these are
# the ones known from mmc-utils (lsmmc.c) and the Linux MMC quirk table (drivers/mmc/core/card.h).
SD_MANUFACTURERS = {
    0x01: "Panasonic",
    0x02: "Toshiba/Kioxia",
    0x03: "SanDisk",
    0x08: "Silicon Power",
    0x18: "Infineon",
    0x1B: "Samsung",
    0x1C: "Transcend",
    0x1D: "ADATA",
    0x1E: "Transcend",
    0x1F: "Kingston",
    0x27: "Phison",
    0x28: "Lexar",
    0x30: "SanDisk",
    0x31: "Silicon Power",
    0x33: "STMicroelectronics",
    0x41: "Kingston",
    0x6F: "STMicroelectronics",
    0x74: "Transcend",
    0x76: "Patriot",
    0x82: "Sony",
    0x9F: "Kingston",
}


def manufacturer_name(manfid):
    """'0x000003' or 3 -> 'SanDisk'; None when unknown."""
    try:
        value = int(manfid, 16) if isinstance(manfid, str) else int(manfid)
    except (TypeError, ValueError):
        return None
    return SD_MANUFACTURERS.get(value)


def decode_cid(cid_hex):
    """Fields of a 128-bit SD CID register given as 32 hex digits (as in sysfs 'cid')."""
    text = (cid_hex or "").strip().lower()
    if not re.fullmatch(r"[0-9a-f]{32}", text):
        return None
    raw = bytes.fromhex(text)
    mdt = ((raw[13] & 0x0F) << 8) | raw[14]
    year, month = 2000 + (mdt >> 4), mdt & 0x0F

    def printable(chunk):
        return "".join(chr(b) if 32 <= b < 127 else "?" for b in chunk)

    return {
        "manufacturer_id": raw[0],
        "manufacturer": SD_MANUFACTURERS.get(raw[0]),
        "oem_id": printable(raw[1:3]),
        "product_name": printable(raw[3:8]).strip(),
        "product_revision": f"{raw[8] >> 4}.{raw[8] & 0x0F}",
        "serial": f"0x{int.from_bytes(raw[9:13], 'big'):08x}",
        "manufactured": f"{year:04d}-{month:02d}",
    }
