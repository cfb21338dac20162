"""The Makefile hands every value given to make (DEV=, FILE=, CARD=, NAME=, …) to the program as one
argument, byte for byte: no quote, backtick, $(…), newline or leading dash in it is run by bash or
expanded by make. Real make on a copy of the Makefile; the program is either a stand-in that prints
the argv it received, or the real cardbench command."""

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT

pytestmark = pytest.mark.skipif(shutil.which("make") is None, reason="GNU make is not installed")

VENV = Path(sys.executable).parent.parent
ARGV_PRINTER = "#!/usr/bin/env python3\nimport json, sys\nprint(json.dumps(sys.argv[1:]))\n"
PREPARED = ["-o", ".venv/.installed-core", "-o", ".venv/.installed", "-o", ".venv/.installed-dev",
            "-o", "node_modules/.installed", "-o", "collect-deps", "-o", "system-deps"]


def hostile(trap):
    """A value that runs commands (each creating a file in `trap`) if any shell or make evaluates it."""
    return (f"-x`touch {trap}/backtick`$(touch {trap}/dollar)$(shell touch {trap}/make)${{HOME}}$$'\\\"; "
            f"touch {trap}/semicolon #\nsecond line -- --yes \\ end")


@pytest.fixture
def project(tmp_path):
    """The Makefile and what its recipes name, with an argv printer in place of Python."""
    work = tmp_path / "project"
    (work / "scripts").mkdir(parents=True)
    for name in ("Makefile", "requirements-core.txt", "requirements.txt", "requirements-dev.txt", "pyproject.toml",
                 "package.json",
                 "package-lock.json", "scripts/install-system-deps.sh"):
        shutil.copy2(ROOT / name, work / name)
    printer = work / "print-argv"
    printer.write_text(ARGV_PRINTER)
    printer.chmod(0o755)
    trap = tmp_path / "trap"
    trap.mkdir()
    return work, trap


def make(work, *args, env=None):
    return subprocess.run(["make", "-s", *args], cwd=work, capture_output=True, text=True,
                          env=env or dict(os.environ), timeout=120)


def received(work, *args):
    done = make(work, *PREPARED, "PY=./print-argv", *args)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_every_target_passes_hostile_values_byte_identical(project):
    work, trap = project
    value = hostile(trap)
    assert received(work, "collect", f"DEV={value}", f"CARD={value}", f"NAME={value}", f"LABEL={value}",
                    f"PROFILE={value}", "YES=1") == [
        "-m", "cardbench", "collect", f"--card={value}", f"--name={value}", f"--profile={value}",
        f"--label={value}", "--yes", "--", value]
    assert received(work, "import", f"FILE={value}", f"CARD={value}", f"NAME={value}", f"LABEL={value}",
                    f"FORMAT={value}") == [
        "-m", "cardbench", "import", f"--card={value}", f"--name={value}", f"--label={value}",
        f"--format={value}", "--", value]
    assert received(work, "new-card", f"BRAND={value}", f"MODEL={value}", f"CAPACITY={value}", f"FORM={value}",
                    f"BUS={value}", f"MARKINGS={value}", f"REVIEW={value}") == [
        "-m", "cardbench", "new-card", f"--brand={value}", f"--model={value}", f"--capacity-gb={value}",
        f"--form-factor={value}", f"--bus={value}", f"--markings={value}", "--review"]
    assert received(work, "validate", f"CHANGED={value}") == ["-m", "cardbench", "validate", "--changed"]
    assert received(work, "bench", f"CARDS={value}") == [
        "-m", "cardbench", "bench", f"--cards={value}", "--report", "docs/benchmarks.md"]
    assert received(work, "submission", f"BODY={value}") == ["-m", "cardbench", "submission", f"--body={value}"]
    assert list(trap.iterdir()) == []


def test_values_from_the_environment_are_passed_the_same_way(project):
    work, trap = project
    value = hostile(trap)
    env = dict(os.environ, DEV=value, CARD="card")
    done = make(work, *PREPARED, "PY=./print-argv", "collect", env=env)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)[-2:] == ["--", value]
    assert list(trap.iterdir()) == []


def test_optional_values_left_out_or_empty_add_no_argument(project):
    work, _ = project
    assert received(work, "collect", "DEV=/dev/sdx", "CARD=card", "NAME=") == [
        "-m", "cardbench", "collect", "--card=card", "--profile=standard", "--", "/dev/sdx"]
    assert received(work, "new-card") == ["-m", "cardbench", "new-card"]
    assert received(work, "validate") == ["-m", "cardbench", "validate"]


def test_make_does_not_expand_any_value_given_to_it(project):
    """Make expands $(…) in a command-line value when it exports it, whatever the variable."""
    work, trap = project
    for args in (["-n", "site"], ["-n", "validate"]):
        make(work, *args, f"UNUSED=$(shell touch {trap}/unused)", f"PY=$(shell touch {trap}/py)")
    assert list(trap.iterdir()) == []


@pytest.mark.parametrize("args, usage", [
    (["collect"], "usage: make collect DEV=/dev/sdX CARD=<slug>"),
    (["collect", "DEV=/dev/sdx"], "usage: make collect DEV=/dev/sdX CARD=<slug>"),
    (["collect", "CARD=card"], "usage: make collect DEV=/dev/sdX CARD=<slug>"),
    (["import", "CARD=card"], "usage: make import FILE=<path> CARD=<slug>"),
    (["import", "FILE=x.txt"], "usage: make import FILE=<path> CARD=<slug>"),
    (["import", "FILE=x.txt", "CARD="], "usage: make import FILE=<path> CARD=<slug>"),
    (["submission"], "usage: make submission BODY=<file"),
])
def test_missing_arguments_stop_make_before_it_installs_anything(project, args, usage):
    work, _ = project
    done = make(work, *args)
    assert done.returncode != 0 and usage in done.stderr
    assert not (work / ".venv").exists() and not (work / "node_modules").exists()


def project_copy(tmp_path):
    """The Makefile, the schema and the package in a folder of their own, with no cards: for the real importer."""
    work = tmp_path / "project"
    (work / "data" / "cards").mkdir(parents=True)
    shutil.copy2(ROOT / "Makefile", work / "Makefile")
    shutil.copytree(ROOT / "data" / "schema", work / "data" / "schema")
    shutil.copytree(ROOT / "scripts" / "cardbench", work / "scripts" / "cardbench",
                    ignore=shutil.ignore_patterns("__pycache__"))
    return work


def test_import_receives_a_hostile_file_name_unchanged(tmp_path):
    """The real importer, run by `make import`, reads a file whose name would run commands in a shell."""
    work = project_copy(tmp_path)
    name = "-dd `touch pwned-bt` $(touch pwned-dollar) $(shell touch pwned-make) 'q\" ; touch pwned-semi; x.out"
    (work / name).write_bytes((ROOT / "tests" / "fixtures" / "cdm_fio" / "cdm_fio--lexar-10-runs.out").read_bytes())
    env = dict(os.environ, PYTHONPATH=str(work / "scripts"))
    done = make(work, f"VENV={VENV}", "-o", f"{VENV}/.installed-core", "-o", f"{VENV}/.installed",
                "import", f"FILE={name}", "CARD=lexar-play-pro-1tb", "NAME=Lexar PLAY PRO microSD Express 1TB", env=env)
    assert done.returncode == 0, done.stderr
    import yaml

    card = (work / "data" / "cards" / "lexar-play-pro-1tb.yaml").read_text(encoding="utf-8")
    assert yaml.safe_load(card)["sessions"][0]["label"] == f"Imported {name}"
    assert list(work.glob("pwned*")) == []


def test_import_passes_new_card_and_dd_values_byte_identical(project):
    work, trap = project
    value = hostile(trap)
    assert received(work, "import", "FILE=x.log", "CARD=card", f"CAPACITY={value}", f"BUS={value}", f"FORM={value}",
                    f"OP={value}", f"BS={value}", f"HOST={value}", f"READER={value}") == [
        "-m", "cardbench", "import", "--card=card", "--format=auto", f"--capacity={value}", f"--bus={value}",
        f"--form={value}", f"--op={value}", f"--bs={value}", f"--host={value}", f"--reader={value}", "--", "x.log"]
    assert list(trap.iterdir()) == []


@pytest.mark.parametrize("given", ["command line", "environment"])
def test_import_passes_host_and_reader_only_when_given(project, given):
    work, trap = project
    value = hostile(trap)
    values = {"HOST": value, "READER": f"USB 3.0 reader {value}"}
    if given == "command line":
        argv = received(work, "import", "FILE=x.log", "CARD=card", *(f"{k}={v}" for k, v in values.items()))
    else:
        done = make(work, *PREPARED, "PY=./print-argv", "import", "FILE=x.log", "CARD=card",
                    env=dict(os.environ, **values))
        assert done.returncode == 0, done.stderr
        argv = json.loads(done.stdout)
    assert argv[-4:] == [f"--host={value}", f"--reader=USB 3.0 reader {value}", "--", "x.log"]
    assert not any(arg.startswith(("--host", "--reader"))
                   for arg in received(work, "import", "FILE=x.log", "CARD=card"))
    assert list(trap.iterdir()) == []


def test_import_makes_a_new_card_from_capacity_bus_form_and_reads_a_dd_log_with_op_bs(tmp_path):
    """The real importer through `make import`: a name without a capacity, dd summaries without their command."""
    work = project_copy(tmp_path)
    log = ROOT / "tests" / "fixtures" / "import-corpus" / "dd" / "dd--summaries-only-op-bs.out"
    env = dict(os.environ, PYTHONPATH=str(work / "scripts"))
    args = ["-s", f"VENV={VENV}", "-o", f"{VENV}/.installed-core", "-o", f"{VENV}/.installed",
            "import", f"FILE={log}", "CARD=holdout-dd-card", "NAME=Holdout dd card"]
    refused = subprocess.run(["make", *args], cwd=work, capture_output=True, text=True, env=env, timeout=120)
    assert refused.returncode != 0 and "CAPACITY=" in refused.stderr
    done = subprocess.run(["make", *args, "CAPACITY=128GB", "BUS=UHS-II", "FORM=SD", "OP=write", "BS=1M"], cwd=work,
                          capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 0, done.stderr
    import yaml

    card = yaml.safe_load((work / "data" / "cards" / "holdout-dd-card.yaml").read_text(encoding="utf-8"))
    assert (card["capacity_gb"], card["bus"], card["form_factor"]) == (128, "UHS-II", "SD")
    entry, = card["sessions"][0]["dd"]
    assert (entry["op"], entry["block_size"], entry["runs"]) == ("write", "1M", [22.1, 23.2, 22.3, 21.6])


@pytest.mark.parametrize("value", ["1", "yes", "YES", "True", "tRuE"])
def test_yes_that_says_yes_skips_the_question(project, value):
    work, _ = project
    assert received(work, "collect", "DEV=/dev/sdx", "CARD=card", f"YES={value}")[-3:] == ["--yes", "--", "/dev/sdx"]


@pytest.mark.parametrize("value", ["0", "no", "false", "off", "n", "1 1", "yes please", "-x`touch x`"])
@pytest.mark.parametrize("given", ["command line", "environment"])
def test_any_other_yes_is_refused_before_anything_runs(project, value, given):
    work, _ = project
    args, env = ["collect", "DEV=/dev/sdx", "CARD=card"], dict(os.environ)
    if given == "command line":
        args.append(f"YES={value}")
    else:
        env["YES"] = value
    done = make(work, "PY=./print-argv", *args, env=env)
    assert done.returncode != 0 and done.stdout == ""
    assert "YES must be 1, yes or true to skip typing the device name" in done.stderr
    assert not (work / ".venv").exists() and not (work / "x").exists()
