"""Importing fio JSON: the session is dated the day fio ran, a job mixing reads and writes is kept apart
from pure reads and writes all the way to the site's comparisons, and fio 2.x's layout imports."""

import datetime
import json
from pathlib import Path

import pytest

from cardbench.card.load import load_card
from cardbench.imports.importer import import_file
from cardbench.figures.aggregate import aggregate

CORPUS = Path(__file__).parent / "fixtures" / "import-corpus" / "fio"


def card_of(cards, slug="test-card"):
    return load_card(cards / f"{slug}.yaml").data


def rewritten(tmp_path, case, change):
    """A corpus file's fio document with `change(doc)` applied, written beside the test."""
    doc = json.loads((CORPUS / f"{case}.out").read_text(encoding="utf-8"))
    change(doc)
    path = tmp_path / f"{case}.json"
    path.write_text(json.dumps(doc, indent=2), encoding="utf-8")
    return path


def test_session_is_dated_the_day_fio_ran(cards):
    result = import_file(CORPUS / "fio--fio2x-layout.out", cards, "test-card", name="Acme Fast 64GB")
    assert result.session_id.startswith("2020-01-29-")
    assert card_of(cards)["sessions"][0]["date"] == "2020-01-29"


def test_timestamp_dates_a_run_without_its_time_line(cards, tmp_path):
    path = rewritten(tmp_path, "fio--fio2x-layout", lambda doc: doc.pop("time"))  # 1580292847: 2020-01-29 UTC
    import_file(path, cards, "test-card", name="Acme Fast 64GB")
    assert card_of(cards)["sessions"][0]["date"] == "2020-01-29"


def test_a_date_after_today_is_not_taken(cards, tmp_path):
    path = rewritten(tmp_path, "fio--fio2x-layout", lambda doc: doc.update(time="Sat Jan 29 10:14:07 2101"))
    import_file(path, cards, "test-card", name="Acme Fast 64GB")
    assert card_of(cards)["sessions"][0]["date"] == datetime.date.today().isoformat()


def test_fio2x_figures_come_from_its_own_fields(cards):
    import_file(CORPUS / "fio--fio2x-layout.out", cards, "test-card", name="Acme Fast 64GB")
    doc = json.loads((CORPUS / "fio--fio2x-layout.out").read_text(encoding="utf-8"))
    read = doc["jobs"][0]["read"]
    entry = card_of(cards)["sessions"][0]["results"][0]
    assert entry["runs"] == [pytest.approx(read["bw"] * 1024 / 1e6)]  # bw is KiB/s in fio 2.x
    assert entry["iops"] == [read["iops"]]
    assert entry["latency_us"]["mean"] == [read["clat"]["mean"]]  # clat is µs in fio 2.x
    assert entry["latency_us"]["p99"] == [read["clat"]["percentile"]["99.000000"]]


def test_mixed_job_is_kept_out_of_pure_comparisons(cards):
    import_file(CORPUS / "fio--cdm8-jobs.out", cards, "test-card", name="Acme Fast 64GB")
    import_file(CORPUS / "fio--randrw-mix35.out", cards, "test-card", name="Acme Fast 64GB")
    mixed = [r for r in card_of(cards)["sessions"][1]["results"] if "mix_read_percent" in r]
    assert [(r["test"], r["op"], r["mix_read_percent"]) for r in mixed] == [
        ("RND4K Q1T1 mix 35/65", "read", 35), ("RND4K Q1T1 mix 35/65", "write", 35)]

    site = aggregate([card_of(cards)])
    pooled = site["cards"]["test-card"]["pooled"]
    pure_runs = [s["results"][i]["runs"][0] for s, i in ((card_of(cards)["sessions"][0], 6),
                                                         (card_of(cards)["sessions"][1], 0))]
    assert pooled["RND4K Q1T1 read"]["run_count"] == 2  # the pure jobs of both files, not the mix
    assert pooled["RND4K Q1T1 read"]["mean"] == pytest.approx(sum(pure_runs) / 2)
    assert pooled["RND4K Q1T1 mix 35/65 read"]["run_count"] == 1
    suite, = [s for s in site["compare"]["suites"] if s["id"] == "cdm8-default"]
    assert suite["cards"][0]["stats"]["RND4K Q1T1 read"]["run_count"] == 2


def _card_with(results, markings=()):
    return {"schema_version": 1, "slug": "acme-fast-64gb", "brand": "Acme", "model": "Fast 64GB", "capacity_gb": 64,
            "form_factor": "microSD", "bus": "UHS-I", "markings": list(markings), "source": {"name": "test"},
            "sessions": [{"id": "2020-01-29-mix", "label": "Mix", "date": "2020-01-29", "results": results}]}


def test_a_mixed_job_never_stands_for_a_headline_or_a_class():
    results = [{"test": "SEQ128K Q2T1 mix 70/30", "op": op, "unit": "MB/s", "runs": [value],
                "iops": [value * 1e6 / 131072], "mix_read_percent": 70}
               for op, value in (("read", 39.9), ("write", 17.6))]
    results += [{"test": "RND4K Q1T1 mix 35/65", "op": op, "unit": "MB/s", "runs": [value],
                 "iops": [value * 1e6 / 4096], "mix_read_percent": 35}
                for op, value in (("read", 8.09), ("write", 15.11))]
    card = aggregate([_card_with(results, markings=["A1"])])["cards"]["acme-fast-64gb"]
    assert card["headline"]["seq_read"] is None and card["headline"]["seq_write"] is None
    a1, = card["class_checks"]
    assert [part["measured"] for part in a1["parts"]] == [None, None, None]
