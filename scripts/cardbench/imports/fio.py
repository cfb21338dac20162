"""fio JSON output -> session fields: each document in the file is one run, dated the day fio ran.

A job mixing reads and writes (randrw, rw) is stored under its own test name, "RND4K Q1T1 mix 35/65"
(reads/writes in percent), with `mix_read_percent` beside it: its figures are never those of
pure reads or writes, so it is never compared or pooled with them.
"""

from ..card import sessions
from ..parsers import fio_json
from ..parsers.fio_naming import mixed_test_name
from .result import SessionFields


def from_fio_json(text):
    docs = fio_json.parse_all(text)
    named = [{**doc, "jobs": [_named_job(job) for job in doc["jobs"]]} for doc in docs]
    results = sessions.results_from_fio(named)
    shares = {(job["test"], job["op"]): job["mix_read_percent"] for doc in named for job in doc["jobs"]
              if job.get("mix_read_percent") is not None}
    for result in results:
        if (result["test"], result["op"]) in shares:
            result["mix_read_percent"] = shares[(result["test"], result["op"])]
    notes = []
    if shares:
        mixed = sorted({test for test, _ in shares})
        notes.append(f"fio job(s) mixing reads and writes kept apart from pure reads and writes: {', '.join(mixed)}.")
    days = sorted({doc["date"] for doc in docs if doc.get("date")})
    if len(days) > 1:
        notes.append(f"fio ran from {days[0]} to {days[-1]}; the session is dated {docs[0]['date'] or days[0]}.")
    return SessionFields(tools=[{"name": "fio", "version": docs[0]["fio_version"] or "unknown"}],
                         measurements={"results": results}, runs=len(docs), notes=notes,
                         date=docs[0].get("date") or (days[0] if days else None))


def _named_job(job):
    share = job.get("mix_read_percent")
    if share is None or job.get("test") is None:
        return job
    return {**job, "test": mixed_test_name(job["test"], share)}
