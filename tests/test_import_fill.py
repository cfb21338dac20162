"""Sustained fills imported: a fio bandwidth log, or dd's status=progress updates over a whole card,
become the session's `fill` (throughput against data written), from which the card page charts the
fill and finds the SLC cache and the speed after it.

The corpus cases (tests/fixtures/import-corpus/fill/) are runs on a 512 MiB loop device whose blkio
throttle held writes to 40 MB/s until 256 MiB had been written, then to 10 MB/s. The live test at the
end repeats that with fio on a smaller card, imports its log and builds the card's page.
"""

import json
import os
import re
import subprocess
from pathlib import Path

import pytest

import sitebuild
from cardbench.parsers import card_entries
from cardbench.card.load import load_card
from cardbench.collect import tools
from cardbench.errors import ParseError
from cardbench.imports.read import decode_text
from cardbench.imports.transcript import unwrap
from cardbench.parsers.dd import tool as dd_parser
from cardbench.parsers.fio import bwlog as fio_bwlog
from cardbench.parsers import registry
from cardbench.parsers.dd.fill import MIN_PROGRESS_UPDATES, is_fill
from cardbench.figures.aggregate import aggregate
from cardbench.figures.findings import card_findings
from cardbench.pages.pagemodel import card_page
from cliimport import run_import
from loopcard import LoopCard

FIXTURES = Path(__file__).parent / "fixtures"
CORPUS = FIXTURES / "import-corpus"
FILL = CORPUS / "fill"
MiB = 1024**2
CARD_BYTES = 512 * MiB
CACHE_BYTES, FAST_MB_S, SLOW_MB_S = 256 * MiB, 40.0, 10.0
DD_CASES = {"fill--dd-progress-terminal-log": ([], 34, 34.2154),
            "fill--dd-progress-de-tr-prompt": ([], 33, 33.4349),
            "fill--dd-progress-output-only-op-write": (["--op=write"], 33, 33.6238)}
SLUG = "fill-card"


def text_of(path):
    return decode_text(path.read_bytes())


def imported(path, cards, *options):
    """The card `cardbench import` makes of the file at `path`; the import must succeed."""
    code, _, card = run_import(path, cards, name="Fill Card 1GB", slug=SLUG, options=options)
    assert code == 0
    return load_card(card).data


def cache_findings(card):
    findings, _ = card_findings(card)
    return {f["id"]: f for f in findings}


def assert_the_emulated_cache(found, cache_bytes):
    """The throttle's levels within 10 %; the cache's end within 15 %: the watcher switches the limit
    up to 5 % late (tests/loopcard.py), and a sample straddling the switch (dd's one a second is 40 MB
    in the cache) is split by its rate, which its rounding and the writes it counts blur."""
    assert abs(found["slc_cache"]["value"] - cache_bytes) <= 0.15 * cache_bytes, found["slc_cache"]
    assert abs(found["write_in_cache"]["value"] - FAST_MB_S) <= 0.10 * FAST_MB_S, found["write_in_cache"]
    assert abs(found["write_after_cache"]["value"] - SLOW_MB_S) <= 0.10 * SLOW_MB_S, found["write_after_cache"]
    assert "sustained_write" not in found


# --- dd's progress updates ------------------------------------------------------------------------

@pytest.mark.parametrize("case", sorted(DD_CASES))
def test_progress_is_one_series_ending_at_the_summary(case):
    _, updates, seconds = DD_CASES[case]
    series = dd_parser.progress(text_of(FILL / f"{case}.out"))
    assert len(series) == 1
    points = series[0]["points"]
    assert sum(not p["final"] for p in points) == updates and points[-1]["final"]
    assert points[-1]["bytes"] == CARD_BYTES and points[-1]["seconds"] == seconds
    assert all(a["bytes"] < b["bytes"] and a["seconds"] <= b["seconds"] for a, b in zip(points, points[1:]))
    assert series[0]["error"] is not None and "/dev/" in series[0]["error"][1]


def test_carriage_returns_read_as_the_importer_reads_them():
    """The import splits lines at carriage returns too (universal newlines): the same updates."""
    text = text_of(FILL / "fill--dd-progress-terminal-log.out")
    split = "\n".join(unwrap(text).splitlines())
    def shown(points):
        return [(p["bytes"], p["seconds_range"], p["final"]) for p in points]
    assert shown(dd_parser.progress(text)[0]["points"]) == shown(dd_parser.progress(split)[0]["points"])


def test_elapsed_time_is_what_both_the_seconds_and_the_rate_allow():
    first = dd_parser.progress(text_of(FILL / "fill--dd-progress-output-only-op-write.out"))[0]["points"][0]
    # "41943040 bytes (42 MB, 40 MiB) copied, 1 s, 41.9 MB/s": 1 ± 0.5 s, and 41.85 to 41.95 MB/s
    assert first["bytes"] == 41943040 and first["seconds"] == 1
    assert first["seconds_range"] == [round(41943040 / 41.95e6, 6), round(41943040 / 41.85e6, 6)]
    for series in dd_parser.progress(text_of(FILL / "fill--dd-progress-de-tr-prompt.out")):
        for point in series["points"]:
            low, high = point["seconds_range"]
            assert point["seconds"] - 0.5 <= low <= high <= point["seconds"] + 0.5


def test_glued_updates_loops_and_restarts():
    # The last update and the final one glued on one line, then the summary after a conv=fsync flush.
    image = dd_parser.progress(text_of(CORPUS / "dd" / "dd--image-to-card.out"))
    assert [(p["bytes"], p["seconds"], p["final"]) for p in image[0]["points"]] == [
        (62914560, 1, False), (100663296, 1.09719, False), (100663296, 5.82115, True)]
    # Three runs in a loop: a series each.
    assert len(dd_parser.progress(text_of(CORPUS / "dd" / "dd--es-locale-read-loop.out"))) == 3
    # A run whose summary is missing: the next run starts where bytes and seconds go back.
    updates = text_of(FILL / "fill--dd-progress-de-tr-prompt.out").splitlines()[2:7]
    assert [len(s["points"]) for s in dd_parser.progress("\n".join(updates + updates))] == [5, 5]


def test_spans_keep_every_byte_and_second():
    points = dd_parser.progress(text_of(FILL / "fill--dd-progress-terminal-log.out"))[0]["points"]
    spans = card_entries.progress_spans(points)
    assert sum(b for b, _ in spans) == CARD_BYTES
    assert sum(s for _, s in spans) == pytest.approx(34.2154, abs=1e-4)
    fill = card_entries.fill_points(spans)
    assert fill[-1]["written_gb"] == round(CARD_BYTES / 1e9, 4) and fill[-1]["seconds"] == round(34.2154, 3)
    merged = card_entries.fill_points(spans, max_points=10)
    assert len(merged) == 9 and merged[-1]["written_gb"] == fill[-1]["written_gb"]


def test_thirty_updates_make_a_fill():
    series = [{"points": [{"final": False}] * (MIN_PROGRESS_UPDATES - 1) + [{"final": True}], "error": None}]
    assert not is_fill(series)
    assert is_fill([{"points": [{"final": False}] * MIN_PROGRESS_UPDATES, "error": None}])


# --- dd imports -----------------------------------------------------------------------------------

@pytest.mark.parametrize("case", sorted(DD_CASES))
def test_a_whole_card_dd_write_is_a_fill_and_shows_the_cache(case, cards):
    options, updates, seconds = DD_CASES[case]
    card = imported(FILL / f"{case}.out", cards, *options)
    session = card["sessions"][-1]
    assert "dd" not in session and len(session["fill"]) == 1  # its mean mixes both levels: no dd entry
    fill = session["fill"][0]
    assert fill["op"] == "write" and fill["unit"] == "MB/s" and len(fill["points"]) == updates + 1
    assert fill["points"][-1]["written_gb"] == round(CARD_BYTES / 1e9, 4)
    assert fill["points"][-1]["seconds"] == pytest.approx(seconds, abs=1e-3)
    assert "status=progress updates kept as a sustained write" in session["notes"]
    assert_the_emulated_cache(cache_findings(card), CACHE_BYTES)


def test_a_short_copy_with_progress_stays_a_dd_entry(cards):
    session = imported(CORPUS / "dd" / "dd--xzcat-pipe.out", cards)["sessions"][-1]
    assert "fill" not in session and session["dd"][0]["runs"] == [20.0]


def test_a_dd_test_and_a_fill_in_one_log(tmp_path, cards):
    log = tmp_path / "card-log.txt"
    log.write_text(text_of(CORPUS / "dd" / "dd--xzcat-pipe.out") + text_of(FILL / "fill--dd-progress-terminal-log.out"),
                   encoding="utf-8")
    session = imported(log, cards)["sessions"][-1]
    assert session["dd"][0]["runs"] == [20.0] and session["dd"][0]["block_size"] == "4M"
    assert len(session["fill"]) == 1 and len(session["fill"][0]["points"]) == 35


def test_progress_without_its_command_needs_read_or_write(cards, capsys):
    code, err, card = run_import(FILL / "fill--dd-progress-output-only-op-write.out", cards, capsys,
                                 name="Fill Card 1GB", slug=SLUG)
    assert code == 2 and "read or write is unknown" in err
    assert not card.exists()


# --- fio bandwidth logs ---------------------------------------------------------------------------

def test_fio_bandwidth_logs_are_detected():
    assert registry.detect_format(text_of(FILL / "fill--fio-bwlog.out")).name == "fio-bwlog"
    assert registry.detect_format(text_of(FIXTURES / "fio_bwlog" / "fio_bwlog--with-priority.out")).name == "fio-bwlog"
    assert registry.detect_format(text_of(FILL / "fill--dd-progress-terminal-log.out")).name == "dd"


def test_a_fio_bandwidth_log_is_a_fill_and_shows_the_cache(cards):
    text = text_of(FILL / "fill--fio-bwlog.out")
    card = imported(FILL / "fill--fio-bwlog.out", cards)
    session = card["sessions"][-1]
    assert session["tools"] == [{"name": "fio"}] and list(session["fill"][0]) == ["op", "unit", "points"]
    points = session["fill"][0]["points"]
    assert len(points) == len(text.splitlines()) == 67
    # Every sample's bytes: KiB/s × its interval, summed (the log's own figures).
    samples = [[int(v) for v in line.split(",")[:2]] for line in text.splitlines()]
    written = sum(kib * 1024 * (ms - before) / 1000 for (ms, kib), (before, _) in zip(samples, [(0, 0)] + samples))
    assert points[-1]["written_gb"] == round(written / 1e9, 4) and points[-1]["seconds"] == samples[-1][0] / 1000
    assert_the_emulated_cache(cache_findings(card), CACHE_BYTES)


def from_fio_bwlog(text):
    return fio_bwlog.to_session(fio_bwlog.parse(text))


def test_reads_are_a_read_fill_and_trims_alone_are_refused():
    read_log = "500, 20480, 0, 1048576, 0\n1000, 20480, 0, 1048576, 0\n"
    assert [e["op"] for e in from_fio_bwlog(read_log).measurements["fill"]] == ["read"]
    with pytest.raises(ParseError, match="only trim samples"):
        from_fio_bwlog("500, 20480, 2, 1048576, 0\n")
    with pytest.raises(ParseError, match="every write sample is 0 KiB/s") as caught:
        from_fio_bwlog("500, 0, 1, 1048576, 0\n")
    assert caught.value.line == 1


# --- live: fio on a throttled loop card, imported, on the card's page --------------------------------

@pytest.mark.device
@pytest.mark.build
@pytest.mark.skipif(os.geteuid() != 0, reason="loop devices and cgroups need root")
def test_an_imported_fio_fill_puts_the_cache_on_the_card_page(tmp_path, cards):
    """256 MiB at 40 MB/s, then 128 MiB at 10 MB/s: about 20 s of writing, a sample every 0.5 s."""
    after_bytes = 128 * MiB
    with LoopCard(size=CACHE_BYTES + after_bytes) as card:
        card.throttle(write_bps=FAST_MB_S * 1e6)
        argv = tools.fill_argv("fio", card.device, CACHE_BYTES + after_bytes, MiB, 4, "fill", 500, "fill.json")
        with card.drop_write_limit_after(CACHE_BYTES, SLOW_MB_S * 1e6) as drop:
            done = card.run(argv, cwd=tmp_path, capture_output=True, text=True, timeout=120,
                            stdin=subprocess.DEVNULL)
        assert done.returncode == 0, done.stderr
    assert drop.switched_at is not None
    data = imported(tmp_path / "fill_bw.log", cards)
    fill = data["sessions"][-1]["fill"][0]
    # The log leaves out what fio wrote after its last sample: at most the time from that sample to the
    # job's end (fio's own runtime) at the slow rate, +10 % for the throttle's granularity.
    runtime_s = json.loads((tmp_path / "fill.json").read_text())["jobs"][0]["write"]["runtime"] / 1000
    tail_s = runtime_s - fill["points"][-1]["seconds"]
    missing_gb = (CACHE_BYTES + after_bytes) / 1e9 - fill["points"][-1]["written_gb"]
    assert 0 <= missing_gb <= max(tail_s, 0.5) * SLOW_MB_S * 1.1 / 1e3, (missing_gb, tail_s)
    assert_the_emulated_cache(cache_findings(data), drop.switched_at)

    twin = aggregate([data])["cards"][SLUG]
    assert {"slc_cache", "write_after_cache"} <= {f["id"] for f in twin["findings"]}
    assert "chart-fill" in [c["id"] for c in card_page(twin)["curves"]]
    project, agg, hugo = sitebuild.build(tmp_path / "site", cards_dir=cards, raw_dir=cards.parent / "raw")
    assert agg.returncode == 0, agg.stderr
    assert hugo.returncode == 0, hugo.stdout + hugo.stderr
    html = (project / "public" / "cards" / SLUG / "index.html").read_text(encoding="utf-8")
    session_id = data["sessions"][-1]["id"]
    ids = set(re.findall(r'\bid="?([^" >]+)', html))  # the build minifies: quotes left out where it can
    assert {"chart-fill", f"finding-slc_cache-{session_id}", f"finding-write_after_cache-{session_id}"} <= ids
