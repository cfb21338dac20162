"""nvme-cli imports: `nvme list` gives the card's device facts, sudo's password prompt does not stop an
import, and a temperature of 0 K is no reading."""

from pathlib import Path

from cliimport import imported_session
from cardbench.imports.importer import session_fields
from cardbench.imports.transcript import unwrap
from cardbench.parsers import nvme

CORPUS = Path(__file__).parent / "fixtures" / "import-corpus" / "nvme"
LIST = CORPUS / "nvme--list-sudo-zero-kelvin.out"
SMART = ("Smart Log for NVME device:nvme0 namespace-id:ffffffff\ncritical_warning\t\t\t: 0\n"
         "temperature\t\t\t\t: {}\navailable_spare\t\t\t\t: 100%\n")


def test_nvme_list_rows_give_device_facts():
    text = LIST.read_text(encoding="utf-8")
    table = "\n".join(text.splitlines()[2:5])
    assert nvme.detect(table) != 0
    device, = nvme.parse(table)["devices"]
    assert device == {"node": "/dev/nvme0n1", "serial": "EXA0000000009012", "model": "EXAMPLE MICROSD EXPRESS 128GB",
                      "namespace": "1", "usage": "128.04 GB / 128.04 GB", "format": "512 B + 0 B", "firmware": "1.2.0"}


def test_nvme_list_behind_sudo_password_imports(tmp_path, capsys):
    session = imported_session(LIST, tmp_path, capsys, name="Acme Express 128GB")
    assert session["nvme"]["model"] == "EXAMPLE MICROSD EXPRESS 128GB" and session["nvme"]["firmware"] == "1.2.0"
    assert "usage 128.04 GB / 128.04 GB, format 512 B + 0 B" in session["notes"]


def test_sudo_password_prompt_is_taken_off_line_for_line():
    text = "$ sudo nvme smart-log /dev/nvme0\n[sudo] password for pi: \n" + SMART.format("34°C (307 Kelvin)")
    unwrapped = unwrap(text)
    assert unwrapped.splitlines()[1] == "" and len(unwrapped.splitlines()) == len(text.splitlines())
    assert session_fields("nvme", unwrapped).measurements["nvme"]["temperature_c"]["before"] == 34
    glued = unwrap("[sudo] password for pi: Smart Log for NVME device:nvme0 namespace-id:ffffffff\n")
    assert glued.startswith("Smart Log for NVME")


def test_zero_kelvin_is_dropped_with_a_note():
    assert nvme.parse(SMART.format("-273°C (0 Kelvin)"))["temperature_c"] is None
    assert nvme.parse('{"critical_warning": 0, "temperature": 0, "avail_spare": 100}')["temperature_c"] is None
    text = "\n".join(["$ nvme smart-log /dev/nvme0", SMART.format("-273°C (0 Kelvin)"),
                      "$ nvme smart-log /dev/nvme0", SMART.format("41°C (314 Kelvin)")])
    fields = session_fields("nvme", text)
    assert fields.measurements["nvme"]["temperature_c"] == {"before": 41, "max": 41}
    assert any("reported 0 K" in note for note in fields.notes)


def test_nvme_cli_1x_list_and_several_devices():
    head = ["Node             SN                   Model                                    Namespace Usage"
            "                      Format           FW Rev  ",
            "---------------- -------------------- ---------------------------------------- --------- "
            "-------------------------- ---------------- --------"]
    rows = ["/dev/nvme0n1     EXA0000000000001     EXAMPLE SSD 1TB                          1         "
            "  1.00  TB /   1.00  TB    512   B +  0 B   3.1     ",
            "/dev/nvme1n1     EXA0000000000002     EXAMPLE SD EXPRESS 256GB                 1         "
            "256.06  GB / 256.06  GB    512   B +  0 B   1.0     "]
    devices = nvme.parse("\n".join(head + rows))["devices"]
    assert [(d["node"], d["model"], d["firmware"]) for d in devices] == [
        ("/dev/nvme0n1", "EXAMPLE SSD 1TB", "3.1"), ("/dev/nvme1n1", "EXAMPLE SD EXPRESS 256GB", "1.0")]
    fields = session_fields("nvme", "$ nvme list\n" + "\n".join(head + rows) + "\n$ nvme smart-log /dev/nvme1\n"
                       + SMART.format("41°C (314 Kelvin)"))
    assert "model" not in fields.measurements["nvme"]  # which device is the card the list does not say
    assert sum("nvme list:" in note for note in fields.notes) == 2


def test_nvme_list_json():
    listed = ('{\n  "Devices":[\n    {\n      "NameSpace":1,\n      "DevicePath":"/dev/nvme0n1",\n'
              '      "Firmware":"1.2.0",\n      "ModelNumber":"EXAMPLE MICROSD EXPRESS 128GB",\n'
              '      "SerialNumber":"EXA0000000009012",\n      "UsedBytes":128035676160,\n'
              '      "MaximumLBA":250069680,\n      "PhysicalSize":128035676160,\n'
              '      "SectorSize":512\n    }\n  ]\n}\n')
    assert nvme.detect(listed) != 0
    device, = nvme.parse(listed)["devices"]
    assert (device["model"], device["serial"], device["firmware"]) == (
        "EXAMPLE MICROSD EXPRESS 128GB", "EXA0000000009012", "1.2.0")
    assert device["usage"] == "128.04 GB / 128.04 GB" and device["format"] == "512 B"
    fields = session_fields("nvme", "$ nvme list -o json\n" + listed)
    assert fields.measurements["nvme"]["model"] == "EXAMPLE MICROSD EXPRESS 128GB"
