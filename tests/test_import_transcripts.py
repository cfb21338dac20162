"""Imports of what people actually paste: tool output behind shell prompts and sudo, inside
Markdown fences, reStructuredText blocks and list items. The transcript front end takes those off
once, line for line, so every format reads the same shapes and errors name the file's own line."""

import json
from pathlib import Path

import pytest

from cardbench import cli
from cardbench.card.load import load_card
from cardbench.errors import ParseError
from cardbench.imports.importer import import_file, session_fields
from cardbench.imports.read import decode_text
from cardbench.imports.several_tools import tool_parts
from cardbench.parsers.text.logged_shell import MAX_LOOP_COMMANDS, Shell, command_lines
from cardbench.parsers.text.shell_words import arithmetic, shell_words, split_commands
from cardbench.imports.transcript import unwrap
from cardbench.parsers.registry import detect_format

FIXTURES = Path(__file__).parent / "fixtures"
TRANSCRIPTS = sorted((FIXTURES / "transcript").glob("transcript--*.out"))
PER_IMPORT = ("id", "label", "date", "source", "imported_sha256", "raw")


@pytest.fixture
def data(tmp_path):
    (tmp_path / "data" / "cards").mkdir(parents=True)
    return tmp_path / "data"


@pytest.mark.parametrize("path", TRANSCRIPTS, ids=lambda p: p.stem)
def test_pasted_transcript_imports_through_the_command_line(data, capsys, path):
    expected = json.loads(path.with_suffix(".json").read_text())
    args = ["import", str(path), "--card", "test-card", "--name", "Test Card 64GB", "--cards-dir", str(data / "cards")]
    assert cli.main(args) == 0
    assert f"import: {expected['format']}: " in capsys.readouterr().err
    session = load_card(data / "cards" / "test-card.yaml").data["sessions"][0]
    assert {k: v for k, v in session.items() if k not in PER_IMPORT} == expected["session"]


def _canonical(path):
    """The fixture's commands and output alone: the plain log the shapes below are made from."""
    lines = [line for line in unwrap(path.read_text()).splitlines() if line.strip()]
    return "\n".join(lines) + "\n"


def _with_prompt(log, prompt, sudo=""):
    return "".join(prompt + sudo + line[2:] if line.startswith("$ ") else line for line in log.splitlines(True))


def _indented(text, pad):
    return "".join(pad + line if line.strip() else line for line in text.splitlines(True))


SHAPES = {
    "plain": lambda log: log,
    "dollar-sudo": lambda log: _with_prompt(log, "$ ", "sudo "),
    "root-hash": lambda log: _with_prompt(log, "# "),
    "user-at-host": lambda log: _with_prompt(log, "user@host:~/bench$ ", "sudo -E "),
    "raspberry-pi": lambda log: _with_prompt(log, "pi@raspberrypi:~ $ ", "sudo -u root "),
    "bracketed-root": lambda log: _with_prompt(log, "[root@h ~]# "),
    "zsh": lambda log: _with_prompt(log, "% ", "sudo "),
    "zsh-user-venv": lambda log: _with_prompt(log, "(venv) user@host ~ % "),
    "macos": lambda log: _with_prompt(log, "MacBook-Pro:~ user$ ", "sudo "),
    "markdown-fence": lambda log: "My results:\n\n```console\n" + _with_prompt(log, "$ ", "sudo ") + "```\n\nThanks!\n",
    "markdown-tilde-fence": lambda log: "# Results\n\n~~~\n" + log + "~~~\n",
    "markdown-list-item": lambda log: ("1. First run:\n\n"
                                       + _indented("```text\n" + _with_prompt(log, "# ") + "```\n", "   ")
                                       + "2. Done.\n"),
    "rst-literal": lambda log: ("Results\n=======\n\nThe run::\n\n"
                                + _indented(_with_prompt(log, "$ ", "sudo "), "    ") + "\nEnd.\n"),
    "rst-code-block": lambda log: (".. code-block:: console\n   :linenos:\n\n"
                                   + _indented(_with_prompt(log, "[root@h ~]# "), "   ")),
    "indented-4": lambda log: _indented(_with_prompt(log, "$ "), "    "),
    "indented-tab": lambda log: _indented(log, "\t"),
}


def _session_fields(text):
    fmt = detect_format(unwrap(text))
    assert fmt is not None, "format not recognised"
    fields = session_fields(fmt.name, unwrap(text))
    return fmt.name, fields.tools, fields.measurements, fields.runs


@pytest.mark.parametrize("path", TRANSCRIPTS, ids=lambda p: p.stem.split("--")[1].split("-")[0])
def test_every_format_reads_every_shape(path):
    log = _canonical(path)
    plain = _session_fields(log)
    for name, shape in SHAPES.items():
        assert _session_fields(shape(log)) == plain, name


def test_plain_tool_output_passes_unchanged():
    for path in sorted(FIXTURES.glob("*/*.out")):
        if path.parent.name == "transcript":
            continue
        text = decode_text(path.read_bytes())
        lines, unwrapped = text.splitlines(), unwrap(text).splitlines()
        assert len(unwrapped) == len(lines), path.name
        changed = [(a, b) for a, b in zip(lines, unwrapped) if a != b]
        assert all(b.startswith("$ ") for _, b in changed), (path.name, changed[:3])


@pytest.mark.parametrize("line, command", [
    ("$ dd if=/dev/zero of=x", "$ dd if=/dev/zero of=x"),
    ("# nvme smart-log /dev/nvme0", "$ nvme smart-log /dev/nvme0"),
    ("% f3probe /dev/sdb", "$ f3probe /dev/sdb"),
    ("user@host:~$ sudo dd if=a of=b", "$ dd if=a of=b"),
    ("pi@raspberrypi:~ $ sudo -u root flashbench -a /dev/sdb", "$ flashbench -a /dev/sdb"),
    ("[root@h ~]# ./flashbench -a /dev/sdb", "$ ./flashbench -a /dev/sdb"),
    ("(venv) user@host ~ % fio job.fio", "$ fio job.fio"),
    ("MacBook-Pro:~ user$ sudo dd if=/dev/rdisk4 of=/dev/null bs=1m", "$ dd if=/dev/rdisk4 of=/dev/null bs=1m"),
    ("sudo dd if=a of=b", "$ dd if=a of=b"),
    ("16777216 bytes (17 MB, 16 MiB) copied, 0.701472 s, 23.9 MB/s", None),
    ("* MB/s = 1,000,000 bytes/s [SATA/600 = 600,000,000 bytes/s]", None),
    ("[Mix] Read 70%/Write 30%", None),
    ("Temperature Threshold         (TMPTH): 83°C (356 Kelvin)", None),
    ("sudo: a password is required", None),
])
def test_command_lines_are_written_one_way(line, command):
    assert unwrap(line + "\n") == (command or line) + "\n"


def test_only_the_code_of_a_document_is_read_and_lines_keep_their_numbers(data, tmp_path):
    path = tmp_path / "post.md"
    text = (FIXTURES / "transcript" / "transcript--dd-markdown-post.out").read_text()
    path.write_text(text.replace("0.80715 s, 20.8 MB/s", "0.80715 s, 90.8 MB/s"))
    line = text.splitlines().index("16777216 bytes (17 MB, 16 MiB) copied, 0.80715 s, 20.8 MB/s") + 1
    with pytest.raises(ParseError, match="says 90.8 MB/s") as err:
        import_file(path, data / "cards", "test-card", name="Test Card 64GB")
    assert err.value.line == line
    assert list((data / "cards").iterdir()) == []


def test_line_breaks_are_kept_as_they_were():
    text = "```\r\n$ sudo dd if=a of=b\r\n1+0 records in\r\n```\r\n"
    assert unwrap(text) == "\r\n$ dd if=a of=b\r\n1+0 records in\r\n\r\n"


def test_old_style_arithmetic_in_a_logged_command():
    assert shell_words("dd if=/dev/zero of=/dev/sdb bs=$[4*1024*1024] count=$((2 * 8))") == [
        "dd", "if=/dev/zero", "of=/dev/sdb", "bs=4194304", "count=16"]


# --- the shell around logged commands --------------------------------------------------------

@pytest.mark.parametrize("expr, value", [
    ("4*1024*1024", 4194304), ("4 << 20", 4194304), ("2**22", 4194304), ("(4 * 1024) * 1024", 4194304),
    ("7 / 2", 3), ("-7 / 2", -3), ("7 % 4", 3), ("-4", -4), ("0x10", 16),
    ("2**100000", None), ("1 << 100000", None), ("9" * 19, None), ("1_000", None), ("4M", None), ("a.b", None),
    ("__import__('os')", None), ("'a' * 3", None), ("1.5 * 2", None), ("2 ** -1", None),
])
def test_arithmetic_works_out_integers_only(expr, value):
    assert arithmetic(expr) == value


@pytest.mark.parametrize("lines, argv", [
    (["$ ERASE=$((4*1024*1024))", "$ flashbench -e $ERASE /dev/sdb"], ["-e", "4194304", "/dev/sdb"]),
    (["$ export E=4194304 D=/dev/sdb", "$ sudo -E flashbench -e ${E} $D"], ["-e", "4194304", "/dev/sdb"]),
    (["$ E=4194304; B=$((E/256)); flashbench -b $B -e $(( $E * 2 ))"], ["-b", "16384", "-e", "8388608"]),
    (["$ let N=2*3", "$ time stdbuf -oL flashbench --open-au-nr=$N > au.txt 2>&1"], ["--open-au-nr=6"]),
    (["$ flashbench -a /dev/sdb | tee a.txt  # the alignment test"], ["-a", "/dev/sdb"]),
    (["$ ionice -c3 taskset -c 0 flashbench -a '/dev/disk/by-id/usb-Card Reader-0:0'"],
     ["-a", "/dev/disk/by-id/usb-Card Reader-0:0"]),
    (["+ flashbench -a /dev/sdb"], ["-a", "/dev/sdb"]),
    (["$ flashbench -e $UNSET"], ["-e", "$UNSET"]),  # left as written: the import names it
])
def test_shell_reads_commands_as_they_ran(lines, argv):
    shell = Shell(programs={"flashbench"})
    found = [shell.read(line) for line in lines][-1]
    assert [list(c.args) for c in found if c.name == "flashbench"] == [argv]


def test_lines_of_output_are_no_commands():
    shell = Shell(programs={"flashbench", "dd"})
    for line in ["4MiB    19.9M/s", "align 4096\tpre 1ms\ton 1ms\tpost 1ms\tdiff 1ns", "1+0 records in",
                 "Good news: The device `/dev/sdb' is the real thing", "f3fix --last-sec=1048575 /dev/sdb",
                 "temperature : 41°C (314 Kelvin)", "for the first test I used a new card", "Q=" * 5000]:
        assert shell.read(line) is None, line


def test_a_loop_runs_its_body_once_per_value_and_keeps_the_last():
    shell = Shell()
    commands = shell.read("$ for b in 1024 2048; do flashbench -a -b $b /dev/sdb; sync; done; echo $b")
    assert [(c.name, c.args) for c in commands] == [("flashbench", ("-a", "-b", "1024", "/dev/sdb")), ("sync", ()),
                                                    ("flashbench", ("-a", "-b", "2048", "/dev/sdb")), ("sync", ()),
                                                    ("echo", ("2048",))]
    assert len(Shell().read("$ for n in {1..100000}; do flashbench -a; done")) == MAX_LOOP_COMMANDS


def test_split_commands_keeps_quotes_and_redirections():
    assert split_commands("a 'x;y' && b \"p|q\" 2>&1 | c &>log; d # e; f") == [
        "a 'x;y' ", " b \"p|q\" 2>&1 ", " c &>log", " d "]


def test_a_loop_typed_over_several_lines_is_one_command_line():
    text = "$ for n in 2 3\n> do\n>   flashbench -O --open-au-nr=$n /dev/sdb\n> done\n4MiB 1M/s\n"
    assert command_lines(text) == [(1, "$ for n in 2 3; do; flashbench -O --open-au-nr=$n /dev/sdb; done"),
                                   (5, "4MiB 1M/s")]


def test_tool_parts_keep_every_line_in_its_place():
    text = ("$ N=2\n$ dd if=/dev/zero of=/dev/sdb bs=1M count=1\n1+0 records in\n"
            "$ flashbench -O --open-au-nr=$N /dev/sdb\n4MiB 1M/s\nwords\n$ lsblk\nsdb 8:16\n")
    parts = tool_parts(text, {"dd": {"dd"}, "flashbench": {"flashbench"}}, claim=lambda chunk: None)
    assert parts["dd"].split("\n") == ["$ N=2", "$ dd if=/dev/zero of=/dev/sdb bs=1M count=1", "1+0 records in",
                                        "", "", "", "$ lsblk", ""]
    assert parts["flashbench"].splitlines()[3:6] == ["$ flashbench -O --open-au-nr=$N /dev/sdb", "4MiB 1M/s", "words"]


def test_nvme_readings_around_a_dd_run_make_one_session():
    smart = (FIXTURES / "nvme" / "nvme--smart-log.out").read_text()
    json_log = (FIXTURES / "nvme" / "nvme--smart-log-json.out").read_text()
    dd = ("8+0 records in\n8+0 records out\n"
          "33554432 bytes (34 MB, 32 MiB) copied, 1.78899 s, 18.8 MB/s\n")  # our run of the command below
    log = unwrap(f"# nvme smart-log /dev/nvme0\n{smart}# dd if=/dev/zero of=/dev/sdc bs=4M count=8 oflag=direct\n"
                 f"{dd}# nvme smart-log /dev/nvme0 -o json\n{json_log}")
    fmt = detect_format(log)
    fields = session_fields(fmt.name, log)
    assert fmt.name == "nvme" and [t["name"] for t in fields.tools] == ["nvme-cli", "dd"]
    assert fields.measurements["dd"][0]["runs"] == [18.8]
    assert fields.measurements["nvme"]["temperature_c"] == {"before": 41, "after": 41, "max": 41}


def test_a_dd_log_with_f3probe_output_after_it_keeps_both(data, capsys):
    """A dd run, then f3probe's command and its output without the banner: one session holds both."""
    dd_log = "$ dd if=/dev/zero of=/dev/sdc bs=4M count=8 oflag=direct\n" + "".join(
        (FIXTURES / "dd" / "dd--c-write-3-runs.out").read_text().splitlines(True)[:3])
    f3_lines = (FIXTURES / "f3probe" / "f3probe--good.out").read_text().splitlines(True)
    f3_log = "$ f3probe --time-ops /dev/sdc\n" + "".join(f3_lines[f3_lines.index("\n", 4) + 1:])
    path = data / "mixed.log"
    path.write_text(dd_log + f3_log)
    args = ["import", str(path), "--card", "test-card", "--name", "Test Card 64GB", "--cards-dir", str(data / "cards")]
    assert cli.main(args) == 0, capsys.readouterr().err
    session = load_card(data / "cards" / "test-card.yaml").data["sessions"][0]
    assert "dd" in session and "f3probe" in session, sorted(session)


def test_a_command_written_inline_above_its_output_block_is_read(tmp_path):
    """A page that says which command ran in the prose ("Read it with `sudo dd …`") above a fence holding only
    the output: the command is the output's (dd reads read or write from it); the corpus's own read runs."""
    output = (FIXTURES / "import-corpus" / "dd" / "dd--output-only-op-read.out").read_text()
    page = ("Read the card three times with `sudo dd if=/dev/sdc of=/dev/null bs=4M count=8 iflag=direct`:\n\n"
            "```\n" + output + "```\n")
    unwrapped = unwrap(page).splitlines()
    assert unwrapped[0] == "$ dd if=/dev/sdc of=/dev/null bs=4M count=8 iflag=direct"
    assert unwrapped[1:3] == ["", ""] and unwrapped[3:6] == output.splitlines()[:3]
    prose_only = "Use `dd if=/dev/sdc of=/dev/null` to read it.\n\nNo output here.\n"
    assert unwrap(prose_only) == prose_only  # no block below: prose stays prose
