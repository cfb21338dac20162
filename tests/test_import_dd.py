"""dd logs as people have them: the same test run again, logs without their command, failed attempts and
runs that ended with an error; and new cards made by an import (capacity, bus and form factor given,
the bus-ceiling hint)."""

import re
from pathlib import Path

import pytest

from cardbench import cli
from cardbench.card.dump import new_card_text
from cardbench.card.load import load_card, parse_card_text
from cardbench.card.checks.validate import check_card
from cardbench.errors import CardFileError, ParseError
from cardbench.parsers.dd.command import size_bytes
from cardbench.parsers.dd.session import from_dd
from cardbench.imports.naming import card_for_name
from cardbench.imports.transcript import unwrap
from cardbench.parsers.dd import tool as dd_parser
from cardbench.figures.aggregate import aggregate

from cliimport import run_import

FIXTURES = Path(__file__).parent / "fixtures"
CORPUS = FIXTURES / "import-corpus" / "dd"
SUMMARY = "8+0 records in\n8+0 records out\n33554432 bytes (34 MB, 32 MiB) copied, 1.63627 s, 20.5 MB/s\n"


# --- the same test run again -------------------------------------------------------------------

WRITE = "dd if=/dev/zero of=/dev/sdc bs=4M count=8 oflag=direct"
# The five 4M writes of the corpus case dd--repeated-command-five-times (a loop device limited to 20 MB/s).
WRITE_RUNS = ((1.61928, 20.7), (1.66029, 20.2), (1.7071, 19.7), (1.63312, 20.5), (1.66433, 20.2))


def logged(*commands):
    """A log of the commands, each (a prompt and sudo as typed) followed by the next of WRITE_RUNS' summaries
    (32 MiB each, its records counted in the command's block size)."""
    def records(command):
        block = size_bytes(re.search(r"\bbs=(\S+)", command).group(1))
        return f"{(32 << 20) // block}+0"
    return unwrap("".join(f"{command}\n{records(command)} records in\n{records(command)} records out\n"
                          f"33554432 bytes (34 MB, 32 MiB) copied, {seconds} s, {rate} MB/s\n"
                          for command, (seconds, rate) in zip(commands, WRITE_RUNS * 2)))


def test_a_command_typed_again_is_one_entry_with_every_run():
    fields = from_dd(logged(f"user@bench:~$ sudo {WRITE}", f"user@bench:~$ sudo {WRITE}", f"$ {WRITE}",
                            f"root@bench:~# {WRITE}", "# dd of=/dev/sdc if=/dev/zero count=8 bs=4096K oflag=direct"))
    entry, = fields.measurements["dd"]
    assert entry["runs"] == [20.7, 20.2, 19.7, 20.5, 20.2] and entry["seconds"][2] == 1.7071
    assert entry["command"] == WRITE and entry["bytes"] == 33554432 and fields.runs == 5


def test_a_traced_loop_is_one_entry():
    loop = f"$ set -x; for i in 1 2 3; do sudo {WRITE}; done"
    entry, = from_dd(logged(f"{loop}\n+ {WRITE}", f"+ {WRITE}", f"+ {WRITE}")).measurements["dd"]
    assert entry["runs"] == [20.7, 20.2, 19.7]


def test_other_output_files_are_other_entries():
    entries = from_dd(logged(*(f"$ dd if=/dev/zero of=/media/user/CARD/test{n}.bin bs=4M count=8 conv=fdatasync"
                               for n in (1, 2, 3)))).measurements["dd"]
    assert [(entry["target"], entry["runs"]) for entry in entries] == [("file", [20.7]), ("file", [20.2]),
                                                                       ("file", [19.7])]
    assert entries[1]["command"].endswith("test2.bin bs=4M count=8 conv=fdatasync")


@pytest.mark.parametrize("other", [
    "dd if=/dev/zero of=/dev/sdc bs=1M count=32 oflag=direct",  # the same bytes in other blocks
    "dd if=/dev/zero of=/dev/sdc bs=4M count=16 oflag=direct",
    "dd if=/dev/sdc of=/dev/null bs=4M count=8 iflag=direct",  # the other direction
    "dd if=/dev/zero of=/dev/sdc bs=4M count=8",  # through the page cache
    "dd if=/dev/zero of=/dev/sdc bs=4M count=8 oflag=direct conv=fdatasync",
    "dd if=/dev/zero of=/media/user/CARD/test.bin bs=4M count=8 oflag=direct",  # a file, not the device
])
def test_another_command_is_another_entry_and_order_is_kept(other):
    first, second = from_dd(logged(f"$ {WRITE}", f"$ {other}", f"$ {WRITE}", f"$ {other}")).measurements["dd"]
    assert first["command"] == WRITE and first["runs"] == [20.7, 19.7]
    assert second["command"] == other and second["runs"] == [20.2, 20.5]


def test_flags_in_another_order_are_the_same_test_and_count_bytes_are_the_extent():
    entry, = from_dd(logged("$ dd if=/dev/zero of=/dev/sdc bs=4M count=8 oflag=direct,dsync",
                            "$ dd if=/dev/zero of=/dev/sdc bs=4M count=8 oflag=dsync,direct")).measurements["dd"]
    assert len(entry["runs"]) == 2
    by_bytes = "dd if=/dev/sdc of=/dev/null bs=4M iflag=count_bytes count="
    entries = from_dd(logged(f"$ {by_bytes}32M", f"$ {by_bytes}33554432", f"$ {by_bytes}64M")).measurements["dd"]
    assert [len(entry["runs"]) for entry in entries] == [2, 1]


# --- logs without their command -----------------------------------------------------------------

def test_output_without_command_needs_op_and_says_how():
    with pytest.raises(ParseError) as err:
        from_dd(SUMMARY)
    assert "OP=read or OP=write on make import, or --op on cardbench import" in err.value.message
    assert "BS=" not in err.value.message and err.value.line == 1  # the records lines tell the block size
    entry, = from_dd(SUMMARY, op="write").measurements["dd"]
    assert (entry["op"], entry["block_size"], entry["runs"]) == ("write", "4M", [20.5])  # 33554432 B / 8 blocks
    assert "target" not in entry and "command" not in entry


def test_block_size_without_records_is_bs_or_not_stated():
    tail_only = "33554432 bytes (34 MB, 32 MiB) copied, 1.63627 s, 20.5 MB/s\n"
    entry, = from_dd(tail_only, op="read").measurements["dd"]
    assert entry["block_size_stated"] is False and "block_size" not in entry
    assert from_dd(tail_only, op="read", block_size="4m").measurements["dd"][0]["block_size"] == "4M"
    partial = (FIXTURES / "dd" / "dd--partial-read-warning.out").read_text()  # 0+8 records: no block size
    assert from_dd(partial, op="read").measurements["dd"][0]["block_size_stated"] is False


def test_hints_that_dd_could_not_take_are_refused():
    with pytest.raises(ParseError, match="neither read nor write"):
        from_dd(SUMMARY, op="both")
    with pytest.raises(ParseError, match="not a size dd takes"):
        from_dd(SUMMARY, op="read", block_size="fast")


# --- failed attempts and runs that ended with an error ------------------------------------------

def test_attempt_that_failed_before_copying_is_skipped():
    text = ("$ dd if=/dev/zero of=/dev/sdc bs=4M count=8 oflag=direct\n"
            "dd: failed to open '/dev/sdc': Permission denied\n"
            "$ dd if=/dev/zero of=/dev/sdc bs=4M count=8 oflag=direct\n" + SUMMARY)
    entry, = from_dd(text).measurements["dd"]
    assert entry["runs"] == [20.5] and entry["op"] == "write"


def test_only_failed_attempts_name_the_first_failure():
    text = ("$ dd if=/dev/zero of=/dev/rdisk4 bs=1m\ndd: /dev/rdisk4: Resource busy\n"
            "$ dd if=/dev/zero of=/dev/rdisk4 bs=1m\ndd: /dev/rdisk4: Permission denied\n")
    with pytest.raises(ParseError, match="failed before copying") as err:
        from_dd(text)
    assert err.value.line == 2 and err.value.text == "dd: /dev/rdisk4: Resource busy"


@pytest.mark.parametrize("path, reason, line", [
    (CORPUS / "dd--no-space-left.out", "No space left on device", 2),
    (CORPUS / "dd--input-output-error.out", "Input/output error", 2),
    (FIXTURES / "dd" / "dd--de-no-space.out", "Auf dem Gerät ist kein Speicherplatz mehr verfügbar", 1),
])
def test_run_below_an_error_is_refused_by_name(path, reason, line):
    with pytest.raises(ParseError) as err:
        from_dd(path.read_text(encoding="utf-8"))
    assert f"({reason})" in err.value.message and err.value.line == line
    assert err.value.text.startswith("dd: ")


def test_error_in_one_run_of_a_loop_refuses_the_file():
    text = "$ for i in 1 2; do dd if=/dev/zero of=/dev/sdc bs=4M count=8; done\n" + SUMMARY
    text += "dd: error writing '/dev/sdc': Input/output error\n" + SUMMARY
    with pytest.raises(ParseError, match=r"\(Input/output error\)") as err:
        from_dd(text)
    assert err.value.line == 5


def test_partial_read_warning_is_no_error():
    run, = dd_parser.parse((FIXTURES / "dd" / "dd--partial-read-warning.out").read_text())["runs"]
    assert run["records_out"] == [0, 8] and run["mb_s"] == 235


# --- other dd programs --------------------------------------------------------------------------

def test_busybox_without_its_status_line_says_there_is_no_speed():
    # All that BusyBox 1.35 as Debian builds it (no third status line) printed for a 16 MiB read here.
    with pytest.raises(ParseError, match="printed no speed") as err:
        dd_parser.parse("16+0 records in\n16+0 records out\n")
    assert err.value.line == 2


def test_busybox_figures_are_bytes_over_seconds_and_checked_against_its_binary_rate():
    first, second = dd_parser.parse((FIXTURES / "dd" / "dd--busybox-status-line.out").read_text())["runs"]
    assert (first["rate"], first["rate_unit"]) == (16.4, "MiB/s")
    assert first["mb_s"] == pytest.approx(67108864 / 3.911207 / 1e6, rel=1e-3)  # 17.16 MB/s = 16.36 MiB/s
    assert second["mb_s"] == pytest.approx(40.61)
    with pytest.raises(ParseError, match="edited or corrupted"):  # 16.36 MiB/s printed as 17.2
        dd_parser.parse("67108864 bytes (64.0MB) copied, 3.911207 seconds, 17.2MB/s\n")


def test_last_progress_update_glued_to_the_final_one_is_no_run():
    text = (FIXTURES / "dd" / "dd--progress-final-glued.out").read_bytes().decode()
    for shown in (text, text.replace("\r", "\n")):  # as saved, and as a terminal or universal newlines give it
        run, = dd_parser.parse(shown)["runs"]
        assert (run["mb_s"], run["seconds"]) == (17.3, 5.82115)


# --- new cards made by an import ----------------------------------------------------------------

def test_card_values_given_come_before_the_name():
    card, used = card_for_name("holdout-dd-card", "Holdout dd card",
                               given={"capacity_gb": "1TB", "bus": "uhs-ii", "form_factor": "sd"})
    assert (card["capacity_gb"], card["bus"], card["form_factor"]) == (1000, "UHS-II", "SD")
    assert used == {"capacity_gb": (1000, "given"), "bus": ("UHS-II", "given"), "form_factor": ("SD", "given")}
    card, used = card_for_name("x-card", "Acme Fast Express 256GB", given={"bus": None})
    assert used["bus"] == ("SD Express", "the name says Express") and used["capacity_gb"] == (256, "from the name")


def test_name_without_capacity_says_how_to_give_it():
    with pytest.raises(CardFileError) as err:
        card_for_name("holdout-dd-card", "Holdout dd card")
    assert "CAPACITY=" in err.value.message and "--capacity" in err.value.message


@pytest.mark.parametrize("field, value, option", [("bus", "UHS-4", "BUS="), ("form_factor", "mini", "FORM="),
                                                  ("capacity_gb", "lots", "CAPACITY=")])
def test_invalid_card_values_name_their_option(field, value, option):
    with pytest.raises(CardFileError) as err:
        card_for_name("x-card", "Acme Fast 64GB", given={field: value})
    assert option in err.value.message and err.value.field == field


def test_ceiling_message_says_how_to_set_the_bus(tmp_path):
    data = {"schema_version": 1, "slug": "acme-fast-64gb", "brand": "Acme", "model": "Fast", "capacity_gb": 64,
            "form_factor": "microSD", "bus": "UHS-I", "source": {"name": "test"},
            "sessions": [{"id": "s1", "label": "Reader", "date": "2025-05-01", "results": [
                {"test": "SEQ1M Q8T1", "op": "read", "unit": "MB/s", "runs": [384.2]}]}]}
    card = parse_card_text(new_card_text(data), tmp_path / "acme-fast-64gb.yaml")
    [finding] = [f for f in check_card(card) if f.rule == "bus-ceiling"]
    # 384 MB/s is beyond UHS-II's 312: the slowest bus that carries it is named
    assert ('set bus: "UHS-III" in data/cards/acme-fast-64gb.yaml, or BUS="UHS-III" on make import'
            in finding.error.message)


# --- through the command line -------------------------------------------------------------------

def run_cli(tmp_path, capsys, case, *options, card="holdout-dd-card", name="Holdout dd card"):
    return run_import(CORPUS / f"dd--{case}.out", tmp_path / "data" / "cards", capsys, name, card, options)


def test_fast_card_refused_as_uhs_i_lands_with_its_bus(tmp_path, capsys):
    code, err, path = run_cli(tmp_path, capsys, "nvme-sd-express-bus", "--capacity", "256GB")
    assert code == 2 and 'BUS="SD Express" on make import' in err and not path.exists()
    code, err, path = run_cli(tmp_path, capsys, "nvme-sd-express-bus", "--capacity", "256GB", "--bus", "sd express",
                              "--form", "SD")
    assert code == 0, err
    card = load_card(path).data
    assert (card["capacity_gb"], card["bus"], card["form_factor"]) == (256, "SD Express", "SD")
    assert "bus=SD Express (given)" in err and card["sessions"][0]["dd"][0]["runs"] == [897, 904, 866]


def test_defaults_assumed_are_shown_with_how_to_set_them(tmp_path, capsys):
    code, err, _ = run_cli(tmp_path, capsys, "card-backup", name="Holdout dd card 64GB")
    assert code == 0, err
    assert "bus=UHS-I (default)" in err and "BUS=, FORM= on make import" in err


def test_card_values_for_an_existing_card_are_not_used_and_said_so(tmp_path, capsys):
    assert run_cli(tmp_path, capsys, "card-backup", name="Holdout dd card 64GB")[0] == 0
    code, err, path = run_cli(tmp_path, capsys, "disk-by-id", "--bus", "UHS-II")
    assert code == 0 and "were not used" in err and load_card(path).data["bus"] == "UHS-I"


def test_op_and_bs_through_the_command_line(tmp_path, capsys):
    code, err, path = run_cli(tmp_path, capsys, "summaries-only-op-bs", "--capacity", "64")
    assert code == 2 and "OP=read or OP=write" in err
    code, err, path = run_cli(tmp_path, capsys, "summaries-only-op-bs", "--capacity", "64", "--op", "write",
                              "--bs", "1M")
    assert code == 0, err
    entry, = load_card(path).data["sessions"][0]["dd"]
    assert (entry["op"], entry["block_size"], entry["runs"]) == ("write", "1M", [22.1, 23.2, 22.3, 21.6])


def test_repeated_command_shows_its_runs_and_statistics_on_the_card_page(tmp_path, capsys):
    code, err, path = run_cli(tmp_path, capsys, "repeated-command-five-times", "--capacity", "64")
    assert code == 0, err
    subtests = aggregate([load_card(path).data])["cards"]["holdout-dd-card"]["sessions"][0]["subtests"]
    write = next(s for s in subtests if s["op"] == "write" and s["block_size"] == "4M")
    assert (write["run_count"], write["min"], write["max"]) == (5, 19.7, 20.7)
    assert write["mean"] == pytest.approx((20.7 + 20.2 + 19.7 + 20.5 + 20.2) / 5, abs=0.01)
    assert sorted(s["run_count"] for s in subtests) == [1, 2, 5]


def test_op_for_another_format_is_refused(tmp_path, capsys):
    cards = tmp_path / "data" / "cards"
    cards.mkdir(parents=True)
    code = cli.main(["import", str(FIXTURES / "cdm_fio" / "cdm_fio--lexar-10-runs.out"), "--card", "lexar-1tb",
                     "--name", "Lexar PLAY PRO microSD Express 1TB", "--cards-dir", str(cards), "--op", "read"])
    assert code == 2 and "are for dd logs" in capsys.readouterr().err
    assert list(cards.iterdir()) == []
