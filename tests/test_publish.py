"""The files served as they are, placed into the built site after Hugo (publish/served_files.py), and mounted
into the preview's Hugo server instead."""

import json
import os

from cardbench.publish.served_files import publish, serve_mounts
from cardbench.publish.serve import serve_config


def _tree(root):
    out = root / "build" / "hugo-data"
    (out / "static" / "cards" / "acme").mkdir(parents=True)
    (out / "static" / "cards" / "acme" / "index.json").write_text("{}", encoding="utf-8")
    (out / "static" / "cards" / "acme" / ".index.json.1.x.tmp").write_text("half", encoding="utf-8")
    (out / "static" / "data" / "cards").mkdir(parents=True)
    (out / "static" / "data" / "cards" / "acme.yaml").write_text("slug: acme\n", encoding="utf-8")
    (out / "static" / "data" / "cards" / "elsewhere.yaml").symlink_to(out / "static" / "data" / "cards" / "acme.yaml")
    (out / "static" / "runs.csv").write_text("a,b\n", encoding="utf-8")
    (out / "raw" / "acme" / "s1").mkdir(parents=True)
    (out / "raw" / "acme" / "s1" / "fio.json").write_text("{}", encoding="utf-8")
    return out


def test_files_land_where_hugo_served_them(tmp_path):
    out = _tree(tmp_path)
    public = tmp_path / "public"
    (public / "cards" / "acme").mkdir(parents=True)
    (public / "cards" / "acme" / "index.json").write_text("stale", encoding="utf-8")  # replaced
    assert publish(out, public) == 4
    placed = sorted(p.relative_to(public).as_posix() for p in public.rglob("*") if p.is_file())
    assert placed == ["cards/acme/index.json", "data/cards/acme.yaml", "data/raw/acme/s1/fio.json", "runs.csv"]
    assert (public / "cards" / "acme" / "index.json").read_text(encoding="utf-8") == "{}"
    assert publish(out, public) == 4  # again, over the files it placed


def test_files_are_linked_not_copied(tmp_path):
    out = _tree(tmp_path)
    public = tmp_path / "public"
    publish(out, public)
    # aggregate replaces its files whole (a new file, then a rename), so a link always shows what was built
    assert os.path.samefile(public / "runs.csv", out / "static" / "runs.csv")
    assert os.path.samefile(public / "data" / "cards" / "acme.yaml", out / "static" / "data" / "cards" / "acme.yaml")


def test_the_preview_mounts_the_same_folders(tmp_path):
    out = _tree(tmp_path)
    (tmp_path / "config.toml").write_text('baseURL = "https://x.example/"\n[module]\n[[module.mounts]]\n'
                                          'source = "layouts"\ntarget = "layouts"\n', encoding="utf-8")
    assert serve_mounts(out, tmp_path) == [
        {"source": "build/hugo-data/static", "target": "static", "files": ["! runs.csv"]},
        {"source": "build/hugo-data/raw", "target": "static/data/raw"}]
    config = json.loads(serve_config(tmp_path, out).read_text(encoding="utf-8"))
    assert config["baseURL"] == "https://x.example/"
    assert config["module"]["mounts"][0] == {"source": "layouts", "target": "layouts"}
    # and the preview's own data folder (publish/hugowarm.py)
    assert config["module"]["mounts"][1:] == serve_mounts(out, tmp_path) + [{"source": "build/hugo-serve-data",
                                                                              "target": "data"}]


def _previewed(out, slugs):
    from cardbench.pages.preview_image import PREVIEWS

    (out / PREVIEWS).parent.mkdir(parents=True, exist_ok=True)
    previews = [{"slug": s, "title": f"Acme <b>{s}</b> 64GB", "figures": [["Sequential read", 95.2, "", "95.2 MB/s"],
                                                                        ["Sequential write", None, "", "not stated"]]}
                for s in slugs]
    (out / PREVIEWS).write_text(json.dumps(previews), encoding="utf-8")
    return previews


def test_each_card_page_gets_its_link_preview_image(tmp_path, monkeypatch):
    from PIL import Image

    monkeypatch.delenv("CARDBENCH_PREVIEW_CACHE")  # the site's own folder beside its build

    out = _tree(tmp_path)
    _previewed(out, ["acme", "gone"])
    public = tmp_path / "public"
    (public / "cards" / "acme").mkdir(parents=True)
    assert publish(out, public) == 5  # the four files, and acme's image ("gone" has no page)
    with Image.open(public / "cards" / "acme" / "preview.png") as image:
        assert (image.format, image.size) == ("PNG", (1200, 630))
    assert not (public / "cards" / "gone").exists()


def test_an_unchanged_card_is_not_drawn_again(tmp_path, monkeypatch):
    from cardbench.pages import preview_image

    monkeypatch.delenv("CARDBENCH_PREVIEW_CACHE")  # the site's own folder, which drops what no card shows
    out = _tree(tmp_path)
    previews = _previewed(out, ["acme"])
    first = preview_image.draw_previews(out)["acme"]
    drawn = []
    monkeypatch.setattr(preview_image, "draw_png", lambda p: drawn.append(p) or b"png")
    assert preview_image.draw_previews(out)["acme"] == first and drawn == []
    previews[0]["figures"][1][1:] = [40.0, "", "40.0 MB/s"]  # a new write figure: a new image, the old one removed
    (out / preview_image.PREVIEWS).write_text(json.dumps(previews), encoding="utf-8")
    second = preview_image.draw_previews(out)["acme"]
    assert second != first and drawn and not first.exists()


def test_the_image_prints_a_figure_as_the_card_page_does():
    from cardbench.figures.formatting import format_by_size
    from cardbench.pages.preview_image import preview_of

    pick = {"mb_s": 30.15, "kind": "runs"}  # 30.149999… in binary: Python's format gives 30.1, the page 30.2
    preview = preview_of({"slug": "acme", "title": "Acme", "headline": {"seq_read": pick, "seq_write": None}})
    assert preview["figures"] == [["Sequential read", 30.15, "", f"{format_by_size(30.15)} MB/s"],
                                  ["Sequential write", None, "", "not stated"]]
    assert preview["figures"][0][3] == "30.2 MB/s"


def test_a_long_title_is_fitted_into_the_image():
    from PIL import Image, ImageDraw

    from cardbench.pages.preview_image import _fitted

    draw = ImageDraw.Draw(Image.new("RGB", (10, 10)))
    text, font = _fitted(draw, "SanDisk Extreme PRO microSDXC UHS-I A2 V30 " * 6, 64, 1060)
    assert text.endswith("…") and draw.textlength(text, font=font) <= 1060


def test_a_shared_folder_serves_every_build_and_keeps_other_builds_images(tmp_path, monkeypatch):
    from cardbench.pages import preview_image

    shared = tmp_path / "shared"
    monkeypatch.setenv("CARDBENCH_PREVIEW_CACHE", str(shared))
    first, second = _tree(tmp_path / "a"), _tree(tmp_path / "b")
    _previewed(first, ["acme"])
    _previewed(second, ["other"])
    image = preview_image.draw_previews(first)["acme"]
    assert image.parent == shared and preview_image.draw_previews(second)["other"].parent == shared
    assert image.exists()  # the second build shows no acme, and leaves its image for the first
