"""Write the collector's session into the card file after every finished test.

The first write appends the session (sessions.write_session). Later writes replace that last
session: the text before it stays byte-identical, the session is re-appended with
cardfile.append_session_text, the result is validated, then atomically renamed into place.
"""

import re

from .. import sessions
from ..cardfile import append_session_text, atomic_write_text, load_card, new_card_text, parse_card_text
from ..errors import CardFileError

COLLECTOR_SOURCE = "cardbench collector"


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


class SessionStore:
    """One card file and the collector's session in it."""

    def __init__(self, data_dir, slug):
        self.data_dir = data_dir
        self.cards_dir = data_dir / "cards"
        self.slug = slug
        self.path = sessions.card_path(self.cards_dir, slug)
        self.written_id = None  # id of our session once it is in the file

    def load(self):
        """The card as a LoadedCard, or None when the file does not exist yet."""
        return load_card(self.path) if self.path.exists() else None

    def resume_candidate(self):
        """The last session when it is an unfinished collector session, else None."""
        card = self.load()
        found = (card.data.get("sessions") or []) if card else []
        if not found:
            return None
        last = found[-1]
        if isinstance(last, dict) and last.get("complete") is False and \
                (last.get("source") or {}).get("name") == COLLECTOR_SOURCE:
            return last
        return None

    def unique_id(self, wanted):
        card = self.load()
        taken = {s.get("id") for s in (card.data.get("sessions") or []) if isinstance(s, dict)} if card else set()
        candidate, n = wanted, 2
        while candidate in taken:
            candidate = f"{wanted[:76]}-{n}"
            n += 1
        return candidate

    def adopt(self, session_id):
        """Continue a session that is already the file's last one."""
        self.written_id = session_id

    def rewrite(self, card, session):
        """Write the whole file anew: only for a card this run created, whose only session is ours."""
        from ..validate import check_card

        with sessions.card_lock(self.cards_dir, self.slug):
            if self.path.exists():
                found = load_card(self.path).data.get("sessions") or []
                if len(found) != 1 or found[0].get("id") != session["id"]:
                    raise CardFileError(self.path, "the card file has other sessions; not rewritten", field="sessions")
            text = append_session_text(new_card_text({**card, "sessions": []}), session)
            errors = [f.error for f in check_card(parse_card_text(text, self.path), data_dir=self.data_dir)
                      if f.severity == "error"]
            if errors:
                raise errors[0]
            atomic_write_text(self.path, text)
        self.written_id = session["id"]
        return self.path

    def write(self, session, new_card=None):
        """Put the session into the card file (append the first time, replace afterwards)."""
        if self.written_id is None:
            sessions.write_session(self.cards_dir, self.slug, session, new_card=new_card, data_dir=self.data_dir)
            self.written_id = session["id"]
            return self.path
        from ..validate import check_card

        with sessions.card_lock(self.cards_dir, self.slug):
            text = load_card(self.path).text
            base, last = split_last_session(text, self.path)
            if last.get("id") != self.written_id:
                raise CardFileError(self.path, f"the last session is '{last.get('id')}', not '{self.written_id}'; "
                                               "the file changed during the run", field="sessions")
            try:
                new_text = append_session_text(base, session)
            except ValueError as exc:
                raise CardFileError(self.path, str(exc)) from None
            errors = [f.error for f in check_card(parse_card_text(new_text, self.path), data_dir=self.data_dir)
                      if f.severity == "error"]
            if errors:
                raise CardFileError(self.path, f"updated session would make the card invalid: {errors[0].message}",
                                    line=errors[0].line, field=errors[0].field, rule=errors[0].rule)
            atomic_write_text(self.path, new_text)
        return self.path
