"""`cardbench import`: every format round-trips (file -> session -> aggregate() figures equal the
file's), a file is imported once, and bad input writes nothing."""

import statistics
from pathlib import Path

import pytest

from cardbench import cli
from cardbench.figures.aggregate import aggregate
from cardbench.card.store.checksums import read_sha256sums
from cardbench.card.load import load_card
from cardbench.errors import CardFileError, ParseError
from cardbench.imports.importer import import_file
from cardbench.imports.read import decode_text
from cardbench.parsers.fio import json_output as fio_json
from cardbench.parsers.registry import detect_format
from cardbench.card.checks.validate import validate_paths

FIXTURES = Path(__file__).parent / "fixtures"

# Lexar PLAY PRO 1TB, active cooling: cdm_fio.sh figures (MiB/s) of Test 1..10 as published.
LEXAR = {
    ("SEQ1G Q1T1", "read"): [745, 718, 736, 742, 747, 763, 755, 743, 752, 737],
    ("SEQ1G Q1T1", "write"): [597, 595, 392, 362, 322, 280, 281, 605, 323, 280],
    ("SEQ512K Q1T1", "read"): [491, 485, 492, 485, 454, 488, 485, 491, 483, 482],
    ("SEQ512K Q1T1", "write"): [430, 437, 299, 273, 253, 225, 225, 416, 260, 223],
    ("SEQ32M Q32T1", "read"): [713, 711, 758, 749, 750, 755, 760, 751, 764, 745],
    ("SEQ32M Q32T1", "write"): [627, 625, 398, 348, 328, 286, 285, 627, 288, 285],
    ("RND4K Q1T1", "read"): [33, 37, 30, 24, 21, 24, 21, 36, 24, 20],
    ("RND4K Q1T1", "write"): [157, 158, 148, 149, 155, 140, 139, 159, 144, 140],
    ("RND4K Q32T1", "read"): [463, 467, 463, 466, 466, 397, 402, 466, 438, 398],
    ("RND4K Q32T1", "write"): [534, 536, 311, 278, 403, 223, 225, 533, 248, 226],
    ("RND4K Q8T8", "read"): [428, 426, 356, 319, 436, 325, 299, 426, 330, 332],
    ("RND4K Q8T8", "write"): [534, 339, 300, 284, 261, 233, 514, 383, 256, 266],
}
# The review's own "average" chart for this card (rounded to whole numbers).
LEXAR_PUBLISHED_MEAN = {
    ("RND4K Q8T8", "write"): 337, ("RND4K Q8T8", "read"): 368, ("RND4K Q32T1", "write"): 352,
    ("RND4K Q32T1", "read"): 443, ("RND4K Q1T1", "write"): 149, ("RND4K Q1T1", "read"): 27,
    ("SEQ32M Q32T1", "write"): 410, ("SEQ32M Q32T1", "read"): 746, ("SEQ512K Q1T1", "write"): 304,
    ("SEQ512K Q1T1", "read"): 484, ("SEQ1G Q1T1", "write"): 404, ("SEQ1G Q1T1", "read"): 744,
}


@pytest.fixture
def data(tmp_path):
    (tmp_path / "data" / "cards").mkdir(parents=True)
    return tmp_path / "data"


def run_import(data, relpath, slug="test-card", name="Lexar PLAY PRO microSD Express 1TB", **kw):
    return import_file(FIXTURES / relpath, data / "cards", slug, name=name, **kw)


def subtests(data, slug="test-card", session=0):
    card = load_card(data / "cards" / f"{slug}.yaml")
    cards, findings = validate_paths([card.path], data_dir=data)
    assert [f for f in findings if f.severity == "error"] == []
    out = aggregate([card.data])["cards"][slug]["sessions"][session]
    return card.data["sessions"][session], {(s["test"], s["op"]): s for s in out["subtests"]}


def test_cdm_fio_log_round_trip(data):
    summary = run_import(data, "cdm_fio/cdm_fio--lexar-10-runs.out", label="Active cooling")
    assert not summary.already_imported and summary.format == "cdm-fio" and summary.runs == 10
    session, stats = subtests(data)
    assert set(stats) == set(LEXAR)
    for key, runs in LEXAR.items():
        got = stats[key]
        assert got["unit"] == "MiB/s" and got["runs"] == runs
        assert got["mean"] == pytest.approx(statistics.mean(runs))
        assert (got["min"], got["max"]) == (min(runs), max(runs))
        assert got["mb_s"]["mean"] == pytest.approx(statistics.mean(runs) * 1.048576, abs=1e-3)
        assert round(got["mean"]) == LEXAR_PUBLISHED_MEAN[key]
    assert "Size 1024m, Loops 5, Write Only Zeroes 0" in session["notes"]
    assert session["tools"] == [{"name": "cdm_fio.sh"}]


def test_raw_copy_and_hash(data):
    summary = run_import(data, "cdm_fio/cdm_fio--lexar-10-runs.out", label="Active cooling")
    raw = data / summary.raw[0]
    original = (FIXTURES / "cdm_fio" / "cdm_fio--lexar-10-runs.out").read_bytes()
    assert raw.read_bytes() == original
    session = load_card(data / "cards" / "test-card.yaml").data["sessions"][0]
    assert session["imported_sha256"] == [summary.sha256] and session["raw"] == list(summary.raw)
    sums = read_sha256sums(data / "raw" / "test-card" / "SHA256SUMS")
    assert sums[f"{summary.session_id}/cdm_fio--lexar-10-runs.out"][0] == summary.sha256


def test_same_file_twice_adds_nothing(data):
    run_import(data, "cdm_fio/cdm_fio--lexar-10-runs.out")
    card = data / "cards" / "test-card.yaml"
    before = card.read_bytes()
    again = run_import(data, "cdm_fio/cdm_fio--lexar-10-runs.out", label="Other label")
    assert again.already_imported and card.read_bytes() == before


def test_second_file_is_a_second_session(data):
    run_import(data, "cdm_fio/cdm_fio--lexar-10-runs.out", label="Active cooling", date="2026-11-21")
    before = (data / "cards" / "test-card.yaml").read_bytes()
    summary = run_import(data, "fio/fio--cdm-4-jobs.out", label="Active cooling")  # fio ran on 2026-11-21
    assert summary.session_id.endswith("-active-cooling-2")
    assert (data / "cards" / "test-card.yaml").read_bytes().startswith(before)


def test_fio_json_round_trip(data):
    summary = run_import(data, "fio/fio--cdm-4-jobs.out")
    assert summary.format == "fio-json"
    session, stats = subtests(data)
    for job in fio_json.parse((FIXTURES / "fio" / "fio--cdm-4-jobs.out").read_text())["jobs"]:
        got = stats[(job["test"], job["op"])]
        assert got["unit"] == "MB/s" and got["runs"] == [pytest.approx(job["bw_bytes"] / 1e6)]
        assert got["iops"]["runs"] == [pytest.approx(job["iops"], abs=0.05)] and got["iops"]["derived"] is False
        assert got["latency_us"]["p99"]["runs"] == [pytest.approx(job["lat_us"]["p99"])]
    assert session["tools"] == [{"name": "fio", "version": "fio-3.33"}]


def test_crystaldiskmark_round_trip(data):
    summary = run_import(data, "crystaldiskmark/crystaldiskmark--cdm8-default-mix.out",
                         name="SanDisk Extreme UHS-II 64GB")
    assert summary.format == "crystaldiskmark"
    session, stats = subtests(data)
    assert session["date"] == "2024-03-02" and session["id"].startswith("2024-03-02-")
    assert stats[("SEQ1M Q8T1", "read")]["runs"] == [174.231] and stats[("SEQ1M Q8T1", "read")]["unit"] == "MB/s"
    assert stats[("RND4K Q1T1", "mix")]["runs"] == [2.847]
    assert stats[("RND4K Q32T1", "write")]["latency_us"]["mean"]["runs"] == [42663.87]
    assert {"name": "CrystalDiskMark", "version": "8.0.4"} in session["tools"]


def test_crystaldiskmark_utf16_and_kdiskmark(data):
    run_import(data, "crystaldiskmark/crystaldiskmark--cdm7-utf16.out", slug="cdm7-card",
               name="Kingston Canvas Go 64GB")
    _, stats = subtests(data, "cdm7-card")
    assert stats[("RND4K Q32T16", "read")]["runs"] == [9.876]
    summary = run_import(data, "kdiskmark/kdiskmark--default.out", slug="kdm-card", name="Kingston Canvas Go 64GB")
    assert summary.format == "kdiskmark"
    _, stats = subtests(data, "kdm-card")
    assert stats[("SEQ1M Q8T1", "write")]["runs"] == [61.25]


def test_dd_log_round_trip(data):
    summary = run_import(data, "dd/dd--logged-write-and-read.out", name="Samsung EVO Plus 64GB")
    assert summary.format == "dd" and summary.entries == 2
    session, stats = subtests(data)
    write, read = session["dd"]
    assert (write["op"], write["block_size"], write["count"], write["flags"], write["target"]) == (
        "write", "4M", 8, ["direct"], "device")
    assert write["runs"] == [20.5, 19.7, 19.2] and read["runs"] == [40.4, 43.1, 37.2] and read["unit"] == "MB/s"
    assert stats[("dd bs=4M", "read")]["mean"] == pytest.approx((40.4 + 43.1 + 37.2) / 3)


def test_dd_tail_log_with_loop(data):
    run_import(data, "dd/dd--coreutils8-tail.out", name="SanDisk Ultra Plus 128GB")
    session, stats = subtests(data)
    assert session["dd"][0]["block_size"] == "4K" and session["dd"][0]["count"] == 262144
    assert stats[("dd bs=4K", "read")]["runs"] == [76.0, 76.1, 76.0, 75.5, 75.9]


def test_dd_without_its_command(data):
    with pytest.raises(ParseError, match="command") as err:
        run_import(data, "dd/dd--c-write-3-runs.out")
    assert err.value.line == 1
    assert list((data / "cards").iterdir()) == []


def test_flashbench_log_round_trip(data):
    summary = run_import(data, "flashbench/flashbench--logged-session.out", name="Lexar 633x 16GB")
    assert summary.format == "flashbench"
    session = load_card(data / "cards" / "test-card.yaml").data["sessions"][0]
    align, = session["flashbench_align"]
    assert align["block_size_bytes"] == 1024 and align["count"] == 2 and len(align["points"]) == 22
    seq, rnd = session["flashbench_open_au"]
    assert ((seq["mode"], seq["open_au"], seq["erase_size_bytes"], seq["block_size_bytes"])
            == ("sequential", 4, 4194304, 16384))
    assert rnd["mode"] == "random" and rnd["interrupted"] is False and rnd["points"][-1]["value"] == 7.35
    fat, = session["flashbench_find_fat"]
    assert fat["rows"][0]["values"] == [19.7, 20.1, 19.8, 20.2, 19.8, 26.6] and fat["unit"] == "MB/s"
    out = aggregate([load_card(data / "cards" / "test-card.yaml").data])["cards"]["test-card"]["sessions"][0]
    assert out["flashbench_open_au"] == session["flashbench_open_au"]


def test_nvme_files(data, tmp_path):
    log = tmp_path / "nvme.txt"
    log.write_text("".join((FIXTURES / "nvme" / name).read_text() for name in (
        "nvme--id-ctrl.out", "nvme--features-thermal.out", "nvme--smart-log-v1.out", "nvme--smart-log.out")))
    summary = import_file(log, data / "cards", "test-card", name="Lexar PLAY PRO microSD Express 1TB")
    assert summary.format == "nvme"
    nvme = load_card(data / "cards" / "test-card.yaml").data["sessions"][0]["nvme"]
    assert nvme["firmware"] == "X0705A"
    assert nvme["thresholds_c"]["tmpth"] == 83 and nvme["thresholds_c"]["tmt2"] == 85
    assert nvme["temperature_c"] == {"before": 20, "max": 41, "after": 41}


def test_unrecognised_file(data, tmp_path):
    path = tmp_path / "notes.txt"
    path.write_text("\n\nmy card is fast\n")
    with pytest.raises(ParseError, match="not recognised") as err:
        import_file(path, data / "cards", "test-card", name="Lexar PLAY PRO 1TB")
    assert err.value.line == 3


def test_truncated_log_writes_nothing(data, tmp_path):
    text = (FIXTURES / "cdm_fio" / "cdm_fio--lexar-10-runs.out").read_text()
    path = tmp_path / "cut.log"
    path.write_text(text[: text.index("4KB Q32T1 Read: 466MB/s")])
    with pytest.raises(ParseError, match="lacks") as err:
        import_file(path, data / "cards", "test-card", name="Lexar PLAY PRO microSD Express 1TB")
    assert err.value.line is not None
    assert list((data / "cards").iterdir()) == [] and not (data / "raw").exists()


def test_contradictory_units_write_nothing(data, tmp_path):
    text = (FIXTURES / "cdm_fio" / "cdm_fio--lexar-10-runs.out").read_text()
    path = tmp_path / "mixed.log"
    path.write_text(text.replace("512KB Read: 482MB/s", "512KB Read: 482GB/s"))
    with pytest.raises(ParseError, match="inconsistent units") as err:
        import_file(path, data / "cards", "test-card", name="Lexar PLAY PRO microSD Express 1TB")
    assert "482GB/s" in err.value.text
    assert list((data / "cards").iterdir()) == []


def test_figures_beyond_the_bus_write_nothing(data):
    # 174 MB/s cannot come from a UHS-I card without a vendor claim; the card file is not written, and
    # the refusal names the imported figure and file, not a line of a card file that does not exist.
    with pytest.raises(ParseError, match="bus ceiling") as refusal:
        run_import(data, "crystaldiskmark/crystaldiskmark--cdm8-default-mix.out", name="SanDisk Extreme 64GB")
    assert ("the figures imported from crystaldiskmark--cdm8-default-mix.out fail the card's checks: "
            "SEQ1M Q8T1 read (results[0].runs[0]): 174.231 MB/s is above the UHS-I bus ceiling") in str(refusal.value)
    assert ".yaml:" not in str(refusal.value)
    assert list((data / "cards").iterdir()) == [] and not (data / "raw").exists()


def test_new_card_needs_name_and_capacity(data):
    with pytest.raises(CardFileError, match="name"):
        run_import(data, "fio/fio--cdm-4-jobs.out", name=None)
    with pytest.raises(CardFileError, match="capacity"):
        run_import(data, "fio/fio--cdm-4-jobs.out", name="Lexar PLAY PRO")


def test_new_card_defaults(data):
    summary = run_import(data, "fio/fio--cdm-4-jobs.out", name="SanDisk Ultra 64GB")
    card = load_card(data / "cards" / "test-card.yaml").data
    assert (card["brand"], card["model"], card["capacity_gb"], card["form_factor"], card["bus"]) == (
        "SanDisk", "Ultra", 64, "microSD", "UHS-I")  # the title says the capacity once
    assert summary.defaults["bus"] == ("UHS-I", "default")


@pytest.mark.parametrize("relpath, fmt", [
    ("fio/fio--note-before-json.out", "fio-json"), ("cdm_fio/cdm_fio--lexar-10-runs.out", "cdm-fio"),
    ("crystaldiskmark/crystaldiskmark--cdm6.out", "crystaldiskmark"), ("kdiskmark/kdiskmark--default.out", "kdiskmark"),
    ("dd/dd--zh.out", "dd"), ("flashbench/flashbench--align.out", "flashbench"),
    ("flashbench/flashbench--find-fat.out", "flashbench"), ("nvme/nvme--smart-log.out", "nvme"),
])
def test_detect_format(relpath, fmt):
    assert detect_format(decode_text((FIXTURES / relpath).read_bytes())).name == fmt


def test_cli_import(data, capsys):
    args = ["import", str(FIXTURES / "cdm_fio" / "cdm_fio--lexar-10-runs.out"), "--card", "lexar-play-pro-1tb",
            "--name", "Lexar PLAY PRO microSD Express 1TB", "--label", "Active cooling",
            "--cards-dir", str(data / "cards")]
    assert cli.main(args) == 0
    err = capsys.readouterr().err
    assert "10 run(s)" in err and "bus=SD Express (the name says Express)" in err
    assert "form_factor=microSD (from the name)" in err
    assert cli.main(args) == 0
    assert "nothing added" in capsys.readouterr().err
    bad = ["import", str(FIXTURES / "fio" / "fio--truncated.out"), "--card", "lexar-play-pro-1tb",
           "--cards-dir", str(data / "cards")]
    assert cli.main(bad) == 2
    assert "fio output line" in capsys.readouterr().err
