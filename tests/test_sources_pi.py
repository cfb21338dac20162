"""Published Raspberry Pi microSD results (data/sources/): the Pi Dramble wiki's tables (Jeff Geerling), yacy's dd
table and Thomas Kaiser's iozone output. Every figure below was copied by hand from the source's file at the commit
its manifest names (read_file text), with where it stands; the cards are what `cardbench sources` makes of the kept
files (re-derive data/ first)."""

from pathlib import Path

from cardbench.card.load import load_card
from cardbench.imports.sources import _heading_level, read_manifests

from test_sources import DATA, figure, session_of

PIDRAMBLE = "pidramble, Raspberry Pi 4 model B"


def dd_of(session, op):
    [entry] = [e for e in session["dd"] if e["op"] == op]
    return entry


# --- geerlingguy/drupal-for-kubernetes: the pidramble wiki page's five HTML tables --------------------------------

def test_pidramble_pi4_row_gives_hdparm_dd_and_iozone_as_printed():
    # <h2 id="4-model-b">Rasbperry Pi 4 model B</h2>, row "Samsung Pro+ 32GB":
    # "43.90 MB/s" | "39.6 MB/s" | "10.77 MB/s" | "2.61 MB/s"
    session = session_of("samsung-pro-plus-32gb-microsdhc", PIDRAMBLE)
    assert (session["host"], session["card_label"]) == ("Raspberry Pi 4 model B", "Samsung Pro+ 32GB")
    hdparm = figure(session, "hdparm -t")
    assert (hdparm["tool"], hdparm["runs"], hdparm["unit"]) == ("hdparm", [43.9], "MB/s")
    dd = dd_of(session, "write")
    assert ((dd["runs"], dd["unit"], dd["block_size"], dd["count"], dd["flags"])
            == ([39.6], "MB/s", "8K", 51200, ["fsync"]))
    assert figure(session, "4K rand read")["runs"] == [10.77]
    assert (figure(session, "4K rand write")["runs"], figure(session, "4K rand write")["block_size"]) == ([2.61], "4K")


def test_pidramble_overclocked_and_other_hosts():
    # "Rasbperry Pi 3 model B - overclocked microSD", row "Samsung Pro 16GB<sup>1</sup>": 31.59 | 32.8 | 11.20 | 1.48;
    # footnote 1: "I could only overclock at 80 MHz reliably."
    overclocked = session_of("samsung-pro-16gb-microsdhc", "pidramble, Raspberry Pi 3 model B, overclocked microSD")
    assert overclocked["host"] == "Raspberry Pi 3 model B" and "80 MHz" in overclocked["conditions"]
    assert figure(overclocked, "hdparm -t")["runs"] == [31.59]
    assert dd_of(overclocked, "write")["runs"] == [32.8]
    assert figure(overclocked, "4K rand read")["runs"] == [11.2]
    # "Rasbperry Pi 3 model B+", row "Sony C10 U3 32GB": 19.51 | 18.5 | 2.26 | 0.65
    sony = session_of("sony-microsd-card-32gb-microsdhc", "pidramble, Raspberry Pi 3 model B plus")
    assert sony["host"] == "Raspberry Pi 3 model B+"
    assert [figure(sony, t)["runs"][0] for t in ("hdparm -t", "4K rand read", "4K rand write")] == [19.51, 2.26, 0.65]
    # "Rasbperry Pi 4 model B", row "SanDisk Extreme U3 V30 A2 64GB": 43.73 | 36.3 (the card bretmlw's source made)
    extreme = session_of("sandisk-extreme-64gb-microsdxc", PIDRAMBLE)
    assert (figure(extreme, "hdparm -t")["runs"], dd_of(extreme, "write")["runs"]) == ([43.73], [36.3])


def test_pidramble_cells_without_figures_and_usb_drives_are_left_out():
    # "Rasbperry Pi 2 model B", row "PNY Turbo (C10 90MB/s) 16GB": 17.46 MB/s | TODO | 6.25 MB/s | 0.62 MB/s
    pny = session_of("pny-turbo-16gb-microsdhc", "pidramble, Raspberry Pi 2 model B")
    assert "dd" not in pny and figure(pny, "hdparm -t")["runs"] == [17.46]
    assert figure(pny, "4K rand write")["runs"] == [0.62]
    # row "No-name (C4) 4GB": 13.37 MB/s | Sad | Painful | Excruciating
    no_name = session_of("no-name-microsd-card-4gb-microsdhc", "pidramble, Raspberry Pi 2 model B")
    assert [e["test"] for e in no_name["tool_results"]] == ["hdparm -t"] and "dd" not in no_name
    assert figure(no_name, "hdparm -t")["runs"] == [13.37]
    slugs = {item.slug() for item in read_manifests(DATA)}
    assert not [slug for slug in slugs if "owc" in slug or "ultra-fit" in slug]
    # Two Toshiba 16GB rows that name no line are one card, each session keeping its own label:
    # Pi 4 "Toshiba C10 U1 16GB": 41.62 MB/s; Pi 2 "Toshiba (C10 40MB/s) 16GB": 4K rand write 0.21 MB/s
    toshiba = load_card(DATA / "cards" / "toshiba-microsd-card-16gb-microsdhc.yaml").data
    labels = {s["card_label"]: s for s in toshiba["sessions"]}
    assert figure(labels["Toshiba C10 U1 16GB"], "hdparm -t")["runs"] == [41.62]
    assert figure(labels["Toshiba (C10 40MB/s) 16GB"], "4K rand write")["runs"] == [0.21]


# --- yacy/yacy_grid_cluster doc/sd_card_speed.md ------------------------------------------------------------------

def test_yacy_dd_table_per_host_and_overclocked():
    # row "SanDisk Extreme 128GB UHS-I U3 A1 V30": Sequential Write Test "RPi3:&nbsp;22.5<br>RPi4:&nbsp;40.2",
    # Sequential Read Test "RPi3:&nbsp;23.4<br>RPi4:&nbsp;44.5", (Overclocked) 26.5 and 38.3
    slug = "sandisk-extreme-128gb-microsdxc"
    pi3 = session_of(slug, "yacy dd, Raspberry Pi 3B+")
    assert (dd_of(pi3, "write")["runs"], dd_of(pi3, "read")["runs"]) == ([22.5], [23.4])
    assert (dd_of(pi3, "write")["block_size"], dd_of(pi3, "write")["count"], dd_of(pi3, "write")["unit"]) == \
        ("500K", 1024, "MB/s")
    assert "flags" not in dd_of(pi3, "write")
    pi4 = session_of(slug, "yacy dd, Raspberry Pi 4")
    assert pi4["host"] == "Raspberry Pi 4, Raspbian GNU/Linux 10 (buster)"
    assert (dd_of(pi4, "write")["runs"], dd_of(pi4, "read")["runs"]) == ([40.2], [44.5])
    overclocked = session_of(slug, "yacy dd, Raspberry Pi 3B+, overclocked")
    assert "overclock_50=100" in overclocked["conditions"]
    assert (dd_of(overclocked, "write")["runs"], dd_of(overclocked, "read")["runs"]) == ([26.5], [38.3])
    # row "Transcend Premium 16GB C10 U1": Sequential Read Test "RPi3:&nbsp;23.4<br>RPi4:&nbsp;43.39"
    assert dd_of(session_of("transcend-premium-16gb-microsdhc", "yacy dd, Raspberry Pi 4"), "read")["runs"] == [43.39]
    # row "SanDisk 16GB C2": 6.5 | 18.2 | 7.5 | 30.3
    c2 = "sandisk-microsd-card-16gb-microsdhc"
    assert dd_of(session_of(c2, "yacy dd, Raspberry Pi 3B+"), "write")["runs"] == [6.5]
    assert dd_of(session_of(c2, "yacy dd, Raspberry Pi 3B+, overclocked"), "read")["runs"] == [30.3]


# --- ThomasKaiser/Knowledge articles/A1_and_A2_rated_SD_cards.md --------------------------------------------------

def test_thomas_kaiser_iozone_excerpts():
    label = "iozone, NanoPi NEO4"
    # "#### [SanDisk Extreme Pro A2 64GB](http://ix.io/1p2L)", row
    # "102400       4     1971     1992     7182     7061     5373     2324"
    pro = session_of("sandisk-extreme-pro-64gb-microsdxc", label)
    random_read = figure(pro, "iozone random read (102400 kB file, 4 kB records)")
    assert (random_read["runs"], random_read["unit"], random_read["block_size"]) == ([5373], "KiB/s", "4K")
    assert figure(pro, "iozone random write (102400 kB file, 4 kB records)")["runs"] == [2324]
    assert "direct" not in random_read and "results" not in pro  # the excerpt does not print iozone's settings
    # "#### [Intenso 'Class 4' 4GB](http://ix.io/1oSl)", row
    # "102400   16384    10607    10630    43731    43963    43714    10604"
    intenso = session_of("intenso-class-4-4gb-microsdhc", label)
    assert figure(intenso, "iozone write (102400 kB file, 16384 kB records)")["runs"] == [10607]
    assert figure(intenso, "iozone reread (102400 kB file, 16384 kB records)")["runs"] == [43963]
    # "#### [SanDisk 'Ultra' 8GB](http://ix.io/1oQP)",
    # row "102400      16     6261     5402    22981    22891    22608       84"
    ultra = session_of("sandisk-ultra-8gb-microsdhc", label)
    assert figure(ultra, "iozone random write (102400 kB file, 16 kB records)")["runs"] == [84]
    assert len(ultra["tool_results"]) == 48


# --- how the kept files are cut into parts -------------------------------------------------------------------------

def test_html_heading_lines_are_parts_of_their_level():
    assert _heading_level('<h2 id="3-model-b">Rasbperry Pi 3 model B</h2>') == 2
    assert _heading_level("<H4>x</H4>") == 4 and _heading_level("<hr>") is None and _heading_level("<td>1</td>") is None
    [item] = [i for i in read_manifests(DATA) if i.source_dir.name == "geerlingguy-pidramble-microsd-benchmarks"
              and i.session["label"] == "pidramble, Raspberry Pi 3 model B plus" and i.card["model"] == "PRO"]
    text = item.text()
    assert text.count("<table>") == 1 and "21.85 MB/s" in text and "Rasbperry Pi 3 model B</h2>" not in text


def test_one_kept_table_gives_a_card_one_session_per_label():
    card = load_card(DATA / "cards" / "transcend-premium-16gb-microsdhc.yaml").data
    ours = [s for s in card["sessions"] if s["label"].startswith("yacy dd")]
    assert len(ours) == 3 and len({s["imported_sha256"][0] for s in ours}) == 1
    assert Path(DATA / ours[0]["raw"][0]).is_file()


# --- pbaja/DoubleDecker src/choosing_sd_card.md and auyongcheemeng/no-style-please (2025-05-27 post) -----------------

def test_doubledecker_table_in_the_unit_its_note_gives():
    # "| SanDisk Extreme Pro 64GB       | 290.7 | 111.5 | 14.6      | 1.3        |"
    # below the table: "*All speeds are in MB/s. Rand Read/Write = 4K Random Read/Write*"
    session = session_of("sandisk-extreme-pro-64gb-microsdxc", "DoubleDecker guide table")
    assert (figure(session, "Read")["runs"], figure(session, "Read")["unit"]) == ([290.7], "MB/s")
    assert (figure(session, "Rand Write")["runs"], figure(session, "Rand Write")["block_size"]) == ([1.3], "4K")
    assert "host" not in session and "date" not in session
    # "| Samsung Evo Plus 256GB         | 88.2  | 23.0  | 5.1       | 0.9        |"
    evo = session_of("samsung-evo-plus-256gb-microsdxc", "DoubleDecker guide table")
    assert [figure(evo, t)["runs"][0] for t in ("Read", "Write", "Rand Read", "Rand Write")] == [88.2, 23, 5.1, 0.9]


def test_crystaldiskmark_read_and_write_of_one_cell_and_the_day_tested():
    # "| 2025-05-27    | Kioxia MicroSD G2 128GB UHS I \t\t| \t96.14 / 65.84\t\t| \t17.97 / 4.70\t\t| 2023,2025 |"
    kioxia = session_of("kioxia-g2-128gb-microsdxc", "CrystalDiskMark 8")
    assert kioxia["date"] == "2025-05-27"
    assert [figure(kioxia, t)["runs"][0] for t in ("Seq. 1 MiB read", "Seq. 1 MiB write", "Random 4KiB read",
                                                    "Random 4KiB write")] == [96.14, 65.84, 17.97, 4.7]
    # "| 2025-05-27    | Sandisk MicroSD High Endurance 64GB UHS I\t| \t95.40 / 63.66  \t\t| \t 7.73 / 3.91\t\t| 2019 |"
    endurance = session_of("sandisk-high-endurance-64gb-microsdxc", "CrystalDiskMark 8")
    assert figure(endurance, "Random 4KiB write")["runs"] == [3.91]
    assert figure(endurance, "Seq. 1 MiB read")["runs"] == [95.4]
    assert not (DATA / "cards" / "kingston-microsd-32gb-microsdhc.yaml").exists()  # its row prints "TBD"
