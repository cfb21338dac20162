"""The collector's device facts (collect.json in a session's raw folder): the one input of the
findings read from a file, for the manufacturer ID. Missing or unreadable files give nothing."""

import json
from pathlib import Path

from ...core.paths import DATA_DIR
from ...core.units import MB_BYTES

MAX_FACTS_BYTES = MB_BYTES  # collect.json is a few kilobytes


def read_device_facts(card, data_dir=None):
    """session id -> the 'device' object of the collect.json its raw list names."""
    root = Path(data_dir or DATA_DIR).resolve()
    out = {}
    for session in card.get("sessions") or []:
        for ref in session.get("raw") or []:
            if not isinstance(ref, str) or not ref.endswith("/collect.json") or ".." in ref.split("/"):
                continue
            path = (root / ref).resolve()
            if root not in path.parents:
                continue
            try:
                if path.stat().st_size > MAX_FACTS_BYTES:
                    continue
                device = json.loads(path.read_text(encoding="utf-8")).get("device")
            except (OSError, ValueError, AttributeError):
                continue
            if isinstance(device, dict):
                out[session["id"]] = device
    return out
