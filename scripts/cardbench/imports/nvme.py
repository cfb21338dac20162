"""nvme-cli output (id-ctrl, thermal get-feature, smart-log readings) -> the session's nvme block.

A file may hold several outputs one after another, with or without the commands that printed
them; smart-log readings in file order are taken as the temperature before the tests (the
first), after them (the last) and the highest."""

import re

from ..card import sessions
from ..errors import ParseError
from ..parsers import nvme as nvme_parser
from .result import SessionFields
from .transcript import PROMPT, renumbered

_OUTPUT_START = re.compile(r"^(NVME Identify Controller|Smart Log for NVME device|get-feature:)")


def outputs(text):
    """(first line number, text) of each nvme-cli output in the file: a new one starts at its
    heading, or after a command line ("$ nvme smart-log /dev/nvme0 -o json")."""
    blocks, current, start = [], [], 1
    for number, line in enumerate(text.splitlines(), start=1):
        command = line.startswith(PROMPT.rstrip())
        if (command or _OUTPUT_START.match(line)) and current:
            blocks.append((start, "\n".join(current)))
            current = []
        if command:
            continue
        if not current:
            start = number
        current.append(line)
    blocks.append((start, "\n".join(current)))
    return [(first, block) for first, block in blocks if block.strip()]


def from_nvme(text):
    id_ctrl, thresholds, temperatures = None, {}, []
    for first, block in outputs(text):
        try:
            parsed = nvme_parser.parse(block)
        except ParseError as exc:
            raise renumbered(exc, first) from None
        if parsed["kind"] == "id_ctrl":
            id_ctrl = parsed
        elif parsed["kind"] == "features":
            thresholds.update(parsed["thresholds_c"])
        else:
            temperatures.append(parsed["temperature_c"])
    temperature = None
    if temperatures:
        temperature = {"before": temperatures[0], "max": max(temperatures)}
        if len(temperatures) > 1:
            temperature["after"] = temperatures[-1]
    entry = sessions.nvme_entry(id_ctrl, {"thresholds_c": thresholds} if thresholds else None, temperature)
    return SessionFields(tools=[{"name": "nvme-cli"}], measurements={"nvme": entry}, runs=1)
