"""Published results of cards read by microcontrollers (SPI, SDIO): figures copied by hand from each source's
file at the commit its manifest names, with where they stand, compared with the cards made from the kept files."""

from cardbench.imports.sources import Import

from test_sources import figure, session_of

P2 = "SD_performance_benchmark, {} MHz sysclk"


def test_ironsheep_p2_usd_fs_card_pages():
    # amazon-basics-usd00-64gb.md @eae460e, "### Performance Benchmarks (350 MHz sysclk)":
    # "| Read (1x512B) | 512B | 408 us | 411 us | 431 us | 1,245 KB/s |"
    amazon = session_of("amazon-basics-64gb-microsdxc", P2.format(350))
    read = figure(amazon, "Raw Single-Sector: Read (1x512B), 512B")
    assert (read["tool"], read["op"], read["runs"], read["unit"]) == ("sd-performance-benchmark", "read", [1245],
                                                                      "kB/s")
    # same table, under "| **Raw Multi-Sector Write (CMD25)** |": "| 64 sectors | 32 KB | 14,212 us | 14,213 us |
    # 14,216 us | 2,305 KB/s |"
    write = figure(amazon, "Raw Multi-Sector Write (CMD25): 64 sectors, 32 KB")
    assert (write["op"], write["runs"]) == ("write", [2305])
    # "**SPI Clock:** 25,000 kHz" and "CID: $AD $4C $53 $55 $53 $44 $30 $30 $20 $35 $84 $1E $2E $A1 $97 $27"
    assert (amazon["interface"], amazon["clock_mhz"], amazon["conditions"]) == ("SPI", 25, "350 MHz sysclk")
    assert amazon["cid"] == "ad4c5355534430302035841e2ea19727"
    assert amazon["host"] == "P2 Edge Module with microSD slot" and amazon["date"] == "2026-02-17"
    # sandisk-sn64g-64gb.md @eae460e, "### Performance Benchmarks (250 MHz sysclk)", "| **File Read** |":
    # "| open+read+close | 256 KB | 279,774 us | 279,945 us | 280,869 us | 936 KB/s |"
    extreme = session_of("sandisk-extreme-64gb-microsdxc", P2.format(250))
    assert figure(extreme, "File Read: open+read+close, 256 KB")["runs"] == [936]
    # gigastone-astc-64gb.md @59a2854, "#### 320 MHz Run": "**SysClk**: 320 MHz | **SPI**: 22,857 kHz" and
    # "| File Write 32 KB | 87,504 | 89,198 | 91,386 | **367** |"
    camera = session_of("gigastone-camera-plus-64gb-microsdxc", P2.format(320))
    assert camera["clock_mhz"] == 22.857 and figure(camera, "File Write 32 KB")["runs"] == [367]
    assert figure(camera, "File Write 32 KB")["op"] == "write"
    # sandisk-sn128-128gb.md @474a2dd, "#### 250 MHz Run (2026-02-17)": "| Read 64 sectors (32 KB) | 14,743 |
    # 14,743 | 14,743 | **2,222** |"
    assert figure(session_of("sandisk-nintendo-switch-128gb-microsdxc", P2.format(250)),
                  "Read 64 sectors (32 KB)")["runs"] == [2222]
    # samsung-gd4qt-128gb.md @10a32c4, "#### 270 MHz Run (File-Level Only)": "| File Read 256 KB | 342,910 | 343,077 |
    # 344,231 | **764** |"; "**SPI**: 22,500 kHz"; the CID ($C030_5565) is that unit's, kept with it only
    evo = session_of("samsung-evo-select-128gb-microsdxc", P2.format(270))
    assert (figure(evo, "File Read 256 KB")["runs"], evo["clock_mhz"], evo["date"]) == ([764], 22.5, "2026-02-08")
    assert evo["cid"] == "1b534d474434515430c03055650125e9"
    assert "cid" not in session_of("samsung-evo-select-128gb-microsdxc", P2.format(350))
    # samsung-jd1y7-128gb.md @8227be0 (CRLF lines), "### Performance Benchmarks (350 MHz sysclk)", "| **File Write** |":
    # "| create+write+close | 32 KB | 42,216 us | 43,220 us | 45,498 us | 758 KB/s |"
    assert figure(session_of("samsung-pro-endurance-128gb-microsdxc", P2.format(350)),
                  "File Write: create+write+close, 32 KB")["runs"] == [758]


def test_phenomite_proffie_sdcard_speedtests():
    # SDCARD_SPEEDTESTS.md @69842c0, "## proffie 2 spi", "* **sandisk 64gb extreme pro** winner:":
    # "  * 1137.44 kb/s, 12.90 simultaneous audio streams. Average time: 3401.97 us"
    pro = session_of("sandisk-extreme-pro-64gb-microsdxc", "sdtest, proffie 2 spi")
    speed = figure(pro, "Average speed")
    assert (speed["tool"], speed["op"], speed["runs"], speed["unit"]) == ("proffieos-sdtest", "read", [1137.44],
                                                                          "KiB/s")
    assert (pro["host"], pro["interface"]) == ("proffie 2", "SPI") and "date" not in pro
    # "* sandisk max endurance 32gb card batch #2:" / "  * 1082.70 kb/s, 12.28 simultaneous audio streams."
    card = "sandisk-max-endurance-32gb-microsdhc"
    assert figure(session_of(card, "sdtest, proffie 2 spi, batch #2"), "Average speed")["runs"] == [1082.7]
    # "## proffie 3 sdio high", "* sandisk max endurance 32gb card batch #1:" / "  * 1853.61 kb/s, 21.02 …"
    sdio = session_of(card, "sdtest, proffie 3 sdio high, batch #1")
    assert figure(sdio, "Average speed")["runs"] == [1853.61]
    assert (sdio["host"], sdio["conditions"]) == ("proffie 3", "sdio high") and "interface" not in sdio
    # "* sandisk ultra a1 16gb:" / "  * 1822.65 kb/s, 20.67 simultaneous audio streams. Average time: 2692.77 us"
    assert figure(session_of("sandisk-ultra-16gb-microsdhc", "sdtest, proffie 3 sdio high"),
                  "Average speed")["runs"] == [1822.65]


def test_an_import_may_read_several_parts_of_a_file_in_its_order(tmp_path):
    (tmp_path / "page.md").write_text("# Card\n### Registers\nCID: x\n### Run A\n| a |\n### Run B\n| b |\n",
                                      encoding="utf-8")
    item = Import(tmp_path, 1, "page.md", ("### Run B", "### Registers"), "table", None, {}, {}, {})
    assert item.text() == "### Run B\n| b |\n\n### Registers\nCID: x\n"
