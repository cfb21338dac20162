"""Collect a profile on a card: guard, identify, run every test, save after each one, resume.

`collect(request, progress=..., confirm=...)` is the whole job, in four parts: the plan (plan.py: the
profile, its tests and tools, checked before anything is opened), the card taken and held (claim.py),
the session opened or resumed (session_open.py) and the tests run (testloop.py). It never prints:
progress goes to the callback, questions to `confirm(prompt) -> answer`, problems are raised as typed
errors. Ctrl-C / SIGTERM / a vanished device keep every finished test (the card file is rewritten after
each one with the session marked complete: false); running the same command again resumes.
"""

import os
import time
from dataclasses import dataclass, field
from pathlib import Path

from ..card import new_card_data
from ..card.identity import form_factor_from_name, marketed_capacity_gb
from .guard import guard
from . import tools
from .claim import take_card
from .errors import CardMismatchError, DiskFullError, NotRootError
from .plan import check_request, find_tools, test_file_bytes
from .session_open import open_session
from .stopping import CreatedFolders, disk_full
from .store import COLLECTOR_SOURCE, SessionStore
from .testloop import StepLoop
from .trial_card import check_names


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


def collect(request, progress=None, confirm=None, clock=time.monotonic):
    """Run a profile on a card and store the session. Returns a CollectReport."""
    profile = check_request(request)
    if os.geteuid() != 0:
        raise NotRootError("the collector reads and writes the raw card and needs root: "
                           "run it with sudo (sudo make collect …)")
    data_dir = Path(request.data_dir)
    store = SessionStore(data_dir, request.slug)
    card = store.load()  # an invalid card file stops here, before the device is touched
    if card is None and len((request.name or "").split()) < 2:
        raise CardMismatchError(f"there is no card '{request.slug}' yet; give its brand and model to create it, "
                                "e.g. --name \"SanDisk Extreme 64GB\"")
    tool_paths = find_tools(profile)

    held = take_card(request, guard.FILESYSTEM if profile.mode == "filesystem" else guard.RAW)
    created = CreatedFolders()
    try:
        check_names(request, store, card is None)  # a name or label the card file would refuse stops here
        info = held.identify()
        if info.transport == "nvme":
            tool_paths["nvme"] = tools.find_tool("nvme")
        held.confirm(request.yes, confirm)
        held.make_test_file(test_file_bytes(profile))
        opened = open_session(request, store, profile, held, tool_paths, created)
        new_card = None
        if card is None:
            new_card = new_card_data.new_card(request.slug, request.name, marketed_capacity_gb(info.size_bytes),
                                         form_factor_from_name(request.name)[0], info.bus_guess(),
                                         {"name": COLLECTOR_SOURCE, "date": opened.today})
    except BaseException as exc:
        # Refused or failed before the first test: data/ is left exactly as it was.
        held.release()
        created.remove()
        full = disk_full(exc, data_dir)
        if full:
            raise DiskFullError(full, kept=False) from exc
        raise

    report = CollectReport(card_path=store.path, session_id=opened.session["id"], profile=profile.name,
                           complete=False, resumed=opened.resumed, device=info.description(),
                           raw_dir=opened.raw_dir, created_card=card is None)
    return StepLoop(profile, held, opened, store, tool_paths, new_card, report, created, progress, clock).run()
