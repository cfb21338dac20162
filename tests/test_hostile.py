"""Hostile card files: every file of tests/hostile/ fails validation with the message its manifest
names, fast and without a traceback, and stops `cardbench aggregate` with nothing published;
the valid files of tests/hostile/valid/ (markup in every text field) pass and keep their text."""

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from cardbench.cli import main
from cardbench.card.checks.problems import RULES
from cardbench.card.checks.validate import validate_paths

HOSTILE = Path(__file__).resolve().parent / "hostile"
VALID = HOSTILE / "valid"
MANIFEST = json.loads((HOSTILE / "manifest.json").read_text(encoding="utf-8"))["files"]
ROOT = HOSTILE.parents[1]
HANG_GUARD_S = 60  # not a speed assertion: only stops a hung loader from stalling the suite
PWNED = Path("/tmp/cardbench-hostile-pwned")  # what python-tag-os-system.yaml would create if it ran


def hostile_files():
    return sorted(p.name for p in HOSTILE.iterdir() if p.is_file() and p.name != "manifest.json")


def test_manifest_lists_every_hostile_file_and_only_those():
    assert sorted(MANIFEST) == hostile_files()
    for name, entry in MANIFEST.items():
        assert entry["why"] and entry["expect"], name
        assert entry["expect"][0].startswith(name + ":"), "the first fragment names the file"
        rule = entry["expect"][-1].strip("[]")
        assert rule in RULES or rule.startswith("schema:"), (name, rule)


def run_cli(*args):
    return subprocess.run([sys.executable, "-m", "cardbench", *args], capture_output=True, text=True, cwd=ROOT,
                          timeout=HANG_GUARD_S)


def test_validate_in_a_process_of_its_own_ends_on_every_file():
    """All hostile files in one real `cardbench validate` process, under the hang guard: it ends, names
    every file, shows no traceback, and no YAML tag runs a command."""
    PWNED.unlink(missing_ok=True)
    run = run_cli("validate", *(str(HOSTILE / name) for name in sorted(MANIFEST)))
    assert run.returncode == 1, run.stderr
    assert "Traceback" not in run.stderr
    for name in MANIFEST:
        assert MANIFEST[name]["expect"][0] in run.stderr, name
    assert not PWNED.exists(), "a YAML tag ran a command"


@pytest.mark.parametrize("name", sorted(MANIFEST))
def test_validate_rejects_with_the_manifest_message(name, capsys):
    PWNED.unlink(missing_ok=True)
    assert main(["validate", str(HOSTILE / name)]) == 1
    first = capsys.readouterr().err.splitlines()[0]
    for fragment in MANIFEST[name]["expect"]:
        assert fragment in first, f"{fragment!r} not in {first!r}"
    assert not PWNED.exists(), "a YAML tag ran a command"


@pytest.mark.parametrize("name", sorted(MANIFEST))
def test_aggregate_stops_and_publishes_nothing(tmp_path, capsys, name):
    cards = tmp_path / "cards"
    cards.mkdir()
    shutil.copy(HOSTILE / name, cards / name)
    shutil.copy(VALID / "script-breakout.yaml", cards / "script-breakout.yaml")  # a good card beside it
    out = tmp_path / "out"
    assert main(["aggregate", "--cards-dir", str(cards), "--out", str(out)]) == 1
    err = capsys.readouterr().err
    for fragment in MANIFEST[name]["expect"]:
        assert fragment in err
    assert "nothing written" in err
    assert not out.exists()


def test_valid_hostile_files_pass_validation(capsys):
    code = main(["validate", *map(str, sorted(VALID.glob("*.yaml")))])
    err = capsys.readouterr().err
    assert code == 0, err
    assert "0 error(s)" in err


def test_valid_hostile_text_reaches_the_aggregate_unchanged(tmp_path, capsys):
    cards, findings = validate_paths(sorted(VALID.glob("*.yaml")))
    assert len(cards) == len(list(VALID.glob("*.yaml"))) and not [f for f in findings if f.severity == "error"]
    out = tmp_path / "out"
    assert main(["aggregate", "--cards-dir", str(VALID), "--out", str(out)]) == 0
    for card in cards:
        published_path = out / "static" / "cards" / card.data["slug"] / "index.json"
        published = json.loads(published_path.read_text(encoding="utf-8"))
        assert published["brand"] == card.data["brand"]
        assert published["sessions"][0]["label"] == card.data["sessions"][0]["label"]
        assert published["shops"] == card.data["shops"]


def test_every_free_text_field_carries_markup():
    """Each valid hostile file puts a payload in every text field the schema leaves free."""
    from cardbench.card.load import load_card

    for path in sorted(VALID.glob("*.yaml")):
        data = load_card(path).data
        session = data["sessions"][0]
        texts = [data["brand"], data["model"], data["part_number"], data["controller"], data["notes"],
                 data["claimed"]["note"], data["price"]["shop"], data["shops"][0]["name"],
                 *(data["source"][k] for k in ("name", "author", "license_note")),
                 *(session[k] for k in ("label", "host", "reader", "conditions", "target", "notes")),
                 *(session["source"][k] for k in ("name", "author", "license_note")),
                 session["tools"][0]["name"], session["tools"][0]["version"],
                 session["headline"][0]["name"], session["headline"][0]["value"], session["headline"][0]["unit"],
                 *(e["command"] for kind in ("results", "dd", "dd_sweeps", "flashbench_open_au", "flashbench_align",
                                             "flashbench_find_fat", "fill") for e in session[kind]),
                 session["results"][0]["size"],
                 *(session["nvme"][k] for k in ("model", "serial", "firmware", "pcie_link")),
                 next(iter(session["nvme"]["thresholds_c"]))]
        plain = [t for t in texts if not any(c in t for c in "<>{\"'&")]
        assert plain == [], f"{path.name}: fields without markup: {plain}"


def test_oversized_file_is_refused_before_reading(tmp_path):
    path = tmp_path / "big.yaml"
    with open(path, "wb") as handle:
        handle.truncate(3 * 1024 * 1024)  # sparse: 3 MiB of NUL bytes
    run = run_cli("validate", str(path))
    assert run.returncode == 1 and "[size]" in run.stderr and "Traceback" not in run.stderr


def test_device_file_is_not_read(tmp_path):
    link = tmp_path / "endless.yaml"
    link.symlink_to("/dev/zero")
    run = run_cli("validate", str(link))  # a link is refused as one, never followed
    assert run.returncode == 1 and "is a symbolic link (to /dev/zero)" in run.stderr and "Traceback" not in run.stderr
    pipe = tmp_path / "pipe.yaml"
    os.mkfifo(pipe)  # opening it to read would wait for a writer for ever
    run = run_cli("validate", str(pipe))
    assert run.returncode == 1 and "not a regular file" in run.stderr and "Traceback" not in run.stderr


def test_too_many_values_are_refused_before_parsing(tmp_path):
    path = tmp_path / "many.yaml"
    path.write_text("runs: [" + "1," * 300_000 + "1]\n")  # 600 kB: under the size limit, over the value limit
    run = run_cli("validate", str(path))
    assert run.returncode == 1 and "a card file has at most" in run.stderr and "[size]" in run.stderr


def test_value_limit_also_holds_while_composing(monkeypatch):
    from cardbench.card import load
    from cardbench.errors import CardFileError

    monkeypatch.setattr(load, "MAX_NODES", 4)  # 3 separators pass the pre-check; 6 values do not
    with pytest.raises(CardFileError, match="more than 4 values") as info:
        load.parse_card_text("a: [1, 2, 3]\n", "x.yaml")
    assert info.value.rule == "size" and info.value.line == 1


# --- numbers in YAML 1.1's other forms ------------------------------------------------------------

@pytest.mark.parametrize("written, read_as", [
    ("1:04", "64"), ("0x36", "54"), ("5_4", "54"), ("066", "54"), ("1:00", "60"), ("0b110110", "54"),
    ("-1:00", "-60"), ("1_0.5", "10.5"), ("1:30.5", "90.5"), (".5", "0.5"), ("00.5", "0.5"), ("1.", "1"),
])
@pytest.mark.parametrize("libyaml", [True, False], ids=["libyaml", "pure"])
def test_numbers_not_in_plain_decimal_are_refused_with_the_value_they_read_as(monkeypatch, written, read_as, libyaml):
    from cardbench.card import load
    from cardbench.errors import CardFileError

    if not libyaml:
        monkeypatch.setattr(load, "_parse_fast", lambda text, path: None)
    with pytest.raises(CardFileError) as info:
        load.parse_card_text(f"capacity_gb: 64\nruns: [90, {written}]\n", "c.yaml")
    error = info.value
    assert (error.rule, error.line, error.column, error.field) == ("number-form", 2, 12, "runs[1]")
    assert f"'{written}' is read as the number {read_as}" in error.message
    assert f"write {read_as} in plain decimal digits" in error.message


@pytest.mark.parametrize("written", [".inf", "-.inf", ".nan", ".NaN", "+.INF"])
def test_infinity_and_nan_are_refused_as_numbers_no_figure_can_be(written):
    from cardbench.card.load import parse_card_text
    from cardbench.errors import CardFileError

    with pytest.raises(CardFileError, match="card figures are finite numbers") as info:
        parse_card_text(f"capacity_gb: {written}\n", "c.yaml")
    assert (info.value.rule, info.value.line, info.value.column, info.value.field) == ("number-form", 1, 14,
                                                                                        "capacity_gb")


@pytest.mark.parametrize("text", ['capacity_gb: !!int "0x36"', 'capacity_gb: !!int "64"', "capacity_gb: !!float 54",
                                  "capacity_gb: !!null 64", "runs: [!!bool 5, 54.0]", "model: !!str 64"])
def test_a_tag_that_changes_what_is_written_is_refused(text):
    """Quoted text made a number, a number made text, null or a bool: refused at its line, never a traceback."""
    from cardbench.card.load import parse_card_text
    from cardbench.errors import CardFileError

    with pytest.raises(CardFileError, match="YAML tag !!") as info:
        parse_card_text(text + "\n", "c.yaml")
    assert info.value.rule == "tag" and info.value.line == 1


@pytest.mark.parametrize("written, value", [
    ("64", 64), ("12.5", 12.5), ("-3", -3), ("+12", 12), ("0", 0), ("0.5", 0.5), ("1.5e3", 1500.0),
    ("1e3", 1000.0), ("1.5E+3", 1500.0), ("1.0e-07", 1e-07), ("-2.5e-3", -0.0025),
    ("0o17", "0o17"),  # YAML 1.2's octal is text to PyYAML: a number field's schema check refuses it
])
def test_plain_decimal_numbers_load_as_written(written, value):
    from cardbench.card.load import parse_card_text

    loaded = parse_card_text(f"capacity_gb: {written}\n", "c.yaml").data["capacity_gb"]
    assert loaded == value and type(loaded) is type(value)


def test_text_that_reads_as_a_number_is_written_in_quotes():
    from cardbench.card.dump import dump_yaml
    from cardbench.card.load import parse_card_text

    data = {"part_number": "1E10", "model": "1e3", "runs": [1e-07, 2.5, 3]}
    assert parse_card_text(dump_yaml(data), "c.yaml").data == data
