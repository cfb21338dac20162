"""fio JSON: the day a run was made, and the read share of jobs mixing reads and writes."""

import json
from pathlib import Path

import pytest

from cardbench.errors import ParseError
from cardbench.parsers.fio import json_output as fio_json

FIO = Path(__file__).parent / "fixtures" / "fio"


def document(**top):
    """The four-job fixture with top-level keys replaced (None removes one)."""
    doc = json.loads((FIO / "fio--cdm-4-jobs.out").read_text(encoding="utf-8"))
    for key, value in top.items():
        if value is None:
            doc.pop(key, None)
        else:
            doc[key] = value
    return doc


@pytest.mark.parametrize("top, day", [
    ({"time": "Wed Jan 29 10:14:07 2020"}, "2020-01-29"),
    ({"time": "Mon Nov  2 23:59:59 2026"}, "2026-11-02"),  # ctime pads the day with a space
    ({"time": None, "timestamp": 1580292847}, "2020-01-29"),  # seconds since 1970, as a UTC day
    ({"time": "yesterday", "timestamp": 1580292847}, "2020-01-29"),
    ({"time": None, "timestamp": None}, None),
    ({"time": None, "timestamp": "1580292847"}, None),
    ({"time": None, "timestamp": 10**20}, None),
])
def test_day_of_the_run(top, day):
    assert fio_json.parse(json.dumps(document(**top)))["date"] == day


def job_with(**options):
    doc = document()
    doc["jobs"] = [doc["jobs"][0]]
    job = doc["jobs"][0]
    job["job options"] = {**job["job options"], **options}
    job["write"] = dict(job["read"])  # a direction with I/O, as a mixed job has
    return fio_json.parse(json.dumps(doc))["jobs"]


@pytest.mark.parametrize("options, share", [
    ({"rw": "randrw", "rwmixread": "35"}, 35),
    ({"rw": "randrw", "rwmixwrite": "65"}, 35),
    ({"rw": "rw"}, 50),  # fio's default mix
    ({"rw": "readwrite", "rwmixread": "70"}, 70),
    ({"rw": "randrw", "rwmixread": "100"}, None),  # all reads: a pure job after all
    ({"rw": "read", "rwmixread": "70"}, None),  # a pure job with a mix option (KDiskMark passes one to every job)
])
def test_read_share_of_mixed_jobs(options, share):
    assert {job["mix_read_percent"] for job in job_with(**options)} == {share}


def test_read_share_beyond_100_is_refused():
    with pytest.raises(ParseError, match="rwmixread=150"):
        job_with(rw="randrw", rwmixread="150")
