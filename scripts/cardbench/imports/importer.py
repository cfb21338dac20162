"""Bring existing benchmark output into a card file as one new session.

import_file(path, cards_dir, slug, name=None, label=None, fmt="auto", data_dir=None, date=None,
            source=None, progress=None) -> ImportResult

  1. read: the file's bytes (imports.read: a regular file, at most MAX_BYTES and MAX_LINES,
     UTF-8 or UTF-16 with a byte-order mark as CrystalDiskMark saves). A file the card already
     holds (same sha256) adds nothing: ImportResult.already_imported.
  2. unwrap (imports.transcript): a pasted terminal session or document is cut down to what
     the parsers read, line for line: prompts, sudo, Markdown fences and indentation taken off.
  3. detect: the format (parsers.registry) unless fmt names one of its NAMES.
  4. parse: the format's tool module reads the file (parsers.registry Format.parse_file) and its
     to_session() gives SessionFields; a log of several tools' commands is cut into one part per
     tool first (imports.several_tools); a file holding N runs gives results with N runs each. A
     file that does not parse, is cut off or contradicts itself raises ParseError naming the line;
     nothing is written then. So does a figure whose bandwidth and IOPS × block size disagree
     (figure_check: a unit or size wrongly assumed).
  5. write: ONE session through the card transaction (card.transaction.card_change), the bytes
     copied to data/raw/<slug>/<session-id>/<file name> (listed in data/raw/<slug>/SHA256SUMS)
     and their sha256 kept in the session's `imported_sha256`. Nothing is written when the new card text
     would not validate (CardFileError).

A published source's one kept file may give a card several sessions (a table with a column per host):
per_label=True (imports.sources) takes the same bytes as imported already only under the same label.

A new slug creates the card from `name` (imports.naming), with `card` ({"capacity_gb", "bus",
"form_factor"}, as given on the command line) before what the name suggests; ImportResult.defaults
lists what was assumed, for the command line to show. `hints` ({"op", "block_size"}) tell a dd log
without its command what it cannot say.
"""

import datetime
import hashlib
import re
from pathlib import Path

from ..card import new_card_data
from ..core import paths
from ..card.load import load_card
from ..card.lookalike import cleaned_name, mixed_script, single_spaced
from ..card.checks.schema_findings import schema_validator
from ..card.store.transaction import card_change
from ..core.paths import RAW_TYPES, unportable_name
from ..core.subtest_names import dd_test_name
from ..errors import CardFileError, ParseError, quoted
from ..parsers.registry import (NAMED_ONLY, NAMES, detect_format, format_claims, format_named, logged_tools,
                                undecided_line)
from ..parsers.text.terminal import printable
from .figure_check import check_bandwidth_iops, check_plausible
from .logdate import date_in_log
from .naming import DEFAULT_SOURCE, card_for_name, check_slug, similar_cards
from .read import check_length, decode_text, read_input
from .result import MEASUREMENT_KEYS, ImportResult
from .several_tools import check_one_tool, several_tools
from .transcript import unwrap

MAX_SHOWN = 200  # characters of a line quoted in an error
MAX_MESSAGE = 1000  # characters of an error's own words: never a whole line or figure of the file


# The day a session ran, when its source does not say it: the session then has no date at all.
DATE_NOT_STATED = "not stated"


def import_file(path, cards_dir, slug, name=None, label=None, fmt="auto", data_dir=None, date=None, source=None,
                progress=None, card=None, hints=None, host=None, reader=None, session_facts=None, per_label=False):
    say = progress or (lambda message: None)
    host, reader = (single_spaced(text) or None if text else text for text in (host, reader))
    check_slug(slug)  # before any path is made of it: a name too long for the file system, "../x"
    path = Path(path)
    cards_dir = Path(cards_dir)
    data_dir = Path(data_dir) if data_dir is not None else cards_dir.parent
    raw = read_input(path)
    digest = hashlib.sha256(raw).hexdigest()
    card_path = paths.card_path(cards_dir, slug)
    card_data = load_card(card_path).data if card_path.exists() else None
    for session in (card_data or {}).get("sessions") or []:
        if isinstance(session, dict) and digest in (session.get("imported_sha256") or []) and \
                (not per_label or session.get("label") == label):
            return _already_imported(card_path, session, digest)

    text = decode_text(raw, path)
    check_length(text, path)
    named_only = fmt in {f.name for f in NAMED_ONLY}
    if not named_only:  # a result table's headings would read as root prompts ('# Samsung …')
        text = unwrap(text)  # prompts, sudo, Markdown fences, indentation: once, for every format
    claims = format_claims(text)  # once: every detector reads the whole text, for its format and other tools' output
    detected = None if named_only else detect_format(text, claims)
    fmt = _format_of(text, fmt, detected)
    # A format given for a file nothing recognises: quote none of it (a result table is never recognised alone).
    recognised = detected is not None or named_only
    say(f"{printable(path.name)}: {fmt}")
    try:
        check_one_tool(text, fmt, claims)
    except ParseError as exc:
        raise _unquoted(exc, recognised, fmt, path) from None

    new_card, defaults = card_for_name(slug, name, source, card_path, card) if card_data is None else (None, {})
    try:
        fields = session_fields(fmt, text, hints)
        check_plausible(fields.tools[0]["name"], fields.measurements, printable(path.name))
        check_bandwidth_iops(fields.tools[0]["name"], fields.measurements, fields.assumption)
    except ParseError as exc:
        raise _unquoted(_brief(exc), recognised, fmt, path) from None
    check_session_size(fields.measurements)

    day, dated_by = _session_day(fields, text, date)
    # The name's line breaks and invisible characters would make the label invalid: escaped instead.
    file_name = _safe_file_name(path.name)
    if not label:
        label = f"Imported {printable(path.name)}"[:200]
        if mixed_script(label):  # a file name mixing scripts would make the label a look-alike: the copy's name
            label = f"Imported {file_name}"
    new_index = None  # where the new session goes in the card: a refusal of the card text may point into it
    try:
        with card_change(data_dir, slug, on_wait=say) as change:
            found = change.data.get("sessions") if isinstance(change.data, dict) else None
            new_index = len(found) if isinstance(found, list) else 0
            # Checked again under the card's lock: a parallel import of the same file may have landed.
            earlier = change.session_with_import(digest, label if per_label else None)
            if earlier is not None:
                return _already_imported(change.path, earlier, digest)
            if change.loaded is None and new_card is None:
                new_card, defaults = card_for_name(slug, name, source, change.path, card)
            session_id = change.unique_session_id(new_card_data.session_id(day, label) if day else
                                                  new_card_data.session_id("", label).lstrip("-"))
            raw_rel = f"raw/{slug}/{session_id}/{file_name}"
            session = {"id": session_id, "label": label, "date": day}
            if day is None:
                del session["date"]
            # the tool's own words for the system (CrystalDiskMark's OS line), made plain, unless one is given
            host_text = host or cleaned_name(fields.host or "")
            if host_text:
                session["host"] = host_text
            if reader:
                session["reader"] = reader
            session.update(session_facts or {})
            session.update(fields.session)
            session["source"] = dict(source or DEFAULT_SOURCE)
            session["tools"] = fields.tools
            if fields.notes:
                session["notes"] = " ".join(fields.notes)[:5000]
            session.update({key: fields.measurements[key] for key in MEASUREMENT_KEYS if key in fields.measurements})
            session["imported_sha256"] = [digest]
            session["raw"] = [raw_rel]
            change.add_raw_bytes(f"{session_id}/{file_name}", raw)
            created = change.loaded is None
            if created and fields.card:
                new_card = {**new_card, **{k: v for k, v in fields.card.items() if k not in new_card}}
                new_card["sessions"] = new_card.pop("sessions")  # sessions stay the card's last key
            change.append_session(session, new_card=new_card if created else None)
            card_file = change.commit()
    except CardFileError as exc:
        raise _figures_refused(exc, new_index, fields, path, named=new_card is not None) from None
    say(f"{card_file}: session {session_id}")
    return ImportResult(card_path=Path(card_file), session_id=session_id, sha256=digest, format=fmt, runs=fields.runs,
                        entries=fields.entries, raw=(raw_rel,), notes=tuple(fields.notes), created_card=created,
                        defaults=defaults if created else {}, date=day, dated_by=dated_by,
                        host=session.get("host"), reader=session.get("reader"),
                        similar=tuple(similar_cards(cards_dir, slug)) if created else ())


def _session_day(fields, text, given):
    """(day, what says it) of the new session: the day given; else the day the output says it ran
    (fio's time, CrystalDiskMark's footer), else the first `date` output in the log (logdate), when
    not in the future; else today, said by None."""
    today = datetime.date.today().isoformat()
    if given == DATE_NOT_STATED:
        return None, "its source, which does not say when it ran"
    if given:
        return given, "given"
    if fields.date and fields.date <= today:
        return fields.date, "the date the output gives"
    logged = date_in_log(text)
    if logged and logged[0] <= today:
        return logged[0], f"the `date` output on line {logged[1]}"
    return today, None


def session_fields(fmt, text, hints=None):
    """SessionFields of a text in the registry format `fmt`: a log of several tools (dd, then flashbench,
    then f3probe…) is cut apart and made one session whichever tool detection named (several_tools);
    any other text is read by the format's tool module, parse_file() then to_session(). Hints (OP=,
    BS=) speak of one tool's log, so they leave it to that tool."""
    fields = several_tools(text) if fmt in logged_tools() and not any((hints or {}).values()) else None
    if fields is None:
        fields = format_named(fmt).read_session(text, **_handler_hints(fmt, hints))
    return fields


def _handler_hints(fmt, hints):
    """What the command line tells a tool module's to_session() that the file may not say: read or write
    and the block size of a dd log without its command ({"op", "block_size"}), a result table's layout."""
    hints = {key: value for key, value in (hints or {}).items() if value is not None}
    if set(hints) - set(format_named(fmt).module.INFO.hints):
        reason = f"read or write and the block size are only for dd output; this file is {fmt} output"
        raise ParseError("import", f"read/write and block size (OP=, BS=; --op, --bs) are for dd logs; this file is "
                                   f"{fmt} output", asks=("no_dd_hints",), reason=reason)
    return hints


def _format_of(text, fmt, found):
    """The registry name of the text's format: `fmt` itself, or `found` (what detect_format found) when it is
    "auto"."""
    if fmt not in (None, "", "auto"):
        if fmt not in NAMES + tuple(f.name for f in NAMED_ONLY):
            raise ParseError("import", f"unknown format {quoted(str(fmt))}; one of: auto, {', '.join(NAMES)}")
        return fmt
    undecided = undecided_line(text, found)
    if undecided:
        reason = ("this result line could be cdm_fio.sh's (its 'MB/s' is MiB/s) or CrystalDiskMark 2 to 4's (MB/s = "
                  "10^6 bytes/s), and no line of the file says which")
        raise _brief(ParseError("import", f"{reason}: give --format=cdm-fio or --format=crystaldiskmark (FORMAT= on "
                                          "make import)", line=undecided[0], text=undecided[1], asks=("format",),
                                reason=reason))
    if found is None:
        # Its first line is named, never quoted: a file that is not tool output may be anything (a password file).
        first = next((i for i, line in enumerate(text.splitlines(), start=1) if line.strip()), None)
        reason = f"format not recognised as {', '.join(NAMES[:-1])} or {NAMES[-1]} output"
        raise ParseError("import", f"{reason}; give --format", line=first, asks=("format",), reason=reason)
    return found.name


def check_session_size(measurements):
    """ParseError when the parsed file holds more entries, or more runs of one entry, than the card
    schema lets a session have: found here, before the card text is built and checked, which for
    a hundred thousand entries takes minutes."""
    allowed = schema_validator().schema["properties"]["sessions"]["items"]["properties"]
    for key in MEASUREMENT_KEYS:
        entries = measurements.get(key) or []
        if not isinstance(entries, list):  # one block (f3probe, capacity_check, nvme): no list to bound
            continue
        rule = allowed.get(key, {})
        most = rule.get("maxItems")
        if most is not None and len(entries) > most:
            raise ParseError("import", f"the file gives {len(entries)} {key} entries; a session holds at most {most}; "
                                       "import it in parts")
        most_runs = rule.get("items", {}).get("properties", {}).get("runs", {}).get("maxItems")
        runs = max((len(entry.get("runs") or []) for entry in entries), default=0)
        if most_runs is not None and runs > most_runs:
            raise ParseError("import", f"the file gives {runs} runs of one {key} entry; a session holds at most "
                                       f"{most_runs}; import it in parts")


def _brief(exc):
    """The error with the quoted line cut to MAX_SHOWN characters (it may be megabytes long), and its
    message to MAX_MESSAGE, should a figure of the file have got into it whole."""
    long_text = exc.text is not None and len(exc.text) > MAX_SHOWN
    if not long_text and len(exc.message) <= MAX_MESSAGE:
        return exc
    message = exc.message if len(exc.message) <= MAX_MESSAGE else exc.message[:MAX_MESSAGE] + "…"
    return ParseError(exc.tool, message, line=exc.line, text=exc.text[:MAX_SHOWN] + "…" if long_text else exc.text,
                      asks=exc.asks, reason=exc.reason if len(exc.reason) <= MAX_MESSAGE else None)


def _unquoted(exc, recognised, fmt, path):
    """The error as it is for a file recognised as tool output; for one that is not (read with a format
    given), only where it failed: its lines, and the parser's words that may quote them, stay unshown."""
    if recognised:
        return exc
    reason = (f"{printable(path.name)} is not recognised as tool output, and reading it as {fmt} fails; none of its "
              "text is shown (it may not be tool output at all)")
    return ParseError("import", f"{reason}: check the file and --format", line=exc.line, asks=("format",),
                      reason=reason)


_SESSION_FIELD = re.compile(r"^sessions\[(\d++)\]\.(\w++)(?:\[(\d++)\])?+(.*+)$")
# The session's texts an import is given (--label, --host, --reader; LABEL=, HOST=, READER= on make import).
GIVEN_TEXTS = ("label", "host", "reader")


def _figures_refused(exc, new_index, fields, path, named=False):
    """A refusal of the would-be card text that points into the imported session, told as what it is:
    the imported figures fail a card rule (named with its subtest and the import file), or a text given
    for it does (named with its option), not a line of a card file that was never written. The brand or
    model of a card made from --name (`named`) names --name. Any other CardFileError as it is."""
    reason = exc.message.removeprefix("this change would make the card invalid: ").removesuffix("; nothing written")
    if named and exc.field in ("brand", "model"):
        return CardFileError(exc.path, f"the {exc.field} made from the card name (--name) fails the card's checks: "
                                       f"{reason}; give another name; nothing written", field=exc.field, rule=exc.rule)
    match = _SESSION_FIELD.match(exc.field or "")
    if new_index is None or not match or int(match.group(1)) != new_index:
        return exc
    kind, index, rest = match.group(2), match.group(3), match.group(4)
    if kind in GIVEN_TEXTS:  # given with --label, --host or --reader, or (a label) made from the file name
        return ParseError("import", f"the session {kind} fails the card's checks: {reason} [{exc.rule}]; give "
                                    f"another with --{kind}; nothing written")
    where = kind
    entries = fields.measurements.get(kind)
    if index is not None and isinstance(entries, list) and int(index) < len(entries):
        entry = entries[int(index)]
        if isinstance(entry, dict):
            name = entry.get("test") or (dd_test_name(entry) if kind == "dd" else None)
            where = " ".join(str(part) for part in (name, entry.get("op")) if part) or f"{kind}[{index}]"
    where += f" ({kind}{'[' + index + ']' if index is not None else ''}{rest})"
    rule = f" [{exc.rule}]" if exc.rule else ""
    return ParseError(fields.tools[0]["name"] if fields.tools else "import",
                      f"the figures imported from {printable(path.name)} fail the card's checks: {where}: "
                      f"{reason}{rule}; nothing written")


def _safe_file_name(name):
    """The raw copy's name: plain characters, and an inert text type (results.html -> results.html.txt),
    because the site serves raw files as they are."""
    cleaned = (re.sub(r"[^A-Za-z0-9._-]+", "-", name).strip("-.") or "import")[:100]
    if unportable_name(cleaned):  # nul.txt, con.log: names Windows cannot check out
        cleaned = f"import-{cleaned}"[:100]
    return cleaned if Path(cleaned).suffix.lower() in RAW_TYPES else f"{cleaned}.txt"


def _already_imported(card_file, session, digest):
    return ImportResult(card_path=Path(card_file), session_id=session.get("id"), sha256=digest, already_imported=True)
