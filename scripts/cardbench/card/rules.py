"""The rules a JSON Schema cannot say, run on one card: identity, values, runs, figures, raw files.

Each rule is a function of a CardCheck that adds Findings with its rule id; CARD_RULES lists them in
the order they run. The rules on figures (units, bandwidth against IOPS, bus ceilings) are in
figure_rules.py, those on the raw files a card names in raw_files.py.
"""

import datetime
import re
import urllib.parse
from pathlib import Path

from ..core.paths import DATA_DIR
from .figure_rules import bus_ceiling, bw_iops, units_consistent
from .findings import Finding
from .load import format_field
from .raw_files import raw_references
from .walk import entries_of, finite_numbers, non_finite_paths, sessions_of, walk_values
from .wording import shorten

FUTURE_SLACK = datetime.timedelta(days=1)  # the contributor's time zone may be a day ahead

FIGURE_KEYS = ("results", "dd", "dd_sweeps", "flashbench_open_au", "flashbench_align", "flashbench_find_fat",
               "fill", "f3probe", "nvme", "headline")

# C0 and C1 control characters other than tab and newline; text-direction embeddings, overrides, isolates
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")
_DIRECTION = re.compile("[\u202a-\u202e\u2066-\u2069]")
# RFC 3986: unreserved, reserved and '%' (quotes, '<', '>', spaces and the like must be percent-encoded)
_URL_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~:/?#[]@!$&'()*+,;=%")


class CardCheck:
    """One card under check: what the rules read, and the Findings they add."""

    def __init__(self, card, today, data_dir):
        self.card = card
        self.data = card.data
        self.today = today
        self.data_dir = Path(data_dir)
        self.findings = []

    def add(self, path, message, rule, severity="error"):
        self.findings.append(Finding(severity, self.card.error(path, message, rule=rule)))


def rule_findings(card, today=None, data_dir=DATA_DIR):
    """Rules beyond the schema. Each finding's rule name says which."""
    check = CardCheck(card, today or datetime.date.today(), data_dir)
    for rule in CARD_RULES:
        rule(check)
    return check.findings


# --- values --------------------------------------------------------------------------------------

def finite(check):
    for path in non_finite_paths(check.data):
        check.add(path, "not a finite number (NaN, infinity or too large)", "finite")


def slug_equals_filename(check):
    slug, path = check.data.get("slug"), check.card.path
    if isinstance(slug, str) and path.suffix == ".yaml" and path.stem != slug:
        check.add(("slug",), f"slug '{shorten(slug)}' does not match the file name '{path.name}' "
                             f"(the file must be {shorten(slug)}.yaml)", "slug-equals-filename")


def dates(check):
    latest = check.today + FUTURE_SLACK
    for path, key, value in walk_values(check.data):
        if key == "date" and isinstance(value, str):
            try:
                when = datetime.date.fromisoformat(value)
            except ValueError:
                continue  # the schema reports the form
            if when > latest:
                check.add(path, f"date {value} is in the future", "date-not-future")


def text_control(check):
    for path, key, value in walk_values(check.data):
        for text, what in ((key, "key"), (value, "text")):
            if not isinstance(text, str):
                continue
            control = _CONTROL.search(text)
            direction = _DIRECTION.search(text)
            if control:
                check.add(path, f"{what} contains control character U+{ord(control.group()):04X} at position "
                                f"{control.start()}; remove it", "text-control")
            elif direction:
                check.add(path, f"{what} contains U+{ord(direction.group()):04X}, a text direction control that "
                                f"can disguise text; remove it", "text-control")


def urls(check):
    for path, key, value in walk_values(check.data):
        if key != "url" or not isinstance(value, str) or not re.match(r"^https?://", value):
            continue  # not an address: the schema's pattern reports it
        bad = next((c for c in value if c not in _URL_CHARS), None)
        if bad is not None:
            shown = "a space" if bad == " " else (repr(bad) if bad.isprintable() else f"U+{ord(bad):04X}")
            encoded = urllib.parse.quote(bad, safe="")
            check.add(path, f"address contains {shown}, which an address cannot hold; percent-encode it "
                            f"({encoded})", "url-form")
            continue
        parts = urllib.parse.urlsplit(value)
        if not parts.hostname:
            check.add(path, "address has no host name", "url-form")
        elif "@" in parts.netloc:
            check.add(path, "address carries a user name or password ('@' before the host); remove it", "url-form")


def session_ids(check):
    seen = {}
    for index, session in sessions_of(check.card):
        sid = session.get("id")
        if not isinstance(sid, str):
            continue
        if sid in seen:
            check.add(("sessions", index, "id"), f"session id '{shorten(sid)}' is used twice (also "
                                                 f"sessions[{seen[sid]}])", "session-id-unique")
        seen.setdefault(sid, index)


# --- runs ----------------------------------------------------------------------------------------

def runs(check):
    sessions = check.data.get("sessions")
    if isinstance(sessions, list) and not sessions:
        check.add(("sessions",), "no sessions yet; the card page will have no figures", "runs-present", "warning")
    for index, session in sessions_of(check.card):
        base = ("sessions", index)
        if not any(session.get(key) for key in FIGURE_KEYS):
            check.add(base, "session has no figures (results, dd, fill, flashbench, f3probe, nvme or headline)",
                      "runs-present", "warning")
        for kind in ("results", "dd"):
            for i, entry in entries_of(session, kind):
                _entry_runs(check, base + (kind, i), entry)


def _entry_runs(check, path, entry):
    """One result's runs: positive, with one IOPS, seconds and latency figure per run, exclusions that exist."""
    runs = entry.get("runs")
    if not isinstance(runs, list):
        return
    for j, value in finite_numbers(runs):
        if value <= 0:
            check.add(path + ("runs", j), f"run value {value} is not positive", "positive")
    parallel = {("iops",): entry.get("iops"), ("seconds",): entry.get("seconds")}
    latency = entry.get("latency_us")
    if isinstance(latency, dict):
        for stat, values in latency.items():
            parallel[("latency_us", stat)] = values
    for name, values in parallel.items():
        if not isinstance(values, list):
            continue
        if len(values) != len(runs):
            check.add(path + name, f"{len(values)} value(s) for {len(runs)} run(s); one per run, in run order",
                      "runs-parallel")
        for j, value in finite_numbers(values):
            if value <= 0:
                check.add(path + name + (j,), f"{format_field(name)} value {value} is not positive", "positive")
    excluded = entry.get("excluded_runs")
    if isinstance(excluded, list):
        indexes = {j for j in excluded if isinstance(j, int) and not isinstance(j, bool)}
        for j in sorted(indexes):
            if j >= len(runs):
                check.add(path + ("excluded_runs",), f"excluded run {j} does not exist ({len(runs)} runs, "
                                                     f"counted from 0)", "runs-parallel")
        if runs and set(range(len(runs))) <= indexes:
            check.add(path + ("excluded_runs",), "every run is excluded; nothing is averaged", "runs-present",
                      "warning")


CARD_RULES = (finite, slug_equals_filename, dates, text_control, urls, session_ids, runs,
              units_consistent, bw_iops, bus_ceiling, raw_references)
