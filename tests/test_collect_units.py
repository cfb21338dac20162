"""Collector pieces without a device: commands, profiles, progress text, card-file updates, resume marks."""

import datetime
import os

import pytest

from cardbench.card import new_card_data
from cardbench.card.dump import new_card_text
from cardbench.card.load import parse_card_text
from cardbench.collect import tools
from cardbench.collect.errors import CardMismatchError, ToolMissingError
from cardbench.collect.profiles import (FULL, GiB, KiB, MiB, PROFILES, QUICK, READONLY, STANDARD, DdStep, F3ProbeStep,
                                        FillStep, FioJob, FioStep, FlashOpenAuStep)
from cardbench.collect.progress import ProgressEvent, Tracker, clock_text, render
from cardbench.collect.runner import CollectRequest, collect
from cardbench.collect.steps import step_done
from cardbench.card.store.session_text import append_session_text, replace_session_text, sessions_place
from cardbench.errors import CardFileError


# --- tools ----------------------------------------------------------------------------------

def test_missing_tool_names_its_debian_package(monkeypatch, tmp_path):
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.setattr(tools, "EXTRA_PATH", ())
    for tool, package in (("f3probe", "f3"), ("nvme", "nvme-cli"), ("fio", "fio"), ("flashbench", "flashbench")):
        with pytest.raises(ToolMissingError) as err:
            tools.find_tool(tool)
        assert f"Debian package '{package}'" in str(err.value) and f"apt-get install {package}" in str(err.value)


def test_fio_runs_in_crystaldiskmark_shape():
    job = FioJob("RND", 4 * KiB, 32, 1, "write")
    argv = tools.fio_argv("/usr/bin/fio", "/dev/sdx", job, "out.json")
    for option in ("--output-format=json", "--output=out.json", "--direct=1", "--ioengine=libaio", "--refill_buffers",
                   "--rw=randwrite", "--bs=4K", "--iodepth=32", "--numjobs=1", "--time_based", "--runtime=5",
                   "--size=1G"):
        assert option in argv
    assert "--zero_buffers=1" not in argv and "--readonly" not in argv
    read = tools.fio_argv("fio", "/dev/sdx", FioJob("SEQ", GiB, 1, 1, "read", runtime=None), "r.json")
    assert "--readonly" in read and "--bs=1G" in read and "--time_based" not in read
    assert all(isinstance(a, str) for a in argv)


def test_flashbench_always_gets_an_output_file():
    for argv in (tools.flashbench_align_argv("flashbench", "/dev/sdx", "a.txt", 1024, 8),
                 tools.flashbench_open_au_argv("flashbench", "/dev/sdx", "o.txt", 4, 4 * MiB, 16 * KiB, random=True),
                 tools.flashbench_find_fat_argv("flashbench", "/dev/sdx", "f.txt", 4 * MiB, 16 * KiB, 6)):
        assert argv[argv.index("-o") + 1].endswith(".txt") and argv[-1] == "/dev/sdx"


def test_dd_commands_and_their_display():
    write = tools.dd_argv("/usr/bin/dd", "write", "/dev/sdx", 4 * MiB, 256)
    assert write[1:] == ["if=/dev/zero", "of=/dev/sdx", "bs=4M", "count=256", "oflag=direct", "conv=notrunc"]
    read = tools.dd_argv("/usr/bin/dd", "read", "/dev/sdx", 4 * MiB, 256, offset_blocks=3)
    assert read[1:] == ["if=/dev/sdx", "of=/dev/null", "bs=4M", "count=256", "skip=3", "iflag=direct"]
    assert tools.display(write, tools.C_LOCALE) == ("LANG=C dd if=/dev/zero of=/dev/sdx bs=4M count=256 "
                                                   "oflag=direct conv=notrunc")
    assert tools.display(["fio", "--name=a b"]) == "fio '--name=a b'"


def test_c_locale_overrides_the_users_locale(monkeypatch):
    monkeypatch.setenv("LC_ALL", "de_DE.UTF-8")
    monkeypatch.setenv("LC_NUMERIC", "de_DE.UTF-8")
    env = tools.run_env(tools.C_LOCALE)
    assert env["LANG"] == "C" and "LC_ALL" not in env and "LC_NUMERIC" not in env


def test_installed_tool_versions():
    assert tools.tool_version("fio", tools.find_tool("fio"))[0].isdigit()
    assert tools.tool_version("dd", tools.find_tool("dd"))[0].isdigit()


# --- profiles -------------------------------------------------------------------------------

def test_quick_profile_fits_three_minutes_on_a_20_mb_s_card():
    assert QUICK.estimate_seconds({"write": 20.0, "read": 40.0}) <= 180


def test_profiles_cover_the_documented_tests():
    def tests(profile):
        return {(s.job.test, s.job.op) for s in profile.steps if isinstance(s, FioStep)}

    cdm8 = {(t, op) for t in ("SEQ1M Q8T1", "SEQ1M Q1T1", "RND4K Q32T1", "RND4K Q1T1") for op in ("read", "write")}
    cdm_fio = {(t, op) for t in ("SEQ1G Q1T1", "SEQ512K Q1T1", "SEQ32M Q32T1", "RND4K Q1T1", "RND4K Q32T1",
                                 "RND4K Q8T8") for op in ("read", "write")}
    assert tests(QUICK) == cdm8
    assert tests(STANDARD) == tests(FULL) == cdm8 | cdm_fio
    assert {s.tool for s in QUICK.steps} == {"fio", "dd", "flashbench"}
    assert any(isinstance(s, F3ProbeStep) for s in FULL.steps) and any(isinstance(s, FillStep) for s in FULL.steps)
    assert not any(isinstance(s, (F3ProbeStep, FillStep)) for s in STANDARD.steps + QUICK.steps)
    modes = {(s.random, s.open_au) for s in STANDARD.steps if isinstance(s, FlashOpenAuStep)}
    assert {m for m, _ in modes} == {True, False}
    dd = [s for s in STANDARD.steps if isinstance(s, DdStep)]
    assert [(s.op, s.bs, s.count, s.runs) for s in dd] == [("write", 4 * MiB, 256, 5), ("read", 4 * MiB, 256, 5)]


def test_readonly_profile_never_writes_the_device():
    assert READONLY.mode == "filesystem"
    assert not any(step.writes_device for step in READONLY.steps)
    assert any(isinstance(s, FioStep) and s.job.op == "write" and s.target == "file" for s in READONLY.steps)


def test_step_keys_are_unique_and_not_prefixes_of_each_other():
    for profile in PROFILES.values():
        keys = [s.key for s in profile.steps]
        assert len(keys) == len(set(keys)), profile.name
        for a in keys:
            for b in keys:
                assert a == b or not (b.startswith(a + ".") or b.startswith(a + "-run")), (a, b)


def test_fill_span():
    fill = FillStep()
    assert fill.span(16 * GiB) == 16 * GiB and fill.span(1000 * 10**9 + 12345) % MiB == 0
    assert FillStep(limit_bytes=128 * MiB).span(16 * GiB) == 128 * MiB


# --- progress -------------------------------------------------------------------------------

def test_progress_lines():
    event = ProgressEvent("tick", 3, 13, "fio SEQ1M Q8T1 write", "run 2/3", step_elapsed=3, step_estimate=6,
                          overall_elapsed=30, overall_estimate=90)
    line = render(event, width=10)
    assert line.startswith("[ 3/13] fio SEQ1M Q8T1 write run 2/3  [#####-----]  50% ETA 0:03")
    assert line.endswith("all  33% ETA 1:00")
    assert "already done" in render(ProgressEvent("skip", 1, 13, "dd write"))
    assert "FAILED: boom" in render(ProgressEvent("fail", 1, 13, "dd write", message="boom"))
    assert clock_text(3725) == "1:02:05" and clock_text(65) == "1:05"


def test_tracker_eta_counts_what_is_left():
    now = [100.0]
    events = []
    tracker = Tracker(events.append, 2, clock=lambda: now[0])
    tracker.start(1, "a", estimate=10, remaining_after=20)
    now[0] += 4
    tracker.tick(force=True)
    assert events[-1].step_eta == pytest.approx(6) and events[-1].overall_eta == pytest.approx(26)
    tracker.done("ok")
    assert events[-1].phase == "done" and events[-1].overall_eta == pytest.approx(20)


# --- card file updates and resume ------------------------------------------------------------

def _card_text(*session_list):
    card = new_card_data.new_card("test-card", "Test Card 16GB", 16, "microSD", "UHS-I", "cardbench collector")
    text = new_card_text(card)
    for session in session_list:
        text = append_session_text(text, session)
    return text


def test_last_session_is_replaced_with_earlier_bytes_unchanged():
    first = new_card_data.new_session("2025-01-01", "Earlier", notes="kept as is")
    mine = new_card_data.new_session("2025-01-02", "Mine", complete=False,
                                dd=[{"op": "write", "block_size": "4M", "unit": "MB/s", "runs": [1.5]}])
    before = _card_text(first)
    text = _card_text(first, mine)
    place = sessions_place(text)
    assert place.text_of(0, place.items[-1][0]) == before
    mine["complete"] = True
    updated = replace_session_text(text, mine)
    assert updated.startswith(before)
    assert parse_card_text(updated).data["sessions"][-1]["complete"] is True


def test_only_session_is_replaced():
    mine = new_card_data.new_session("2025-01-02", "Mine")
    text = _card_text(mine)
    place = sessions_place(text)
    assert place.text_of(0, place.items[0][0]).endswith("sessions:\n")
    assert parse_card_text(replace_session_text(text, {**mine, "label": "Mine, again"})).data["sessions"][0]["label"] \
        == "Mine, again"


def test_hand_written_list_without_indent_is_replaced_where_it_stands():
    text = _card_text().replace("sessions: []\n", "sessions:\n- id: a\n  label: A\n- id: b\n  label: B\n  runs: [1]\n")
    updated = replace_session_text(text, {"id": "a", "label": "A2"})
    assert updated.endswith("- id: a\n  label: A2\n- id: b\n  label: B\n  runs: [1]\n")


def test_key_after_the_sessions_is_kept():
    text = _card_text(new_card_data.new_session("2025-01-01", "A"), new_card_data.new_session("2025-01-02", "B"))
    text += "notes: written after the sessions\n"
    session = new_card_data.new_session("2025-01-02", "B", notes="changed")
    updated = replace_session_text(text, session)
    assert updated.endswith("notes: written after the sessions\n")
    assert parse_card_text(updated).data["notes"] == "written after the sessions"


def test_finished_steps_are_found_by_their_raw_files():
    step = FioStep(FioJob("SEQ", MiB, 8, 1, "write"))
    other = FioStep(FioJob("SEQ", MiB, 8, 1, "write"), target="file")
    session = {"results": [{"test": "SEQ1M Q8T1", "op": "write", "unit": "MB/s", "runs": [1],
                            "raw": ["raw/c/s/fio-seq1m-q8t1-write-run1.json"]}]}
    assert step_done(session, step) and not step_done(session, other)
    assert not step_done({"f3probe": {"fake": False, "raw": ["raw/c/s/x.txt"]}}, F3ProbeStep())
    assert step_done({"f3probe": {"fake": False, "raw": ["raw/c/s/f3probe.txt"]}}, F3ProbeStep())


def test_session_ids_stay_unique(tmp_path):
    from cardbench.collect.store import SessionStore

    (tmp_path / "cards").mkdir()
    day = datetime.date.today().isoformat()
    first = new_card_data.new_session(day, "Collector, quick profile", complete=True)
    (tmp_path / "cards" / "test-card.yaml").write_text(_card_text(first))
    store = SessionStore(tmp_path, "test-card")
    assert store.unique_id(first["id"]) == first["id"] + "-2"
    assert store.resume_candidates() == []


# --- requests refused before the device is touched --------------------------------------------

@pytest.mark.skipif(os.geteuid() != 0, reason="the collector checks root first")
@pytest.mark.parametrize("slug,name,card_text,error,message", [
    ("new-card", None, None, CardMismatchError, "give its brand and model"),
    ("new-card", "SanDisk", None, CardMismatchError, "give its brand and model"),
    ("Bad Slug", "SanDisk Extreme", None, CardMismatchError, "lowercase letters, digits and hyphens"),
    ("broken-card", None, "slug: broken-card\nslug: twice\n", CardFileError, "duplicate key"),
])
def test_requests_refused_before_the_device(tmp_path, slug, name, card_text, error, message):
    if card_text:
        (tmp_path / "cards").mkdir()
        (tmp_path / "cards" / f"{slug}.yaml").write_text(card_text)
    before = sorted(tmp_path.rglob("*"))
    request = CollectRequest(device="/dev/null", slug=slug, name=name, profile="quick", yes=True, data_dir=tmp_path)
    with pytest.raises(error, match=message):
        collect(request)
    assert sorted(tmp_path.rglob("*")) == before


def test_unknown_profile_is_refused(tmp_path):
    with pytest.raises(CardMismatchError, match="choose one of quick, standard, full, fill, readonly"):
        collect(CollectRequest(device="/dev/null", slug="a-card", profile="fast", data_dir=tmp_path))
