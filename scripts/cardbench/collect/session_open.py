"""The session a run writes into: the card's unfinished collector session this command can continue, or
a new one; its raw folder, collect.json (profile, which card, the device's published facts, the host),
collect.log and the tools' versions. Nothing here touches the card."""

import datetime
import hashlib
import json
from dataclasses import dataclass
from pathlib import Path

from ..card import new_card_data
from ..core import paths
from ..card.lookalike import cleaned_name
from .guard import guard
from . import tools
from .guard.device import host_description, session_notes
from .errors import device_text
from .store import COLLECTOR_SOURCE
from .toolrun import Log


@dataclass
class OpenedSession:
    session: dict
    resumed: bool
    raw_dir: Path
    raw_rel: str  # the raw folder as the card file names it: raw/<slug>/<session id>
    log: Log
    today: str


def _hash(text):
    return hashlib.sha256(str(text).encode()).hexdigest()[:16] if text else None


def public_device_facts(info):
    """Identify output without serial numbers (the raw folder is published)."""
    facts = info.to_dict()
    facts.pop("serial", None)
    for key in ("sd", "nvme", "usb"):
        part = dict(facts.get(key) or {})
        for secret in ("serial", "cid"):
            part.pop(secret, None)
        if isinstance(part.get("cid_fields"), dict):
            part["cid_fields"] = {k: v for k, v in part["cid_fields"].items() if k != "serial"}
        if part:
            facts[key] = part
    return facts


def device_identity(info):
    """Which card this is, as collect.json keeps it: its size and a hash of its serial number."""
    ident = info.identity()
    return {"size_bytes": ident["size_bytes"], "serial_sha256": _hash(ident["serial"])}


def resumable_session(store, request, profile, identity):
    """The card's newest unfinished collector session this command can continue: same profile, same
    card (size and serial), same label; wherever it is among the sessions. Adopted by the store; None
    when there is none."""
    for candidate in store.resume_candidates():
        meta_path = paths.raw_dir(store.data_dir, request.slug, candidate.get("id")) / "collect.json"
        try:
            meta = json.loads(meta_path.read_text(encoding="utf-8"))
        except (OSError, ValueError, TypeError):
            continue
        if meta.get("profile") != profile.name or meta.get("identity") != identity:
            continue
        if request.label is not None and request.label != candidate.get("label"):
            continue
        store.adopt(candidate["id"])
        return candidate
    return None


def open_session(request, store, profile, held, tool_paths, created):
    """The session resumed or begun for `held` (a claim.HeldCard), its raw folder made (recorded in
    `created`, a stopping.CreatedFolders, so a run stopped before its first save leaves none)."""
    info, checked = held.info, held.checked
    today = datetime.date.today().isoformat()
    identity = device_identity(info)
    session = resumable_session(store, request, profile, identity)
    resumed = session is not None
    if session is None:
        session = new_card_data.new_session(
            today, request.label or f"Collector, {profile.name} profile",
            host=cleaned_name(host_description(request.root)), reader=cleaned_name(info.reader()),
            target="raw device" if held.mode == guard.RAW else f"{checked.mounts[0].fstype} filesystem",
            compare=False if held.mode == guard.FILESYSTEM else None, complete=False,
            source={"name": COLLECTOR_SOURCE, "date": today})
        session["id"] = store.unique_id(session["id"])
    raw_dir = paths.raw_dir(store.data_dir, request.slug, session["id"])
    created.mkdir(raw_dir)
    raw_rel = f"raw/{request.slug}/{session['id']}"
    log = Log(raw_dir / "collect.log")
    meta = {"profile": profile.name, "identity": identity, "device": public_device_facts(info),
            "host": host_description(request.root)}
    if not resumed:
        (raw_dir / "collect.json").write_text(json.dumps(meta, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    given = f" (given as {device_text(request.device)})" if request.device != held.node else ""
    log(f"{'resuming' if resumed else 'starting'} profile {profile.name} on {held.node}{given}: {info.description()}")

    session["tools"] = [{"name": name, **({"version": v} if (v := tools.tool_version(name, path)) else {})}
                        for name, path in tool_paths.items()]
    # collect.log grows until the end, so it stays beside the raw files without being hashed or listed.
    session["raw"] = [f"{raw_rel}/collect.json"]
    session.setdefault("notes", session_notes(profile.name, info))
    return OpenedSession(session, resumed, raw_dir, raw_rel, log, today)
