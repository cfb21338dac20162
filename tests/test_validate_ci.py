"""The GitHub workflows: actions pinned by commit, least permissions, the promised steps, and a
problem matcher that reads the validator's messages."""

import json
import re
from pathlib import Path

import pytest
import yaml

from cardbench.card.dump import new_card_text
from cardbench.card.load import parse_card_text
from cardbench.card.checks.validate import check_card

GITHUB = Path(__file__).resolve().parents[1] / ".github"
WORKFLOWS = sorted((GITHUB / "workflows").glob("*.yml"))


def load(path):
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    data["on"] = data.pop(True, data.get("on"))  # YAML 1.1 reads the key `on` as true
    return data


def steps(workflow):
    return [step for job in workflow["jobs"].values() for step in job.get("steps", [])]


@pytest.mark.parametrize("path", WORKFLOWS, ids=lambda p: p.name)
def test_actions_are_pinned_by_full_commit(path):
    for step in steps(load(path)):
        if "uses" in step:
            assert re.fullmatch(r"[\w.-]+/[\w.-]+@[0-9a-f]{40}", step["uses"]), step["uses"]
    for line in path.read_text(encoding="utf-8").splitlines():
        if "uses:" in line:
            assert re.search(r"# v\d+\.\d+\.\d+$", line), f"version comment missing: {line.strip()}"


# The only jobs that may write, and what: publishing the site, and the submission's pull request and reply
# (neither runs code from the issue).
WRITERS = {("deploy.yml", "deploy"): {"pages": "write", "id-token": "write"},
           ("submission.yml", "pull-request"): {"contents": "write", "pull-requests": "write"},
           ("submission.yml", "reply"): {"issues": "write"}}


@pytest.mark.parametrize("path", WORKFLOWS, ids=lambda p: p.name)
def test_least_permissions(path):
    workflow = load(path)
    assert workflow["permissions"] in ({"contents": "read"}, {})
    for name, job in workflow["jobs"].items():
        granted = job.get("permissions", {})
        writes = {scope for scope, level in granted.items() if level == "write"}
        if (path.name, name) in WRITERS:
            assert granted == WRITERS[path.name, name]
        else:
            assert writes == set(), (path.name, name, granted)
        for step in job.get("steps", []):
            if step.get("uses", "").startswith("actions/checkout@") and (path.name, name) not in WRITERS:
                assert step["with"]["persist-credentials"] is False


@pytest.mark.parametrize("path", WORKFLOWS, ids=lambda p: p.name)
def test_no_issue_or_pull_request_text_in_a_command(path):
    """Untrusted text (issue and pull request titles, bodies, comments, branch names) never stands in a
    run: line as an expression: bash would read it as code."""
    untrusted = re.compile(r"\$\{\{[^}]*github\.event\.(issue|pull_request|comment|review)\.(title|body|head)")
    for job in load(path)["jobs"].values():
        for step in job.get("steps", []):
            assert not untrusted.search(step.get("run", "")), step.get("name")
            for value in (step.get("env") or {}).values():
                assert not re.search(r"\.(title|body)\b", str(value)), step.get("name")


def test_pull_request_workflow_runs_the_checks():
    workflow = load(GITHUB / "workflows" / "pr.yml")
    assert set(workflow["on"]) == {"pull_request"}
    runs = [step.get("run", "") for step in steps(workflow)]
    order = [next(i for i, r in enumerate(runs) if wanted in r)
             for wanted in ("make validate CHANGED=1", "make site", "tests/test_site_browser.py",
                            "tests/test_card_page_browser.py", "tests/test_leaderboard_browser.py")]
    assert order == sorted(order)
    checkout = next(s for s in steps(workflow) if s.get("uses", "").startswith("actions/checkout@"))
    assert checkout["with"]["fetch-depth"] == 0, "CHANGED=1 needs the history down to the merge base"


def test_deploy_workflow_publishes_public_to_pages():
    workflow = load(GITHUB / "workflows" / "deploy.yml")
    assert workflow["on"]["push"]["branches"] == ["main"]
    uses = [s.get("uses", "").split("@")[0] for s in steps(workflow)]
    for action in ("actions/configure-pages", "actions/upload-pages-artifact", "actions/deploy-pages"):
        assert action in uses
    upload = next(s for s in steps(workflow) if s.get("uses", "").startswith("actions/upload-pages-artifact@"))
    assert upload["with"]["path"] == "public"
    assert any("make site" in s.get("run", "") for s in steps(workflow))


def test_problem_matcher_reads_validator_messages(tmp_path):
    matchers = json.loads((GITHUB / "cardbench-problem-matcher.json").read_text(encoding="utf-8"))["problemMatcher"]
    patterns = [(re.compile(m["pattern"][0]["regexp"]), m["pattern"][0]) for m in matchers]
    card = {"schema_version": 1, "slug": "x-card", "brand": "A", "model": "B", "capacity_gb": 64,
            "form_factor": "microSD", "bus": "UHS-I", "source": {"name": "t"}, "sessions": []}
    loaded = parse_card_text(new_card_text(dict(card, capacity_gb="64GB")), "data/cards/x-card.yaml")
    messages = [str(f) for f in check_card(loaded)]
    assert messages
    for message in messages:
        found = [(rx.match(message), spec) for rx, spec in patterns if rx.match(message)]
        assert len(found) == 1, message
        match, spec = found[0]
        assert match.group(spec["file"]) == "data/cards/x-card.yaml"
        assert match.group(spec["severity"]) in ("error", "warning")
    summary = "1 file(s) checked: 1 error(s), 1 warning(s)"
    assert not any(rx.match(summary) for rx, _ in patterns)
