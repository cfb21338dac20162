"""An "Add a result" issue, as GitHub renders its form, made into a change of one card.

read_form(body) -> FormFields: the form's answers, read as data: `### <label>` headings in the
    form's order, "_No response_" for an empty answer, the pasted log taken out of the code fence
    GitHub puts around it (or as it stands when the fence was edited away).
submit(body, cards_dir, data_dir=None) -> Submission: the log imported into the card the name
    makes (new or existing, matched by slug), or the refusal worded for the contributor, naming
    what to add or change in the issue. Nothing is written for a refusal.

The issue's title and body are untrusted: they are bounded in size, never run or put into a
command, and only the log reaches a parser (through the same import as `cardbench import`).
"""

import json
import re
import tempfile
from dataclasses import dataclass
from pathlib import Path

from ..card.identity import bus_from_name, capacity_from_name, card_family, form_factor_from_name, make_slug
from ..card.lookalike import name_problem, single_spaced
from ..card.newcard import normalize_answer
from ..card.wording import lone_surrogate, surrogate_words
from ..errors import CardbenchError, CardFileError, ParseError
from ..parsers.terminal import printable
from .importer import import_file

# The form's labels, in the order GitHub renders them (.github/ISSUE_TEMPLATE/add-result.yml uses
# exactly these), and the field each fills.
LABELS = {"Card name": "name", "Capacity": "capacity", "Bus": "bus", "Form factor": "form", "Host": "host",
          "Reader": "reader", "Tool output": "log"}
NAMES = ("name", "host", "reader")  # answers stored as names: held to the card's rules on names
MAX_BODY = 300_000  # characters; GitHub keeps at most 65,536 in an issue body
MAX_ANSWER = 200  # characters of a one-line answer (the card schema's longest name)
NO_RESPONSE = "_No response_"
RAW_NAME = "tool-output.txt"  # the log's name beside the card
_FENCE = re.compile(r"^(`{3,}|~{3,})[^`]*$")


@dataclass
class FormFields:
    name: str | None = None
    capacity: str | None = None
    bus: str | None = None
    form: str | None = None
    host: str | None = None
    reader: str | None = None
    log: str | None = None


@dataclass
class Submission:
    accepted: bool
    message: str  # Markdown for the issue: what was added, or what to add
    slug: str | None = None
    card_path: Path | None = None


class SubmissionRefused(CardbenchError):
    """The issue cannot become a card change; the message says what to add or change."""


def issue_body(body_path=None, event_path=None):
    """The issue body from a Markdown file, or from a GitHub issues event's JSON (issue.body); both
    read within MAX_BODY, as data."""
    path = Path(body_path or event_path)
    try:
        with open(path, "rb") as handle:
            raw = handle.read(MAX_BODY * 4 + 1)
    except OSError as exc:
        raise CardbenchError(f"submission: cannot read {printable(path)}: {exc.strerror}") from None
    text = raw.decode("utf-8", errors="replace")
    if body_path is not None:
        return text  # read_form refuses it when it is too long
    try:
        body = (json.loads(text).get("issue") or {}).get("body")
    except (ValueError, AttributeError):
        raise CardbenchError(f"submission: {printable(path)} is not a GitHub issues event") from None
    return body if isinstance(body, str) else ""


def read_form(body):
    """FormFields of an issue body; SubmissionRefused when it is too long or not the form."""
    if not isinstance(body, str):
        raise SubmissionRefused("the issue has no text")
    if len(body) > MAX_BODY:
        raise SubmissionRefused(f"the issue is {len(body):,} characters long; at most {MAX_BODY:,}")
    surrogate = lone_surrogate(body)
    if surrogate:  # a GitHub event's JSON may carry one ("\\ud800"); no part of the issue can be written then
        line = body.count("\n", 0, surrogate.start()) + 1
        raise SubmissionRefused(f"line {line} of the issue holds {surrogate_words(surrogate.group())}; type that "
                                "part again")
    lines = body.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    sections, order, at = {}, list(LABELS), 0
    current = None
    for line in lines:
        # Only the form's next heading opens a section: a heading inside the pasted log is part of it.
        if at < len(order) and _heading(line) == order[at] and current != "Tool output":
            current = order[at]
            at += 1
            sections[current] = []
        elif current is not None:
            sections[current].append(line)
    if "Card name" not in sections or "Tool output" not in sections:
        raise SubmissionRefused("this is not the \"Add a result\" form: its \"### Card name\" and \"### Tool output\" "
                                "sections are missing; open the issue from the form")
    fields = FormFields()
    for label, lines_of in sections.items():
        attribute = LABELS[label]
        text = _log_of(lines_of) if attribute == "log" else _answer(lines_of, label)
        setattr(fields, attribute, text)
    return fields


def _heading(line):
    """The text of a '### ' heading line, without the white space after it (by string methods: the
    pattern ^### (.+?)\\s*$ is quadratic on a long run of spaces), or None."""
    return line[4:].rstrip() if line.startswith("### ") else None


def _answer(lines, label):
    text = "\n".join(lines).strip()
    if not text or text == NO_RESPONSE:
        return None
    if "\n" in text or len(text) > MAX_ANSWER:
        raise SubmissionRefused(f"**{label}** must be one line of at most {MAX_ANSWER} characters")
    if LABELS[label] not in NAMES:
        return text
    text = single_spaced(text)
    problem = name_problem(text)
    if problem:
        raise SubmissionRefused(f"**{label}** {problem}")
    return text


def _log_of(lines):
    """The pasted log: what stands between the section's first fence and its last closing fence
    (a log may hold fences of its own), else the section's text as it stands."""
    start = next((i for i, line in enumerate(lines) if line.strip()), None)
    if start is None:
        return None
    opening = _FENCE.match(lines[start].strip())
    if opening:
        mark = opening.group(1)
        closing = [i for i in range(len(lines) - 1, start, -1)
                   if lines[i].strip() and set(lines[i].strip()) == {mark[0]} and len(lines[i].strip()) >= len(mark)]
        end = closing[0] if closing else len(lines)
        text = "\n".join(lines[start + 1:end])
    else:
        text = "\n".join(lines[start:])
    text = text.strip("\n")
    return None if not text.strip() or text.strip() == NO_RESPONSE else text + "\n"


def submit(body, cards_dir, data_dir=None):
    """Submission of an issue body: the log imported (accepted) or the refusal (nothing written)."""
    try:
        fields = read_form(body)
        slug, name, given = _card_of(fields)
        if fields.log is None:
            raise SubmissionRefused("**Tool output** is empty: paste the whole output of the benchmark tool, with "
                                    "the command you ran")
        with tempfile.TemporaryDirectory(prefix="cardbench-submission-") as folder:
            log = Path(folder) / RAW_NAME
            log.write_text(fields.log, encoding="utf-8")
            result = import_file(log, cards_dir, slug, name=name, label="Contributed through the Add a result form",
                                 data_dir=data_dir, card=given, host=fields.host, reader=fields.reader)
    except (SubmissionRefused, ParseError, CardFileError, CardbenchError) as exc:
        return Submission(accepted=False, message=_refusal(exc))
    if result.already_imported:
        return Submission(accepted=False, slug=slug, card_path=result.card_path,
                          message=f"This log is already in `{slug}` (session `{result.session_id}`); nothing to add.")
    lines = [f"Imported into `{slug}`: {result.format}, {result.runs} run(s), {result.entries} figure(s)."]
    if not fields.host or not fields.reader:
        lines.append("Host or reader not given: the page will say \"not stated\". Edit the issue to add them.")
    lines += [f"Note: {_plain(note)}" for note in result.notes]
    return Submission(accepted=True, slug=slug, card_path=result.card_path, message="\n\n".join(lines))


def _plain(text):
    """A note as plain text in Markdown: no mentions, links or markup taken from the log."""
    return re.sub(r"([\\`*_{}\[\]<>()#+!|@~])", r"\\\1", printable(text))


def _card_of(fields):
    """(slug, card name, given card values) from the form's answers."""
    if not fields.name:
        raise SubmissionRefused("**Card name** is empty: give brand, model and capacity, e.g. "
                                "\"SanDisk Extreme 64GB\"")
    words = fields.name.split()
    if len(words) < 2:
        raise SubmissionRefused("**Card name** needs a brand and a model, e.g. \"SanDisk Extreme 64GB\"")
    given = {"capacity_gb": fields.capacity, "bus": fields.bus, "form_factor": fields.form}
    try:
        values = {key: normalize_answer(key, value) for key, value in given.items() if value is not None}
        capacity = values.get("capacity_gb") or capacity_from_name(fields.name)
    except ValueError as exc:
        raise SubmissionRefused(f"{exc}: correct **Capacity**, **Bus** or **Form factor**") from None
    if capacity is None:
        raise SubmissionRefused("**Capacity** is empty and the card name does not say it: give it, e.g. 64GB or 1TB")
    capacity = normalize_answer("capacity_gb", capacity)
    bus = values.get("bus") or bus_from_name(fields.name)[0]  # as `make import` reads a name
    form = values.get("form_factor") or form_factor_from_name(fields.name)[0]
    slug = make_slug(words[0], " ".join(words[1:]), capacity, form, card_family(capacity), bus)
    if not slug:
        raise SubmissionRefused("**Card name** has no letters or digits a web address can use; write it in "
                                "Latin letters, e.g. \"Samsung EVO Plus 128GB\"")
    return slug, fields.name, {"capacity_gb": capacity, "bus": bus, "form_factor": form}


def _refusal(exc):
    """The refusal as the contributor reads it in the issue: the reason in a code block (a line it
    quotes from the log can then mention no one, link nowhere and hold no markup), then how to fix it."""
    reason = printable(str(exc)).replace("`", "'")
    return ("This result could not be added yet:\n\n"
            f"```text\n{reason}\n```\n\n"
            "Edit the issue to fix it; the check runs again on every edit.")
