"""An "Add a result" issue, as GitHub renders its form, made into a change of one card.

read_form(body) -> FormFields: the form's answers, read as data: `### <label>` headings in the
    form's order, "_No response_" for an empty answer, the pasted log taken out of the code fence
    GitHub puts around it (or as it stands when the fence was edited away).
submit(body, cards_dir, data_dir=None) -> Submission: the log imported into the card the name
    makes (new or existing, matched by slug), or the refusal worded for the contributor, naming
    what to add or change in the issue, in the form's own fields (never make import's options, the
    card schema's field paths or this machine's folders). Nothing is written for a refusal. An
    internal failure is an outcome too ("error"): the reply says so, and the workflow asks a
    maintainer.

The issue's title and body are untrusted: they are bounded in size, never run or put into a
command, and only the log reaches a parser (through the same import as `cardbench import`).
"""

import json
import os
import re
import tempfile
from dataclasses import dataclass
from pathlib import Path

from ..card.lookalike import name_problem, single_spaced
from ..card.wording import lone_surrogate, surrogate_words
from ..errors import CardbenchError, CardFileError, ParseError
from ..parsers.text.terminal import printable
from .importer import import_file
from .naming import slug_for_name

# The form's labels, in the order GitHub renders them (.github/ISSUE_TEMPLATE/add-result.yml uses
# exactly these), and the field each fills.
LABELS = {"Card name": "name", "Capacity": "capacity", "Bus": "bus", "Form factor": "form", "Host": "host",
          "Reader": "reader", "Tool": "tool", "Read or write": "op", "Block size": "block_size", "Tool output": "log"}
# What an error asks for (errors.ASKS keys), as the form's field and what to put there.
FORM_ASKS = {"op": "choose **Read or write**", "block_size": "give **Block size** (e.g. 4M)",
             "format": "choose the **Tool** that printed it", "capacity": "give **Capacity** (e.g. 64GB)",
             "bus": "choose **Bus**", "form_factor": "choose **Form factor**",
             "no_dd_hints": "leave **Read or write** and **Block size** empty"}
# Card rules a contributor's answers or log can break (the bus chosen, a figure, a name); any other rule
# broken by a submission is this site's problem, not the contributor's.
CONTRIBUTOR_RULES = {"bus-ceiling", "bw-iops", "positive", "finite", "below-precision", "date-not-future",
                     "text-control", "name-script", "brand-lookalike", "dd-block-size", "runs-parallel", "url-form"}
ACCEPTED, REFUSED, ERROR = "accepted", "refused", "error"
INTERNAL_ERROR = ("The check stopped with an internal error. Your result did not cause it, and there is nothing "
                  "you need to change: a maintainer has been asked to look, and the check runs again when the "
                  "issue is edited.")
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
    tool: str | None = None
    op: str | None = None
    block_size: str | None = None
    log: str | None = None


@dataclass
class Submission:
    status: str  # ACCEPTED, REFUSED or ERROR
    message: str  # Markdown for the issue: what was added, what to add, or that a maintainer will look
    slug: str | None = None
    card_path: Path | None = None
    trace: str | None = None  # an internal error's traceback, for the maintainer (the workflow's log), never the reply

    @property
    def accepted(self):
        return self.status == ACCEPTED


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
        # Labels the issue lacks (it was opened from an older form) are skipped.
        heading = _heading(line)
        if heading is not None and heading in order[at:] and current != "Tool output":
            current = heading
            at = order.index(current) + 1
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
    """Submission of an issue body: the log imported (accepted), the refusal (nothing written), or an
    internal error (nothing written; the reply says a maintainer will look). Never raises."""
    try:
        return _submit(body, cards_dir, data_dir)
    except Exception:  # noqa: BLE001 - every outcome must answer the contributor
        import traceback

        return Submission(ERROR, INTERNAL_ERROR, trace=traceback.format_exc())


def _submit(body, cards_dir, data_dir):
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
                                 fmt=fields.tool or "auto", data_dir=data_dir, card=given, host=fields.host,
                                 reader=fields.reader, hints=_hints(fields))
    except SubmissionRefused as exc:
        return Submission(REFUSED, _refusal(str(exc)))
    except (ParseError, CardFileError, CardbenchError) as exc:
        reason = _contributor_reason(exc)
        return Submission(REFUSED, _refusal(reason)) if reason else Submission(ERROR, INTERNAL_ERROR)
    if result.already_imported:
        return Submission(REFUSED, f"This log is already in `{slug}` (session `{result.session_id}`); nothing to add.",
                          slug=slug, card_path=result.card_path)
    lines = [f"Imported into `{slug}`: {result.format}, {result.runs} run(s), {result.entries} figure(s)."]
    missing = [label for label, value in (("Host", fields.host), ("Reader", fields.reader)) if not value]
    if missing:
        lines.append(f"{' and '.join(f'**{m}**' for m in missing)} not given: the card's page will say \"not "
                     "stated\". Edit the issue to add "
                     f"{'them' if len(missing) > 1 else 'it'}.")
    if result.similar:
        lines.append(f"This made a new card. Did you mean {' or '.join(f'`{s}`' for s in result.similar)}? If the "
                     "result is for that card, edit **Card name** (and **Capacity**, **Bus**, **Form factor**) to "
                     "match its page.")
    lines += [f"Note: {_plain(_form_words(note))}" for note in result.notes]
    return Submission(ACCEPTED, "\n\n".join(lines), slug=slug, card_path=result.card_path)


def _hints(fields):
    """Read or write and the block size, for dd output pasted without its command."""
    return {"op": fields.op, "block_size": fields.block_size}


def _contributor_reason(exc):
    """What the contributor can fix, worded for the form; None when the fault is this site's."""
    if isinstance(exc, CardFileError) and exc.rule is not None and exc.rule not in CONTRIBUTOR_RULES:
        return None
    if isinstance(exc, CardFileError) and exc.rule is None and not exc.asks and exc.field is not None \
            and exc.field not in ("brand", "model", "capacity_gb", "bus", "form_factor", "slug"):
        return None  # a field of the card file itself (a shipped card that cannot take the session)
    if type(exc).__name__ in ("CardBusyError", "DiskFullError"):
        return None
    reason = exc.reason if exc.asks and hasattr(exc, "reason") else getattr(exc, "message", str(exc))
    if isinstance(exc, ParseError):
        where = f", line {exc.line}" if exc.line is not None else ""
        shown = f": {exc.text!r}" if exc.text is not None and not exc.asks else ""
        reason = f"Tool output{where} ({exc.tool}): {reason}{shown}"
    asks = [FORM_ASKS[key] for key in exc.asks if key in FORM_ASKS]
    if asks:
        reason += ": " + " and ".join(asks) + " in the issue"
        if "op" in exc.asks or "block_size" in exc.asks:
            reason += ", or paste the command line (e.g. '$ dd if=/dev/sdX of=/dev/null bs=4M count=256 ' \
                      'iflag=direct') above its output"
    return _form_words(_without_paths(reason))


# make import's and cardbench import's ways of saying a thing, and the form's.
_CLI_WORDS = [
    (re.compile(r'set bus: "([^"]+)" in \S+\.yaml, or BUS="[^"]+" on make import for a new card'),
     r'choose **Bus** "\1" in the issue'),
    (re.compile(r" {0,3}\((?:[A-Z]{2,8}+=[^()]*+)?on make import[^()]*+\)"), ""),
    (re.compile(r"[,;]? {0,3}(?:or )?(?:give )?(?<![A-Za-z])[A-Z]{2,8}+=\S*+(?: \([^()]*+\))? on make import"
                r"(?:, or [^;.]*+ on cardbench import)?"), ""),
]


def _form_words(text):
    for pattern, replacement in _CLI_WORDS:
        text = pattern.sub(replacement, text)
    return text


def _without_paths(text):
    """The text without this machine's folders: the checkout, the temp folder and the home folder
    become nothing (data/cards/x.yaml stays as the repository names it)."""
    roots = {os.getcwd(), tempfile.gettempdir(), str(Path.home())}
    for root in sorted((r for r in roots if r and r != "/"), key=len, reverse=True):
        text = re.sub(re.escape(root.rstrip("/")) + r"/(?:cardbench-submission-[^/\s]*/)?", "", text)
    return text


def _plain(text):
    """A note as plain text in Markdown: no mentions, links or markup taken from the log."""
    return re.sub(r"([\\`*_{}\[\]<>()#+!|@~])", r"\\\1", printable(text))


def _card_of(fields):
    """(slug, card name, given card values) from the form's answers, the slug made as make import makes it."""
    if not fields.name:
        raise SubmissionRefused("**Card name** is empty: give brand, model and capacity, e.g. "
                                "\"SanDisk Extreme 64GB\"")
    if len(fields.name.split()) < 2:
        raise SubmissionRefused("**Card name** needs a brand and a model, e.g. \"SanDisk Extreme 64GB\"")
    given = {"capacity_gb": fields.capacity, "bus": fields.bus, "form_factor": fields.form}
    try:
        slug = slug_for_name(fields.name, given)
    except CardFileError as exc:
        if exc.field == "slug":
            raise SubmissionRefused("**Card name** has no letters or digits a web address can use; write it in "
                                    "Latin letters, e.g. \"Samsung EVO Plus 128GB\"") from None
        if exc.asks == ("capacity",) and not fields.capacity:
            raise SubmissionRefused("**Capacity** is empty and the card name does not say it: give it, e.g. 64GB or "
                                    "1TB") from None
        raise SubmissionRefused(f"{exc.reason}: correct **Capacity**, **Bus** or **Form factor**") from None
    return slug, fields.name, given


def _refusal(reason):
    """The refusal as the contributor reads it in the issue: the reason in a code block (a line it
    quotes from the log can then mention no one, link nowhere and hold no markup), then how to fix it."""
    reason = printable(reason).replace("`", "'")
    return ("This result could not be added yet:\n\n"
            f"```text\n{reason}\n```\n\n"
            "Edit the issue to fix it; the check runs again on every edit.")
