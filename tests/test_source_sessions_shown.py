"""What a session read from a published source shows on its card's page and twin: its source cited down to
the commit and licence, the source's own name for the card, an SPI host and its clock (ranked apart), the
CID register decoded with a manufacturer that contradicts the brand flagged, and a fake found from the
usable against the announced capacity."""

from cardbench.figures.aggregate import aggregate
from cardbench.pages.cardhtml import card_page_text
from cardbench.pages.pagemodel import card_page

SOURCE = {"name": "ironsheep/P2-uSD-FS card pages", "author": "Stephen M Moraco", "repository": "ironsheep/P2-uSD-FS",
          "path": "DOCs/cards/sandisk-sn64g-64gb.md", "commit": "88e337a31b9521b6467fe601f0f4f49f7e331081",
          "url": "https://github.com/ironsheep/P2-uSD-FS/blob/88e337a31b9521b6467fe601f0f4f49f7e331081/DOCs/cards/x.md",
          "license": "MIT"}
# A SanDisk CID (manufacturer 0x03), as ironsheep/P2-uSD-FS prints one: '$03 $53 $44 $53 $4E $36 $34 $47 …'.
SANDISK_CID = "035344534e363447867e650771016b8d"


def card(brand="SanDisk", sessions=None):
    return {"schema_version": 1, "slug": "sandisk-extreme-64gb-microsdxc", "brand": brand, "model": "Extreme",
            "capacity_gb": 64, "family": "SDXC", "form_factor": "microSD", "bus": "UHS-I", "source": SOURCE,
            "sessions": sessions or []}


def spi_session(**extra):
    return {"id": "p2-25mhz", "label": "P2 over SPI, 350 MHz sysclk", "date": "2026-02-17",
            "card_label": "SanDisk SN64G", "host": "Parallax P2 Edge Module", "interface": "SPI", "clock_mhz": 25,
            "source": SOURCE, "cid": SANDISK_CID,
            "tools": [{"name": "sd-performance-benchmark"}],
            "tool_results": [{"tool": "sd-performance-benchmark", "test": "Sequential read (256 KB)", "op": "read",
                              "access": "sequential", "unit": "kB/s", "runs": [1420]}], **extra}


def full_speed_session():
    return {"id": "pi5", "label": "Table", "source": SOURCE, "tools": [{"name": "table"}],
            "tool_results": [{"tool": "table", "test": "Read 16m", "op": "read", "access": "sequential", "unit": "MB/s",
                              "runs": [88.15], "block_size": "16M"}]}


def page_of(data):
    twin = aggregate([data])["cards"][data["slug"]]
    return twin, card_page(twin)


def test_the_source_is_cited_down_to_its_commit_and_licence():
    twin, page = page_of(card(sessions=[spi_session()]))
    text = card_page_text(page, "https://github.com/o/r/commits/main")
    assert ("ironsheep/P2-uSD-FS, DOCs/cards/sandisk-sn64g-64gb.md at commit <code>88e337a31b95</code>; licence: MIT"
            in text)
    assert ("The source&#39;s name for it</dt><dd>SanDisk SN64G" in text
            or "The source's name for it</dt><dd>SanDisk SN64G" in text)


def test_an_spi_session_says_so_and_never_speaks_for_the_card():
    twin, page = page_of(card(sessions=[spi_session(), full_speed_session()]))
    text = card_page_text(page, "https://github.com/o/r/commits/main")
    assert "<dt>Interface</dt><dd>SPI at 25 MHz" in text
    assert twin["headline"]["seq_read"]["mb_s"] == 88.15  # the full-speed session's, never the SPI one's
    alone, _ = page_of(card(sessions=[spi_session()]))
    assert alone["headline"]["seq_read"] is None


def test_the_cid_register_is_decoded_and_a_brand_it_contradicts_is_flagged():
    twin, page = page_of(card(sessions=[spi_session()]))
    cid = twin["sessions"][0]["cid"]
    assert (cid["manufacturer_id"], cid["oem_id"], cid["product_name"], cid["serial"], cid["manufactured"]) == (
        3, "SD", "SN64G", "0x7e650771", "2022-11")
    assert not [f for f in twin["findings"] if f["id"] == "manufacturer_id"]
    text = card_page_text(page, "https://github.com/o/r/commits/main")
    assert "manufacturer ID 0x03 (SanDisk), OEM ID SD, product name SN64G" in text
    lexar, _ = page_of(card(brand="Lexar", sessions=[spi_session()]))
    [flag] = [f for f in lexar["findings"] if f["id"] == "manufacturer_id"]
    assert "0x03, not Lexar's" in flag["text"]


def test_a_card_holding_far_less_than_announced_shows_as_fake():
    session = {"id": "h2", "label": "H2testw", "source": SOURCE, "tools": [{"name": "h2testw"}],
               "capacity_check": {"tool": "h2testw", "verdict": "data lost", "usable_bytes": round(14.4 * 2**30),
                                  "announced_bytes": 256 * 10**9}}
    twin, page = page_of(card(sessions=[session]))
    [fake] = [f for f in twin["findings"] if f["id"] == "fake_capacity"]
    assert fake["text"].startswith("FAKE capacity: only 15.5 GB of 256 GB") and fake["fake"] is True
    genuine = dict(session, capacity_check={"tool": "h2testw", "verdict": "ok", "usable_bytes": round(58.2 * 2**30),
                                            "announced_bytes": 64 * 10**9})
    twin, _ = page_of(card(sessions=[genuine]))
    [ok] = [f for f in twin["findings"] if f["id"] == "fake_capacity"]
    assert ok["fake"] is False
