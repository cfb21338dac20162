"""A new card and session (card/new_card_data.py) with entries built from parsed tool output
(parsers/card_entries.py) validate, and the card transaction writes them safely."""

from pathlib import Path

import pytest

from cardbench.card import new_card_data
from cardbench.core import paths
from cardbench.parsers import card_entries
from cardbench.figures.aggregate import aggregate
from cardbench.card.load import load_card
from cardbench.card.store.transaction import card_change
from cardbench.errors import CardFileError, ParseError
from cardbench.parsers.dd import tool as dd
from cardbench.parsers import f3probe, flashbench, nvme
from cardbench.parsers.fio import json_output as fio_json
from cardbench.card.checks.validate import check_card, validate_paths

FIXTURES = Path(__file__).parent / "fixtures"


def read(tool, name):
    return (FIXTURES / tool / name).read_bytes().decode("utf-8")


def full_session():
    fio_runs = [fio_json.parse(read("fio", "fio--cdm-4-jobs.out")),
                fio_json.parse(read("fio", "fio--randrw-jsonplus.out")),
                fio_json.parse(read("fio", "fio--cdm-4-jobs.out"))]
    return new_card_data.new_session(
        "2025-05-17", "Active cooling", host="Fedora 42", reader="M.2 adapter, PCIe Gen3 x1",
        results=card_entries.results_from_fio(fio_runs, command="fio --output-format=json cdm-4-jobs.fio"),
        dd=[card_entries.dd_entry("write", "4M", dd.parse(read("dd", "dd--c-write-3-runs.out")), count=8,
                              flags=["direct"], target="device",
                              command="dd if=/dev/zero of=DEV bs=4M count=8 oflag=direct")],
        dd_sweeps=[card_entries.dd_sweep_entry("write", [(4096, 2.0), (8192, dd.parse(read("dd", "dd--fr.out")))],
                                           flags=["direct"], target="device")],
        flashbench_open_au=[card_entries.open_au_entry(
            flashbench.parse(read("flashbench", "flashbench--open-au-stopped.out")),
            "sequential", 8, 4194304, 4096, command="flashbench -O")],
        flashbench_align=[card_entries.align_entry(
            flashbench.parse(read("flashbench", "flashbench--align.out")), 1024, 2,
            "flashbench -a DEV -b 1024 -c 2")],
        flashbench_find_fat=[card_entries.find_fat_entry(
            flashbench.parse(read("flashbench", "flashbench--find-fat.out")),
            4194304, 65536, "flashbench -f")],
        f3probe=card_entries.f3probe_entry(f3probe.parse(read("f3probe", "f3probe--wraparound.out"))),
        nvme=card_entries.nvme_entry(nvme.parse_id_ctrl(read("nvme", "nvme--id-ctrl.out")),
                                 nvme.parse_features(read("nvme", "nvme--features-thermal.out")),
                                 temperature_c={"idle": 20, "max": 41}, pcie_link="PCIe Gen3 x1"),
    )


def new_card():
    return new_card_data.new_card("lexar-play-pro-1tb", "Lexar PLAY PRO 1TB", 1000, "microSD", "SD Express",
                             "cardbench collector")


def append(data_dir, session, new_card=None, slug="lexar-play-pro-1tb"):
    """Append a session through the card transaction, as the collector and the importer do."""
    with card_change(data_dir, slug) as change:
        change.append_session(session, new_card=new_card)
        return change.commit()


def test_every_entry_validates(tmp_path):
    path = append(tmp_path / "data", full_session(), new_card=new_card())
    card = load_card(path)
    assert check_card(card, data_dir=tmp_path / "data") == []
    session = card.data["sessions"][0]
    assert session["id"] == "2025-05-17-active-cooling"
    assert session["flashbench_open_au"][0]["interrupted"] is True
    assert session["f3probe"] == {"fake": True, "verdict": "counterfeit", "fake_type": "wraparound",
                                  "announced_bytes": 16 * 1024**3, "usable_bytes": 4 * 1024**3, "seconds": 42.05}
    assert session["nvme"]["thresholds_c"] == {"wctemp": 83, "cctemp": 85, "mntmt": 81, "mxtmt": 85, "tmpth": 83,
                                               "tmt1": 81, "tmt2": 85}


def test_fio_results_group_runs_by_subtest():
    first = fio_json.parse(read("fio", "fio--cdm-4-jobs.out"))
    second = fio_json.parse(read("fio", "fio--randrw-jsonplus.out"))
    results = card_entries.results_from_fio([first, second, first])
    by_key = {(r["test"], r["op"]): r for r in results}
    seq = by_key[("SEQ1M Q8T1", "read")]
    assert seq["unit"] == "MB/s"
    assert seq["runs"] == [first["jobs"][0]["bw_bytes"] / 1e6] * 2
    assert len(seq["iops"]) == len(seq["latency_us"]["p99"]) == 2
    assert by_key[("RND4K Q4T1", "write")]["runs"] == [second["jobs"][1]["bw_bytes"] / 1e6]
    assert [k for k in by_key][:4] == [("SEQ1M Q8T1", "read"), ("SEQ1M Q8T1", "write"), ("RND4K Q32T1", "read"),
                                       ("RND4K Q1T1", "write")]


def test_aggregate_gives_back_fio_figures(tmp_path):
    path = append(tmp_path / "data", full_session(), new_card=new_card())
    out = aggregate([load_card(path).data])["cards"]["lexar-play-pro-1tb"]["sessions"][0]["subtests"]
    seq = next(s for s in out if s["test"] == "SEQ1M Q8T1" and s["op"] == "read" and s["kind"] == "results")
    raw = fio_json.parse(read("fio", "fio--cdm-4-jobs.out"))["jobs"][0]["bw_bytes"] / 1e6
    assert seq["mean"] == pytest.approx(raw) and seq["run_count"] == 2
    assert seq["mb_s"]["mean"] == pytest.approx(raw, abs=1e-3)
    dd_row = next(s for s in out if s["kind"] == "dd")
    assert dd_row["runs"] == [20.5, 19.7, 19.2] and dd_row["mean"] == pytest.approx((20.5 + 19.7 + 19.2) / 3)


def test_append_keeps_earlier_bytes(tmp_path):
    path = append(tmp_path / "data", full_session(), new_card=new_card())
    before = path.read_bytes()
    second = dict(full_session(), id="2025-05-18-passive", label="Passive cooling")
    append(tmp_path / "data", second)
    after = path.read_bytes()
    assert after.startswith(before)
    cards_ok, findings = validate_paths([path], data_dir=tmp_path / "data")
    assert findings == [] and len(cards_ok[0].data["sessions"]) == 2


def test_invalid_session_writes_nothing(tmp_path):
    path = append(tmp_path / "data", full_session(), new_card=new_card())
    before = path.read_bytes()
    with pytest.raises(CardFileError, match="used twice"):
        append(tmp_path / "data", full_session())
    bad = dict(full_session(), id="2025-05-19-x",
               dd=[{"op": "write", "block_size": "4M", "unit": "MB/s", "runs": [-1]}])
    with pytest.raises(CardFileError, match="not positive"):
        append(tmp_path / "data", bad)
    assert path.read_bytes() == before


def test_new_card_file_is_not_written_when_invalid(tmp_path):
    session = dict(full_session(), raw=["raw/lexar-play-pro-1tb/2025-05-17-active-cooling/missing.txt"])
    with pytest.raises(CardFileError, match="missing"):
        append(tmp_path / "data", session, new_card=new_card())
    assert not (tmp_path / "data" / "cards" / "lexar-play-pro-1tb.yaml").exists()


def test_raw_files_in_place_validate(tmp_path):
    data = tmp_path / "data"
    folder = paths.raw_dir(data, "lexar-play-pro-1tb", "2025-05-17-active-cooling")
    assert folder == data / "raw" / "lexar-play-pro-1tb" / "2025-05-17-active-cooling"
    folder.mkdir(parents=True)
    (folder / "fio-1.json").write_text("{}")
    session = dict(full_session(), raw=["raw/lexar-play-pro-1tb/2025-05-17-active-cooling/fio-1.json"])
    append(data, session, new_card=new_card())


def test_missing_card_without_name(tmp_path):
    with pytest.raises(CardFileError, match="name"):
        append(tmp_path, full_session(), slug="nope")


def test_new_card_splits_brand_and_model():
    card = new_card()
    assert (card["brand"], card["model"], card["capacity_gb"], card["sessions"]) == ("Lexar", "PLAY PRO", 1000, [])
    assert list(card)[-1] == "sessions"
    with pytest.raises(CardFileError):
        new_card_data.new_card("x-1", "Lexar", 1, "SD", "UHS-I", "me")


@pytest.mark.parametrize("date, label, expected", [
    ("2025-05-17", "Active cooling", "2025-05-17-active-cooling"),
    ("2025-05-17", "  Passive / 82°C!", "2025-05-17-passive-82c"),
    ("2025-05-17", "", "2025-05-17"),
])
def test_session_id(date, label, expected):
    assert new_card_data.session_id(date, label) == expected


def test_fio_job_without_a_cdm_name_is_an_error():
    parsed = fio_json.parse(read("fio", "fio--cdm-4-jobs.out"))
    parsed["jobs"][0]["test"] = None
    with pytest.raises(ParseError, match="block size"):
        card_entries.results_from_fio([parsed])
