"""`cardbench import` of capacity checks: f3probe's damaged verdict kept as damaged, an f3probe log that also
holds f3write/f3read keeping all their figures, and H2testw and the SD Card Speed Test through the command line."""

from pathlib import Path

from cliimport import imported_session

FIXTURES = Path(__file__).parent / "fixtures"
CORPUS = FIXTURES / "import-corpus"


def test_a_damaged_card_is_stored_as_damaged_not_fake(tmp_path):
    session = imported_session(FIXTURES / "f3probe" / "f3probe--damaged.out", tmp_path)
    assert session["f3probe"]["fake"] is False and session["f3probe"]["verdict"] == "damaged"
    assert "f3probe verdict: damaged" in session["notes"]


def test_an_f3probe_log_keeps_f3write_and_f3read_figures(tmp_path):
    # f3read read the loop device at 118 MB/s, beyond a UHS-I bus (the corpus README)
    session = imported_session(CORPUS / "f3probe" / "f3probe--with-f3write-f3read.out", tmp_path,
                               options=("--bus", "UHS-II"))
    assert [tool["name"] for tool in session["tools"]] == ["f3probe", "f3write", "f3read"]
    assert session["f3probe"]["verdict"] == "good"
    assert [(r["test"], r["unit"], r["runs"]) for r in session["tool_results"]] == [
        ("Average writing speed", "MiB/s", [69]), ("Average reading speed", "MiB/s", [112.78])]
    assert session["capacity_check"]["sectors"] == {"ok": 5058752, "lost": 2624, "overwritten": 512, "changed": 64,
                                                    "corrupted": 2048}


def test_h2testw_figures_against_its_sector_counts(tmp_path):
    # Worked out from the report's own counts: 15.6 GByte OK = 32768000 sectors × 512 = 16000 MiB.
    session = imported_session(CORPUS / "h2testw" / "h2testw--english-data-lost-email-quote.out", tmp_path)
    check = session["capacity_check"]
    assert check["bytes_ok"] == 16000 * 2**20 and check["bytes_lost"] == 43520 * 2**20
    assert check["bytes_written"] == 59520 * 2**20  # "Only 59520 of 59521 MByte tested"


def test_speed_test_figures_are_fios_terse_figures(tmp_path):
    # The script's "KB/sec" is the terse line's write bandwidth field, KiB/s.
    path = CORPUS / "agnostics" / "agnostics--gui-log-2024-pass.out"
    terse = next(line for line in path.read_text().splitlines() if line.startswith("seq-write;"))
    session = imported_session(path, tmp_path)
    seq = next(r for r in session["tool_results"] if r["test"] == "seq-write")
    assert (seq["unit"], seq["runs"]) == ("KiB/s", [int(terse.split(";")[3])])


def test_the_collector_says_damaged_for_a_damaged_card(tmp_path):
    from types import SimpleNamespace

    from cardbench.collect.profiles import F3ProbeStep
    from cardbench.collect.steps import run_f3probe

    def run_tool(argv, stdout, stderr, env):  # f3probe's real output of a damaged (emulated) card
        (tmp_path / stdout).write_bytes((FIXTURES / "f3probe" / "f3probe--damaged.out").read_bytes())

    ctx = SimpleNamespace(tool=lambda name: name, device_fd_path="/dev/sdz", raw_dir=tmp_path, run_tool=run_tool,
                          rel=lambda name: f"raw/acme-64/s1/{name}")
    outcome = run_f3probe(ctx, F3ProbeStep())
    assert outcome.summary.startswith("DAMAGED card")
    assert outcome.entries[0][1]["verdict"] == "damaged" and outcome.entries[0][1]["fake"] is False
