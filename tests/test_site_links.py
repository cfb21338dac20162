"""Symbolic links among the site's inputs (static/, assets/, layouts/, content/, data/, config.toml; a card
file, a raw file, a card's raw folder) are errors in `cardbench validate` naming the link and its target,
and stop the build: `cardbench aggregate` writes nothing and `cardbench serve` does not start Hugo."""

import os

import pytest

from cardbench.card.dump import new_card_text
from cardbench.card.wording import shorten
from cardbench.cli import main
from cardbench.publish.incremental import build_site_data
from cardbench.publish.serve import serve

SLUG = "plain-card"


def plain_card():
    return {"schema_version": 1, "slug": SLUG, "brand": "Plain", "model": "Card", "capacity_gb": 32,
            "form_factor": "microSD", "bus": "UHS-I", "source": {"name": "cardbench tests"},
            "sessions": [{"id": "s1", "label": "Session", "date": "2025-01-02",
                          "results": [{"test": "SEQ1M Q8T1", "op": "read", "unit": "MB/s", "runs": [50.0, 51.0]}]}]}


@pytest.fixture
def project(tmp_path, monkeypatch):
    """A project with one valid card, its raw folder, and a folder and a file outside it to link to."""
    root = tmp_path / "project"
    (root / "data" / "cards").mkdir(parents=True)
    (root / "data" / "raw" / SLUG / "s1").mkdir(parents=True)
    (root / "data" / "cards" / f"{SLUG}.yaml").write_text(new_card_text(plain_card()), encoding="utf-8")
    for name in ("static", "assets", "layouts/_partials", "content"):
        (root / name).mkdir(parents=True)
    (root / "config.toml").write_text('title = "cardbench"\n', encoding="utf-8")
    outside = tmp_path / "outside"
    (outside / "folder").mkdir(parents=True)
    (outside / "folder" / "secret.txt").write_text("not for the site\n", encoding="utf-8")
    (outside / "card.yaml").write_text(new_card_text(dict(plain_card(), slug="linked-card")), encoding="utf-8")
    monkeypatch.chdir(root)
    return root, outside


def link_static(root, outside):
    os.rmdir(root / "static")
    (root / "static").symlink_to(outside / "folder", target_is_directory=True)
    return "static", outside / "folder"


def link_layout(root, outside):
    (root / "layouts" / "_partials" / "footer.html").symlink_to(outside / "folder" / "secret.txt")
    return "layouts/_partials/footer.html", outside / "folder" / "secret.txt"


def link_card(root, outside):
    (root / "data" / "cards" / "linked-card.yaml").symlink_to(outside / "card.yaml")
    return "data/cards/linked-card.yaml", outside / "card.yaml"


def link_raw_file(root, outside):
    (root / "data" / "raw" / SLUG / "s1" / "fio.json").symlink_to(outside / "folder" / "secret.txt")
    return f"data/raw/{SLUG}/s1/fio.json", outside / "folder" / "secret.txt"


def link_raw_folder(root, outside):
    (root / "data" / "raw" / SLUG / "s1").rmdir()
    (root / "data" / "raw" / SLUG / "s1").symlink_to(outside / "folder", target_is_directory=True)
    return f"data/raw/{SLUG}/s1", outside / "folder"


def link_config(root, outside):
    (root / "config.toml").unlink()
    (root / "config.toml").symlink_to(outside / "folder" / "secret.txt")
    return "config.toml", outside / "folder" / "secret.txt"


def link_content(root, outside):
    (root / "content" / "about.md").symlink_to("../../outside/folder/secret.txt")  # relative, as git stores it
    return "content/about.md", "../../outside/folder/secret.txt"


LINKS = [link_static, link_layout, link_card, link_raw_file, link_raw_folder, link_config, link_content]


def message(path, target):
    return f"{path}: error: is a symbolic link (to {shorten(str(target))}); the site would publish what it points to"


def test_a_project_without_links_validates_and_builds(project):
    root, _ = project
    assert main(["validate", "--cards-dir", str(root / "data" / "cards")]) == 0
    assert build_site_data(root / "data" / "cards", root / "out", data_dir=root / "data", use_cache=False).errors == 0


@pytest.mark.parametrize("make_link", LINKS, ids=[f.__name__ for f in LINKS])
def test_a_symbolic_link_is_an_error_in_validate(project, make_link, capsys):
    root, outside = project
    path, target = make_link(root, outside)
    assert main(["validate", "--cards-dir", str(root / "data" / "cards")]) == 1
    err = capsys.readouterr().err
    assert message(path, target) in err and "[symlink]" in err
    assert err.count(f"{path}: error: is a symbolic link") == 1  # named once, however it was found


@pytest.mark.parametrize("make_link", LINKS, ids=[f.__name__ for f in LINKS])
def test_a_symbolic_link_stops_the_build(project, make_link):
    root, outside = project
    path, target = make_link(root, outside)
    result = build_site_data(root / "data" / "cards", root / "out", data_dir=root / "data", use_cache=False)
    assert result.errors and any(message(path, target) in str(f) for f in result.findings)
    assert not (root / "out").exists()  # nothing written


def test_a_card_file_given_by_name_is_not_followed(project, capsys):
    root, outside = project
    path, target = link_card(root, outside)
    assert main(["validate", path]) == 1
    assert message(path, target) in capsys.readouterr().err


def test_serve_does_not_start_hugo_over_a_link(project):
    root, outside = project
    link_static(root, outside)
    said = []
    hugo = root / "no-hugo-here"  # never run: the check comes first
    code = serve(root / "data" / "cards", root / "out", hugo, root, said.append)
    assert code == 1 and any("symbolic link" in line for line in said)
