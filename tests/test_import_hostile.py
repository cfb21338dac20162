"""`cardbench import` on hostile input: each is refused with a message naming what is wrong, without
a traceback and without hanging, and the data folder stays byte-identical; odd but honest input
(a symlink to a file, a byte-order mark, a file name with line breaks) imports."""

import contextlib
import io
import json
import os
import shutil
import socket
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

from cardbench.card.load import load_card
from cardbench.cli import main
from cardbench.errors import ParseError
from cardbench.imports.read import MAX_BYTES, MAX_LINES, read_input
from cardbench.parsers.registry import NAMES

from cardwrites import snapshot
from conftest import hang_guard

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "tests" / "fixtures"
HANG_GUARD_S = 60  # detects a hang (the unfixed code ran for minutes or forever); not a speed target
CARD = "sandisk-ultra-64gb-microsdxc"  # a shipped card, copied into each test's data folder
NEW_CARD = ("--card", "new-card", "--name", "Samsung EVO Plus 64GB")  # for the imports that succeed
DD_LOG = (FIXTURES / "dd" / "dd--logged-write-and-read.out").read_bytes()


@pytest.fixture
def data(tmp_path):
    data = tmp_path / "data"
    (data / "cards").mkdir(parents=True)
    shutil.copy(ROOT / "data" / "cards" / f"{CARD}.yaml", data / "cards")
    if (ROOT / "data" / "raw" / CARD).is_dir():
        shutil.copytree(ROOT / "data" / "raw" / CARD, data / "raw" / CARD)
    return data


def import_argv(data, file, args, card):
    return ["import", str(file), "--card", card, "--cards-dir", str(data / "cards"), *args]


def cardbench_import(data, file, *args, card=CARD):
    """`cardbench import` through the command line's entry point in this process (what `python -m
    cardbench` runs, without starting Python again): its exit status and what it wrote to stderr.
    An exception escaping main() fails the test, as a traceback would."""
    err = io.StringIO()
    with hang_guard(HANG_GUARD_S, f"cardbench import {file}"), contextlib.redirect_stderr(err), \
            contextlib.redirect_stdout(io.StringIO()):
        try:
            code = main(import_argv(data, file, args, card))
        except SystemExit as exc:  # argparse refusing the command line
            code = exc.code
    return SimpleNamespace(returncode=code, stderr=err.getvalue())


def cardbench_import_process(data, file, *args, card=CARD):
    """The same as its own process, `python -m cardbench import …`: the exit status and stderr a user sees."""
    env = dict(os.environ, PYTHONPATH=str(ROOT / "scripts"))
    return subprocess.run([sys.executable, "-m", "cardbench", *import_argv(data, file, args, card)],
                          capture_output=True, text=True, cwd=ROOT, env=env, timeout=HANG_GUARD_S)


def refused(data, file, *fragments, args=(), run_import=cardbench_import):
    """Runs the import, checks it was refused cleanly with nothing written; returns stderr."""
    before = snapshot(data, folders=True)
    run = run_import(data, file, *args)
    assert run.returncode == 2, run.stderr[-2000:]
    assert "Traceback" not in run.stderr
    for fragment in fragments:
        assert fragment in run.stderr
    assert len(run.stderr) < 2000, "a long line is quoted in full"
    assert snapshot(data, folders=True) == before
    return run.stderr


# --- JSON ---------------------------------------------------------------------------------------

def test_fio_json_with_an_integer_of_5000_digits(data, tmp_path):
    path = tmp_path / "fio.json"
    path.write_text('{\n  "fio version" : "fio-3.33",\n  "jobs" : [{"jobname": "a", "read": {"io_bytes": '
                    + "9" * 5000 + "}}]\n}\n")
    refused(data, path, "fio output line 3: a number of 5000 characters in the JSON")


def test_fio_json_nested_100000_deep(data, tmp_path):
    path = tmp_path / "fio.json"
    path.write_text('{\n  "fio version" : "fio-3.33",\n  "jobs" : ' + "[" * 100_000 + "\n")
    refused(data, path, "fio output line 3: JSON nested more than 64 levels deep")


def test_nvme_json_nested_100000_deep(data, tmp_path):
    path = tmp_path / "smart-log.json"
    path.write_text('{\n  "temperature" : ' + "[" * 100_000 + "\n")
    # not recognised as nvme output, so nothing of it is quoted, only where reading it failed
    refused(data, path, "import output line 2: smart-log.json is not recognised as tool output, and reading it as "
                        "nvme fails", args=("--format", "nvme"))


# --- what the path names ------------------------------------------------------------------------

def test_character_device(data):
    refused(data, "/dev/zero", "/dev/zero is under /dev, which holds system state", run_import=cardbench_import_process)


def test_symlink_to_a_character_device(data, tmp_path):
    (tmp_path / "results.txt").symlink_to("/dev/zero")
    refused(data, tmp_path / "results.txt", "results.txt is under /dev (it leads to /dev/zero)")


def test_fifo_without_a_writer(data, tmp_path):
    os.mkfifo(tmp_path / "results.txt")
    refused(data, tmp_path / "results.txt", "results.txt is a named pipe (FIFO)")


def test_symlink_to_a_fifo(data, tmp_path):
    os.mkfifo(tmp_path / "pipe")
    (tmp_path / "results.txt").symlink_to(tmp_path / "pipe")
    refused(data, tmp_path / "results.txt", "which is a named pipe (FIFO)")


def test_socket(data, tmp_path):
    with socket.socket(socket.AF_UNIX) as listening:
        listening.bind(str(tmp_path / "results.sock"))
        refused(data, tmp_path / "results.sock", "results.sock is a socket")


def test_directory(data, tmp_path):
    refused(data, tmp_path, f"{tmp_path} is a directory")


def test_missing_file(data, tmp_path):
    refused(data, tmp_path / "nothing.txt", "cannot read", "No such file or directory")


def test_file_of_1_gib_is_refused_by_its_size(data, tmp_path):
    path = tmp_path / "big.log"
    with open(path, "wb") as handle:
        handle.truncate(1 << 30)  # sparse: no disk space used
    refused(data, path, f"big.log is {1 << 30} bytes; the limit is {MAX_BYTES}")


def test_reading_stops_after_the_limit(monkeypatch):
    # /proc files say they are 0 bytes long: what is read is bounded, not the size stat() gives. (The
    # import refuses /proc by name first; the bound is tested past that.)
    monkeypatch.setattr("cardbench.imports.read._refuse_system_path", lambda path: None)
    assert os.stat("/proc/self/status").st_size == 0
    with pytest.raises(ParseError, match="grew past 10 bytes"):
        read_input("/proc/self/status", limit=10)
    assert read_input("/proc/self/status", limit=1 << 20).startswith(b"Name:")


def test_symlink_to_a_regular_file_imports(data, tmp_path):
    (tmp_path / "results.txt").symlink_to(FIXTURES / "dd" / "dd--logged-write-and-read.out")
    run = cardbench_import_process(data, tmp_path / "results.txt", *NEW_CARD)
    assert run.returncode == 0, run.stderr
    assert "dd: 3 run(s), 2 entr(y/ies)" in run.stderr


# --- text ---------------------------------------------------------------------------------------

def test_line_of_40000_digits(data, tmp_path):
    path = tmp_path / "digits.txt"
    path.write_text("1" * 40_000 + "\n")
    err = refused(data, path, "import output line 1: format not recognised", run_import=cardbench_import_process)
    assert "1111" not in err


@pytest.mark.parametrize("fmt", NAMES)
def test_line_of_40000_digits_as_each_format(data, tmp_path, fmt):
    path = tmp_path / "digits.txt"
    path.write_text("$ dd if=/dev/zero of=/dev/sdb bs=4M count=8\n" + "1" * 40_000 + " s, 1 MB/s\n")
    refused(data, path, args=("--format", fmt))


def test_dd_rate_that_contradicts_bytes_and_seconds(data, tmp_path):
    path = tmp_path / "dd.log"
    path.write_bytes(DD_LOG.replace(b"1.63627 s, 20.5 MB/s", b"1.63627 s, 90.5 MB/s"))
    refused(data, path, "dd output line 4: 33554432 bytes in 1.63627 s is 20.5 MB/s, but the line says 90.5 MB/s")


@pytest.mark.parametrize("raw, fragment", [
    (b"\x00" * 301, "is not UTF-8 or UTF-16 text (byte 300: truncated data)"),
    (b"\xff\xfe" + "8+0 records in\n".encode("utf-16-le") + b"\x00\xd8a\x00", "line 2: "),  # a lone surrogate
    (b"8+0 records in\n8+0 records out\n\xff\xfe1 byte\n", "line 3:"),
])
def test_bytes_that_are_not_text(data, tmp_path, raw, fragment):
    path = tmp_path / "binary.out"
    path.write_bytes(raw)
    refused(data, path, "is not UTF-8 or UTF-16 text", fragment)


def test_nul_bytes_inside_text(data, tmp_path):
    path = tmp_path / "nul.out"
    path.write_bytes(DD_LOG.replace(b"records in", b"records\x00in"))
    run = cardbench_import(data, path, *NEW_CARD)
    assert run.returncode == 0, run.stderr  # NUL in a line that is not read for figures


def test_a_nul_in_a_line_read_for_figures_is_refused_naming_it(data, tmp_path):
    path = tmp_path / "nul.out"
    path.write_bytes(DD_LOG.replace(b"20.5 MB/s", b"20.5 M\x00B/s"))
    run = cardbench_import(data, path, *NEW_CARD)
    assert run.returncode == 2
    assert "dd output line 4: this line holds U+0000 (NUL)" in run.stderr, run.stderr


def test_utf8_byte_order_mark(data, tmp_path):
    path = tmp_path / "bom.out"
    path.write_bytes(b"\xef\xbb\xbf" + DD_LOG)
    run = cardbench_import(data, path, *NEW_CARD)
    assert run.returncode == 0, run.stderr


@pytest.mark.parametrize("line_break", ["\n", "\r", "\u2028"])
def test_more_lines_than_the_limit(data, tmp_path, line_break):
    path = tmp_path / "lines.txt"
    path.write_text(line_break * (MAX_LINES + 1), newline="")
    refused(data, path, f"has {MAX_LINES + 1} lines; the limit is {MAX_LINES}")


@pytest.mark.parametrize("line", ["1 byte copied, 0.5 s, 0.0 kB/s\n", "4KB Read: 1MB/s IOPS=1\n", "4MiB 1M/s\n",
                                  "a \\\n", "$ dd if=/dev/zero of=x\n"])
def test_as_many_lines_as_allowed(data, tmp_path, line):
    path = tmp_path / "lines.txt"
    path.write_text(line * (MAX_LINES - 10))
    refused(data, path)


def test_one_line_fio_json_after_carriage_return_line_breaks(data, tmp_path):
    doc = json.dumps(json.loads((FIXTURES / "fio" / "fio--cdm-4-jobs.out").read_text()))
    path = tmp_path / "fio.log"
    path.write_bytes(("note\r" * 5 + doc + "\n").encode())
    run = cardbench_import(data, path, "--name", "SanDisk Ultra 64GB", card="cr-card")
    assert run.returncode == 0, run.stderr
    assert "fio-json: 1 run(s)" in run.stderr


def test_file_name_with_line_breaks_and_shell_syntax(data, tmp_path):
    name = "run\n`touch pwned`$(touch pwned)\x1b[31m.txt"
    (tmp_path / name).write_bytes(DD_LOG)
    run = cardbench_import(data, tmp_path / name, "--name", "Samsung EVO Plus 64GB", card="odd-name-card")
    assert run.returncode == 0, run.stderr
    assert not (tmp_path / "pwned").exists() and not (ROOT / "pwned").exists()
    assert "\x1b" not in run.stderr and "import: run\\n`touch pwned`$(touch pwned)\\x1b[31m.txt: dd" in run.stderr
    session, = load_card(data / "cards" / "odd-name-card.yaml").data["sessions"]
    assert session["label"] == "Imported run\\n`touch pwned`$(touch pwned)\\x1b[31m.txt"
    raw, = (data / "raw" / "odd-name-card").glob("*/run-touch-pwned-touch-pwned-31m.txt")
    assert raw.read_bytes() == DD_LOG


def test_more_dd_commands_than_a_session_holds(data, tmp_path):
    # Refused before the card text is built: 10^5 entries took minutes to write out and check.
    # 20,000 different commands (count=1 … 20000, each summary's bytes, seconds and rate agreeing)
    # are 20,000 entries; the same command typed 20,000 times is one entry of 20,000 runs.
    path = tmp_path / "dd.log"
    path.write_text("".join(f"$ dd if=/dev/zero of=/dev/sdb bs=4M count={n}\n"
                            f"{n * 4194304} bytes copied, {n * 0.2:.1f} s, 21.0 MB/s\n" for n in range(1, 20_001)))
    refused(data, path, "import output: the file gives 20000 dd entries; a session holds at most")
    path.write_text("$ dd if=/dev/zero of=/dev/sdb bs=4M count=8\n"
                    "33554432 bytes (34 MB, 32 MiB) copied, 1.63627 s, 20.5 MB/s\n" * 20_000)
    refused(data, path, "import output: the file gives 20000 runs of one dd entry; a session holds at most")


def test_more_exports_than_a_session_holds_runs(data, tmp_path):
    path = tmp_path / "cdm.txt"
    export = "CrystalDiskMark 8.0.4\n[Read]\n  SEQ    1MiB (Q=  8, T= 1):   43.188 MB/s\nTest: 1 GiB (x5)\n"
    path.write_text(export * 5000)
    refused(data, path, "import output: the file gives 5000 runs of one results entry; a session holds at most")


# --- figures no card gives, and figures that contradict each other ------------------------------

FIO_JOB = (FIXTURES / "fio" / "fio--cdm-4-jobs.out").read_text()  # lines 28-33: the first job's read figures
CDM6 = (FIXTURES / "crystaldiskmark" / "crystaldiskmark--cdm6.out").read_text()


def fio_with(tmp_path, *changes):
    text = FIO_JOB
    for old, new in changes:
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    path = tmp_path / "fio.json"
    path.write_text(text)
    return path


@pytest.mark.parametrize("changes, fragment", [
    # 1e308 IOPS ended in OverflowError from the bandwidth/IOPS comparison.
    ([('"iops" : 38.026256', '"iops" : 1e308')], "line 32: job 'SEQ1M_Q8T1_read' read: iops 1e+308 is not a plausible"),
    ([('"bw" : 38938', '"bw" : 1e308')], "line 31: job 'SEQ1M_Q8T1_read' read: bw 1e+308 is not a plausible figure"),
    ([('"bw_bytes" : 39873419', '"bw_bytes" : 1e300')],
     "line 30: job 'SEQ1M_Q8T1_read' read: bw_bytes 1e+300 is not a"),
    ([('"bw_bytes" : 39873419', '"bw_bytes" : -39873419')], "line 30: job 'SEQ1M_Q8T1_read' read: bw_bytes -39873419 "),
    # Accepted before: figures of one job that contradict each other.
    ([('"bw" : 38938', '"bw" : 3893889')],
     "line 31: job 'SEQ1M_Q8T1_read' read: bw 3893889 KiB/s contradicts bw_bytes"),
    ([('"io_bytes" : 88080384', '"io_bytes" : 8808038400')],
     "line 28: job 'SEQ1M_Q8T1_read' read: io_bytes 8808038400 in runtime 2209 ms is 3.98734e+09 B/s, "
     "but the bandwidth"),
    ([('"runtime" : 2209', '"runtime" : 0')], "line 33: job 'SEQ1M_Q8T1_read' read: runtime 0 ms, yet 88080384 bytes"),
    ([('"bw" : 38938,', '"bw" : 38938, "bw" : 9999999,')], "line 31: the key 'bw' comes twice in one JSON object"),
])
def test_fio_figures_implausible_or_contradicting(data, tmp_path, changes, fragment):
    refused(data, fio_with(tmp_path, *changes), "fio output " + fragment)


def test_fio_figures_as_fio_printed_them_import(data, tmp_path):
    run = cardbench_import(data, fio_with(tmp_path), *NEW_CARD)
    assert run.returncode == 0, run.stderr


def test_crystaldiskmark_figure_of_99_digits(data, tmp_path):
    path = tmp_path / "cdm.txt"
    path.write_text(CDM6.replace("   90.214 MB/s", " " + "9" * 99 + " MB/s"))
    err = refused(data, path, "CrystalDiskMark output line 8: the figure '9999", "is not a plausible figure")
    assert "9" * 81 not in err


def test_figure_failing_the_card_rules_names_the_import_not_a_card_file(data, tmp_path):
    # 900 MB/s on a UHS-I card: the would-be card is refused; the message names the imported
    # subtest and file, never a line of a card file that was not written.
    path = tmp_path / "cdm.txt"
    path.write_text(CDM6.replace("   90.214 MB/s", "  900.214 MB/s"))
    err = refused(data, path, "CrystalDiskMark output: the figures imported from cdm.txt fail the card's checks: "
                              "SEQ128K Q32T1 read (results[0].runs[0]): 900.214 MB/s is above the UHS-I bus ceiling",
                  args=NEW_CARD)
    assert ".yaml:" not in err


# --- a file holding two tools' output -----------------------------------------------------------

DD_SUMMARIES = "".join(line for line in DD_LOG.decode().splitlines(True) if not line.startswith("$"))


@pytest.mark.parametrize("text, line, fragment", [
    (CDM6 + DD_SUMMARIES, CDM6.count("\n") + 2, "dd output from this line on, below crystaldiskmark output"),
    (DD_SUMMARIES + CDM6, DD_SUMMARIES.count("\n") + 2, "crystaldiskmark output from this line on, below dd output"),
    (FIO_JOB + DD_SUMMARIES, FIO_JOB.count("\n") + 2, "dd output from this line on, below fio-json output"),
])
def test_two_tools_in_one_file_are_refused_not_half_imported(data, tmp_path, text, line, fragment):
    path = tmp_path / "mixed.txt"
    path.write_text(text)
    refused(data, path, f"import output line {line}: {fragment}", "import each tool's output as its own file",
            args=NEW_CARD)


# --- messages, names and slugs ------------------------------------------------------------------

@pytest.mark.parametrize("text, fragment", [
    ("Sequential Read: " + "7" * 90 + "." * 2_000_000 + "MB/s IOPS=\n", "cdm_fio.sh output line 1: figure '777"),
    ("4MiB " + "1." * 2_000_000 + "\n", "flashbench output line 1: '1.1.1."),
])
def test_a_figure_of_megabytes_is_quoted_cut(data, tmp_path, text, fragment):
    path = tmp_path / "big.txt"
    path.write_text(text)
    refused(data, path, fragment, "…")  # refused() also checks the message is short


def test_slug_longer_than_the_schema_allows(data, tmp_path):
    before = snapshot(data, folders=True)
    run = cardbench_import(data, FIXTURES / "dd" / "dd--logged-write-and-read.out", "--name", "X Card 64GB",
                           card="a" * 300)
    assert run.returncode == 2 and "Traceback" not in run.stderr
    assert "card slug of 300 characters (--card, CARD=): at most 100" in run.stderr
    assert snapshot(data, folders=True) == before


@pytest.mark.parametrize("name", ["RT 1e308GB", "RT -64GB", "RT x.5TB"])
def test_capacity_glued_to_other_characters_in_the_name(data, name):
    refused(data, FIXTURES / "dd" / "dd--logged-write-and-read.out", "in the name is not a plain figure like 64GB",
            "give CAPACITY=", args=("--card", "rt-card", "--name", name))


@pytest.mark.parametrize("digits", ["\uff19\uff10", "\u0669\u0660"])  # 90 in full-width and Arabic-Indic digits
def test_other_scripts_digits_read_as_the_same_number(data, tmp_path, digits):
    path = tmp_path / "cdm.txt"
    path.write_text(CDM6.replace("   90.214 MB/s", f"   {digits}.214 MB/s"))
    run = cardbench_import(data, path, *NEW_CARD)
    assert run.returncode == 0, run.stderr
    session, = load_card(data / "cards" / "new-card.yaml").data["sessions"]
    assert session["results"][0]["runs"] == [90.214]
