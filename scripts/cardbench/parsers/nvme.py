"""nvme-cli output for SD Express cards: id-ctrl, smart-log, and thermal get-feature.

parse_id_ctrl(text) -> {"model", "serial", "firmware", "thresholds_c": {"wctemp", "cctemp", ...}}
parse_smart_log(text) -> {"temperature_c": float, "sensors_c": [float, ...]}
parse_features(text) -> {"thresholds_c": {"tmpth", "tmt1", "tmt2", ...}}
parse_list(text) -> {"devices": [{"node", "serial", "model", "namespace", "usage", "format", "firmware"}]}
    from `nvme list`'s table (nvme-cli 1.x, and 2.x with its "Generic" column) or its `-o json` output:
    device facts, no figures.
parse(text) detects which of the four and returns its dict with "kind": "id_ctrl" |
"smart_log" | "features" | "list".

Accepted: the normal text output of nvme-cli 1.x and 2.x (with or without -H) and `-o json`.
Temperatures appear as "41 C", "48 C (321 Kelvin)", "41°C (314 Kelvin)", "41 °C (314 K)",
"105 °F (314 K)", "41 °C (314 K, 105 °F)", "354 Kelvin (81°C)", "41 Celsius", or a bare Kelvin
number (id-ctrl wctemp/cctemp, JSON). When a Kelvin figure is printed it wins, converted as
nvme-cli does (°C = K - 273); °F alone is converted to °C and rounded to 0.1.
Thresholds that the card leaves at 0 (not reported) are left out. A temperature of 0 K (-273 °C: what an
emulated or broken sensor reports) is no reading: smart-log gives None for it.

detect(text) -> SHAPED when a line is id-ctrl's or smart-log's heading or names a thermal
threshold, or the text is their `-o json` output (an object with id-ctrl's "mn", "sn", "fr" or
smart-log's "critical_warning", "temperature", "avail_spare"), else NOT_MINE.

parse_file(text) -> the outputs of a log read together: a file may hold several one after another,
    with or without the commands that printed them (behind any prompt, with sudo); output of other
    commands (lsblk) is skipped. to_session(parsed) -> SessionFields with the session's nvme block:
    smart-log readings in file order are the temperature before the tests (the first), after them
    (the last) and the highest; a reading of 0 K is left out with a note.
parsed_outputs(id_ctrl, features) -> what parse_file() gives of id-ctrl and get-feature outputs read one by one
    (the collector's monitor reads each as it runs nvme-cli); to_session() then takes the readings the
    collector timed (`temperature_c`), the card's PCIe link and the raw files as hints.
"""

import json
import re

from ..core.units import gb_from_bytes
from ..errors import ParseError
from . import NOT_MINE, SHAPED
from .text import safejson
from .card_entries import nvme_entry
from .fields import SessionFields
from .text.log_lines import renumbered
from .text.logged_shell import Shell
from .tool import ToolInfo

TOOL = "nvme"
INFO = ToolInfo(name="nvme", programs=("nvme",), family="device facts",
                description="nvme-cli id-ctrl, smart-log, thermal get-feature and list output",
                units={"Kelvin": "°C = K - 273, as nvme-cli converts", "°F": "converted to °C"})

KELVIN_OFFSET = 273  # nvme-cli's kelvin_to_celsius() uses whole degrees

# Key and value are stripped by _pairs(): lazy groups before \s* backtrack in quadratic time over a
# run of spaces, and the key cannot hold ':' anyway.
_KV = re.compile(r"^\s*+([A-Za-z_][\w .\-]*+)\s*+:\s?(.*)$")
# A search starts only where a number starts, and keeps its digits (possessive): linear over a long
# run of digits.
_NUMBER = r"(?<!\d)(?<!\d\.)(-?\d++(?:\.\d++)?+)"
_THRESHOLD = re.compile(r"\((WCTEMP|CCTEMP|TMPTH|TMT1|TMT2|MNTMT|MXTMT)\)")


# `-o json` output: the keys id-ctrl and smart-log always print, quoted as JSON keys.
_JSON_KEYS = (('"mn"', '"sn"', '"fr"'), ('"critical_warning"', '"temperature"', '"avail_spare"'),
              ('"Devices"', '"ModelNumber"', '"SerialNumber"'))


_LIST_HEADER = re.compile(r"^Node\s++(?:Generic\s++)?SN\s++Model\s++Namespace\s++Usage\s++Format\s++FW Rev\s*$")


def detect(text):
    """SHAPED when a line is id-ctrl's or smart-log's heading, `nvme list`'s header or names a thermal
    threshold, or the text is id-ctrl's or smart-log's `-o json` output (a line opening an object, and
    their keys)."""
    for line in text.splitlines():
        if "NVME Identify Controller" in line or "Smart Log for NVME" in line or _THRESHOLD.search(line) \
                or _LIST_HEADER.match(line):
            return SHAPED
    if any(all(key in text for key in keys) for keys in _JSON_KEYS) and any(
            line.lstrip().startswith("{") for line in text.splitlines()):
        return SHAPED
    return NOT_MINE


def temperature_c(text):
    """°C from any nvme-cli temperature spelling; None when there is no temperature."""
    text = str(text).strip()
    kelvin = re.search(_NUMBER + r"\s*+(?:K\b|Kelvin)", text)
    if kelvin:
        return float(kelvin.group(1)) - KELVIN_OFFSET
    celsius = re.search(_NUMBER + r"\s*+(?:°\s?C\b|°C|C\b|Celsius)", text)
    if celsius:
        return float(celsius.group(1))
    fahrenheit = re.search(_NUMBER + r"\s*+(?:°\s?F\b|°F|F\b|Fahrenheit)", text)
    if fahrenheit:
        return round((float(fahrenheit.group(1)) - 32) * 5 / 9, 1)
    return None


def _json(text):
    start = text.find("{")
    if start == -1:
        return None
    try:
        data, _ = safejson.raw_decode(text, start, TOOL)
    except json.JSONDecodeError as exc:
        line = text.count("\n", 0, exc.pos) + 1
        raise ParseError(TOOL, f"broken JSON ({exc.msg})", line=line) from None
    return data if isinstance(data, dict) else None


def _json_temperature(value):
    if isinstance(value, (int, float)):
        return float(value) - KELVIN_OFFSET if value else None
    return temperature_c(value)


def _pairs(text):
    """(line number, key, value) of 'key : value' lines."""
    for number_, line in enumerate(text.splitlines(), start=1):
        match = _KV.match(line)
        if match:
            yield number_, match.group(1).strip(), match.group(2).rstrip(), line


def _thresholds_from_lines(text):
    out = {}
    for number_, line in enumerate(text.splitlines(), start=1):
        found = _THRESHOLD.search(line)
        if not found:
            continue
        name = found.group(1).lower()
        # "(TMPTH): 83°C (356 Kelvin)" puts the value after the name; id-ctrl -H
        # " [15:0] : 83°C (356 Kelvin)\tWarning … (WCTEMP)" puts it before.
        after = line[found.end():].lstrip(" :")
        before = line[: found.start()]
        value = temperature_c(after) if after.strip() else temperature_c(before.split(":", 1)[-1])
        if value is None:
            raise ParseError(TOOL, f"{name} has no temperature", line=number_, text=line)
        if value + KELVIN_OFFSET > 0:
            out[name] = value
    return out


def parse_id_ctrl(text):
    data = _json(text)
    if data is not None and "mn" in data:
        thresholds = {}
        for key in ("wctemp", "cctemp", "mntmt", "mxtmt"):
            if data.get(key):
                thresholds[key] = _json_temperature(data[key])
        return {"model": str(data.get("mn", "")).strip(), "serial": str(data.get("sn", "")).strip(),
                "firmware": str(data.get("fr", "")).strip(), "thresholds_c": thresholds}
    fields = {}
    thresholds = {}
    for number_, key, value, line in _pairs(text):
        if key in ("mn", "sn", "fr"):
            fields[key] = value.strip()
        elif key in ("wctemp", "cctemp", "mntmt", "mxtmt"):
            try:
                kelvin = int(value.split()[0])
            except (ValueError, IndexError):
                raise ParseError(TOOL, f"{key} is not a number of kelvins", line=number_, text=line) from None
            if kelvin:
                thresholds[key] = float(kelvin - KELVIN_OFFSET)
    missing = [k for k in ("mn", "sn", "fr") if k not in fields]
    if missing:
        raise ParseError(TOOL, f"id-ctrl output without {', '.join(missing)} (cut off, or not `nvme id-ctrl`)",
                         line=len(text.splitlines()) or None)
    for name, value in _thresholds_from_lines(text).items():
        thresholds.setdefault(name, value)
    return {"model": fields["mn"], "serial": fields["sn"], "firmware": fields["fr"], "thresholds_c": thresholds}


def _reading(temperature):
    """A smart-log reading in °C, or None for 0 K (a sensor that reads nothing)."""
    return None if temperature is None or temperature + KELVIN_OFFSET <= 0 else temperature


def parse_smart_log(text):
    data = _json(text)
    if data is not None and "temperature" in data:
        sensors = []
        for index in range(1, 9):
            value = data.get(f"temperature_sensor_{index}")
            if value:
                sensors.append(_json_temperature(value))
        reading = _reading(_json_temperature(data["temperature"]))
        return {"temperature_c": reading, "sensors_c": sensors}
    temperature = None
    sensors = []
    for number_, key, value, line in _pairs(text):
        lowered = key.lower()
        if lowered == "temperature" or lowered == "composite temperature":
            temperature = temperature_c(value)
            if temperature is None:
                raise ParseError(TOOL, "temperature not understood", line=number_, text=line)
        elif re.fullmatch(r"temperature sensor \d+", lowered):
            reading = temperature_c(value)
            if reading is None:
                raise ParseError(TOOL, "sensor temperature not understood", line=number_, text=line)
            if _reading(reading) is not None:
                sensors.append(reading)
    if temperature is None:
        raise ParseError(TOOL, "smart-log output without a 'temperature' line", line=len(text.splitlines()) or None)
    reading = _reading(temperature)
    return {"temperature_c": reading, "sensors_c": sensors}


def _json_list(data):
    """`nvme list -o json`: {"Devices": [{"DevicePath", "ModelNumber", "SerialNumber", "Firmware",
    "NameSpace", "UsedBytes", "PhysicalSize", "SectorSize"}]}, worded as the table words them."""
    devices = []
    for device in data["Devices"] if isinstance(data["Devices"], list) else []:
        if not isinstance(device, dict) or not device.get("ModelNumber"):
            continue
        used, size = device.get("UsedBytes"), device.get("PhysicalSize")
        usage = f"{gb_from_bytes(used):.2f} GB / {gb_from_bytes(size):.2f} GB" if all(
            isinstance(v, (int, float)) and not isinstance(v, bool) for v in (used, size)) else ""
        devices.append({"node": str(device.get("DevicePath", "")),
                        "serial": str(device.get("SerialNumber", "")).strip(),
                        "model": str(device["ModelNumber"]).strip(), "namespace": str(device.get("NameSpace", "")),
                        "usage": usage, "format": f"{device['SectorSize']} B" if device.get("SectorSize") else "",
                        "firmware": str(device.get("Firmware", "")).strip()})
    if not devices:
        raise ParseError(TOOL, "nvme list shows no device", line=1)
    return {"devices": devices}


def parse_list(text):
    """`nvme list`'s rows, cut at the columns its dashed line marks (or its `-o json` output)."""
    data = _json(text) if text.lstrip().startswith("{") else None
    if data is not None and "Devices" in data:
        return _json_list(data)
    lines = text.splitlines()
    start = next((i for i, line in enumerate(lines) if _LIST_HEADER.match(line)), None)
    if start is None or start + 1 >= len(lines) or not set(lines[start + 1].strip()) <= {"-", " "}:
        raise ParseError(TOOL, "nvme list output without its header and dashed line", line=(start or 0) + 1)
    spans = [m.span() for m in re.finditer(r"-++", lines[start + 1])]
    names = [lines[start][a:b + 1].strip().lower().replace(" ", "_") for a, b in spans]
    devices = []
    for number, line in enumerate(lines[start + 2:], start=start + 3):
        if not line.strip():
            break
        cells = [line[a:(spans[k + 1][0] if k + 1 < len(spans) else len(line))].strip()
                 for k, (a, _) in enumerate(spans)]
        row = dict(zip(names, cells))
        if not row.get("node", "").startswith("/dev/") or not row.get("model"):
            raise ParseError(TOOL, "an nvme list row without its device or model", line=number, text=line)
        devices.append({"node": row["node"], "serial": row.get("sn", ""), "model": row["model"],
                        "namespace": row.get("namespace", ""), "usage": " ".join(row.get("usage", "").split()),
                        "format": " ".join(row.get("format", "").split()), "firmware": row.get("fw_rev", "")})
    if not devices:
        raise ParseError(TOOL, "nvme list shows no device", line=start + 2)
    return {"devices": devices}


def parse_features(text):
    thresholds = _thresholds_from_lines(text)
    if not thresholds:
        raise ParseError(TOOL, "no thermal thresholds (TMPTH, TMT1, TMT2) found; run get-feature with -H",
                         line=len(text.splitlines()) or None)
    return {"thresholds_c": thresholds}


def parse(text):
    data = _json(text) if text.lstrip().startswith("{") else None
    if data is not None:
        if "mn" in data:
            return {"kind": "id_ctrl", **parse_id_ctrl(text)}
        if "temperature" in data:
            return {"kind": "smart_log", **parse_smart_log(text)}
        if "Devices" in data:
            return {"kind": "list", **parse_list(text)}
        raise ParseError(TOOL, "JSON is neither id-ctrl, smart-log nor list output", line=1)
    if any(_LIST_HEADER.match(line) for line in text.splitlines()):
        return {"kind": "list", **parse_list(text)}
    keys = {key for _, key, _, _ in _pairs(text)}
    if {"mn", "sn", "fr"} & keys or "NVME Identify Controller" in text:
        return {"kind": "id_ctrl", **parse_id_ctrl(text)}
    if "Smart Log" in text or "temperature" in {k.lower() for k in keys}:
        return {"kind": "smart_log", **parse_smart_log(text)}
    if _THRESHOLD.search(text):
        return {"kind": "features", **parse_features(text)}
    lines = text.splitlines()
    raise ParseError(TOOL, "not nvme id-ctrl, smart-log or get-feature output", line=1 if lines else None,
                     text=lines[0] if lines else None)


_OUTPUT_START = re.compile(r"^(NVME Identify Controller|Smart Log for NVME device|get-feature:|Node\s)")
_TEMPERATURE = re.compile(r"^\s*+temperature\s*+:", re.I)  # smart-log's composite reading, not a sensor's
# the nvme subcommands whose output is read; nvme list: read when its table is whole
READ_COMMANDS = {"id-ctrl", "smart-log", "get-feature"}


def outputs(text):
    """(first line number, text, subcommand) of each output in the file: a new one starts at a
    command line ("$ nvme smart-log /dev/nvme0 -o json"; subcommand "smart-log", None for a command
    that is not nvme's), at an output's heading, where one JSON object ends and another starts, or
    at a second smart-log temperature line (subcommand "" when no command line came before it)."""
    shell = Shell(programs={"nvme"})
    blocks, current, start, subcommand, previous, reading = [], [], 1, "", "", False
    for number, line in enumerate(text.splitlines(), start=1):
        commands = shell.read(line)
        next_json = line.lstrip().startswith("{") and previous.strip() == "}"
        temperature = bool(_TEMPERATURE.match(line))
        # `nvme smart-log … | grep temperature` in a loop: one reading a line
        if (commands is not None or _OUTPUT_START.match(line) or next_json or (temperature and reading)) and current:
            blocks.append((start, "\n".join(current), subcommand))
            current, reading = [], False
        reading = reading or temperature
        if commands is not None:
            nvme = [c for c in commands if c.name == "nvme"]
            subcommand = next((a for a in nvme[0].args if not a.startswith("-")), "") if nvme else None
            previous = line
            continue
        if not current:
            start = number
        current.append(line)
        if line.strip():
            previous = line
    blocks.append((start, "\n".join(current), subcommand))
    return [(first, block, sub) for first, block, sub in blocks if block.strip()]


def parse_file(text):
    """Every output of the file read (outputs()): {"id_ctrl": parse_id_ctrl() | None, "thresholds_c",
    "temperatures_c": smart-log readings in file order, "listed": nvme list's devices, "zero_kelvin":
    readings of 0 K left out}."""
    id_ctrl, thresholds, temperatures, read, unclaimed = None, {}, [], 0, None
    listed, zero_kelvin = [], 0
    for first, block, subcommand in outputs(text):
        if subcommand not in READ_COMMANDS and detect(block) == NOT_MINE:
            # output of another command (nvme list, lsblk) or words around the outputs
            unclaimed = unclaimed or ((first, block) if subcommand == "" else None)
            continue
        parsed = _parsed(first, block)
        read += 1
        if parsed["kind"] == "id_ctrl":
            id_ctrl = parsed
        elif parsed["kind"] == "features":
            thresholds.update(parsed["thresholds_c"])
        elif parsed["kind"] == "list":
            listed.extend(parsed["devices"])
        elif parsed["temperature_c"] is None:
            zero_kelvin += 1
        else:
            temperatures.append(parsed["temperature_c"])
    if not read and unclaimed:
        _parsed(*unclaimed)  # a file of nothing else: why it does not read as nvme-cli output
    if not read:
        raise ParseError("nvme", "no nvme-cli id-ctrl, smart-log or get-feature output found", line=None)
    return {"id_ctrl": id_ctrl, "thresholds_c": thresholds, "temperatures_c": temperatures, "listed": listed,
            "zero_kelvin": zero_kelvin}


def parsed_outputs(id_ctrl=None, features=None):
    """parse_file()'s dict of an id-ctrl and a get-feature output each read on its own (parse_id_ctrl(),
    parse_features(); None when not run or not understood): no smart-log reading, no device listed."""
    return {"id_ctrl": id_ctrl, "thresholds_c": dict((features or {}).get("thresholds_c") or {}),
            "temperatures_c": [], "listed": [], "zero_kelvin": 0}


def to_session(parsed, temperature_c=None, pcie_link=None, raw=None, **hints):
    """The session's nvme block: the first smart-log reading as the temperature before the tests, the
    last as after them, the highest; `nvme list` gives the model, serial and firmware when id-ctrl does
    not (one device listed), its namespace usage and format in the notes. The collector, which reads the
    temperature before, while and after the tests run, gives those readings as `temperature_c` ({"before",
    "after", "max", "samples"}: they stand for the file's), with the card's `pcie_link` and its `raw` files."""
    id_ctrl, thresholds, temperatures = parsed["id_ctrl"], parsed["thresholds_c"], parsed["temperatures_c"]
    listed, zero_kelvin, notes = parsed["listed"], parsed["zero_kelvin"], []
    temperature = None
    if temperatures:
        temperature = {"before": temperatures[0], "max": max(temperatures)}
        if len(temperatures) > 1:
            temperature["after"] = temperatures[-1]
    if zero_kelvin:
        notes.append(f"{zero_kelvin} nvme smart-log temperature reading(s) left out: the sensor reported 0 K "
                     "(-273 °C), which an emulated or broken sensor reports.")
    for device in listed:
        notes.append(f"nvme list: {device['node']} {device['model']} (serial {device['serial']}, firmware "
                     f"{device['firmware']}), namespace {device['namespace']}, usage {device['usage']}, "
                     f"format {device['format']}.")
    if id_ctrl is None and len(listed) == 1:
        id_ctrl = {"model": listed[0]["model"], "serial": listed[0]["serial"], "firmware": listed[0]["firmware"]}
    if temperature_c is not None:
        temperature = temperature_c
    entry = nvme_entry(id_ctrl, {"thresholds_c": thresholds} if thresholds else None, temperature,
                       pcie_link=pcie_link, raw=raw)
    return SessionFields(tools=[{"name": "nvme-cli"}], measurements={"nvme": entry}, runs=1, notes=notes)


def _parsed(first, block):
    try:
        return parse(block)
    except ParseError as exc:
        raise renumbered(exc, first) from None
