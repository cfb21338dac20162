"""The "Add a result" workflow as code: every outcome answers the issue, a submission is checked as a pull
request would be before one is opened, the jobs that read the issue's text save no cache, and the patch
may touch only the card's own files, under every name a patch can give a path.

The reply step's script and the patch script run here for real: the reply with a stand-in `gh` that
records what it was asked to do, the patch script in a scratch git repository."""

import os
import stat
import subprocess
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
WORKFLOW = yaml.safe_load((ROOT / ".github" / "workflows" / "submission.yml").read_text(encoding="utf-8"))
JOBS = WORKFLOW["jobs"]
APPLY = ROOT / ".github" / "scripts" / "apply-submission-patch.sh"
SLUG = "acme-fast-64gb-microsdxc"


def step(job, name):
    return next(s for s in JOBS[job]["steps"] if s.get("name") == name)


def test_jobs_that_read_the_issue_save_no_cache():
    for job in ("import", "check"):
        for item in JOBS[job]["steps"]:
            assert "cache" not in (item.get("with") or {}), (job, item.get("name"))
            assert "actions/cache" not in item.get("uses", ""), (job, item.get("name"))


def test_a_submission_is_checked_as_a_pull_request_is_before_one_is_opened():
    pr_checks = yaml.safe_load((ROOT / ".github" / "workflows" / "pr.yml").read_text(encoding="utf-8"))
    browser = next(s["run"] for s in pr_checks["jobs"]["check"]["steps"] if "pytest" in s.get("run", ""))
    runs = "\n".join(s.get("run", "") for s in JOBS["check"]["steps"])
    assert "make validate" in runs and "make site" in runs
    assert browser.split("pytest", 1)[1] in runs  # the same browser tests
    assert JOBS["check"]["permissions"] == {"contents": "read"}
    assert "check" in JOBS["pull-request"]["needs"]
    assert "needs.check.result == 'success'" in JOBS["pull-request"]["if"]
    assert "apply-submission-patch.sh" in step("check", "Apply it (only the card's own file and raw folder)")["run"]
    assert "apply-submission-patch.sh" in step("pull-request", "Open or update the pull request")["run"]


def test_every_job_that_can_end_is_answered():
    reply = JOBS["reply"]
    assert set(reply["needs"]) == {"import", "check", "pull-request"}
    assert "!cancelled()" in reply["if"]
    assert step("import", "Keep the change and the reply for the next jobs")["if"] == "always()"


def run_reply(tmp_path, status="", check="", opened="", url="", message=None):
    """The reply step's script, as the runner runs it (bash -e -o pipefail), with a stand-in gh."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    calls = tmp_path / "gh-calls"
    gh = bin_dir / "gh"
    gh.write_text(f'#!/bin/sh\nfor a in "$@"; do printf "%s|" "$a"; done >> {calls}\necho >> {calls}\n'
                  f'while [ $# -gt 0 ]; do if [ "$1" = --body-file ]; then cat "$2" > {tmp_path / "posted"}; fi; '
                  'shift; done\n')
    gh.chmod(gh.stat().st_mode | stat.S_IEXEC)
    submission = tmp_path / "submission"
    submission.mkdir()
    if message is not None:
        (submission / "message.md").write_text(message, encoding="utf-8")
    env = {**os.environ, "PATH": f"{bin_dir}:{os.environ['PATH']}", "NUMBER": "7", "STATUS": status, "CHECK": check,
           "OPENED": opened, "URL": url, "MESSAGE": str(submission / "message.md"), "REPLY": str(tmp_path / "reply.md"),
           "GITHUB_REPOSITORY": "owner/cardbench", "GH_TOKEN": "x"}
    script = step("reply", "Answer the issue")["run"]
    done = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", script], env=env,
                          capture_output=True, text=True, timeout=30)
    assert done.returncode == 0, done.stderr
    posted = (tmp_path / "posted").read_text(encoding="utf-8")
    called = calls.read_text(encoding="utf-8") if calls.exists() else ""
    labelled = "needs-maintainer" in called.split("add-label")[-1]
    return posted, labelled and "--add-label" in calls.read_text(encoding="utf-8")


def test_an_accepted_result_is_answered_with_what_was_imported_and_the_pull_request(tmp_path):
    posted, maintainer = run_reply(tmp_path, "accepted", "success", "success", "https://github.com/o/r/pull/9",
                                   "Imported into `acme`: dd, 1 run(s), 1 figure(s).")
    assert posted.startswith("Imported into `acme`") and "Pull request: https://github.com/o/r/pull/9" in posted
    assert not maintainer


def test_a_refusal_is_answered_with_what_to_add(tmp_path):
    posted, maintainer = run_reply(tmp_path, "refused", "skipped", "skipped", message="This result could not be added")
    assert posted.startswith("This result could not be added") and not maintainer


@pytest.mark.parametrize("status, check, opened, message", [
    ("error", "skipped", "skipped", "The check stopped with an internal error."),
    ("", "skipped", "skipped", None),  # the import job failed before it wrote a status
    ("accepted", "failure", "skipped", "Imported into `acme`: dd."),
    ("accepted", "success", "failure", "Imported into `acme`: dd."),
    ("refused", "skipped", "skipped", None),  # no reply file came through
])
def test_every_other_outcome_is_answered_and_asks_a_maintainer(tmp_path, status, check, opened, message):
    posted, maintainer = run_reply(tmp_path, status, check, opened, message=message)
    assert posted.strip() and maintainer
    assert "maintainer has been asked to look" in posted


# --- the patch touches only the card's own files -------------------------------------------------------

def git(repo, *args, **kwargs):
    return subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True, text=True, **kwargs)


@pytest.fixture
def repo(tmp_path):
    repo = tmp_path / "repo"
    (repo / ".github" / "workflows").mkdir(parents=True)
    (repo / "data" / "cards").mkdir(parents=True)
    (repo / ".github" / "workflows" / "deploy.yml").write_text("name: Deploy\n", encoding="utf-8")
    (repo / "data" / "cards" / f"{SLUG}.yaml").write_text("slug: acme\n", encoding="utf-8")
    (repo / "README.md").write_text("readme\n", encoding="utf-8")
    git(repo, "init", "-q")
    git(repo, "add", "-A")
    git(repo, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "start")
    return repo


def patch_of(repo, change):
    """The patch (as the import job makes it: git diff --cached --binary) of a change, and the tree reset."""
    change(repo)
    git(repo, "add", "--all")
    text = git(repo, "diff", "--cached", "--binary", "-M").stdout
    git(repo, "reset", "-q", "--hard", "HEAD")
    git(repo, "clean", "-qfd")
    patch = repo.parent / "change.patch"
    patch.write_text(text, encoding="utf-8")
    return patch


def apply(repo, patch):
    return subprocess.run(["bash", str(APPLY), SLUG, str(patch)], cwd=repo, capture_output=True, text=True, timeout=30)


def add_result(repo):
    (repo / "data" / "cards" / f"{SLUG}.yaml").write_text("slug: acme\nsessions: []\n", encoding="utf-8")
    (repo / "data" / "raw" / SLUG).mkdir(parents=True)
    (repo / "data" / "raw" / SLUG / "tool-output.txt").write_text("log\n", encoding="utf-8")


def test_the_cards_own_change_is_applied_and_staged(repo):
    done = apply(repo, patch_of(repo, add_result))
    assert done.returncode == 0, done.stderr
    assert git(repo, "diff", "--cached", "--name-only").stdout.split() == [
        f"data/cards/{SLUG}.yaml", f"data/raw/{SLUG}/tool-output.txt"]


def rename_workflow_into_raw(repo):
    (repo / "data" / "raw" / SLUG).mkdir(parents=True)
    (repo / ".github" / "workflows" / "deploy.yml").rename(repo / "data" / "raw" / SLUG / "deploy.yml")


def delete_readme(repo):
    (repo / "README.md").unlink()


def executable_raw_file(repo):
    add_result(repo)
    path = repo / "data" / "raw" / SLUG / "tool-output.txt"
    path.chmod(0o755)


def symlink_in_raw(repo):
    add_result(repo)
    (repo / "data" / "raw" / SLUG / "link").symlink_to("../../../.github/workflows/deploy.yml")


def another_card(repo):
    add_result(repo)
    (repo / "data" / "cards" / "other-card.yaml").write_text("slug: other\n", encoding="utf-8")


def delete_own_card(repo):
    (repo / "data" / "cards" / f"{SLUG}.yaml").unlink()


@pytest.mark.parametrize("change", [rename_workflow_into_raw, delete_readme, executable_raw_file, symlink_in_raw,
                                    another_card, delete_own_card], ids=lambda f: f.__name__)
def test_a_patch_touching_anything_else_is_refused_and_nothing_applied(repo, change):
    patch = patch_of(repo, change)
    done = apply(repo, patch)
    assert done.returncode != 0
    assert "the change" in done.stderr
    assert git(repo, "status", "--porcelain").stdout == ""
    assert (repo / ".github" / "workflows" / "deploy.yml").exists()


def test_the_rename_is_caught_from_the_patch_headers_before_git_applies_it(repo):
    patch = patch_of(repo, rename_workflow_into_raw)
    assert "rename from .github/workflows/deploy.yml" in patch.read_text(encoding="utf-8")
    done = apply(repo, patch)
    assert done.returncode != 0 and "the change touches .github/workflows/deploy.yml" in done.stderr
