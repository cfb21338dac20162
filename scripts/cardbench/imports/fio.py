"""fio JSON output -> session fields: each document in the file is one run."""

from ..card import sessions
from ..parsers import fio_json
from .result import SessionFields


def from_fio_json(text):
    docs = fio_json.parse_all(text)
    return SessionFields(tools=[{"name": "fio", "version": docs[0]["fio_version"] or "unknown"}],
                         measurements={"results": sessions.results_from_fio(docs)}, runs=len(docs))
