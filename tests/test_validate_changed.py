"""`cardbench validate --changed`: only card files changed against the merge base with origin/main
(else HEAD), plus untracked ones, in a throw-away git repository."""

import shutil
import subprocess

import pytest

from cardbench import cli
from cardbench.card.dump import new_card_text
from cardbench.card.checks.changed import changed_card_paths
from cardbench.core.paths import SCHEMA_PATH

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


def test_a_linked_static_folder_is_refused_with_no_card_changed(repo, monkeypatch, capsys, tmp_path_factory):
    outside = tmp_path_factory.mktemp("outside")
    (repo / "static").symlink_to(outside, target_is_directory=True)
    monkeypatch.setattr(cli, "ROOT", repo)
    monkeypatch.chdir(repo)
    assert cli.main(["validate", "--changed"]) == 1
    err = capsys.readouterr().err
    assert "0 changed card file(s)" in err and f"static: error: is a symbolic link (to {outside}" in err


# --- raw files and review pages -------------------------------------------------------------------

def validate(repo, monkeypatch, capsys, *args):
    monkeypatch.setattr(cli, "ROOT", repo)
    code = cli.main(["validate", *args])
    return code, capsys.readouterr().err


def write(repo, name, text):
    path = repo / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def test_a_raw_file_in_a_folder_of_no_card_is_refused(repo, monkeypatch, capsys):
    write(repo, "data/raw/no-card/run.out", "1 MB/s\n")
    write(repo, "data/raw/page.html", "<script>alert(1)</script>\n")
    paths, _ = changed_card_paths(repo)
    assert [p.relative_to(repo).as_posix() for p in paths] == ["data/raw/no-card/run.out", "data/raw/page.html"]
    code, err = validate(repo, monkeypatch, capsys, "--changed")
    assert code == 1
    assert "data/raw/no-card/run.out: error: data/raw/no-card/ belongs to no card" in err and "[raw-orphan]" in err
    assert "data/raw/page.html: error: a file directly in data/raw/" in err


@pytest.mark.parametrize("name", ["index.html", "s1/chart.svg", "s1/run.js", "s1/report.xml", "s1/noext"])
def test_an_active_or_unknown_file_type_in_a_cards_raw_folder_is_refused(repo, monkeypatch, capsys, name):
    write(repo, f"data/raw/card-c/{name}", "<script>alert(1)</script>\n")
    paths, _ = changed_card_paths(repo)
    assert names(paths) == ["card-c.yaml"]
    code, err = validate(repo, monkeypatch, capsys, "--changed")
    assert code == 1 and f"data/raw/card-c/{name}: error: not a raw file type" in err and "[raw-type]" in err


def test_a_raw_file_or_sums_line_no_session_names_is_an_orphan_error(repo, monkeypatch, capsys):
    write(repo, "data/raw/card-c/s1/extra.txt", "notes\n")
    write(repo, "data/raw/card-c/s1/listed.txt", "notes\n")
    write(repo, "data/raw/card-c/SHA256SUMS", "0" * 64 + "  s1/listed.txt\n" + "1" * 64 + "  s9/gone.json\n")
    write(repo, "data/raw/card-c/s1/.dd.out.123.tmp", "being written")
    code, err = validate(repo, monkeypatch, capsys, "--changed")
    assert code == 1
    assert "data/raw/card-c/s1/extra.txt: error: no session names data/raw/card-c/s1/extra.txt" in err
    assert "data/raw/card-c/s1/listed.txt: error: no session names" in err  # SHA256SUMS listing it is no excuse
    assert ("data/raw/card-c/SHA256SUMS:1: error: line 1 lists s1/listed.txt, but no session names "
            "data/raw/card-c/s1/listed.txt") in err
    assert "data/raw/card-c/SHA256SUMS:2: error: line 2 lists s9/gone.json" in err
    assert "[raw-orphan]" in err and ".tmp" not in err


def test_a_changed_review_brings_in_its_card_and_its_front_matter_is_checked(repo, monkeypatch, capsys):
    write(repo, "content/cards/card-a.md", '---\ntitle: Review\nurl: "/"\naliases: [/compare/]\n---\nText.\n')
    paths, _ = changed_card_paths(repo)
    assert names(paths) == ["card-a.yaml"]
    code, err = validate(repo, monkeypatch, capsys, "--changed")
    assert code == 1
    assert "content/cards/card-a.md:3: error: front matter key 'url' is not allowed in a review" in err
    assert "content/cards/card-a.md:4: error: front matter key 'aliases'" in err and "[review-key]" in err


@pytest.mark.parametrize("name, text, message", [
    ("content/cards/no-card.md", "---\ntitle: R\n---\n", "no-card.md:1: error: a review of no card"),
    ("content/cards/Card_A.md", "---\ntitle: R\n---\n", "Card_A.md: error: content/cards/ holds only review pages"),
    ("content/cards/card-a.markdown", "---\ntitle: R\n---\n", "card-a.markdown: error: content/cards/ holds only"),
    ("content/cards/card-a/index.md", "---\ntitle: R\n---\n", "card-a/index.md: error: content/cards/ holds only"),
    ("content/cards/card-b.md", '+++\ntitle = "R"\nurl = "/"\n+++\n', "card-b.md:1: error: a review starts with YAML"),
    ("content/cards/card-b.md", "---\ndescription: d\n---\n", "card-b.md:2: error: front matter has no title"),
    ("content/cards/card-b.md", "---\ntitle: [R\n---\n", "card-b.md:2: error: front matter is not valid YAML"),
])
def test_review_pages_that_are_not_a_cards_review_are_refused(repo, monkeypatch, capsys, name, text, message):
    write(repo, name, text)
    code, err = validate(repo, monkeypatch, capsys, "--changed")
    assert code == 1 and message in err and ("[review-file]" in err or "[review-key]" in err)


def test_other_files_among_the_cards_are_refused(repo, monkeypatch, capsys):
    write(repo, "data/cards/notes.html", "<script>alert(1)</script>\n")
    code, err = validate(repo, monkeypatch, capsys, "--changed")
    assert code == 1 and "data/cards/notes.html: error: card files are named <slug>.yaml [file-name]" in err


def test_a_full_validation_checks_raw_folders_and_reviews_too(repo, monkeypatch, capsys):
    write(repo, "data/raw/no-card/run.out", "1 MB/s\n")
    write(repo, "data/raw/card-a/page.svg", "<svg/>\n")
    write(repo, "content/cards/card-b.md", "---\ntitle: R\nlayout: compare\n---\n")
    write(repo, "content/cards/card-c.md", "---\ntitle: R\ndescription: fine\n---\nText.\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "on main, so --changed sees nothing")
    git(repo, "update-ref", "refs/remotes/origin/main", "HEAD")
    assert changed_card_paths(repo)[0] == []
    code, err = validate(repo, monkeypatch, capsys, "--cards-dir", str(repo / "data" / "cards"))
    assert code == 1
    assert "no-card/run.out: error" in err and "card-a/page.svg: error" in err
    assert "card-b.md:3: error: front matter key 'layout'" in err and "card-c.md" not in err


def test_the_collectors_log_beside_a_named_session_is_known(tmp_path):
    """collect.log grows while a run goes on, so it is never hashed or listed; beside a session the
    card names it is the collector's own and passes, anywhere else it is unlisted like any file."""
    from cardbench.card.checks.raw_files import raw_file_findings

    write(tmp_path, "data/cards/card-c.yaml", "slug: card-c\n")
    named = {"raw/card-c/s1/dd.out"}
    for rel in ("s1/dd.out", "s1/collect.log", "s2/collect.log"):
        write(tmp_path, f"data/raw/card-c/{rel}", "x\n")
    found = {rel: [f.error.rule for f in raw_file_findings(tmp_path / "data" / "raw" / "card-c" / rel,
                                                            tmp_path / "data", named)]
             for rel in ("s1/dd.out", "s1/collect.log", "s2/collect.log")}
    assert found == {"s1/dd.out": [], "s1/collect.log": [], "s2/collect.log": ["raw-orphan"]}


def test_an_unnamed_file_of_an_unfinished_collector_session_is_only_a_warning(tmp_path):
    """A stopped collector run keeps its current test's output until the same command resumes."""
    from cardbench.card.checks.raw_files import raw_file_findings, unfinished_folders

    write(tmp_path, "data/cards/card-c.yaml", "slug: card-c\n")
    card = {"slug": "card-c", "sessions": [{"id": "s1", "complete": False}, {"id": "s2"}]}
    assert unfinished_folders(card) == {"raw/card-c/s1/"}
    found = {}
    for rel in ("s1/fio.json", "s2/fio.json"):
        write(tmp_path, f"data/raw/card-c/{rel}", "{}\n")
        findings = raw_file_findings(tmp_path / "data" / "raw" / "card-c" / rel, tmp_path / "data", set(),
                                     unfinished_folders(card))
        found[rel] = [(f.severity, f.rule) for f in findings]
    assert found == {"s1/fio.json": [("warning", "raw-orphan")], "s2/fio.json": [("error", "raw-orphan")]}
