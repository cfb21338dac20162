"""f3probe parser: F3 8.0 output (fixtures), also indented, quoted or behind a prompt as pasted."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from cardbench.errors import ParseError
from cardbench.parsers import NAMED, SHAPED, f3probe

FIXTURES = Path(__file__).parent / "fixtures" / "f3probe"


def read(name):
    return (FIXTURES / name).read_bytes().decode("utf-8")


@pytest.mark.parametrize("case", sorted(p.stem for p in FIXTURES.glob("f3probe--*.json")))
def test_fixture_parses_to_expected(case):
    assert f3probe.parse(read(f"{case}.out")) == json.loads(read(f"{case}.json"))


def test_good_card():
    parsed = f3probe.parse(read("f3probe--good.out"))
    assert parsed["fake"] is False
    assert parsed["announced_bytes"] == parsed["usable_bytes"] == 16 * 1024**3
    assert parsed["seconds"] == pytest.approx(10.35)


def test_counterfeit_card():
    parsed = f3probe.parse(read("f3probe--wraparound.out"))
    assert parsed["fake"] is True and parsed["fake_type"] == "wraparound"
    assert parsed["usable_bytes"] == 4 * 1024**3 and parsed["announced_bytes"] == 16 * 1024**3
    assert parsed["last_good_sector"] == 8388607


@pytest.mark.parametrize("text, seconds", [("10.35s", 10.35), ("1'08\"", 68), ("2'00\"", 120), ("1:02:03", 3723),
                                           ("2 days 1:00", 2 * 86400 + 3600), ("53.7ms", 0.0537)])
def test_durations(text, seconds):
    assert f3probe.parse_duration(text) == pytest.approx(seconds)


def test_unfinished_probe():
    text = read("f3probe--good.out").split("Good news")[0]
    with pytest.raises(ParseError, match="verdict"):
        f3probe.parse(text)


def test_cut_off_geometry():
    text = read("f3probe--good.out").split("Announced size")[0]
    with pytest.raises(ParseError, match="geometry") as err:
        f3probe.parse(text)
    assert err.value.line is not None


def test_number_of_thousands_of_digits_names_its_line():
    text = read("f3probe--good.out").replace("(33554432 blocks)", "(" + "9" * 5000 + " blocks)", 1)
    assert text != read("f3probe--good.out")
    with pytest.raises(ParseError, match="more than 100 digits"):
        f3probe.parse(text)
    assert f3probe.parse_duration("9" * 5000 + "s") is None


def test_block_size_exponent_beyond_any_device(tmp_path):
    # 2 ** 999999999999 would not end: run where a time limit can detect that.
    text = read("f3probe--good.out").replace("(2^9 Bytes)", "(2^999999999999 Bytes)", 1)
    assert text != read("f3probe--good.out")
    (tmp_path / "out").write_text(text)
    code = ("import sys; from cardbench.errors import ParseError; from cardbench.parsers import f3probe\n"
            "try:\n    f3probe.parse(open(sys.argv[1]).read())\nexcept ParseError as exc:\n    print(exc)")
    scripts = Path(__file__).resolve().parents[1] / "scripts"
    run = subprocess.run([sys.executable, "-c", code, str(tmp_path / "out")], capture_output=True, text=True,
                         timeout=60, env=dict(os.environ, PYTHONPATH=str(scripts)))
    assert run.returncode == 0 and "beyond any device" in run.stdout, run.stderr


@pytest.mark.parametrize("name, kind", [("f3probe--limbo.out", "limbo"), ("f3probe--chain.out", "chain")])
def test_emulated_fakes(name, kind):
    parsed = f3probe.parse(read(name))
    assert (parsed["fake"], parsed["verdict"], parsed["fake_type"]) == (True, "counterfeit", kind)
    assert (parsed["usable_bytes"], parsed["announced_bytes"]) == (512 * 1024**2, 4 * 1024**3)
    assert parsed["seconds"] == 0.0026 and parsed["last_good_sector"] == 1048575


@pytest.mark.parametrize("wrap", [
    lambda line: "    " + line,  # indented by a list item or a quote block
    lambda line: "> " + line if line else ">",  # an e-mail reply
    lambda line: "\t" + line,
])
def test_indented_or_quoted_output(wrap):
    text = "\n".join(wrap(line) for line in read("f3probe--limbo.out").splitlines())
    assert f3probe.parse(text) == f3probe.parse(read("f3probe--limbo.out"))


@pytest.mark.parametrize("verdict, fake, kind", [
    ("user@host:~$ Good news: The device `/dev/sdb' is the real thing", False, None),  # glued to a prompt
    ("   Good news: The device ‘/dev/sdb’ is the real thing", False, None),  # typographic quotes
    ("Bad news: The device '/dev/sdb' is a counterfeit of type wraparound", True, "wraparound"),
    ('1. Bad news: The device "/dev/sdc" is damaged', False, None),  # damaged, not a counterfeit
])
def test_verdict_lines_as_pasted(verdict, fake, kind):
    text = read("f3probe--good.out").replace("Good news: The device `/dev/loop1' is the real thing", verdict)
    parsed = f3probe.parse(text)
    assert (parsed["fake"], parsed["fake_type"]) == (fake, kind)


def test_a_logged_command_names_the_tool():
    body = "\n".join(line for line in read("f3probe--good.out").splitlines() if not line.startswith("F3 probe"))
    assert f3probe.detect(body) == SHAPED
    assert f3probe.detect("$ sudo /usr/bin/f3probe --destructive /dev/sdb\n" + body) == NAMED
