"""Collect a profile on a card: guard, identify, run every test, save after each one, resume.

`collect(request, progress=..., confirm=...)` is the whole job. It never prints: progress goes
to the callback, questions to `confirm(prompt) -> answer`, problems are raised as typed errors.
Ctrl-C / SIGTERM / a vanished device keep every finished test (the card file is rewritten after
each one with the session marked complete: false); running the same command again resumes.
"""

import datetime
import hashlib
import json
import os
import time
from dataclasses import dataclass, field
from pathlib import Path

from ..card import sessions
from ..card.identity import check_slug, form_factor_from_name, marketed_capacity_gb
from ..core.bus import FASTER_BUS
from ..errors import CardFileError, ParseError
from . import guard, tools
from .device import host_description, identify, session_notes
from .errors import (CardMismatchError, CollectInterrupted, DeviceVanishedError, DiskFullError, NotConfirmedError,
                     NotRootError, ToolFailedError, device_text)
from .nvmemon import NvmeMonitor
from .profiles import DEFAULT_RATES, PROFILES, DdStep, FillStep, Profile
from .progress import Tracker
from .steps import apply_outcome, run_step, step_done
from .stopping import CreatedFolders, Signals, disk_full, log_quietly
from .store import COLLECTOR_SOURCE, SessionStore
from .testfile import CardTestFile
from .toolrun import Log, RunContext



@dataclass
class CollectRequest:
    device: str
    slug: str
    profile: str = "standard"
    name: str | None = None
    label: str | None = None
    yes: bool = False
    data_dir: Path = Path("data")
    root: str = "/"  # where sysfs and /proc are read (tests use fixture trees)


@dataclass
class CollectReport:
    card_path: Path
    session_id: str
    profile: str
    complete: bool
    resumed: bool
    ran: list = field(default_factory=list)  # (label, summary)
    skipped: list = field(default_factory=list)
    failed: list = field(default_factory=list)  # (label, message)
    seconds: float = 0.0
    device: str = ""
    raw_dir: Path | None = None
    created_card: bool = False
    notes: list = field(default_factory=list)  # things the user should check in the card file


def _hash(text):
    return hashlib.sha256(str(text).encode()).hexdigest()[:16] if text else None


def _public_device_facts(info):
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


def _identity(info):
    ident = info.identity()
    return {"size_bytes": ident["size_bytes"], "serial_sha256": _hash(ident["serial"])}


def _test_file_bytes(profile):
    """How long the readonly profile's test file must be: the most any of its file steps covers."""
    spans = [step.bs * step.count if isinstance(step, DdStep) else step.job.size
             for step in profile.steps if getattr(step, "target", "device") == "file"]
    return max(spans, default=0)


def _profile(request):
    """A profile by name, or a Profile object (tests run small custom profiles)."""
    return request.profile if isinstance(request.profile, Profile) else PROFILES.get(request.profile)


def _check_request(request):
    if _profile(request) is None:
        raise CardMismatchError(f"unknown profile '{request.profile}'; choose one of {', '.join(PROFILES)}")
    check_slug(request.slug, "--card, make: CARD=", error=CardMismatchError)
    if request.label is not None and not (1 <= len(request.label) <= 200):
        raise CardMismatchError("--label must be 1 to 200 characters")


# Fields the name and label become; other findings of the trial card below come from its stand-in values.
NAMED_FIELDS = ("brand", "model", "sessions[0].label", "sessions[0].id")


def _check_names(request, store, new):
    """The card and session the run would write, with stand-in figures, checked by every rule before the
    first test: a name or label the card file refuses is reported now, not after the card was written."""
    from ..card.dump import new_card_text  # here: the guard's refusals come before the rules are loaded
    from ..card.load import parse_card_text
    from ..card.validate import check_card

    today = datetime.date.today().isoformat()
    source = {"name": COLLECTOR_SOURCE, "date": today}
    name = request.name if new else "Stand-in Card 64GB"
    try:
        card = sessions.new_card(request.slug, name, 64, form_factor_from_name(name)[0], "UHS-I", source)
    except CardFileError as exc:
        raise CardMismatchError(f"--name (make: NAME=): {exc.message}") from None
    session = sessions.new_session(today, request.label or "Collector", host="host", reader="reader",
                                   target="raw device", complete=False, source=source)
    try:
        trial = parse_card_text(new_card_text({**card, "sessions": [session]}), store.path)
    except CardFileError as exc:
        raise CardMismatchError(f"the card name or label cannot be written to a card file: {exc.message}") from None
    for finding in check_card(trial, data_dir=store.data_dir):
        field = finding.error.field or ""
        if finding.severity == "error" and field.startswith(NAMED_FIELDS):
            what = "--label (make: LABEL=)" if field.startswith("sessions") \
                else "--name (make: NAME=)"
            raise CardMismatchError(f"{what}: {finding.error.message}; nothing was written")


def _resumable_session(store, request, profile, identity):
    """The card's newest unfinished collector session this command can continue: same profile, same
    card (size and serial), same label; wherever it is among the sessions. Adopted by the store; None
    when there is none."""
    for candidate in store.resume_candidates():
        meta_path = sessions.raw_dir(store.data_dir, request.slug, candidate.get("id")) / "collect.json"
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


def collect(request, progress=None, confirm=None, clock=time.monotonic):
    """Run a profile on a card and store the session. Returns a CollectReport."""
    _check_request(request)
    profile = _profile(request)
    if os.geteuid() != 0:
        raise NotRootError("the collector reads and writes the raw card and needs root: "
                           "run it with sudo (sudo make collect …)")
    data_dir = Path(request.data_dir)
    store = SessionStore(data_dir, request.slug)
    card = store.load()  # an invalid card file stops here, before the device is touched
    if card is None and len((request.name or "").split()) < 2:
        raise CardMismatchError(f"there is no card '{request.slug}' yet; give its brand and model to create it, "
                                "e.g. --name \"SanDisk Extreme 64GB\"")
    tool_paths = {name: tools.find_tool(name) for name in profile.tools}

    mode = guard.FILESYSTEM if profile.mode == "filesystem" else guard.RAW
    checked = guard.check_device(request.device, mode=mode, root=request.root)
    # The name given may be a link (/dev/disk/by-path/…) that anyone can repoint: from here on only the
    # kernel's node of the checked disk is used, and tools reach the device through the descriptor held.
    node = guard.canonical_node(request.device, checked.majmin, checked.name)
    # Held until the run ends (closed in the finally below): nothing can mount the card meanwhile. The
    # readonly profile works through the card's mounted filesystem, so it holds the device without claiming it.
    claim = guard.claim_device(node, checked.majmin, root=request.root, exclusive=mode == guard.RAW)
    created = CreatedFolders()
    test_file = None
    try:
        _check_names(request, store, card is None)  # a name or label the card file would refuse stops here
        info = identify(node, checked.majmin, root=request.root)
        if info.transport == "nvme":
            tool_paths["nvme"] = tools.find_tool("nvme")
        if not request.yes:
            if confirm is None:
                raise NotConfirmedError(node, "not confirmed; nothing was written. Use --yes (make: YES=1) in "
                                              "scripts.")
            answer = confirm(guard.confirmation_prompt(node, info.description()))
            guard.check_confirmation(node, answer)
        # The answer may come minutes later: is it still the card that was shown?
        guard.check_same_card(node, info, claim, root=request.root, before="the first test")
        if checked.test_dir:
            mount = next(m for m in checked.mounts if m.mount_point == checked.test_dir)
            test_file = CardTestFile(node, checked.test_dir, mount.majmin, _test_file_bytes(profile)).create()

        today = datetime.date.today().isoformat()
        identity = _identity(info)
        session = _resumable_session(store, request, profile, identity)
        resumed = session is not None
        if session is None:
            session = sessions.new_session(
                today, request.label or f"Collector, {profile.name} profile", host=host_description(request.root),
                reader=info.reader(),
                target="raw device" if mode == guard.RAW else f"{checked.mounts[0].fstype} filesystem",
                compare=False if mode == guard.FILESYSTEM else None, complete=False,
                source={"name": COLLECTOR_SOURCE, "date": today})
            session["id"] = store.unique_id(session["id"])
        sid = session["id"]
        raw_dir = sessions.raw_dir(data_dir, request.slug, sid)
        created.mkdir(raw_dir)
        raw_rel = f"raw/{request.slug}/{sid}"
        log = Log(raw_dir / "collect.log")
        meta = {"profile": profile.name, "identity": identity, "device": _public_device_facts(info),
                "host": host_description(request.root)}
        if not resumed:
            (raw_dir / "collect.json").write_text(json.dumps(meta, indent=1, sort_keys=True) + "\n", encoding="utf-8")
        given = f" (given as {device_text(request.device)})" if request.device != node else ""
        log(f"{'resuming' if resumed else 'starting'} profile {profile.name} on {node}{given}: {info.description()}")

        versions = [{"name": name, **({"version": v} if (v := tools.tool_version(name, path)) else {})}
                    for name, path in tool_paths.items()]
        session["tools"] = versions
        # collect.log grows until the end, so it stays beside the raw files without being hashed or listed.
        session["raw"] = [f"{raw_rel}/collect.json"]
        session.setdefault("notes", session_notes(profile.name, info))
    except BaseException as exc:
        # Refused or failed before the first test: data/ is left exactly as it was.
        if test_file is not None:
            test_file.remove()
        claim.close()
        created.remove()
        full = disk_full(exc, data_dir)
        if full:
            raise DiskFullError(full, kept=False) from exc
        raise

    new_card = None
    if card is None:
        new_card = sessions.new_card(request.slug, request.name, marketed_capacity_gb(info.size_bytes),
                                     form_factor_from_name(request.name)[0], info.bus_guess(),
                                     {"name": COLLECTOR_SOURCE, "date": today})

    steps = list(profile.steps)
    rates = dict(DEFAULT_RATES)
    tracker = Tracker(progress, len(steps), clock=clock)
    signals = Signals()
    step_now = {"label": ""}

    def same_card(tool):
        # Before every tool run, not only between steps: a run that finds another card writes nothing.
        guard.check_same_card(node, info, claim, root=request.root, before=f"{tool} in {step_now['label']}")

    shown = {claim.tool_path: node, **({test_file.tool_path: test_file.path} if test_file else {})}
    ctx = RunContext(claim.tool_path, checked.majmin, raw_dir, raw_rel, tool_paths, log, tracker, info.size_bytes,
                     test_file=test_file.tool_path if test_file else None, shown=shown, before_tool=same_card)
    report = CollectReport(card_path=store.path, session_id=sid, profile=profile.name, complete=False,
                           resumed=resumed, device=info.description(), raw_dir=raw_dir,
                           created_card=card is None)
    monitor = None
    started = clock()

    def estimate(step):
        return step.estimate(rates, info.size_bytes) if isinstance(step, FillStep) else step.estimate(rates)

    def save():
        with signals:
            if monitor is not None:
                session["nvme"] = monitor.entry(info.nvme.get("pcie_link"))
            raised = None
            while True:
                try:
                    store.write(session, new_card=new_card, bus=raised)
                    return
                except CardFileError as exc:
                    # The bus of a card created by this run is a guess; a figure above its ceiling (e.g. a
                    # UHS-I card in a DDR200 reader) raises the guess instead of losing the test.
                    faster = FASTER_BUS.get(new_card["bus"]) if new_card and exc.rule == "bus-ceiling" else None
                    if faster is None:
                        raise
                    log(f"a figure is above the {new_card['bus']} bus ceiling; card bus set to {faster}")
                    report.notes.append(f"bus set to {faster}: a figure was above the {new_card['bus']} ceiling "
                                        "(for a UHS-I card in a vendor mode such as DDR200, set bus back and add "
                                        "claimed)")
                    raised = new_card["bus"] = faster

    saved = False  # whether the card file holds something of this run (else a stop removes its raw folder)
    returned = False
    signals.install()
    try:
        if info.transport == "nvme" and info.nvme.get("controller"):
            monitor = NvmeMonitor(tool_paths["nvme"], f"/dev/{info.nvme['controller']}", ctx, started)
            monitor.begin()
        for index, step in enumerate(steps, start=1):
            remaining = sum(estimate(s) for s in steps[index:] if not step_done(session, s))
            if step_done(session, step):
                report.skipped.append(step.label)
                tracker.skip(index, step.label, remaining)
                log(f"[{index}/{len(steps)}] {step.label}: already done, skipped")
                continue
            # Another card may have taken the device's name, or the reader another medium.
            guard.check_same_card(node, info, claim, root=request.root, before=step.label)
            step_now["label"] = step.label
            tracker.start(index, step.label, estimate(step), remaining)
            log(f"[{index}/{len(steps)}] {step.label}")
            try:
                outcome = run_step(ctx, step)
            except (ToolFailedError, ParseError, ValueError) as exc:
                # A tool whose output no longer fits looks like a broken tool; it is the full disk.
                if disk_full(exc, data_dir, raw_dir):
                    raise
                report.failed.append((step.label, str(exc)))
                tracker.fail(str(exc))
                log(f"  FAILED: {exc}")
                continue
            with signals:
                apply_outcome(session, outcome)
                rates.update(outcome.rates)
                save()
                saved = True
                report.ran.append((step.label, outcome.summary))
                log(f"  {outcome.summary}")
                tracker.done(outcome.summary)
        if monitor is not None:
            monitor.end()
        session["complete"] = not report.failed
        if report.ran or resumed or report.skipped:
            save()
        report.complete = not report.failed
        report.seconds = clock() - started
        log(f"session {'complete' if report.complete else 'incomplete'}: {len(report.ran)} run, "
            f"{len(report.skipped)} skipped, {len(report.failed)} failed, {report.seconds:.0f} s")
        tracker.finish("complete" if report.complete else f"{len(report.failed)} failed")
        returned = True
        return report
    except (CollectInterrupted, DeviceVanishedError) as exc:
        log_quietly(log, f"stopped: {exc}; {len(report.ran)} finished test(s) kept in {store.path.name}")
        exc.report = report
        raise
    except Exception as exc:
        full = disk_full(exc, data_dir, raw_dir)
        if not full:
            log_quietly(log, "card file error; stopping" if isinstance(exc, CardFileError) else f"stopped: {exc!r}")
            raise
        stop = DiskFullError(full, kept=saved or resumed)
        log_quietly(log, f"stopped: {stop}")
        stop.report = report
        raise stop from exc
    finally:
        if monitor is not None:
            monitor.stop()
        signals.restore()
        if test_file is not None:
            test_file.remove()
        claim.close()
        if not saved and not returned:
            created.remove()  # stopped before anything was kept: no raw folder without a session
