"""Identify cards from fixture sysfs trees: SD registers, USB reader links, NVMe controllers."""


import pytest

from cardbench.collect.guard.device import decode_cid, host_description, identify, manufacturer_name, pcie_link_text
from cardbench.collect.session_open import public_device_facts

from guardhost import host_tree

HOST = host_tree()


@pytest.mark.parametrize("manfid,name", [("0x000003", "SanDisk"), ("0x00001b", "Samsung"), ("0x000028", "Lexar"),
                                         ("0x000027", "Phison"), ("0x000074", "Transcend"), ("0x00009f", "Kingston"),
                                         (0x1D, "ADATA"), ("0x0000ee", None), ("junk", None)])
def test_sd_manufacturer_ids(manfid, name):
    assert manufacturer_name(manfid) == name


def test_cid_is_decoded():
    cid = decode_cid("035344534436344780db5a62b2014a00")
    assert cid == {"manufacturer_id": 3, "manufacturer": "SanDisk", "oem_id": "SD", "product_name": "SD64G",
                   "product_revision": "8.0", "serial": "0xdb5a62b2", "manufactured": "2020-10"}
    assert decode_cid("not hex") is None


def test_sd_card_on_an_sd_host():
    info = identify("/dev/mmcblk0", "179:0", root=HOST)
    assert info.transport == "mmc"
    assert info.size_bytes == 124735488 * 512
    assert info.logical_block_size == 512 and info.physical_block_size == 512
    assert info.sd["manufacturer"] == "SanDisk" and info.sd["name"] == "SD64G" and info.sd["date"] == "10/2020"
    assert info.sd["timing"] == "sd uhs SDR104"
    assert info.title() == "SanDisk SD64G"
    assert info.reader() == "built-in SD host fe320000.mmc: sd uhs SDR104, 208 MHz, 4-bit"
    assert info.bus_guess() == "UHS-I"


@pytest.mark.parametrize("name,majmin,link", [("sdb", "8:16", "USB 3.x 5 Gb/s"), ("sdc", "8:32", "USB 2.0")])
def test_usb_reader_link_speed(name, majmin, link):
    info = identify(f"/dev/{name}", majmin, root=HOST)
    assert info.transport == "usb"
    assert info.usb["link"] == link
    assert info.reader().startswith(f"{link} card reader")


def test_usb_reader_identity():
    info = identify("/dev/sdb", "8:16", root=HOST)
    assert (info.usb["vendor_id"], info.usb["product_id"]) == ("0bda", "0316")
    assert (info.vendor, info.model) == ("Generic-", "SD/MMC")
    assert "63.9 GB" in info.description()


def test_sd_express_card_on_nvme():
    info = identify("/dev/nvme0n1", "259:0", root=HOST)
    assert info.transport == "nvme" and info.bus_guess() == "SD Express"
    assert info.nvme == {"controller": "nvme0", "model": "SD Express card ADATA SD71", "serial": "SN0123456789",
                         "firmware": "W0926A", "pcie_link": "PCIe Gen3 x1"}
    assert info.reader() == "PCIe NVMe (SD Express), PCIe Gen3 x1"


@pytest.mark.parametrize("speed,width,text", [("8.0 GT/s PCIe", "1", "PCIe Gen3 x1"),
                                              ("16.0 GT/s PCIe", "4", "PCIe Gen4 x4"),
                                              ("2.5 GT/s", None, "PCIe Gen1"), ("Unknown", "1", None)])
def test_pcie_link_text(speed, width, text):
    assert pcie_link_text(speed, width) == text


def test_published_facts_leave_out_serial_numbers():
    facts = public_device_facts(identify("/dev/mmcblk0", "179:0", root=HOST))
    text = repr(facts)
    assert "db5a62b2" not in text and "serial" not in facts
    assert facts["sd"]["cid_fields"]["product_name"] == "SD64G"
    nvme = public_device_facts(identify("/dev/nvme0n1", "259:0", root=HOST))
    assert "SN0123456789" not in repr(nvme)


def test_host_description():
    assert host_description(HOST).startswith("LENOVO ThinkPad T14, Debian GNU/Linux 12 (bookworm), Linux ")


def _pi_tree(root):
    """A Raspberry Pi 5's '/' as the collector reads it: its device-tree model and a card in the
    built-in slot, run at SDR104 with the clock the controller reached."""
    def write(path, text):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)

    write(root / "proc" / "device-tree" / "model", "Raspberry Pi 5 Model B Rev 1.0\x00")
    write(root / "etc" / "os-release", 'PRETTY_NAME="Debian GNU/Linux 12 (bookworm)"\n')
    controller = root / "sys" / "devices" / "platform" / "axi" / "1000fff000.mmc"
    driver = root / "sys" / "bus" / "platform" / "drivers" / "sdhci-brcmstb"
    driver.mkdir(parents=True)
    controller.mkdir(parents=True)
    (controller / "driver").symlink_to(driver)
    card = controller / "mmc_host" / "mmc0" / "mmc0:59b4"
    for key, value in {"name": "USD00", "manfid": "0x000027", "date": "03/2023", "serial": "0x1234abcd"}.items():
        write(card / key, value + "\n")
    disk = card / "block" / "mmcblk0"
    for key, value in {"dev": "179:0", "size": "124735488", "ro": "0", "removable": "0"}.items():
        write(disk / key, value + "\n")
    (disk / "device").symlink_to(card)
    (root / "sys" / "dev" / "block").mkdir(parents=True)
    (root / "sys" / "dev" / "block" / "179:0").symlink_to(disk)
    (root / "sys" / "class" / "block").mkdir(parents=True)
    (root / "sys" / "class" / "block" / "mmcblk0").symlink_to(disk)
    write(root / "sys" / "kernel" / "debug" / "mmc0" / "ios",
          "clock:\t\t100000000 Hz\nactual clock:\t100000000 Hz\nvdd:\t\t21 (3.3 ~ 3.4 V)\n"
          "bus width:\t2 (4 bits)\ntiming spec:\t6 (sd uhs SDR104)\nsignal voltage:\t1 (1.80 V)\n")


def test_a_raspberry_pi_and_its_sd_slot_are_named(tmp_path):
    _pi_tree(tmp_path)
    assert host_description(tmp_path).startswith(
        "Raspberry Pi 5 Model B Rev 1.0, Debian GNU/Linux 12 (bookworm), Linux ")
    info = identify("/dev/mmcblk0", "179:0", root=tmp_path)
    assert info.sd["clock_hz"] == 100_000_000 and info.sd["bus_width"] == 4
    assert info.reader() == "built-in SD host 1000fff000.mmc, sdhci-brcmstb: sd uhs SDR104, 100 MHz, 4-bit"
