"""Identify a card: size, sector sizes, vendor/model, SD registers, USB reader link, NVMe controller.

All reading goes through a root folder (default '/') so tests can use fixture trees.
"""

import os
import platform
import re
from dataclasses import asdict, dataclass, field
from pathlib import Path

from ...core.units import HZ_IN_MHZ, SECTOR_BYTES, gb_from_bytes, gib_from_bytes
from ...core.sd_registers import SD_MANUFACTURERS, decode_cid, manufacturer_name  # noqa: F401 (the collector's names)
from .sysfs import BlockTree, read_attr

# USB link speed in Mb/s (sysfs 'speed') to the name users know.
USB_SPEEDS = {"1.5": "USB 1.x low speed", "12": "USB 1.x", "480": "USB 2.0", "5000": "USB 3.x 5 Gb/s",
              "10000": "USB 3.x 10 Gb/s", "20000": "USB 3.2 20 Gb/s", "40000": "USB4 40 Gb/s"}

# PCIe transfer rate (GT/s) to generation.
PCIE_GENERATIONS = {"2.5": 1, "5.0": 2, "5": 2, "8.0": 3, "8": 3, "16.0": 4, "16": 4, "32.0": 5, "32": 5}

SD_REGISTER_FILES = ("cid", "csd", "scr", "ssr", "manfid", "oemid", "name", "date", "serial", "fwrev", "hwrev",
                     "type", "preferred_erase_size", "erase_size")


@dataclass
class DeviceInfo:
    path: str
    name: str
    majmin: str
    size_bytes: int
    logical_block_size: int | None = None
    physical_block_size: int | None = None
    removable: bool | None = None
    read_only: bool | None = None
    transport: str = "unknown"  # mmc, usb, nvme, loop, virtio, scsi
    vendor: str | None = None
    model: str | None = None
    serial: str | None = None
    sd: dict = field(default_factory=dict)
    usb: dict = field(default_factory=dict)
    nvme: dict = field(default_factory=dict)
    loop: dict = field(default_factory=dict)

    def to_dict(self):
        return {k: v for k, v in asdict(self).items() if v not in (None, {}, [])}

    def title(self):
        """'SanDisk SD64G' or the SCSI vendor/model, for prompts and logs."""
        if self.sd:
            maker = self.sd.get("manufacturer") or f"manufacturer {self.sd.get('manfid', '?')}"
            return f"{maker} {self.sd.get('name', '')}".strip()
        parts = [p for p in (self.vendor, self.model) if p]
        return " ".join(parts) or self.transport

    def description(self):
        """'Generic STORAGE DEVICE, 63.9 GB (59.5 GiB), USB 3.x 5 Gb/s reader'."""
        text = f"{self.title()}, {gb_from_bytes(self.size_bytes):.1f} GB ({gib_from_bytes(self.size_bytes):.1f} GiB)"
        return f"{text}, {self.reader()}"

    def reader(self):
        """How the card is attached, in the words of the session's 'reader' field."""
        if self.transport == "usb":
            speed = USB_SPEEDS.get(self.usb.get("speed_mbps", ""), f"{self.usb.get('speed_mbps', '?')} Mb/s")
            who = " ".join(p for p in (self.usb.get("manufacturer"), self.usb.get("product")) if p)
            ids = f"{self.usb.get('vendor_id', '?')}:{self.usb.get('product_id', '?')}"
            return f"{speed} card reader{' ' + who if who else ''} ({ids})"
        if self.transport == "mmc":
            host = ", ".join(p for p in (self.sd.get("controller"), self.sd.get("driver")) if p)
            mode = [self.sd.get("timing")]
            if self.sd.get("clock_hz"):
                mode.append(f"{self.sd['clock_hz'] / HZ_IN_MHZ:g} MHz")
            if self.sd.get("bus_width"):
                mode.append(f"{self.sd['bus_width']}-bit")
            mode = ", ".join(p for p in mode if p)
            return f"built-in SD host{' ' + host if host else ''}{': ' + mode if mode else ''}"
        if self.transport == "nvme":
            link = self.nvme.get("pcie_link")
            return f"PCIe NVMe (SD Express){', ' + link if link else ''}"
        if self.transport == "loop":
            return "loop device (file-backed test card)"
        return f"{self.transport} block device"

    def bus_guess(self):
        """Schema 'bus' for a new card: NVMe means SD Express; otherwise UHS-I unless known better."""
        return "SD Express" if self.transport == "nvme" else "UHS-I"

    def identity(self):
        """What ties a resumed session to the same card: size plus the card's serial when known."""
        serial = self.sd.get("serial") or self.nvme.get("serial") or self.serial
        return {"size_bytes": self.size_bytes, "serial": serial}


def identity_changes(before, now):
    """Besides the size, what shows that `now` is another card than `before` (both DeviceInfo):
    serial, CID, NVMe serial, a loop device's backing file. Values are not shown (serials stay private)."""
    pairs = (("serial number", before.identity()["serial"], now.identity()["serial"]),
             ("CID register", before.sd.get("cid"), now.sd.get("cid")),
             ("loop backing file", _backing(before), _backing(now)))
    return [f"its {what} differs" for what, old, new in pairs if old != new]


def _backing(info):
    # The kernel appends " (deleted)" once the file is unlinked; it is still the same file.
    path = info.loop.get("backing_file")
    return path.removesuffix(" (deleted)") if path else path


def _int(text):
    try:
        return int(text)
    except (TypeError, ValueError):
        return None


def _find_up(start, marker, stop):
    """Nearest ancestor folder of start (inclusive) holding a file named marker."""
    here = Path(start)
    stop = Path(stop)
    while here != stop and here != here.parent:
        if (here / marker).exists():
            return here
        here = here.parent
    return None


def _read_ios(root, host):
    """What the SD host runs the card at, from debugfs (mmcN/ios), when mounted: bus timing
    ('timing spec: 6 (sd uhs SDR104)'), clock in Hz (the one actually set where the host says) and
    bus width in bits."""
    ios = read_attr(Path(root) / "sys" / "kernel" / "debug" / host / "ios", "")
    found = {}
    for key, pattern in (("timing", r"^timing spec:\s*\d+\s*\(([^)]*)\)"), ("clock_hz", r"^clock:\s*(\d+) Hz"),
                         ("actual_clock_hz", r"^actual clock:\s*(\d+) Hz"),
                         ("bus_width", r"^bus width:\s*\d+\s*\((\d+) bits\)")):
        match = re.search(pattern, ios, re.M)
        if match:
            found[key] = match.group(1) if key == "timing" else int(match.group(1))
    if "actual_clock_hz" in found:  # the clock the controller reached, not the one asked for
        found["clock_hz"] = found.pop("actual_clock_hz")
    return found


def _sd_controller(host_dir):
    """The SD host controller the card sits on: its device name and driver ('fe340000.mmc',
    'sdhci-brcmstb'), from the mmc_host's parent device in sysfs."""
    controller = host_dir.parent.parent if host_dir.parent.name == "mmc_host" else host_dir.parent
    driver = controller / "driver"
    return {"controller": controller.name,
            "driver": Path(os.path.realpath(driver)).name if os.path.islink(driver) else None}


def _sd_registers(root, node):
    device_dir = node.path / "device"
    values = {key: read_attr(device_dir / key) for key in SD_REGISTER_FILES}
    values = {k: v for k, v in values.items() if v}
    if not values:
        return {}
    values["manufacturer"] = manufacturer_name(values.get("manfid"))
    cid = decode_cid(values.get("cid"))
    if cid:
        values["cid_fields"] = cid
        values["manufacturer"] = values["manufacturer"] or cid["manufacturer"]
    host_dir = Path(os.path.realpath(device_dir)).parent
    if host_dir.name.startswith("mmc"):
        values.update(_read_ios(root, host_dir.name))
        values.update(_sd_controller(host_dir))
    return {k: v for k, v in values.items() if v is not None}


def _usb_reader(root, node):
    usb_dir = _find_up(node.path, "idVendor", Path(root) / "sys")
    if usb_dir is None:
        return {}
    info = {
        "vendor_id": read_attr(usb_dir / "idVendor"),
        "product_id": read_attr(usb_dir / "idProduct"),
        "manufacturer": read_attr(usb_dir / "manufacturer"),
        "product": read_attr(usb_dir / "product"),
        "speed_mbps": read_attr(usb_dir / "speed"),
        "usb_version": (read_attr(usb_dir / "version") or "").strip() or None,
    }
    speed = info["speed_mbps"]
    info["link"] = USB_SPEEDS.get(speed) if speed else None
    return {k: v for k, v in info.items() if v}


def pcie_link_text(speed, width):
    """('8.0 GT/s PCIe', '1') -> 'PCIe Gen3 x1'."""
    match = re.match(r"([0-9.]+)\s*GT/s", speed or "")
    if not match:
        return None
    gen = PCIE_GENERATIONS.get(match.group(1))
    gen_text = f"Gen{gen}" if gen else f"{match.group(1)} GT/s"
    return f"PCIe {gen_text}" + (f" x{width}" if width else "")


def _nvme_controller(node):
    """Model, serial, firmware and PCIe link of the controller behind a namespace (nvme0n1).

    Without native multipath the namespace sits in its controller's folder (.../nvme/nvme0/nvme0n1);
    with it, in a subsystem folder (nvme-subsys0/nvme0n1) that links to its controllers (nvme0).
    """
    ctrl = node.path.parent
    if ctrl.name.startswith("nvme-subsys"):
        controllers = sorted(p for p in ctrl.iterdir() if re.fullmatch(r"nvme\d+", p.name))
        if controllers:
            ctrl = Path(os.path.realpath(controllers[0]))
    info = {
        "controller": ctrl.name if ctrl.name.startswith("nvme") else None,
        "model": read_attr(ctrl / "model"),
        "serial": read_attr(ctrl / "serial"),
        "firmware": read_attr(ctrl / "firmware_rev"),
    }
    pci = ctrl / "device" if (ctrl / "device").exists() else ctrl.parent.parent
    info["pcie_link"] = pcie_link_text(read_attr(pci / "current_link_speed"), read_attr(pci / "current_link_width"))
    return {k: v for k, v in info.items() if v}


def identify(device_path, majmin, root="/"):
    """Everything knowable about the device without I/O to it."""
    tree = BlockTree(root)
    node = tree.node_for_majmin(majmin)
    if node is None:
        raise ValueError(f"{majmin} not in sysfs")
    sectors = _int(node.attr("size")) or 0
    info = DeviceInfo(
        path=str(device_path), name=node.name, majmin=majmin, size_bytes=sectors * SECTOR_BYTES,
        logical_block_size=_int(node.attr("queue/logical_block_size")),
        physical_block_size=_int(node.attr("queue/physical_block_size")),
        removable=node.attr("removable") == "1" if node.attr("removable") is not None else None,
        read_only=node.attr("ro") == "1" if node.attr("ro") is not None else None,
    )
    resolved = str(node.path)
    if node.name.startswith("mmcblk"):
        info.transport = "mmc"
        info.sd = _sd_registers(root, node)
    elif node.name.startswith("nvme"):
        info.transport = "nvme"
        info.nvme = _nvme_controller(node)
        info.model, info.serial = info.nvme.get("model"), info.nvme.get("serial")
    elif node.name.startswith("loop"):
        info.transport = "loop"
        info.model = "Loop device"
        info.loop = {k: v for k, v in (("backing_file", node.attr("loop/backing_file")),
                                        ("direct_io", node.attr("loop/dio"))) if v}
    elif "/usb" in resolved:
        info.transport = "usb"
        info.usb = _usb_reader(root, node)
    elif "/virtio" in resolved:
        info.transport = "virtio"
    elif (node.path / "device" / "vendor").exists():
        info.transport = "scsi"
    if info.transport in ("usb", "scsi"):
        info.vendor = node.attr("device/vendor")
        info.model = node.attr("device/model")
    if info.transport == "mmc":
        info.serial = info.sd.get("serial")
    return info


def host_description(root="/"):
    """'Debian GNU/Linux 12 (bookworm), Linux 6.1.0 x86_64' after the machine's model when known:
    a Raspberry Pi's (or any device-tree board's) model, else the DMI vendor and product."""
    os_release = read_attr(Path(root) / "etc" / "os-release", "")
    match = re.search(r'^PRETTY_NAME="?([^"\n]*)"?', os_release, re.M)
    system = match.group(1) if match else platform.system()
    machine = board_model(root) or " ".join(p for p in (read_attr(Path(root) / "sys/class/dmi/id/sys_vendor"),
                                                        read_attr(Path(root) / "sys/class/dmi/id/product_name")) if p)
    text = f"{system}, Linux {platform.release()} {platform.machine()}"
    return f"{machine}, {text}" if machine else text


def board_model(root="/"):
    """A device-tree board's model ('Raspberry Pi 5 Model B Rev 1.0'), NUL-terminated in
    /proc/device-tree/model; None on a PC."""
    for where in ("proc/device-tree/model", "sys/firmware/devicetree/base/model"):
        text = read_attr(Path(root) / where)
        if text:
            model = text.replace("\x00", "").strip()
            if model:
                return model[:100]
    return None


def session_notes(profile_name, info):
    """What the collector knows about the card and how it ran, for readers of the card page."""
    parts = [f"Measured with the cardbench collector ({profile_name} profile) through a {info.reader()}."]
    if info.sd:
        cid = info.sd.get("cid_fields") or {}
        maker = info.sd.get("manufacturer") or f"unknown manufacturer {info.sd.get('manfid', '')}".strip()
        bits = [f"SD card registers: manufacturer {maker}"]
        if info.sd.get("name"):
            bits.append(f"product name {info.sd['name']}")
        if info.sd.get("oemid"):
            bits.append(f"OEM ID {info.sd['oemid']}")
        if info.sd.get("date") or cid.get("manufactured"):
            bits.append(f"made {info.sd.get('date') or cid.get('manufactured')}")
        if info.sd.get("fwrev") or cid.get("product_revision"):
            bits.append(f"revision {cid.get('product_revision') or info.sd.get('fwrev')}")
        parts.append(", ".join(bits) + ".")
    parts.append(f"Device size {info.size_bytes} bytes ({gb_from_bytes(info.size_bytes):.2f} GB), "
                 f"logical/physical sector {info.logical_block_size}/{info.physical_block_size} bytes.")
    return " ".join(parts)[:5000]
