"""The card and session a run would write, with stand-in figures, checked by every rule before the first
test: a name or label the card file refuses, or a card file that cannot take one more session, is
reported before anything is run or written."""

import datetime

from ..card import new_card_data
from ..card.identity import form_factor_from_name
from ..errors import CardFileError
from .errors import CardMismatchError
from .store import COLLECTOR_SOURCE

# Fields the name and label become; other findings of the trial card below come from its stand-in values.
NAMED_FIELDS = ("brand", "model", "sessions[0].label", "sessions[0].id")


def check_names(request, store, new):
    """CardMismatchError naming --name or --label when the card file would refuse it, or naming the card
    file when its session could not be added to it. `new`: the card file does not exist yet, so the run
    creates it from --name."""
    from ..card.dump import new_card_text  # here: the guard's refusals come before the rules are loaded
    from ..card.load import parse_card_text
    from ..card.checks.validate import check_card

    today = datetime.date.today().isoformat()
    source = {"name": COLLECTOR_SOURCE, "date": today}
    name = request.name if new else "Stand-in Card 64GB"
    try:
        card = new_card_data.new_card(request.slug, name, 64, form_factor_from_name(name)[0], "UHS-I", source)
    except CardFileError as exc:
        raise CardMismatchError(f"--name (make: NAME=): {exc.message}") from None
    session = new_card_data.new_session(today, request.label or "Collector", host="host", reader="reader",
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
    if not new:
        _check_appended(store, session)


def _check_appended(store, session):
    """The existing card file with the stand-in session added, as the first save will add it, checked by
    every rule: a file the save would fail on stops the run before the device is written."""
    from ..card.load import load_card, parse_card_text
    from ..card.store.session_text import append_session_text
    from ..card.store.transaction import unique_session_id
    from ..card.checks.validate import check_card

    try:
        existing = load_card(store.path)
        taken = {s.get("id") for s in existing.data.get("sessions") or [] if isinstance(s, dict)}
        session = {**session, "id": unique_session_id(taken, session["id"])}
        trial = parse_card_text(append_session_text(existing.text, session, store.path), store.path)
    except CardFileError as exc:
        raise CardMismatchError(f"the card file {store.path} cannot take a new session: {exc}; "
                                "nothing was written") from None
    index = len(trial.data["sessions"]) - 1
    own = f"sessions[{index}]"
    for finding in check_card(trial, data_dir=store.data_dir):
        field = finding.error.field or ""
        if finding.severity == "error" and not field.startswith(own):
            raise CardMismatchError(f"the card file {store.path} would be refused with a new session: "
                                    f"{finding.error}; nothing was written")

