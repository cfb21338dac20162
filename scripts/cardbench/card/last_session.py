"""A card file's text cut at its last session, so that session can be replaced while every byte before it
stays as it was (the collector rewrites its own session after each finished test)."""

import re

from ..errors import CardFileError
from .load import parse_card_text


def split_last_session(text, path="<text>"):
    """(text before the last session, last session dict) of a card file; CardFileError when unsafe."""
    card = parse_card_text(text, path)
    found = card.data.get("sessions")
    if not isinstance(found, list) or not found:
        raise CardFileError(path, "the card has no session to update", field="sessions")
    lines = text.splitlines(True)
    starts = [i for i, line in enumerate(lines) if line.startswith("sessions:")]
    if not starts:
        raise CardFileError(path, "no top-level 'sessions:' line", field="sessions")
    first_item = next((i for i in range(starts[-1] + 1, len(lines))
                       if lines[i].strip() and not lines[i].lstrip().startswith("#")), None)
    match = re.match(r"^( *)- ", lines[first_item]) if first_item is not None else None
    if not match:
        raise CardFileError(path, "cannot find the session list items", field="sessions")
    item_start = re.compile("^" + re.escape(match.group(1)) + "- ")
    last = max(i for i in range(first_item, len(lines)) if item_start.match(lines[i]))
    indent = len(match.group(1))
    for line in lines[last + 1:]:
        if line.strip() and not line.lstrip().startswith("#") and len(line) - len(line.lstrip(" ")) <= indent:
            raise CardFileError(path, "'sessions' is not the last thing in the file; the last session cannot be "
                                      "replaced safely", field="sessions")
    base = "".join(lines[:last])
    before = parse_card_text(base, path).data.get("sessions") or []
    if before != found[:-1]:
        raise CardFileError(path, "the last session cannot be separated from the rest of the file safely; "
                                  "it was edited by hand?", field="sessions")
    return base, found[-1]


def split_at_session(text, session_id, path="<text>"):
    """(text before the session with this id, that session, text after it) of a card file, so the session
    can be replaced where it is while sessions added after it (an import during a collector run) stay."""
    card = parse_card_text(text, path)
    found = card.data.get("sessions")
    if not isinstance(found, list) or not found:
        raise CardFileError(path, "the card has no session to update", field="sessions")
    index = next((i for i, s in enumerate(found) if isinstance(s, dict) and s.get("id") == session_id), None)
    if index is None:
        raise CardFileError(path, f"there is no session '{session_id}' any more; the file changed during the run",
                            field="sessions")
    base, _ = split_last_session(text, path)  # the same checks: 'sessions' last, items separable
    lines = text.splitlines(True)
    item_start = re.compile("^" + re.escape(re.match(r"^( *)- ", lines[len(base.splitlines(True))]).group(1)) + "- ")
    first = next(i for i, line in enumerate(lines) if line.startswith("sessions:"))
    starts = [i for i in range(first + 1, len(lines)) if item_start.match(lines[i])]
    if len(starts) != len(found):
        raise CardFileError(path, "the sessions cannot be separated from each other safely; was the file edited "
                                  "by hand?", field="sessions")
    end = starts[index + 1] if index + 1 < len(starts) else len(lines)
    before, after = "".join(lines[:starts[index]]), "".join(lines[end:])
    if (parse_card_text(before + after, path).data.get("sessions") or []) != found[:index] + found[index + 1:]:
        raise CardFileError(path, f"session '{session_id}' cannot be separated from the rest of the file safely; "
                                  "it was edited by hand?", field="sessions")
    return before, found[index], after
