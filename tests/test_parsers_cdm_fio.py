"""cdm_fio.sh parser: a ten-run terminal log (prompts, ANSI colours, fio progress) and bad input."""

import json
from pathlib import Path

import pytest

from cardbench.errors import ParseError
from cardbench.parsers.cdm import cdm_fio

FIXTURES = Path(__file__).parent / "fixtures" / "cdm_fio"
LOG = "cdm_fio--lexar-10-runs.out"


def read(name):
    return (FIXTURES / name).read_bytes().decode("utf-8")


@pytest.mark.parametrize("case", sorted(p.stem for p in FIXTURES.glob("cdm_fio--*.json")))
def test_fixture_parses_to_expected(case):
    assert cdm_fio.parse(read(f"{case}.out")) == json.loads(read(f"{case}.json"))


def test_ten_runs_with_their_configuration():
    parsed = cdm_fio.parse(read(LOG))
    assert parsed["unit"] == "MiB/s"
    assert len(parsed["runs"]) == 10
    config = parsed["runs"][0]["config"]
    assert (config["size"], config["loops"], config["write_zeroes"]) == ("1024m", 5, 0)
    assert config["target"] == "/run/media/user/LEXAR/"
    names = [(r["test"], r["op"]) for r in parsed["runs"][0]["results"]]
    assert names == [("SEQ1G Q1T1", "read"), ("SEQ1G Q1T1", "write"), ("SEQ512K Q1T1", "read"),
                     ("SEQ512K Q1T1", "write"), ("SEQ32M Q32T1", "read"), ("SEQ32M Q32T1", "write"),
                     ("RND4K Q1T1", "read"), ("RND4K Q1T1", "write"), ("RND4K Q32T1", "read"),
                     ("RND4K Q32T1", "write"), ("RND4K Q8T8", "read"), ("RND4K Q8T8", "write")]
    first = {(r["test"], r["op"]): r for r in parsed["runs"][0]["results"]}
    assert first[("SEQ1G Q1T1", "read")]["value"] == 745 and first[("SEQ1G Q1T1", "read")]["iops"] is None
    assert first[("RND4K Q8T8", "write")]["value"] == 534 and first[("RND4K Q8T8", "write")]["iops"] == 136704


@pytest.mark.parametrize("size, name, test", [
    ("1024m", "Sequential", "SEQ1G Q1T1"), ("1024m", "Sequential Q32T1", "SEQ32M Q32T1"),
    ("512m", "Sequential", "SEQ512M Q1T1"), ("512m", "Sequential Q32T1", "SEQ16M Q32T1"),
    ("4g", "Sequential", "SEQ4G Q1T1"), ("1024m", "512KB", "SEQ512K Q1T1"), ("1024m", "4KB", "RND4K Q1T1"),
    ("1024m", "4KB Q1T1", "RND4K Q1T1"), ("1024m", "4KB Q8T8", "RND4K Q8T8"),
])
def test_names_follow_the_size(size, name, test):
    assert cdm_fio.test_name(name, size) == test


def minimal_run(size="Size:1024m Loops:1 Write Only Zeroes:0", skip=(), mib_s=12, size_mib=1024):
    """A run printing mib_s for every subtest, with the IOPS the script prints for a run of size_mib."""
    lines = [f"Configuration: {size}"]
    for name in ("Sequential", "512KB", "Sequential Q32T1", "4KB", "4KB Q32T1", "4KB Q8T8"):
        block = cdm_fio.block_bytes(name, f"{size_mib}m")
        for op in ("Read", "Write"):
            if (name, op) not in skip:
                lines.append(f"{name} {op}: {mib_s}MB/s IOPS={int(mib_s * 2**20 // block)}")
    return "\n".join(lines) + "\n"


def test_results_without_configuration_assume_the_default_size():
    # 12 MiB/s: 0 IOPS at 1 GiB and at 32 MiB blocks, which only says the blocks are above 12 MiB:
    # every size from 512m fits, the script's default among them.
    text = minimal_run().split("\n", 1)[1]
    run, = cdm_fio.parse(text)["runs"]
    assert run["config"]["size"] == "1024m" and run["config"]["size_assumed"] is True
    assert run["config"]["size_basis"].endswith("fit it, and 512m to 65536m too")


def test_results_without_configuration_give_the_size_their_iops_fit():
    # 90 MiB/s with Size 256m: "Sequential Q32T1 … IOPS=11" (8 MiB blocks); only 256m fits.
    text = minimal_run(mib_s=90, size_mib=256).split("\n", 1)[1]
    assert "Sequential Q32T1 Read: 90MB/s IOPS=11" in text
    run, = cdm_fio.parse(text)["runs"]
    assert (run["config"]["size"], run["config"]["size_inferred"]) == ("256m", True)
    assert [r["test"] for r in run["results"]][::2] == ["SEQ256M Q1T1", "SEQ512K Q1T1", "SEQ8M Q32T1", "RND4K Q1T1",
                                                         "RND4K Q32T1", "RND4K Q8T8"]


def test_results_whose_iops_fit_no_single_size_ask_for_it():
    # 90 MiB/s with IOPS=1 on the Q32 line: 45 to 91 MiB blocks, so 2048m (64 MiB) — but the
    # Sequential line's IOPS=0 needs a block over 90 MiB: no size fits both.
    text = minimal_run(mib_s=90, size_mib=2048).split("\n", 1)[1].replace("Sequential Read: 90MB/s IOPS=0",
                                                                          "Sequential Read: 90MB/s IOPS=1")
    with pytest.raises(ParseError, match="no 'Configuration: Size:…' line, and the script's default Size 1024m "
                                         "cannot be right") as err:
        cdm_fio.parse(text)
    assert "Add the script's Configuration line" in err.value.message and err.value.line == 1


def test_block_of_the_q32_test_is_size_over_32_in_whole_mib():
    assert cdm_fio.block_bytes("Sequential Q32T1", "100m") == 3 * 2**20  # QSIZE=$((100 / 32))m
    assert cdm_fio.test_name("Sequential Q32T1", "100m") == "SEQ3M Q32T1"


def test_run_missing_subtests_names_its_last_line():
    text = minimal_run() + minimal_run(skip={("4KB Q8T8", "Read"), ("4KB Q8T8", "Write")})
    with pytest.raises(ParseError) as err:
        cdm_fio.parse(text)
    assert err.value.line == 24 and "4KB Q8T8 Read" in err.value.message


def test_cut_off_result_line():
    text = minimal_run() + "Configuration: Size:1024m Loops:1\nSequential Read: 7"
    with pytest.raises(ParseError) as err:
        cdm_fio.parse(text)
    assert err.value.line == 15


def test_inconsistent_unit():
    text = minimal_run().replace("512KB Read: 12MB/s", "512KB Read: 12GB/s")
    with pytest.raises(ParseError, match="inconsistent units") as err:
        cdm_fio.parse(text)
    assert err.value.line == 4


def test_zero_is_recomputed_from_iops():
    text = minimal_run().replace("4KB Write: 12MB/s IOPS=3072", "4KB Write: 0MB/s IOPS=200")
    result = next(r for r in cdm_fio.parse(text)["runs"][0]["results"]
                  if (r["test"], r["op"]) == ("RND4K Q1T1", "write"))
    assert result["value"] == pytest.approx(200 * 4096 / 2**20, abs=1e-3) and result["from_iops"] is True


def test_no_results():
    with pytest.raises(ParseError):
        cdm_fio.parse("user@host:~$ ./cdm_fio.sh /mnt\nbash: ./cdm_fio.sh: Permission denied\n")


def test_echo_without_e_and_literal_escapes():
    text = "-e \nResults:\n\\033[0;33m\n" + minimal_run().split("\n", 1)[1]
    assert len(cdm_fio.parse(text)["runs"][0]["results"]) == 12


@pytest.mark.parametrize("config", ["Configuration: Size:" + "9" * 5000 + "m Loops:5",
                                    "Configuration: Size:1024m Loops:" + "9" * 5000])
def test_number_of_thousands_of_digits_names_its_line(config):
    # int() refuses more than 4300 digits with a ValueError; no tool prints a number of 100.
    with pytest.raises(ParseError, match="more than 100 digits") as err:
        cdm_fio.parse(f"$ ./cdm_fio.sh /mnt\n{config}\n4KB Read: 1MB/s IOPS=1\n4KB Write: 1MB/s IOPS=1\n")
    assert err.value.line == 2 and len(err.value.text) < 100


def test_device_line_with_parentheses_in_the_model():
    parsed = cdm_fio.parse("Results from /dev/sdb,  Card (v2)  (64GB):\n"
                           "4KB Read: 1MB/s IOPS=1\n4KB Write: 1MB/s IOPS=1\n")
    config = parsed["runs"][0]["config"]
    assert (config["device"], config["model"], config["capacity"]) == ("/dev/sdb", "Card", "v2")


def test_bracketed_iops_are_the_fiomark_variant_in_kkib_per_second():
    """hddtest.sh (cdm_fio.sh's fiomark variant; the corpus's real README output) prints fio's KiB/s ÷ 1000 as "MB/s"
    beside "[ N IOPS]": 6308 IOPS × 4 KiB = 25232 KiB/s, printed 25, which as MiB/s (24.6) it could not be."""
    text = (Path(__file__).parent / "fixtures" / "import-corpus" / "cdm_fio" /
            "cdm_fio--hdtest-readme-bracket-iops.out").read_text(encoding="utf-8")
    parsed = cdm_fio.parse(text)
    assert (parsed["unit"], parsed["variant"]) == ("kKiB/s", "fiomark")
    assert ("RND4K Q1T1", 25, 6308) in [(r["test"], r["value"], r["iops"]) for r in parsed["runs"][0]["results"]]
    with pytest.raises(ParseError, match="two scripts"):
        cdm_fio.parse(text + "4KB Q32T1 Read: 25MB/s IOPS=6308\n")
