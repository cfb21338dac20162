"""The rules a JSON Schema cannot say, run on one card: identity, values, runs, figures, raw files.

Each rule is a function of a CardCheck that adds Findings with its rule id; CARD_RULES lists them in
the order they run. The rules on figures (units, bandwidth against IOPS, bus ceilings) are in
figure_rules.py, those on the raw files a card names in raw_files.py.
"""

import datetime
import re
import urllib.parse
from pathlib import Path

from ...core.paths import DATA_DIR
from ...core.measurement_kinds import MEASUREMENT_KINDS, RUN_KINDS
from ...core.units import RATE_TO_MB_S
from .figure_rules import _bandwidth_figures, bus_ceiling, bw_iops, units_consistent
from .problems import Finding
from ..load import format_field
from ..lookalike import field_pattern, mixed_script, name_fields
from .raw_files import raw_references
from ..walk import entries_of, finite_number, finite_numbers, non_finite_paths, sessions_of, text_values
from ..wording import lone_surrogate, shorten, surrogate_words

FUTURE_SLACK = datetime.timedelta(days=1)  # the contributor's time zone may be a day ahead

# The smallest figures a page can show: the site prints figures below 10 with two decimals (formatting.format_by_size),
# so anything under 0.01 reads "0.00" although it was measured. For bandwidth that is 10 kB/s: a real SD
# card that slow has failed, and a figure that small is a wrong unit (kB/s or B/s written as MB/s).
# IOPS and latency may legitimately be small, but not this small: 0.01 IOPS is one I/O per 100 s, and no
# block I/O completes in 0.01 µs (10 ns; a bus transfer alone takes microseconds), so the same floor holds.
MIN_SHOWN_MB_S = 0.01
MIN_SHOWN_IOPS = 0.01
MIN_SHOWN_LATENCY_US = 0.01

# C0 and C1 control characters other than tab and newline; text-direction embeddings, overrides, isolates
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")
_DIRECTION = re.compile("[\u202a-\u202e\u2066-\u2069]")
# ... and lone surrogates, which are no characters: one search for most texts
_SUSPECT = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\ud800-\udfff]")
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
        self._texts = None

    @property
    def texts(self):
        """Every (path, key-or-None, value) of the card whose key or value is text (walk.text_values),
        walked once for all the rules on text."""
        if self._texts is None:
            self._texts = text_values(self.data)
        return self._texts

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
    for path, key, value in check.texts:
        if key == "date" and isinstance(value, str):
            try:
                when = datetime.date.fromisoformat(value)
            except ValueError:
                continue  # the schema reports the form
            if when > latest:
                check.add(path, f"date {value} is in the future", "date-not-future")


def text_control(check):
    for path, key, value in check.texts:
        for text, what in ((key, "key"), (value, "text")):
            if not isinstance(text, str) or not _SUSPECT.search(text):
                continue
            surrogate = lone_surrogate(text)
            control = _CONTROL.search(text)
            direction = _DIRECTION.search(text)
            if surrogate:
                check.add(path, f"{what} contains at position {surrogate.start()} "
                                f"{surrogate_words(surrogate.group())}; write the character itself", "text-control")
            elif control:
                check.add(path, f"{what} contains control character U+{ord(control.group()):04X} at position "
                                f"{control.start()}; remove it", "text-control")
            elif direction:
                check.add(path, f"{what} contains U+{ord(direction.group()):04X}, a text direction control that "
                                f"can disguise text; remove it", "text-control")


def name_scripts(check):
    """Names whose words mix scripts ('SanDisk' with a Cyrillic 'а') pose as other names."""
    fields = name_fields()
    for path, key, value in check.texts:
        if key is not None and isinstance(value, str) and field_pattern(path) in fields:
            problem = mixed_script(value)
            if problem:
                check.add(path, problem, "name-script")


def urls(check):
    for path, key, value in check.texts:
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


# --- how the card was reached ---------------------------------------------------------------------

# Sources that are one contributor's own run (the collector's, an import's): they can say what the card
# was measured through. A published review says it or not; the page then shows "not stated".
OWN_RUN_SOURCES = ("cardbench collector", "contributor's own run (imported)")


def host_and_reader(check):
    for index, session in sessions_of(check.card):
        source = session.get("source")
        own = isinstance(source, dict) and source.get("name") in OWN_RUN_SOURCES and not source.get("url")
        if own and not session.get("host") and not session.get("reader"):
            check.add(("sessions", index), "neither host nor reader is given: the card's speed depends on what it "
                      "was read through (a USB 2.0 reader caps at about 40 MB/s); add them (HOST= and READER= on "
                      "make import, host: and reader: in the session)", "host-reader", "warning")


# --- runs ----------------------------------------------------------------------------------------

def runs(check):
    sessions = check.data.get("sessions")
    if isinstance(sessions, list) and not sessions:
        check.add(("sessions",), "no sessions yet; the card page will have no figures", "runs-present", "warning")
    for index, session in sessions_of(check.card):
        base = ("sessions", index)
        if not any(session.get(key) for key in MEASUREMENT_KINDS):
            check.add(base, "session has no figures (results, dd, fill, flashbench, f3probe, nvme or headline)",
                      "runs-present", "warning")
        for kind in RUN_KINDS:
            for i, entry in entries_of(session, kind):
                _entry_runs(check, base + (kind, i), entry)


def dd_block_size(check):
    """A dd entry gives its block size unless it says it cannot (block_size_stated: false), and then gives none;
    an entry whose command the source does not state (method_stated: false) gives no block size, count or
    flags either: none of them is known for its figures."""
    for index, session in sessions_of(check.card):
        for i, entry in entries_of(session, "dd"):
            path = ("sessions", index, "dd", i)
            if entry.get("method_stated", True) is False:
                for key in ("block_size", "count", "flags"):
                    if key in entry:
                        check.add(path + (key,), f"{key} given with method_stated: false; the source gives no "
                                                 "command for these figures, so none is known", "dd-block-size")
                continue
            stated = entry.get("block_size_stated", True) is not False
            if stated and "block_size" not in entry:
                check.add(path, "dd entry without block_size: give it, or block_size_stated: false when the output "
                                "does not tell it", "dd-block-size")
            elif not stated and "block_size" in entry:
                check.add(path + ("block_size",), "block_size given with block_size_stated: false; one of them is "
                                                  "wrong", "dd-block-size")


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


# --- figures too small to show ---------------------------------------------------------------------

def below_precision(check):
    """Positive figures the site would print as 0.00 (zero and negative ones are other rules' to report)."""
    claimed = check.data.get("claimed") if isinstance(check.data.get("claimed"), dict) else {}
    for key, unit in (("read_mb_s", "MB/s"), ("write_mb_s", "MB/s"), ("read_iops", "IOPS"), ("write_iops", "IOPS")):
        _small(check, ("claimed", key), claimed.get(key), unit)
    for index, session in sessions_of(check.card):
        base = ("sessions", index)
        for path, _op, unit, values, suffix in _bandwidth_figures(session):
            for j, value in values:
                _small(check, base + path + (j,) + suffix, value, unit)
        for kind in ("results", "dd"):  # runs stored as IOPS or microseconds
            for i, entry in entries_of(session, kind):
                if entry.get("unit") in ("IOPS", "us"):
                    for j, value in finite_numbers(entry.get("runs")):
                        _small(check, base + (kind, i, "runs", j), value, entry["unit"])
        for i, entry in entries_of(session, "results"):
            for j, value in finite_numbers(entry.get("iops")):
                _small(check, base + ("results", i, "iops", j), value, "IOPS")
            latency = entry.get("latency_us")
            for stat, values in latency.items() if isinstance(latency, dict) else ():
                for j, value in finite_numbers(values):
                    _small(check, base + ("results", i, "latency_us", stat, j), value, "µs")


def _small(check, path, value, unit):
    if not finite_number(value) or value <= 0:
        return
    if unit in RATE_TO_MB_S:
        shown, floor, what = value * RATE_TO_MB_S[unit], MIN_SHOWN_MB_S, "MB/s"
        hint = "check the unit the tool printed (kB/s or B/s written as MB/s?)"
    elif unit == "IOPS":
        shown, floor, what = value, MIN_SHOWN_IOPS, "IOPS"
        hint = f"{floor} IOPS is one I/O per 100 s; check the figure"
    else:
        shown, floor, what = value, MIN_SHOWN_LATENCY_US, "µs"
        hint = "no block I/O completes that fast; check the unit (latency_us is in microseconds)"
    if shown >= floor:
        return
    figure = f"{value:g} {unit}" + (f" = {shown:.3g} MB/s" if unit in RATE_TO_MB_S and unit != "MB/s" else "")
    check.add(path, f"{figure} is below {floor} {what}, the finest step the site prints and the smallest figure "
                    f"it shows; {hint}", "below-precision")


CARD_RULES = (finite, slug_equals_filename, dates, text_control, name_scripts, urls, session_ids, runs,
              dd_block_size, host_and_reader,
              units_consistent, bw_iops, bus_ceiling, below_precision, raw_references)
