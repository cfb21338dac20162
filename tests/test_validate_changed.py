"""`cardbench validate --changed`: only card files changed against the merge base with origin/main
(else HEAD), plus untracked ones, in a throw-away git repository."""

import shutil
import subprocess

import pytest

from cardbench import cli
from cardbench.cardfile import new_card_text
from cardbench.validate import SCHEMA_PATH, changed_card_paths

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")


def card(slug, brand="Acme"):
    return new_card_text({
        "schema_version": 1, "slug": slug, "brand": brand, "model": "Fast", "capacity_gb": 64,
        "form_factor": "microSD", "bus": "UHS-I", "source": {"name": "test"}, "sessions": [],
    })


def git(repo, *args):
    subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@example.invalid", *args], cwd=repo,
                   check=True, capture_output=True)


@pytest.fixture
def repo(tmp_path):
    """main with cards a, b, c, d and c's raw file; origin/main points at it; a branch on top."""
    (tmp_path / "data" / "cards").mkdir(parents=True)
    (tmp_path / "data" / "schema").mkdir()
    shutil.copy(SCHEMA_PATH, tmp_path / "data" / "schema" / "card.schema.json")
    for slug in "abcd":
        (tmp_path / "data" / "cards" / f"card-{slug}.yaml").write_text(card(f"card-{slug}"))
    (tmp_path / "data" / "raw" / "card-c").mkdir(parents=True)
    (tmp_path / "data" / "raw" / "card-c" / "dd.out").write_text("1 MB/s\n")
    (tmp_path / "README").write_text("x\n")
    git(tmp_path, "init", "-q", "-b", "main")
    git(tmp_path, "add", "-A")
    git(tmp_path, "commit", "-q", "-m", "cards")
    git(tmp_path, "update-ref", "refs/remotes/origin/main", "HEAD")
    git(tmp_path, "checkout", "-q", "-b", "new-card")
    return tmp_path


def names(paths):
    return [p.name for p in paths]


def test_nothing_changed(repo):
    paths, base = changed_card_paths(repo)
    assert paths == [] and "merge base with origin/main" in base


def test_committed_staged_unstaged_untracked_and_raw_changes(repo):
    cards = repo / "data" / "cards"
    (cards / "card-a.yaml").write_text(card("card-a", brand="Acme Corp"))
    git(repo, "commit", "-q", "-am", "edit a")  # committed on the branch
    (cards / "card-e.yaml").write_text(card("card-e"))  # untracked
    (repo / "data" / "raw" / "card-c" / "dd.out").write_text("2 MB/s\n")  # raw of c, unstaged
    (cards / "card-d.yaml").unlink()  # deleted: nothing to check
    (repo / "README").write_text("y\n")  # not data
    paths, _ = changed_card_paths(repo)
    assert names(paths) == ["card-a.yaml", "card-c.yaml", "card-e.yaml"]


def test_a_later_main_does_not_count(repo):
    """Cards changed on main after the branch point are not the pull request's."""
    git(repo, "checkout", "-q", "main")
    (repo / "data" / "cards" / "card-b.yaml").write_text(card("card-b", brand="Other"))
    git(repo, "commit", "-q", "-am", "main moves on")
    git(repo, "update-ref", "refs/remotes/origin/main", "HEAD")
    git(repo, "checkout", "-q", "new-card")
    (repo / "data" / "cards" / "card-a.yaml").write_text(card("card-a", brand="Acme Corp"))
    paths, _ = changed_card_paths(repo)
    assert names(paths) == ["card-a.yaml"]


def test_schema_change_checks_every_card(repo):
    schema = repo / "data" / "schema" / "card.schema.json"
    schema.write_text(schema.read_text() + "\n")
    paths, base = changed_card_paths(repo)
    assert names(paths) == ["card-a.yaml", "card-b.yaml", "card-c.yaml", "card-d.yaml"] and "schema" in base


def test_without_origin_main_falls_back_to_head(repo):
    git(repo, "update-ref", "-d", "refs/remotes/origin/main")
    (repo / "data" / "cards" / "card-b.yaml").write_text(card("card-b", brand="Other"))
    paths, base = changed_card_paths(repo)
    assert names(paths) == ["card-b.yaml"] and base.startswith("HEAD")


def test_misnamed_new_file_is_picked_up_and_rejected(repo, monkeypatch, capsys):
    (repo / "data" / "cards" / "card-f.yml").write_text(card("card-f"))
    monkeypatch.setattr(cli, "ROOT", repo)
    assert cli.main(["validate", "--changed"]) == 1
    err = capsys.readouterr().err
    assert "1 changed card file(s)" in err and "card-f.yml: error: card files are named <slug>.yaml [file-name]" in err


def test_cli_checks_only_the_changed_files(repo, monkeypatch, capsys):
    (repo / "data" / "cards" / "card-b.yaml").write_text(card("card-b").replace("brand: Acme", "brand: [Acme"))
    monkeypatch.setattr(cli, "ROOT", repo)
    assert cli.main(["validate", "--changed"]) == 1
    err = capsys.readouterr().err
    assert "card-b.yaml:" in err and "[yaml]" in err and "1 file(s) checked: 1 error(s)" in err
