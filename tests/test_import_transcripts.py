"""Imports of what people actually paste: tool output behind shell prompts and sudo, inside
Markdown fences, reStructuredText blocks and list items. The transcript front end takes those off
once, line for line, so every format reads the same shapes and errors name the file's own line."""

import json
from pathlib import Path

import pytest

from cardbench import cli
from cardbench.card.load import load_card
from cardbench.errors import ParseError
from cardbench.imports.importer import HANDLERS, import_file
from cardbench.imports.read import decode_text
from cardbench.imports.transcript import shell_words, unwrap
from cardbench.parsers.registry import detect_format

FIXTURES = Path(__file__).parent / "fixtures"
TRANSCRIPTS = sorted((FIXTURES / "transcript").glob("transcript--*.out"))
PER_IMPORT = ("id", "label", "date", "source", "imports", "raw")


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
    "markdown-list-item": lambda log: ("1. First run:\n\n" + _indented("```text\n" + _with_prompt(log, "# ") + "```\n", "   ")
                                       + "2. Done.\n"),
    "rst-literal": lambda log: "Results\n=======\n\nThe run::\n\n" + _indented(_with_prompt(log, "$ ", "sudo "), "    ") + "\nEnd.\n",
    "rst-code-block": lambda log: (".. code-block:: console\n   :linenos:\n\n" + _indented(_with_prompt(log, "[root@h ~]# "), "   ")),
    "indented-4": lambda log: _indented(_with_prompt(log, "$ "), "    "),
    "indented-tab": lambda log: _indented(log, "\t"),
}


def _session_fields(text):
    fmt = detect_format(unwrap(text))
    assert fmt is not None, "format not recognised"
    fields = HANDLERS[fmt.name](unwrap(text))
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
