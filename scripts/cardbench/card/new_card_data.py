"""A new card's data and a new session's, as the collector and the import start them (card/store/transaction.py
writes them).

  new_card(slug, name, capacity_gb, form_factor, bus, source) -> card dict
      brand = first word of name, model = the rest without the capacity (the title adds it); source is a
      dict or a name; sessions: [].
  new_session(date, label, **fields) -> session dict with id = session_id(date, label)
  session_id(date, label) -> "2025-05-17-active-cooling" (the label's words as a slug's: identity.slug_words)
"""

import datetime

from ..errors import CardFileError
from .identity import card_family, model_without_capacity, slug_words


def new_card(slug, name, capacity_gb, form_factor, bus, source):
    words = str(name).split()
    if len(words) < 2:
        raise CardFileError(f"data/cards/{slug}.yaml", f"card name {name!r} needs a brand and a model "
                                                       "(e.g. 'Lexar PLAY PRO 1TB')", field="model")
    if not isinstance(source, dict):
        source = {"name": str(source)}
    capacity = float(capacity_gb)
    capacity = int(capacity) if capacity.is_integer() else capacity
    return {"schema_version": 1, "slug": slug, "brand": words[0], "model": model_without_capacity(" ".join(words[1:]),
                                                                                                 capacity),
            "capacity_gb": capacity, "family": card_family(capacity), "form_factor": form_factor,
            "bus": bus, "source": source, "sessions": []}


def session_id(date, label):
    day = date.isoformat() if isinstance(date, (datetime.date, datetime.datetime)) else str(date)
    day = day[:10]
    tail = slug_words(str(label or ""))
    return f"{day}-{tail}"[:80].rstrip("-") if tail else day


def new_session(date, label, **fields):
    day = date.isoformat()[:10] if isinstance(date, (datetime.date, datetime.datetime)) else str(date)
    session = {"id": session_id(day, label), "label": label, "date": day}
    session.update({key: value for key, value in fields.items() if value is not None})
    return session

