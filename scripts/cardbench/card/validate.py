"""Check card files: the JSON Schema, then the rules a schema cannot say.

Every problem is a Finding naming the file, line, field and rule, as an error (stops the build)
or a warning (shown, does not stop it). Printed as

    data/cards/<slug>.yaml:12:7: error: sessions[0].date: date 2999-01-01 is in the future [date-not-future]

Rule ids, as printed in brackets, are the keys of RULES; CONTRIBUTING.md explains each.
"""

import datetime
import difflib
import json
import os
import re
import subprocess
import unicodedata
import urllib.parse
from dataclasses import dataclass
from pathlib import Path

import jsonschema

from .cardfile import SUMS_NAME, format_field, load_card, non_finite_paths, read_sha256sums, sha256_file
from ..core.bus import BUS_CEILING_MB_S, pcie_link_mb_s
from ..core.paths import DATA_DIR, RAW_TYPES, ROOT, SCHEMA_PATH, raw_refs
from ..core.units import RATE_TO_MB_S, RATE_UNIT_BYTES, size_text_from_bytes
from ..errors import CardbenchError, CardFileError
from .schemacheck import UnsupportedSchema, quick_check


CLAIM_SLACK = 1.05  # a figure up to 5 % above the vendor's own claim is within that claim

BW_IOPS_WARN = 0.10  # bandwidth vs IOPS × block size: beyond 10 % a warning, beyond 50 % an error
BW_IOPS_ERROR = 0.50
FUTURE_SLACK = datetime.timedelta(days=1)  # the contributor's time zone may be a day ahead

FIGURE_KEYS = ("results", "dd", "dd_sweeps", "flashbench_open_au", "flashbench_align", "flashbench_find_fat",
               "fill", "f3probe", "nvme", "headline")


# Every rule id a finding can carry (besides schema:<keyword>), with the severity it has.
RULES = {
    # loading (cardfile.py)
    "yaml": "error", "tab-indent": "error", "duplicate-key": "error", "tag": "error", "merge-key": "error",
    "key-type": "error", "aliases": "error", "depth": "error", "size": "error", "encoding": "error",
    "type": "error", "read": "error", "file-name": "error",
    # identity
    "slug-equals-filename": "error", "slug-unique": "error", "session-id-unique": "error",
    # values
    "finite": "error", "positive": "error", "runs-parallel": "error", "date-not-future": "error",
    "text-control": "error", "url-form": "error",
    # raw files
    "raw-path": "error", "raw-present": "error", "raw-hash": "error or warning", "raw-folder": "warning",
    # physics and consistency
    "bus-ceiling": "error or warning", "bw-iops": "error or warning", "unit-consistent": "warning",
    "runs-present": "warning",
}
# Files beside the card files: data/raw/ and the review pages content/cards/<slug>.md.
RULES.update({"raw-type": "error", "raw-orphan": "error", "raw-unlisted": "warning",
              "review-file": "error", "review-key": "error"})


@dataclass
class Finding:
    severity: str  # "error" or "warning"
    error: CardFileError

    @property
    def rule(self):
        return self.error.rule

    @property
    def path(self):
        return self.error.path

    def __str__(self):
        e = self.error
        where = one_line(display_path(e.path))
        if e.line is not None:
            where += f":{e.line}" + (f":{e.column}" if e.column is not None else "")
        field = f" {one_line(e.field)}:" if e.field else ""
        rule = f" [{e.rule}]" if e.rule else ""
        return f"{where}: {self.severity}:{field} {one_line(e.message)}{rule}"


_UNPRINTABLE = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


def one_line(text):
    """Text with line breaks and control characters escaped, so a message is one line that no value
    can extend (CI reads each line as a finding or a command)."""
    return _UNPRINTABLE.sub(lambda m: f"\\u{ord(m.group()):04x}", str(text))


def display_path(path):
    """A path relative to the working folder when it lies inside it (as editors and CI link it)."""
    try:
        return str(Path(path).resolve().relative_to(Path.cwd().resolve()))
    except (ValueError, OSError):
        return str(path)


# --- JSON Schema ---------------------------------------------------------------------------

_validator = None
_quick_valid = None


def schema_validator():
    global _validator
    if _validator is None:
        schema = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
        _validator = jsonschema.Draft202012Validator(schema, format_checker=jsonschema.FormatChecker())
    return _validator


def quick_schema_check():
    """The schema compiled to a yes/no check (schemacheck); a card it passes has no schema error."""
    global _quick_valid
    if _quick_valid is None:
        try:
            _quick_valid = quick_check(schema_validator().schema)
        except UnsupportedSchema:
            _quick_valid = lambda data: False  # a keyword it does not know: jsonschema checks every card
    return _quick_valid


_TYPE_NAMES = {"string": "text", "number": "a number", "integer": "a whole number", "boolean": "true or false",
               "array": "a list", "object": "a mapping (key: value)", "null": "nothing"}


def _short(text, limit=60):
    text = str(text)
    return text if len(text) <= limit else text[:limit] + "…"


def describe(value):
    """How a value reads in a message, never longer than a line."""
    if value is None:
        return "nothing (empty)"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int) and abs(value) >= 10**40:
        return "a number with more than 40 digits"
    if isinstance(value, (int, float)):
        return f"the number {value!r}"
    if isinstance(value, str):
        return f"the text {_short(value, 40)!r}"
    if isinstance(value, list):
        return f"a list of {len(value)} item(s)"
    if isinstance(value, dict):
        return "a mapping (key: value)"
    return type(value).__name__


def _type_message(err):
    wanted = err.validator_value if isinstance(err.validator_value, list) else [err.validator_value]
    expected = " or ".join(_TYPE_NAMES.get(t, t) for t in wanted)
    got = err.instance
    message = f"expected {expected}, got {describe(got)}"
    if "string" in wanted and isinstance(got, bool):
        message += " (YAML reads yes/no/on/off/true/false as true or false: put the text in quotes)"
    elif "string" in wanted and isinstance(got, (int, float)):
        message += " (put it in quotes to keep it as text)"
    elif {"number", "integer"} & set(wanted) and isinstance(got, str):
        message += " (write the number alone, without quotes or a unit)"
    elif got is None:
        message += " (give a value or remove the field)"
    return message


def _closest(word, choices):
    if not isinstance(word, str):
        return None
    for choice in choices:
        if isinstance(choice, str) and choice.lower() == word.lower():
            return choice
    found = difflib.get_close_matches(word, [c for c in choices if isinstance(c, str)], n=1, cutoff=0.6)
    return found[0] if found else None


def _schema_findings_for(card, err):
    """One or more (field path, message) pairs for one jsonschema error."""
    path = list(err.absolute_path)
    kind, value, instance = err.validator, err.validator_value, err.instance
    description = err.schema.get("description") if isinstance(err.schema, dict) else None
    if kind == "additionalProperties" and isinstance(instance, dict):
        allowed = list((err.schema.get("properties") or {}).keys())
        out = []
        for key in instance:
            if key in allowed:
                continue
            guess = _closest(key, allowed)
            hint = f"did you mean '{guess}'?" if guess else f"allowed here: {', '.join(allowed)}"
            out.append((path + [key], f"unknown field '{_short(key)}' ({hint})"))
        return out
    if kind == "required":
        match = re.match(r"^'(.*)' is a required property$", err.message)
        name = match.group(1) if match else _short(err.message)
        return [(path + [name], f"missing required field '{name}'")]
    if kind == "type":
        return [(path, _type_message(err))]
    if kind == "enum":
        guess = _closest(instance, value)
        hint = f"; did you mean '{guess}'?" if guess else ""
        return [(path, f"{describe(instance)} is not allowed; allowed: {', '.join(map(str, value))}{hint}")]
    if kind == "const":
        return [(path, f"must be {value!r}, got {describe(instance)}")]
    if kind == "pattern":
        what = f": {description}" if description else ""
        return [(path, f"{describe(instance)} does not have the required form{what} (pattern {value})")]
    if kind == "minLength":
        if isinstance(instance, str) and not instance:
            return [(path, "empty text; give a value or remove the field")]
        return [(path, f"text is {len(instance)} characters; at least {value}")]
    if kind == "maxLength":
        return [(path, f"text is {len(instance)} characters; at most {value}")]
    if kind == "minimum":
        return [(path, f"must be at least {value}, got {describe(instance)}")]
    if kind == "exclusiveMinimum":
        return [(path, f"must be greater than {value}, got {describe(instance)}")]
    if kind == "maximum":
        return [(path, f"must be at most {value}, got {describe(instance)}")]
    if kind == "exclusiveMaximum":
        return [(path, f"must be less than {value}, got {describe(instance)}")]
    if kind == "not" and isinstance(instance, str) and isinstance(value, dict) and "pattern" in value:
        found = re.search(value["pattern"], instance)
        if found:
            return [(path, f"contains {character_name(found.group())} at position {found.start()}, which can make "
                           f"a name pose as another; remove it")]
    if kind == "maxItems":
        return [(path, f"the list has {len(instance)} item(s); at most {value}")]
    if kind == "maxProperties":
        return [(path, f"{len(instance)} entries; at most {value}")]
    if kind == "minItems":
        if isinstance(instance, list) and not instance:
            return [(path, f"the list is empty; at least {value} item(s) needed")]
        return [(path, f"the list has {len(instance)} item(s); at least {value} needed")]
    if kind == "uniqueItems":
        seen, repeated = [], None
        for item in instance:
            if item in seen:
                repeated = item
                break
            seen.append(item)
        return [(path, f"{describe(repeated)} is listed more than once")]
    if kind == "format":
        form = {"date": "date (YYYY-MM-DD, a real calendar day)", "uri": "http or https address"}.get(value, value)
        return [(path, f"{describe(instance)} is not a valid {form}")]
    return [(path, _short(err.message, 200))]


def character_name(char):
    """'U+202E RIGHT-TO-LEFT OVERRIDE'; control characters, which have no name, are called so."""
    name = unicodedata.name(char, "")
    return f"U+{ord(char):04X} " + (name or "(a control character)")


def schema_findings(card):
    if quick_schema_check()(card.data):
        return []
    findings = []
    for err in schema_validator().iter_errors(card.data):
        for path, message in _schema_findings_for(card, err):
            findings.append(Finding("error", card.error(path, message, rule=f"schema:{err.validator}")))
    return findings


# --- rules beyond the schema -----------------------------------------------------------------

def _sessions(card):
    sessions = card.data.get("sessions")
    return [(i, s) for i, s in enumerate(sessions) if isinstance(s, dict)] if isinstance(sessions, list) else []


def _entries(session, kind):
    items = session.get(kind)
    return [(i, e) for i, e in enumerate(items) if isinstance(e, dict)] if isinstance(items, list) else []


def _is_number(value):
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _finite_number(value):
    if not _is_number(value):
        return False
    try:
        return float(value) - float(value) == 0
    except OverflowError:
        return False


def _numbers(values):
    """(index, value) of the finite numbers of a list (other items are the schema's to report)."""
    return [(j, v) for j, v in enumerate(values) if _finite_number(v)] if isinstance(values, list) else []


def _walk_values(value, path=()):
    """Every (path, key-or-None, value) in a nested structure, keys included as text."""
    yield path, None, value
    if isinstance(value, dict):
        for key, item in value.items():
            yield path + (key,), key, item
            yield from _walk_values(item, path + (key,)) if isinstance(item, (dict, list)) else ()
    elif isinstance(value, list):
        for index, item in enumerate(value):
            if isinstance(item, (dict, list)):
                yield from _walk_values(item, path + (index,))
            else:
                yield path + (index,), None, item


class _Rules:
    """Runs every per-card rule; each adds Findings with its rule id."""

    def __init__(self, card, today, data_dir):
        self.card = card
        self.data = card.data
        self.today = today
        self.data_dir = Path(data_dir)
        self.out = []

    def add(self, path, message, rule, severity="error"):
        self.out.append(Finding(severity, self.card.error(path, message, rule=rule)))

    def run(self):
        for rule in (self.finite, self.slug_equals_filename, self.dates, self.text_control, self.urls,
                     self.session_ids, self.runs, self.units_consistent, self.bw_iops, self.bus_ceiling, self.raw):
            rule()
        return self.out

    # values
    def finite(self):
        for path in non_finite_paths(self.data):
            self.add(path, "not a finite number (NaN, infinity or too large)", "finite")

    def slug_equals_filename(self):
        slug = self.data.get("slug")
        if isinstance(slug, str) and self.card.path.suffix == ".yaml" and self.card.path.stem != slug:
            self.add(("slug",), f"slug '{_short(slug)}' does not match the file name '{self.card.path.name}' "
                                f"(the file must be {_short(slug)}.yaml)", "slug-equals-filename")

    def dates(self):
        latest = self.today + FUTURE_SLACK
        for path, key, value in _walk_values(self.data):
            if key == "date" and isinstance(value, str):
                try:
                    when = datetime.date.fromisoformat(value)
                except ValueError:
                    continue  # the schema reports the form
                if when > latest:
                    self.add(path, f"date {value} is in the future", "date-not-future")

    # C0 and C1 control characters other than tab and newline; text-direction embeddings, overrides, isolates
    _CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")
    _DIRECTION = re.compile("[\u202a-\u202e\u2066-\u2069]")

    def text_control(self):
        for path, key, value in _walk_values(self.data):
            for text, what in ((key, "key"), (value, "text")):
                if not isinstance(text, str):
                    continue
                control = self._CONTROL.search(text)
                direction = self._DIRECTION.search(text)
                if control:
                    self.add(path, f"{what} contains control character U+{ord(control.group()):04X} at position "
                                   f"{control.start()}; remove it", "text-control")
                elif direction:
                    self.add(path, f"{what} contains U+{ord(direction.group()):04X}, a text direction control that "
                                   f"can disguise text; remove it", "text-control")

    # RFC 3986: unreserved, reserved and '%' (quotes, '<', '>', spaces and the like must be percent-encoded)
    _URL_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~:/?#[]@!$&'()*+,;=%")

    def urls(self):
        for path, key, value in _walk_values(self.data):
            if key != "url" or not isinstance(value, str) or not re.match(r"^https?://", value):
                continue  # not an address: the schema's pattern reports it
            bad = next((c for c in value if c not in self._URL_CHARS), None)
            if bad is not None:
                shown = "a space" if bad == " " else (repr(bad) if bad.isprintable() else f"U+{ord(bad):04X}")
                encoded = urllib.parse.quote(bad, safe="")
                self.add(path, f"address contains {shown}, which an address cannot hold; percent-encode it "
                               f"({encoded})", "url-form")
                continue
            parts = urllib.parse.urlsplit(value)
            if not parts.hostname:
                self.add(path, "address has no host name", "url-form")
            elif "@" in parts.netloc:
                self.add(path, "address carries a user name or password ('@' before the host); remove it",
                         "url-form")

    def session_ids(self):
        seen = {}
        for index, session in _sessions(self.card):
            sid = session.get("id")
            if not isinstance(sid, str):
                continue
            if sid in seen:
                self.add(("sessions", index, "id"), f"session id '{_short(sid)}' is used twice (also "
                                                    f"sessions[{seen[sid]}])", "session-id-unique")
            seen.setdefault(sid, index)

    # runs
    def runs(self):
        sessions = self.data.get("sessions")
        if isinstance(sessions, list) and not sessions:
            self.add(("sessions",), "no sessions yet; the card page will have no figures", "runs-present", "warning")
        for index, session in _sessions(self.card):
            base = ("sessions", index)
            if not any(session.get(key) for key in FIGURE_KEYS):
                self.add(base, "session has no figures (results, dd, fill, flashbench, f3probe, nvme or headline)",
                         "runs-present", "warning")
            for kind in ("results", "dd"):
                for i, entry in _entries(session, kind):
                    self._entry_runs(base + (kind, i), entry)

    def _entry_runs(self, path, entry):
        runs = entry.get("runs")
        if not isinstance(runs, list):
            return
        for j, value in _numbers(runs):
            if value <= 0:
                self.add(path + ("runs", j), f"run value {value} is not positive", "positive")
        parallel = {("iops",): entry.get("iops"), ("seconds",): entry.get("seconds")}
        latency = entry.get("latency_us")
        if isinstance(latency, dict):
            for stat, values in latency.items():
                parallel[("latency_us", stat)] = values
        for name, values in parallel.items():
            if not isinstance(values, list):
                continue
            if len(values) != len(runs):
                self.add(path + name, f"{len(values)} value(s) for {len(runs)} run(s); one per run, in run order",
                         "runs-parallel")
            for j, value in _numbers(values):
                if value <= 0:
                    self.add(path + name + (j,), f"{format_field(name)} value {value} is not positive", "positive")
        excluded = entry.get("excluded_runs")
        if isinstance(excluded, list):
            indexes = {j for j in excluded if isinstance(j, int) and not isinstance(j, bool)}
            for j in sorted(indexes):
                if j >= len(runs):
                    self.add(path + ("excluded_runs",), f"excluded run {j} does not exist ({len(runs)} runs, "
                                                        f"counted from 0)", "runs-parallel")
            if runs and set(range(len(runs))) <= indexes:
                self.add(path + ("excluded_runs",), "every run is excluded; nothing is averaged", "runs-present",
                         "warning")

    def units_consistent(self):
        first = {}
        for index, session in _sessions(self.card):
            for kind in ("results", "dd"):
                for i, entry in _entries(session, kind):
                    if kind == "results":
                        test = entry.get("test")
                    else:
                        test = f"dd bs={entry.get('block_size')}"
                    op, unit = entry.get("op"), entry.get("unit")
                    if not all(isinstance(x, str) for x in (test, op, unit)):
                        continue
                    path = ("sessions", index, kind, i)
                    key = (kind, test, op)
                    if key not in first:
                        first[key] = (unit, path)
                    elif first[key][0] != unit:
                        self.add(path + ("unit",), f"{test} {op} is in {unit} here but in {first[key][0]} in "
                                                   f"{format_field(first[key][1])}; check the unit",
                                 "unit-consistent", "warning")

    def bw_iops(self):
        for index, session in _sessions(self.card):
            for i, entry in _entries(session, "results"):
                block = block_size_bytes(entry.get("test"))
                unit = _bandwidth_unit(entry)
                runs, iops = entry.get("runs"), entry.get("iops")
                if block is None or unit is None or not isinstance(runs, list) or not isinstance(iops, list):
                    continue
                worst = None
                for j, value in _numbers(runs):
                    if j >= len(iops) or not _finite_number(iops[j]) or iops[j] <= 0 or value <= 0:
                        continue
                    off = _deviation(value, unit, iops[j], block)
                    if worst is None or off > worst[0]:
                        worst = (off, j, value, iops[j])
                if worst is None or worst[0] <= BW_IOPS_WARN:
                    continue
                off, j, value, count = worst
                expected = count * block / RATE_UNIT_BYTES[unit]
                severity = "error" if off > BW_IOPS_ERROR else "warning"
                self.add(("sessions", index, "results", i, "runs", j),
                         f"{value:g} {unit} but {count:g} IOPS × {size_text_from_bytes(block)} = {expected:.4g} {unit} "
                         f"({off:.0%} apart; allowed: {BW_IOPS_WARN:.0%}, error beyond {BW_IOPS_ERROR:.0%})",
                         "bw-iops", severity)

    def bus_ceiling(self):
        bus = self.data.get("bus")
        if not isinstance(bus, str) or bus not in BUS_CEILING_MB_S:
            return
        claimed = self.data.get("claimed") if isinstance(self.data.get("claimed"), dict) else {}
        claims = {op: claimed.get(f"{op}_mb_s") for op in ("read", "write")}
        claims = {op: v for op, v in claims.items() if _finite_number(v) and v > 0}
        for index, session in _sessions(self.card):
            ceiling, why = BUS_CEILING_MB_S[bus], f"{bus} bus ceiling"
            nvme = session.get("nvme") if isinstance(session.get("nvme"), dict) else {}
            link = pcie_link_mb_s(nvme.get("pcie_link")) if bus == "SD Express" else None
            if link:
                ceiling, why = link  # the link this session negotiated
            for path, op, unit, values, suffix in _bandwidth_figures(session):
                over = [(j, v) for j, v in values if v * RATE_TO_MB_S[unit] > ceiling]
                if not over:
                    continue
                j, top = max(over, key=lambda item: item[1])
                top_mb_s = top * RATE_TO_MB_S[unit]
                shown = f"{top:g} {unit}" + (f" = {top_mb_s:.1f} MB/s" if unit != "MB/s" else "")
                count = f" ({len(over)} of {len(values)} figures above it; this is the highest)" if len(values) > 1 else ""
                # A vendor mode beyond the bus (e.g. UHS-I DDR200 readers) is allowed up to the vendor's claim.
                claim = claims.get(op) if op in ("read", "write") else max(claims.values(), default=None)
                place = ("sessions", index) + path + (j,) + suffix
                if claim and top_mb_s <= claim * CLAIM_SLACK:
                    self.add(place, f"{shown} is above the {why} of {ceiling} MB/s{count} but within the claimed "
                                    f"{claim:g} MB/s (a vendor mode beyond the standard bus; say which reader in "
                                    f"claimed.note)", "bus-ceiling", "warning")
                else:
                    self.add(place, f"{shown} is above the {why} of {ceiling} MB/s{count}; the figure cannot be "
                                    f"right for this card (check the unit, the bus, or host caching)", "bus-ceiling")

    # raw files
    def raw(self):
        slug = self.data.get("slug") if isinstance(self.data.get("slug"), str) else None
        raw_root = (self.data_dir / "raw").resolve()
        sums_cache = {}
        hashes = {}
        for index, session in _sessions(self.card):
            for path, raw in raw_refs(session):
                place = ("sessions", index) + path
                parts = raw.split("/")
                if any(part in ("", ".", "..") for part in parts):
                    self.add(place, f"raw path '{_short(raw)}' has an empty, '.' or '..' part", "raw-path")
                    continue
                target = (self.data_dir / raw).resolve()
                if raw_root not in target.parents:
                    self.add(place, f"raw path '{_short(raw)}' leads outside data/raw", "raw-path")
                    continue
                if not raw_type_allowed(raw):
                    self.add(place, f"raw file data/{raw} is not of a type the site serves as text; raw files end "
                                    f"in {', '.join(RAW_TYPES)}", "raw-type")
                    continue
                if not target.is_file():
                    self.add(place, f"raw file data/{raw} is missing", "raw-present")
                    continue
                folder = parts[1]
                if slug and folder != slug:
                    self.add(place, f"raw file is in data/raw/{folder}/, not this card's data/raw/{slug}/",
                             "raw-folder", "warning")
                self._raw_hash(place, raw, folder, "/".join(parts[2:]), target, sums_cache, hashes)

    def _raw_hash(self, place, raw, folder, name, target, sums_cache, hashes):
        if folder not in sums_cache:
            sums_path = self.data_dir / "raw" / folder / SUMS_NAME
            if not sums_path.is_file():
                sums_cache[folder] = None
                self.add(place, f"data/raw/{folder}/{SUMS_NAME} is missing, so raw files are not checked "
                                f"against their hashes", "raw-hash", "warning")
            else:
                try:
                    sums_cache[folder] = read_sha256sums(sums_path)
                except CardFileError as exc:
                    sums_cache[folder] = None
                    self.add(place, f"data/raw/{folder}/{SUMS_NAME} line {exc.line}: {exc.message}", "raw-hash")
        sums = sums_cache[folder]
        if sums is None:
            return
        if name not in sums:
            self.add(place, f"data/{raw} is not listed in data/raw/{folder}/{SUMS_NAME}", "raw-hash")
            return
        if target not in hashes:
            hashes[target] = sha256_file(target)
        expected, line = sums[name]
        if hashes[target] != expected:
            self.add(place, f"data/{raw} has sha256 {hashes[target][:16]}…, but data/raw/{folder}/{SUMS_NAME} "
                            f"line {line} says {expected[:16]}…; the file changed after it was recorded", "raw-hash")


def block_size_bytes(test):
    """Block size of a CrystalDiskMark-style test name in bytes: 'RND4K Q32T1' → 4096 (K, M, G are binary)."""
    if not isinstance(test, str):
        return None
    match = re.match(r"^(?:SEQ|RND)([0-9]+)([KMG]) ", test)
    if not match:
        return None
    return int(match.group(1)) * 1024 ** " KMG".index(match.group(2))


def _step(value):
    """Precision a figure was printed with: 1 for 42, 0.1 for 42.5, 0.01 for 42.25."""
    text = repr(float(value))
    if "e" in text or "." not in text:
        return 0.0
    decimals = len(text.split(".")[1].rstrip("0"))
    return 10.0 ** -decimals


def _deviation(value, unit, iops, block):
    """Relative distance between a bandwidth and IOPS × block size, allowing for each figure's
    printed precision (cdm_fio.sh floors MiB/s to whole numbers)."""
    lo = max(value - _step(value), 0) * RATE_UNIT_BYTES[unit]
    hi = (value + _step(value)) * RATE_UNIT_BYTES[unit]
    expect_lo = max(iops - _step(iops), 0) * block
    expect_hi = (iops + _step(iops)) * block
    gap = max(0.0, expect_lo - hi, lo - expect_hi)
    return gap / (iops * block)


def _bandwidth_unit(entry):
    """The entry's unit when it is a bandwidth (MB/s, MiB/s), else None (whatever its type)."""
    unit = entry.get("unit")
    return unit if isinstance(unit, str) and unit in RATE_TO_MB_S else None


def _bandwidth_figures(session):
    """Every throughput figure of a session, grouped by list:
    (list path, op, unit, [(index, value)], path after the index)."""
    for kind in ("results", "dd"):
        for i, entry in _entries(session, kind):
            if _bandwidth_unit(entry):
                yield (kind, i, "runs"), entry.get("op"), entry["unit"], _numbers(entry.get("runs")), ()
    for kind in ("dd_sweeps", "fill", "flashbench_open_au"):
        for i, entry in _entries(session, kind):
            points = entry.get("points")
            if _bandwidth_unit(entry) and isinstance(points, list):
                values = [(j, p.get("value")) for j, p in enumerate(points) if isinstance(p, dict)]
                values = [(j, v) for j, v in values if _finite_number(v)]
                yield (kind, i, "points"), entry.get("op", "write"), entry["unit"], values, ("value",)
    for i, entry in _entries(session, "flashbench_find_fat"):
        if _bandwidth_unit(entry) and isinstance(entry.get("rows"), list):
            for r, row in enumerate(entry["rows"]):
                if isinstance(row, dict):
                    yield (("flashbench_find_fat", i, "rows", r, "values"), "write", entry["unit"],
                           _numbers(row.get("values")), ())
    rows = [(i, row.get("number")) for i, row in _entries(session, "headline")
            if _bandwidth_unit(row) and _finite_number(row.get("number"))]
    for i, number in rows:
        yield ("headline",), None, session["headline"][i]["unit"], [(i, number)], ("number",)


def rule_findings(card, today=None, data_dir=DATA_DIR):
    """Rules beyond the schema. Each finding's rule name says which."""
    return _Rules(card, today or datetime.date.today(), data_dir).run()


def cross_card_findings(cards):
    """Rules across files: slugs unique (also ignoring case)."""
    out = []
    seen = {}
    for card in cards:
        slug = card.data.get("slug")
        if not isinstance(slug, str):
            continue
        key = slug.lower()
        if key in seen:
            out.append(Finding("error", card.error(("slug",), f"slug '{_short(slug)}' is also used by {seen[key]}",
                                                   rule="slug-unique")))
        seen.setdefault(key, card.path.name)
    return out


def check_card(card, today=None, data_dir=DATA_DIR):
    """Every finding for one loaded card, in file order (schema and rules)."""
    findings = schema_findings(card)
    # a character the schema refused in a name is not reported a second time as text-control
    named = {f.error.field for f in findings if f.rule == "schema:not"}
    findings += [f for f in rule_findings(card, today=today, data_dir=data_dir)
                 if not (f.rule == "text-control" and f.error.field in named)]
    findings.sort(key=lambda f: (f.error.line or 0, f.error.column or 0))
    return findings


def data_dir_of(card_path):
    """The data/ folder a card's raw paths are relative to: the parent of its cards/ folder, else data/."""
    folder = Path(card_path).parent
    return folder.parent if folder.name == "cards" else DATA_DIR


def validate_paths(paths, today=None, data_dir=None):
    """Load and check files. Returns (valid LoadedCards, findings). A card with an error is not valid.
    Raw paths are checked under data_dir, by default the data/ folder holding each card's cards/ folder."""
    cards, findings, beside, checked = [], [], [], []
    for path in sorted(Path(p) for p in paths):
        if _beside_cards(path):
            beside.append(path)
            continue
        if path.suffix != ".yaml":
            findings.append(Finding("error", CardFileError(path, "card files are named <slug>.yaml", rule="file-name")))
            continue
        try:
            card = load_card(path)
        except CardFileError as exc:
            findings.append(Finding("error", exc))
            continue
        own = check_card(card, today=today, data_dir=data_dir or data_dir_of(path))
        findings += own
        checked.append(card)
        if not any(f.severity == "error" for f in own):
            cards.append(card)
    findings += beside_cards_findings(checked, beside, data_dir)
    cross = cross_card_findings(cards)
    findings += cross
    bad = {f.error.path for f in cross if f.severity == "error"}
    return [c for c in cards if str(c.path) not in bad], findings


def card_paths(cards_dir):
    """Card files of a folder: every *.yaml, and mis-named *.yml / *.YAML so they are reported, not skipped."""
    return sorted(p for p in Path(cards_dir).iterdir()
                  if p.suffix.lower() in (".yaml", ".yml") and not p.name.startswith(".")) if Path(cards_dir).is_dir() else []


# --- files beside the card files: data/raw/ and review pages ------------------------------------

RAW_SKIPPED = ".tmp"  # still being written by the collector or importer; git ignores them
SLUG_FORM = re.compile(r"^[a-z0-9][a-z0-9-]*$")
# The only front-matter keys of a review page (layouts/_partials/check-reviews.html has the same list):
# none can move a page to another address (url, slug, aliases), or change what or whether it renders
# (layout, type, outputs, build, draft, cascade, params).
REVIEW_KEYS = ("title", "description", "date", "lastmod")
REVIEW_FOLDER_FILES = ("_index.md", "_content.gotmpl")  # the section's own files, not reviews
_FRONT_MATTER = re.compile(r"\A\s*---[ \t]*\r?\n(.*?)\r?\n---[ \t]*(?:\r?\n|\Z)", re.S)


def raw_type_allowed(name):
    """True when a raw file's name ends in one of RAW_TYPES (in any case: web servers map types so)."""
    return Path(name).suffix.lower() in RAW_TYPES


def _beside_cards(path):
    """('raw', data dir) for a path under <data>/raw/, ('review', data dir) for one under
    <root>/content/cards/, else None."""
    path = Path(path)
    for parent in path.parents:
        if parent.name == "raw" and (parent.parent / "cards").is_dir():
            return "raw", parent.parent
        if parent.name == "cards" and parent.parent.name == "content":
            return "review", parent.parent.parent / "data"
    return None


def _file_error(path, message, rule, severity="error", line=None):
    return Finding(severity, CardFileError(path, message, line=line, rule=rule))


def raw_file_findings(path, data_dir, named, sums_cache):
    """Findings for one file under data_dir/raw/. It must lie in the folder of an existing card and be
    of a raw type (or be that folder's SHA256SUMS); one that no checked card names and SHA256SUMS does
    not list is a warning (it is not published). `named`: the raw paths (raw/<slug>/…) checked cards name."""
    data_dir = Path(data_dir)
    parts = Path(path).relative_to(data_dir / "raw").parts
    ref = "raw/" + "/".join(parts)
    if parts[-1].endswith(RAW_SKIPPED):
        return []
    if len(parts) == 1:
        return [_file_error(path, "a file directly in data/raw/; raw files go in their card's folder, "
                                  "data/raw/<slug>/", "raw-orphan")]
    folder = parts[0]
    if not (data_dir / "cards" / f"{folder}.yaml").is_file():
        return [_file_error(path, f"data/raw/{_short(folder)}/ belongs to no card: there is no "
                                  f"data/cards/{_short(folder)}.yaml", "raw-orphan")]
    if len(parts) == 2 and parts[1] == SUMS_NAME:
        return []
    if not raw_type_allowed(parts[-1]):
        return [_file_error(path, f"not a raw file type: raw files end in {', '.join(RAW_TYPES)} (the site serves "
                                  f"them as text; a page, image or script is never allowed here)", "raw-type")]
    if ref in named:
        return []
    if folder not in sums_cache:
        try:
            sums_cache[folder] = read_sha256sums(data_dir / "raw" / folder / SUMS_NAME)
        except (OSError, CardFileError):
            sums_cache[folder] = {}  # a missing or malformed SHA256SUMS is raw-hash's to report
    if "/".join(parts[1:]) in sums_cache[folder]:
        return []
    return [_file_error(path, f"no card names data/{_short(ref)} and data/raw/{_short(folder)}/{SUMS_NAME} does "
                              f"not list it; it is not published (name it in a `raw` field, or remove it)",
                        "raw-unlisted", "warning")]


def _front_matter_findings(path, text):
    """A review's front matter: YAML between --- lines, a title, and no key outside REVIEW_KEYS."""
    import yaml

    match = _FRONT_MATTER.match(text.removeprefix("\ufeff"))
    if not match:
        return [_file_error(path, "a review starts with YAML front matter between --- lines, with a title "
                                  "(TOML or JSON front matter is not used)", "review-file", line=1)]
    first = text[:match.start(1)].count("\n") + 1  # the line the YAML starts on
    try:
        node = yaml.compose(match.group(1), Loader=yaml.SafeLoader)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        return [_file_error(path, f"front matter is not valid YAML: {_short(getattr(exc, 'problem', exc), 100)}",
                            "review-file", line=first + mark.line if mark else first)]
    if not isinstance(node, yaml.MappingNode):
        return [_file_error(path, "front matter must be a mapping (key: value)", "review-file", line=first)]
    out, seen = [], set()
    for key, value in node.value:
        line = first + key.start_mark.line
        name = key.value if isinstance(key, yaml.ScalarNode) and key.tag == "tag:yaml.org,2002:str" else None
        if name not in REVIEW_KEYS:
            shown = _short(name) if name is not None else describe(getattr(key, "value", None))
            out.append(_file_error(path, f"front matter key '{shown}' is not allowed in a review; allowed: "
                                         f"{', '.join(REVIEW_KEYS)}", "review-key", line=line))
        elif name in seen:
            out.append(_file_error(path, f"front matter key '{name}' is given twice", "review-key", line=line))
        elif not isinstance(value, yaml.ScalarNode):
            out.append(_file_error(path, f"front matter '{name}' must be a single value", "review-key", line=line))
        seen.add(name)
    if "title" not in seen:
        out.append(_file_error(path, "front matter has no title", "review-key", line=first))
    return out


def review_findings(path, data_dir):
    """Findings for one entry of content/cards/: a review page <slug>.md of an existing card (data_dir/
    cards/<slug>.yaml), with front matter as _front_matter_findings says; the section's own files pass."""
    path = Path(path)
    if path.name in REVIEW_FOLDER_FILES and path.parent.name == "cards":
        return []
    if path.is_dir() or path.suffix != ".md" or path.parent.name != "cards" or not SLUG_FORM.match(path.stem):
        return [_file_error(path, "content/cards/ holds only review pages named <slug>.md, after a card's slug "
                                  "(lowercase letters, digits and hyphens)", "review-file")]
    findings = []
    if not (Path(data_dir) / "cards" / f"{path.stem}.yaml").is_file():
        findings.append(_file_error(path, f"a review of no card: there is no data/cards/{path.stem}.yaml",
                                    "review-file", line=1))
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        return findings + [_file_error(path, f"cannot read the review as UTF-8 text: {_short(exc, 100)}", "review-file")]
    return findings + _front_matter_findings(path, text)


def _files_under(folder):
    return sorted(Path(d) / name for d, _, names in os.walk(folder) for name in names)


def beside_cards_findings(cards, paths=(), data_dir=None):
    """Rules for what lies beside the card files, for the projects of the checked `cards` (LoadedCards)
    and the raw files or review pages given in `paths`: every file of each card's data/raw/<slug>/;
    files directly in data/raw/ and folders of no card; every entry of content/cards/ (see
    raw_file_findings, review_findings). Cards outside a data/cards/ folder bring in nothing but
    their own raw folder."""
    raw_files, reviews, projects, named = set(), set(), set(), set()
    for card in cards:
        folder = Path(card.path).parent
        own_dir = Path(data_dir) if data_dir else data_dir_of(card.path)
        if data_dir or folder.name == "cards":
            projects.add(own_dir)
        slug = card.data.get("slug") if isinstance(card.data, dict) else None
        named.update(ref for _, ref in raw_refs(card.data))
        if isinstance(slug, str) and SLUG_FORM.match(slug) and (own_dir / "raw" / slug).is_dir():
            raw_files.update((own_dir, f) for f in _files_under(own_dir / "raw" / slug))
    for path in paths:
        kind, own_dir = _beside_cards(path)
        projects.add(own_dir)
        (raw_files if kind == "raw" else reviews).add((own_dir, Path(path)))
    for project in projects:
        raw_root = project / "raw"
        for entry in (sorted(raw_root.iterdir()) if raw_root.is_dir() else []):
            if entry.is_dir() and (project / "cards" / f"{entry.name}.yaml").is_file():
                continue  # checked with its card
            raw_files.update((project, f) for f in ([entry] if not entry.is_dir() else _files_under(entry)))
        content = project.parent / "content" / "cards"
        if project.name == "data" and content.is_dir():
            reviews.update((project, entry) for entry in content.iterdir())
    out, sums_cache = [], {}
    for project, path in sorted(raw_files):
        out += raw_file_findings(path, project, named, sums_cache.setdefault(project, {}))
    for project, path in sorted(reviews):
        out += review_findings(path, project)
    return out


# --- files changed in a pull request -----------------------------------------------------------

def _git(repo, *args):
    try:
        done = subprocess.run(["git", *args], cwd=repo, capture_output=True, text=True, check=False)
    except OSError as exc:
        raise CardbenchError(f"--changed needs git: {exc.strerror}") from None
    return done


def changed_card_paths(repo=ROOT, base_ref="origin/main"):
    """Card files changed against the merge base with base_ref (else HEAD), plus untracked ones.

    A change under data/raw/<slug>/ or to content/cards/<slug>.md brings in data/cards/<slug>.yaml
    (checked with its raw folder and the review pages); a schema change brings in every card. Any other
    changed file under data/ or content/cards/ is returned itself, so validate_paths refuses it.
    Returns (paths, description of the base compared against).
    """
    repo = Path(repo)
    merge_base = _git(repo, "merge-base", base_ref, "HEAD")
    if merge_base.returncode == 0 and merge_base.stdout.strip():
        base, described = merge_base.stdout.strip(), f"merge base with {base_ref} ({merge_base.stdout.strip()[:10]})"
    else:
        base, described = "HEAD", f"HEAD ({base_ref} not found)"
    diff = _git(repo, "diff", "--name-only", "-z", "--no-renames", "--diff-filter=d", base, "--", "data", "content/cards")
    if diff.returncode != 0:
        raise CardbenchError(f"--changed: git diff failed: {_short(diff.stderr.strip(), 200)}")
    untracked = _git(repo, "ls-files", "--others", "--exclude-standard", "-z", "--", "data", "content/cards")
    names = [n for n in (diff.stdout + "\0" + untracked.stdout).split("\0") if n]
    cards_dir = repo / "data" / "cards"
    if "data/schema/card.schema.json" in names:
        return card_paths(cards_dir), described + "; the schema changed, so every card"
    picked = set()
    for name in names:
        parts = name.split("/")
        if parts[:2] == ["data", "cards"]:
            picked.add(repo / name)  # a card file, or anything else there (reported: cards are <slug>.yaml)
        elif len(parts) >= 4 and parts[1] == "raw" and (cards_dir / f"{parts[2]}.yaml").is_file():
            picked.add(cards_dir / f"{parts[2]}.yaml")  # checked with its card, its folder's other files too
        elif parts[:2] == ["data", "raw"]:
            picked.add(repo / name)  # in data/raw/ itself or in a folder of no card: refused
        elif parts[:2] == ["content", "cards"] and len(parts) == 3 and parts[2] in REVIEW_FOLDER_FILES:
            continue  # the section's own files
        elif parts[:2] == ["content", "cards"]:
            slug = parts[2].removesuffix(".md")
            review = len(parts) == 3 and (cards_dir / f"{slug}.yaml").is_file()
            picked.add(cards_dir / f"{slug}.yaml" if review else repo / name)  # a review comes with its card
    return sorted(p for p in picked if p.is_file()), described


__all__ = ["Finding", "RULES", "check_card", "validate_paths", "card_paths", "format_field", "schema_validator",
           "changed_card_paths", "beside_cards_findings", "raw_file_findings", "review_findings", "raw_type_allowed",
           "RAW_TYPES", "REVIEW_KEYS", "block_size_bytes", "describe"]
