"""Importing flashbench logs as people run the tool: shell arithmetic and variables in the command
(as flashbench's README and the guides write it), for loops over --open-au-nr, a wrapper script's
messages around the rows, output pasted without its command; and one pasted log holding dd,
f3probe and flashbench at once. The rows are flashbench 62's own, from tests/fixtures/flashbench/."""

from pathlib import Path

import pytest

from cardbench import cli
from cardbench.card.load import load_card
from cardbench.errors import ParseError
from cardbench.imports.importer import session_fields
from cardbench.imports.transcript import unwrap
from cardbench.parsers.flashbench_command import options

FIXTURES = Path(__file__).parent / "fixtures"
SEQUENTIAL = (FIXTURES / "flashbench" / "flashbench--open-au-sequential.out").read_text(encoding="utf-8")
RANDOM = (FIXTURES / "flashbench" / "flashbench--open-au-random.out").read_text(encoding="utf-8")
ALIGN = (FIXTURES / "flashbench" / "flashbench--align.out").read_text(encoding="utf-8")
MiB = 1024 * 1024


def imported(text):
    return session_fields("flashbench", unwrap(text)).measurements


def sweep(text):
    (entry,) = imported(text)["flashbench_open_au"]
    return entry


@pytest.mark.parametrize("commands", [
    "$ sudo ./flashbench -O --erasesize=$[4 * 1024 * 1024] \\\n\t--blocksize=$[16 * 1024] /dev/sdb --open-au-nr=4\n",
    "$ ERASE=$((4*1024*1024))\n$ sudo flashbench --open-au --open-au-nr=4 --erasesize=$ERASE -b 16384 /dev/sdb\n",
    "$ export ERASE=4194304\n$ BLOCK=$((ERASE >> 8))\n$ flashbench -O --open-au-nr=4 -e ${ERASE} -b $BLOCK /dev/sdb\n",
    "$ ERASE=$((4 << 20)); N=4; sudo flashbench -O --open-au-nr=$N -e $ERASE -b $(( ERASE / 256 )) /dev/sdb\n",
    "ERASE=4194304\nflashbench -O --open-au-nr=$((2 * 2)) -e $ERASE -b 16384 /dev/sdb\n",  # a script, no prompts
    "$ let ERASE=4*1024*1024\n$ flashbench -O --open-au-nr=4 -e $ERASE -b 16384 /dev/sdb | tee au.txt\n",
    "$ declare -i ERASE=4194304\n$ time nice -n -5 flashbench -O --open-au-nr=4 -e \"$ERASE\" -b16384 /dev/sdb 2>&1\n",
])
def test_sizes_written_as_the_shell_works_them_out(commands):
    entry = sweep(commands + SEQUENTIAL)
    assert (entry["open_au"], entry["erase_size_bytes"], entry["block_size_bytes"]) == (4, 4 * MiB, 16384)
    assert entry["interrupted"] is False and len(entry["points"]) == 9
    assert "$" not in entry["command"]  # stored as it ran


def test_a_variable_never_set_is_named_with_its_line():
    with pytest.raises(ParseError, match=r"\$ERASE is not set earlier in the file") as err:
        imported("$ ls\n$ sudo flashbench -O --open-au-nr=2 --erasesize=$ERASE /dev/sdb\n" + SEQUENTIAL)
    assert err.value.line == 2


def test_a_variable_given_on_the_command_itself_is_not_set_for_its_arguments():
    # The shell expands $ERASE before it sets ERASE for flashbench's environment.
    with pytest.raises(ParseError, match=r"\$ERASE is not set"):
        imported("$ ERASE=4194304 flashbench -O --open-au-nr=2 --erasesize=$ERASE /dev/sdb\n" + SEQUENTIAL)


def test_a_size_with_a_unit_is_refused_as_flashbench_would_misread_it():
    with pytest.raises(ParseError, match="plain number of bytes") as err:
        imported("$ flashbench -O --open-au-nr=2 -e 4M /dev/sdb\n" + SEQUENTIAL)
    assert err.value.line == 1


def test_flashbench_defaults_fill_what_the_command_leaves_out():
    entry = sweep("$ sudo flashbench --open-au /dev/sdb\n" + SEQUENTIAL)
    assert (entry["open_au"], entry["erase_size_bytes"], entry["block_size_bytes"]) == (2, 4 * MiB, 16384)


def test_rows_larger_than_the_commands_erase_size_are_refused():
    with pytest.raises(ParseError, match="--erasesize=2097152, but the rows start at 4194304") as err:
        imported("$ ls\n$ flashbench -O -e 2097152 /dev/sdb\n" + SEQUENTIAL)
    assert err.value.line == 2


def test_open_au_output_without_its_command_says_which_option_to_give():
    with pytest.raises(ParseError, match="--open-au-nr") as err:
        imported("Results:\n" + SEQUENTIAL)
    assert err.value.line == 2 and "--erasesize=4194304" in err.value.message


def test_align_and_find_fat_output_without_a_command_import_what_they_say():
    (scan,) = imported(ALIGN)["flashbench_align"]
    assert "block_size_bytes" not in scan and scan["points"][2]["diff_ns"] == -14207
    fat = (FIXTURES / "flashbench" / "flashbench--find-fat.out").read_text(encoding="utf-8")
    (entry,) = imported(fat)["flashbench_find_fat"]
    assert entry["erase_size_bytes"] == 4 * MiB and "block_size_bytes" not in entry  # the first row: 4MiB


def test_a_for_loop_gives_one_sweep_per_value():
    text = ("$ for n in 2 3; do sudo flashbench -O --open-au-nr=$n -e $[4*1024*1024] -b 16384 /dev/sdb; done\n"
            + SEQUENTIAL + RANDOM)
    entries = imported(text)["flashbench_open_au"]
    assert [e["open_au"] for e in entries] == [2, 3]
    assert [e["points"][0]["value"] for e in entries] == [19.9, 19.8]
    assert entries[1]["command"] == "flashbench -O --open-au-nr=3 -e 4194304 -b 16384 /dev/sdb"


@pytest.mark.parametrize("loop", [
    "$ for n in {2..3}; do flashbench -O --open-au-nr=$n /dev/sdb; done\n",
    "$ for n in $(seq 2 3); do flashbench -O --open-au-nr=$n /dev/sdb; done\n",
    "$ for n in 2 3\n> do\n>   sudo flashbench -O --open-au-nr=$n /dev/sdb\n> done\n",  # typed over several lines
    "for n in 2 3; do\n  flashbench -O --open-au-nr=$n /dev/sdb\ndone\n",  # a script
])
def test_loops_in_every_spelling(loop):
    assert [e["open_au"] for e in imported(loop + SEQUENTIAL + RANDOM)["flashbench_open_au"]] == [2, 3]


def test_a_loop_stopped_early_keeps_its_runs_and_marks_the_cut_one():
    cut = "\n".join(RANDOM.splitlines()[:3]) + "\n^C\n"
    entries = imported("$ for n in 1 2 3 4; do flashbench -O --open-au-nr=$n /dev/sdb; done\n" + SEQUENTIAL + cut)[
        "flashbench_open_au"]
    assert [(e["open_au"], e["interrupted"]) for e in entries] == [(1, False), (2, True)]


def test_more_outputs_than_the_loop_ran_is_refused():
    with pytest.raises(ParseError, match="2 times, but 3 outputs"):
        imported("$ for n in 1 2; do flashbench -O --open-au-nr=$n /dev/sdb; done\n" + SEQUENTIAL * 3)


def test_a_wrapper_scripts_messages_and_set_x_trace():
    text = ("Making sure the device has no mounted partitions\n+ umount /dev/sdb1\numount: /dev/sdb1: not mounted.\n"
            "+ flashbench --open-au --open-au-nr=4 -r -e 4194304 -b 16384 /dev/sdb\n"
            "sched_setscheduler: Operation not permitted\n" + RANDOM + "All done in 42 s\n")
    entry = sweep(text)
    assert (entry["mode"], entry["open_au"], len(entry["points"])) == ("random", 4, 9)


def test_a_command_that_failed_is_skipped():
    text = "$ flashbench -a /dev/sdb\nopen: Permission denied\n$ sudo flashbench -a /dev/sdb -b 1024\n" + ALIGN
    (scan,) = imported(text)["flashbench_align"]
    assert scan["block_size_bytes"] == 1024


def test_getopt_spellings():
    assert options(["-Or", "-b1024", "-e", "4194304", "--open-au-nr", "3", "--off=0x100000", "/dev/sdb"]) == {
        "mode": "random", "open_au": 3, "erase": 4194304, "block": 1024, "count": None, "offset": 1048576}
    assert options(["--erase=8388608", "--block", "4096", "-c8"])["erase"] == 8388608


def test_one_command_with_two_tests_gives_both_entries():
    found = imported("$ flashbench -a -O --open-au-nr=4 -b 16384 /dev/sdb\n" + ALIGN + SEQUENTIAL)
    assert len(found["flashbench_align"]) == 1 and found["flashbench_open_au"][0]["open_au"] == 4


def test_dd_f3probe_and_flashbench_in_one_log_make_one_session(tmp_path, capsys):
    log = FIXTURES / "import-corpus" / "flashbench" / "flashbench--dd-f3probe-flashbench-log.out"
    cards = tmp_path / "data" / "cards"
    cards.mkdir(parents=True)
    assert cli.main(["import", str(log), "--card", "test-card", "--name", "Test Card 16GB", "--cards-dir",
                     str(cards)]) == 0
    assert "import: flashbench: " in capsys.readouterr().err
    (session,) = load_card(cards / "test-card.yaml").data["sessions"]
    assert [t["name"] for t in session["tools"]] == ["dd", "f3probe", "flashbench"]
    assert [(e["op"], e["runs"]) for e in session["dd"]] == [("write", [18.8]), ("read", [41.1])]
    assert session["f3probe"]["fake"] is False and len(session["flashbench_align"][0]["points"]) == 20
    assert session["flashbench_open_au"][0]["erase_size_bytes"] == 4 * MiB


def test_an_error_in_one_tools_part_names_the_line_of_the_whole_log():
    log = (FIXTURES / "import-corpus" / "flashbench" / "flashbench--dd-f3probe-flashbench-log.out").read_text()
    broken = log.replace("41.1 MB/s", "91.1 MB/s")
    line = next(i for i, text in enumerate(broken.splitlines(), start=1) if "91.1 MB/s" in text)
    with pytest.raises(ParseError, match="91.1") as err:
        session_fields("flashbench", unwrap(broken))
    assert err.value.line == line
