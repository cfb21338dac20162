"""nvme-cli output (id-ctrl, thermal get-feature, smart-log readings; text or `-o json`) -> the
session's nvme block.

A file may hold several outputs one after another, with or without the commands that printed
them (behind any prompt, with sudo); smart-log readings in file order are taken as the
temperature before the tests (the first), after them (the last) and the highest; a reading of 0 K
(an emulated or broken sensor) is left out with a note. `nvme list` gives the model, serial and
firmware when id-ctrl does not (one device listed), its namespace usage and format in the notes.
Output of other commands (lsblk) is skipped; a log holding other tools' commands too (dd, flashbench)
is cut apart by mixed.several_tools."""

import re

from ..card import sessions
from ..errors import ParseError
from ..parsers import NOT_MINE
from ..parsers import nvme as nvme_parser
from .result import SessionFields
from .mixed import several_tools
from .shell import Shell
from .transcript import renumbered

_OUTPUT_START = re.compile(r"^(NVME Identify Controller|Smart Log for NVME device|get-feature:|Node\s)")
_TEMPERATURE = re.compile(r"^\s*+temperature\s*+:", re.I)  # smart-log's composite reading, not a sensor's
READ_COMMANDS = {"id-ctrl", "smart-log", "get-feature"}  # nvme list: read when its table is whole  # the nvme subcommands whose output is read


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


def from_nvme(text):
    mixed = several_tools(text)
    if mixed is not None:
        return mixed
    id_ctrl, thresholds, temperatures, read, unclaimed = None, {}, [], 0, None
    listed, notes, zero_kelvin = [], [], 0
    for first, block, subcommand in outputs(text):
        if subcommand not in READ_COMMANDS and nvme_parser.detect(block) == NOT_MINE:
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
    entry = sessions.nvme_entry(id_ctrl, {"thresholds_c": thresholds} if thresholds else None, temperature)
    return SessionFields(tools=[{"name": "nvme-cli"}], measurements={"nvme": entry}, runs=1, notes=notes)


def _parsed(first, block):
    try:
        return nvme_parser.parse(block)
    except ParseError as exc:
        raise renumbered(exc, first) from None
