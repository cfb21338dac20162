"""Card files and sessions (card.transaction writes them); the entry builders live in
parsers.entries, and those the collector builds its sessions with are re-exported here (a tool
module's to_session() uses parsers.entries itself).

  new_card(slug, name, capacity_gb, form_factor, bus, source) -> card dict
      brand = first word of name, model = the rest without the capacity (the title adds it); source is a
      dict or a name; sessions: [].
  new_session(date, label, **fields) -> session dict with id = session_id(date, label)
  session_id(date, label) -> "2025-05-17-active-cooling"
  raw_dir(data_dir, slug, session_id) -> data/raw/<slug>/<session-id>/ (a Path; not created)
"""

import datetime
import re

from ..core.paths import card_path, raw_dir  # noqa: F401  (part of this module's interface)
from ..errors import CardFileError
from .identity import card_family, model_without_capacity
from ..parsers.entries import (  # noqa: F401  (part of this module's interface)
    align_entry, bwlog_spans, dd_entry, dd_sweep_entry, f3probe_entry, fill_entry, fill_points, find_fat_entry,
    nvme_entry, open_au_entry, progress_spans, results_from_fio,
)

# --- cards and sessions -----------------------------------------------------------------------

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
    tail = re.sub(r"[^a-z0-9]+", "-", str(label or "").lower()).strip("-")
    return f"{day}-{tail}"[:80].rstrip("-") if tail else day


def new_session(date, label, **fields):
    day = date.isoformat()[:10] if isinstance(date, (datetime.date, datetime.datetime)) else str(date)
    session = {"id": session_id(day, label), "label": label, "date": day}
    session.update({key: value for key, value in fields.items() if value is not None})
    return session

