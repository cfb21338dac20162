"""`cardbench import` given a file that is not tool output shows none of its text, and refuses
/proc, /sys and /dev by name before reading."""

import os
import subprocess
import sys

import pytest

from cardbench.parsers.registry import NAMES

import cliimport

SHADOW_LINE = "root:$6$Qx9r0Tq1$verysecrethashverysecrethash0123456789abcdef:19701:0:99999:7:::"


def run_import(tmp_path, capsys, path, *args):
    code, err, _ = cliimport.run_import(path, tmp_path / "data" / "cards", capsys, options=args)
    return code, err


def nothing_written(tmp_path):
    return not (tmp_path / "data").exists() or not any(p.is_file() for p in (tmp_path / "data").rglob("*"))


def test_an_unrecognised_file_is_named_by_line_never_quoted(tmp_path, capsys):
    path = tmp_path / "shadow"
    path.write_text(SHADOW_LINE + "\ndaemon:*:19701:0:99999:7:::\n")
    code, err = run_import(tmp_path, capsys, path)
    assert code == 2 and "line 1: format not recognised" in err
    assert "verysecret" not in err and "root:" not in err and "$6$" not in err
    assert nothing_written(tmp_path)


@pytest.mark.parametrize("fmt", NAMES)
def test_a_format_given_for_a_file_nothing_recognises_quotes_none_of_it(tmp_path, capsys, fmt):
    path = tmp_path / "shadow"
    path.write_text(SHADOW_LINE + "\n")
    code, err = run_import(tmp_path, capsys, path, "--format", fmt)
    assert code == 2 and "verysecret" not in err and "root:" not in err
    assert nothing_written(tmp_path)


def test_a_recognised_file_still_quotes_its_bad_line(tmp_path, capsys):
    path = tmp_path / "dd.log"
    path.write_text("$ dd if=/dev/zero of=/dev/sdc bs=4M count=8 oflag=direct\n8+0 records in\n8+0 records out\n"
                    "33554432 bytes (34 MB, 32 MiB) copied, 1.63627 s, 90.5 MB/s\n")
    code, err = run_import(tmp_path, capsys, path)
    assert code == 2 and "dd output line 4" in err and "90.5 MB/s'" in err


def test_the_environment_of_the_import_is_refused_by_name(tmp_path):
    env = {**os.environ, "CARDBENCH_TEST_SECRET": "hunter2-secret-value"}
    done = subprocess.run([sys.executable, "-m", "cardbench", "import", "/proc/self/environ", "--card", "x-card",
                           "--name", "X Card 64GB", "--cards-dir", str(tmp_path / "data" / "cards")],
                          capture_output=True, text=True, env=env, timeout=60)
    assert done.returncode == 2 and "/proc/self/environ is under /proc" in done.stderr
    assert "hunter2" not in done.stderr and "CARDBENCH_TEST_SECRET" not in done.stderr
    assert nothing_written(tmp_path)


@pytest.mark.parametrize("path", ["/proc/1/cmdline", "/sys/kernel/notes", "/dev/null", "/dev/../proc/self/status",
                                  "/sys/no/such/file"])
def test_system_trees_are_refused_by_name(tmp_path, capsys, path):
    code, err = run_import(tmp_path, capsys, path)
    tree = "/" + os.path.realpath(path).split("/")[1]
    assert code == 2 and f"is under {tree}" in err and "which holds system state" in err
    assert nothing_written(tmp_path)


def test_a_link_into_proc_is_refused_by_where_it_leads(tmp_path, capsys):
    link = tmp_path / "results.txt"
    link.symlink_to("/proc/self/environ")
    code, err = run_import(tmp_path, capsys, link)
    assert code == 2 and "results.txt is under /proc (it leads to /proc/" in err
    assert nothing_written(tmp_path)


@pytest.mark.device
def test_a_second_mount_of_proc_is_refused_by_its_file_system(tmp_path, capsys):
    mount_point = tmp_path / "stats"
    mount_point.mkdir()
    if subprocess.run(["mount", "--bind", "/proc", str(mount_point)], capture_output=True).returncode != 0:
        pytest.skip("cannot bind-mount here")
    try:
        code, err = run_import(tmp_path, capsys, mount_point / "self" / "environ")
    finally:
        subprocess.run(["umount", str(mount_point)], check=True)
    assert code == 2 and "is on the file system of /proc (mounted elsewhere)" in err
    assert nothing_written(tmp_path)
