"""fio JSON parser: real fio 3.33 output (fixtures) and a live fio run on a small file."""

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from cardbench.errors import ParseError
from cardbench.parsers.fio import json_output as fio_json

FIXTURES = Path(__file__).parent / "fixtures" / "fio"
SCRIPTS = Path(__file__).resolve().parents[1] / "scripts"


def read(name):
    return (FIXTURES / name).read_bytes().decode("utf-8")


@pytest.mark.parametrize("case", sorted(p.stem for p in FIXTURES.glob("fio--*.json")))
def test_fixture_parses_to_expected(case):
    expected = json.loads(read(f"{case}.json"))
    assert fio_json.parse(read(f"{case}.out")) == expected


def test_four_job_file_figures_come_from_fio_fields():
    raw = json.loads(read("fio--cdm-4-jobs.out"))
    parsed = fio_json.parse(read("fio--cdm-4-jobs.out"))
    assert parsed["fio_version"] == "fio-3.33"
    assert [(j["test"], j["op"]) for j in parsed["jobs"]] == [
        ("SEQ1M Q8T1", "read"), ("SEQ1M Q8T1", "write"), ("RND4K Q32T1", "read"), ("RND4K Q1T1", "write")]
    for job, raw_job in zip(parsed["jobs"], raw["jobs"]):
        section = raw_job[job["op"]]
        assert job["bw_bytes"] == section["bw_bytes"]
        assert job["mb_s"] == pytest.approx(section["bw_bytes"] / 1e6)
        assert job["iops"] == section["iops"]
        assert job["lat_us"]["mean"] == pytest.approx(section["clat_ns"]["mean"] / 1000, abs=1e-3)
        assert job["lat_us"]["p99_9"] == pytest.approx(section["clat_ns"]["percentile"]["99.900000"] / 1000)
        assert job["runtime_ms"] == section["runtime"]
        assert job["io_bytes"] == section["io_bytes"]
    # options come from the job, falling back to the global section
    assert parsed["jobs"][0]["iodepth"] == 8 and parsed["jobs"][0]["size"] == "256m"


def test_mixed_job_gives_a_read_and_a_write_entry():
    parsed = fio_json.parse(read("fio--randrw-jsonplus.out"))
    assert [(j["test"], j["op"]) for j in parsed["jobs"]] == [("RND4K Q4T1", "read"), ("RND4K Q4T1", "write")]


def test_threads_without_group_reporting_are_summed():
    raw = json.loads(read("fio--numjobs3-separate.out"))
    parsed = fio_json.parse(read("fio--numjobs3-separate.out"))
    assert len(raw["jobs"]) == 3 and len(parsed["jobs"]) == 1
    job = parsed["jobs"][0]
    assert job["test"] == "SEQ512K Q2T3" and job["threads"] == 3
    assert job["bw_bytes"] == sum(j["read"]["bw_bytes"] for j in raw["jobs"])
    assert job["iops"] == pytest.approx(sum(j["read"]["iops"] for j in raw["jobs"]))
    assert job["lat_us"]["max"] == pytest.approx(max(j["read"]["clat_ns"]["max"] for j in raw["jobs"]) / 1000, abs=1e-3)


def test_grouped_threads_are_one_entry():
    job, = fio_json.parse(read("fio--numjobs3-grouped.out"))["jobs"]
    assert job["test"] == "SEQ32M Q1T3" and job["threads"] == 1


def test_text_before_the_json_is_skipped():
    text = read("fio--note-before-json.out")
    assert text.startswith("note: both iodepth")
    assert fio_json.parse(text)["jobs"][0]["test"] == "RND4K Q4T1"


def test_cut_off_json_names_the_line():
    with pytest.raises(ParseError) as err:
        fio_json.parse(read("fio--truncated.out"))
    assert err.value.tool == "fio"
    assert err.value.line == read("fio--truncated.out").count("\n") + 1


def test_no_json_at_all():
    with pytest.raises(ParseError) as err:
        fio_json.parse("fio: unrecognized option '--bogus'\n")
    assert err.value.line == 1


def test_json_that_is_not_fio():
    with pytest.raises(ParseError, match="jobs"):
        fio_json.parse('{"hello": 1}\n')


def test_several_documents():
    text = read("fio--cdm-4-jobs.out") + "\n" + read("fio--numjobs3-grouped.out")
    docs = fio_json.parse_all(text)
    assert [len(d["jobs"]) for d in docs] == [4, 1]


def test_fio_size_follows_kb_base():
    assert fio_json.fio_size("4k") == 4096
    assert fio_json.fio_size("1m") == 1048576
    assert fio_json.fio_size("4KiB") == 4000  # kb_base=1024 compatibility mode
    assert fio_json.fio_size("4KiB", kb_base=1000) == 4096
    assert fio_json.fio_size("4k", kb_base=1000) == 4000
    assert fio_json.fio_size("512") == 512


@pytest.mark.skipif(shutil.which("fio") is None, reason="fio not installed")
def test_live_fio_run(tmp_path):
    target = tmp_path / "fio-target"
    out = subprocess.run(
        ["fio", "--output-format=json", "--name=seqread", f"--filename={target}", "--size=4m", "--rw=read",
         "--bs=1m", "--ioengine=psync", "--numjobs=2"],
        capture_output=True, text=True, check=True, timeout=60).stdout
    job, = fio_json.parse(out)["jobs"]
    assert job["test"] == "SEQ1M Q1T2" and job["threads"] == 2
    assert job["io_bytes"] == 2 * 4 * 1024 * 1024
    assert job["bw_bytes"] > 0


def test_integer_of_thousands_of_digits_names_its_line():
    # Python's int() refuses more than 4300 digits; the parser refuses far fewer, naming the line.
    text = ('{\n  "fio version" : "fio-3.33",\n  "jobs" : [{"jobname": "a", "read": {"io_bytes": '
            + "9" * 5000 + "}}]\n}\n")
    with pytest.raises(ParseError, match="a number of 5000 characters") as err:
        fio_json.parse(text)
    assert err.value.line == 3 and len(err.value.text) < 200


def test_float_of_thousands_of_digits_is_refused():
    text = '{"fio version": "fio-3.33", "jobs": [{"jobname": "a", "read": {"bw_bytes": 1.' + "5" * 5000 + "}}]}\n"
    with pytest.raises(ParseError, match="a number of 5002 characters"):
        fio_json.parse(text)


def test_deep_nesting_names_its_line():
    text = '{\n  "fio version" : "fio-3.33",\n  "jobs" : ' + "[" * 100_000 + "\n"
    with pytest.raises(ParseError, match="nested more than 64 levels") as err:
        fio_json.parse(text)
    assert err.value.line == 3


def test_brackets_inside_strings_are_not_nesting():
    doc = json.loads(read("fio--cdm-4-jobs.out"))
    doc["jobs"][0]["job options"]["description"] = "[[{" * 1000 + '\\"]'
    assert len(fio_json.parse(json.dumps(doc))["jobs"]) == len(fio_json.parse(read("fio--cdm-4-jobs.out"))["jobs"])


def test_one_line_document_after_carriage_return_line_breaks(tmp_path):
    # "\r" ends a line for splitlines(), not for a count of "\n": the next line to look at was once
    # computed from the latter, went back before the document, and the same document was read
    # forever. In a subprocess, whose time limit only detects such a loop.
    doc = json.dumps(json.loads(read("fio--cdm-4-jobs.out")))
    (tmp_path / "log").write_bytes(("note\r" * 5 + doc + "\n" + doc + "\n").encode())
    code = ("import json, sys; from cardbench.parsers.fio import json_output as fio_json; "
            "docs = fio_json.parse_all(open(sys.argv[1], newline='').read()); "
            "print(json.dumps([d['jobs'][0]['line'] for d in docs]))")
    run = subprocess.run([sys.executable, "-c", code, str(tmp_path / "log")], capture_output=True, text=True,
                         timeout=60, env=dict(os.environ, PYTHONPATH=str(SCRIPTS)))
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout) == [6, 7]


def test_block_size_beyond_a_float_is_not_understood():
    doc = json.loads(read("fio--cdm-4-jobs.out"))
    doc["jobs"][0]["job options"]["bs"] = "9" * 400 + "k"
    with pytest.raises(ParseError, match="block size"):
        fio_json.parse(json.dumps(doc))


@pytest.mark.parametrize("section, version, moved", [
    ({"io_bytes": 134217728, "io_kbytes": 131072}, "fio-3.1", 134217728),  # fio 2.21 to 3.1: bytes, KiB beside
    ({"io_kbytes": 131072}, "fio-3.1", 134217728),
    ({"io_bytes": 134217728, "bw_bytes": 21133312}, "fio-3.33", 134217728),
    ({"io_bytes": 134217728}, "fio-2.21", 134217728),  # no io_kbytes kept: the version says bytes
    ({"io_bytes": 131072}, "fio-2.2.10", 134217728),  # before 2.21 io_bytes was KiB
    ({"io_bytes": 131072}, "", 134217728),
])
def test_io_bytes_unit_follows_fio_version(section, version, moved):
    assert fio_json.io_bytes_of(section, version) == moved
