"""The preview notices a saved card as soon as it is saved, and makes the first change to the cards section
in Hugo's server itself, once the server answers."""

import http.server
import json
import os
import re
import shutil
import socket
import sys
import threading
import time

import pytest

import cardbench.publish.folderwatch as folderwatch
import cardbench.publish.serve as serve_module
from cardbench.bench.synth import card_data, card_text, slug_for
from cardbench.core.paths import ROOT
from cardbench.publish import hugowarm
from cardbench.publish.folderwatch import EVENT_HEADER, OVERFLOW, FolderWatch, event_names

import sitebuild


def _event(name, mask=folderwatch.IN_MOVED_TO):
    raw = name.encode() + b"\0" * (16 - len(name.encode()) % 16)  # the kernel pads names with NULs
    return EVENT_HEADER.pack(1, mask, 0, len(raw)) + raw


def test_event_names_reads_every_name_and_a_lost_queue():
    buffer = _event("a.yaml") + _event(".b.yaml.tmp", folderwatch.IN_CLOSE_WRITE) + _event("ü.yaml")
    buffer += EVENT_HEADER.pack(-1, folderwatch.IN_Q_OVERFLOW, 0, 0)
    assert event_names(buffer) == {"a.yaml", ".b.yaml.tmp", "ü.yaml", OVERFLOW}
    assert event_names(b"") == set()


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="inotify is Linux's")
def test_a_card_renamed_into_the_folder_wakes_the_watch(tmp_path):
    with FolderWatch(tmp_path) as watch:
        assert watch.fd is not None
        assert watch.wait(0.01) == set()
        temp = tmp_path / ".card.yaml.tmp"
        temp.write_text("slug: x\n", encoding="utf-8")
        threading.Timer(0.05, os.replace, (temp, tmp_path / "card.yaml")).start()
        names, deadline = set(), time.monotonic() + 30
        while "card.yaml" not in names and time.monotonic() < deadline:
            names |= watch.wait(1)
        assert "card.yaml" in names
        (tmp_path / "card.yaml").unlink()
        names, deadline = set(), time.monotonic() + 30
        while "card.yaml" not in names and time.monotonic() < deadline:
            names |= watch.wait(1)
        assert "card.yaml" in names  # a removed card too


def test_without_inotify_the_watch_only_waits(tmp_path, monkeypatch):
    monkeypatch.setattr(folderwatch, "_inotify_fd", lambda folder: None)
    with FolderWatch(tmp_path) as watch:
        (tmp_path / "card.yaml").write_text("slug: x\n", encoding="utf-8")
        assert watch.wait(0.01) == set()  # the serve loop's polling finds it


def test_hugos_server_counts_as_up_only_once_it_answers():
    with socket.socket() as quiet:  # accepts connections but answers nothing, as Hugo's server while it builds
        quiet.bind(("127.0.0.1", 0))
        quiet.listen()
        assert not hugowarm.server_answers("127.0.0.1", quiet.getsockname()[1])
        closed_port = quiet.getsockname()[1]
    assert not hugowarm.server_answers("127.0.0.1", closed_port)
    server = http.server.HTTPServer(("127.0.0.1", 0), http.server.BaseHTTPRequestHandler)  # answers 501 to HEAD
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        assert hugowarm.server_answers("0.0.0.0", server.server_address[1])  # a server bound to every address
    finally:
        server.shutdown()
        server.server_close()


def _site(tmp_path):
    root = tmp_path / "site"
    (root / "data" / "cards").mkdir(parents=True)
    shutil.copy(ROOT / "config.toml", root / "config.toml")
    (root / "data" / "cards" / f"{slug_for(0)}.yaml").write_text(card_text(card_data(0)), encoding="utf-8")
    return root


def test_the_serve_loop_warms_hugos_server_once_when_it_answers(tmp_path, monkeypatch):
    root = _site(tmp_path)
    warm_dir = hugowarm.preview_data_dir(root / "out")
    (warm_dir / hugowarm.WARM_FILE).write_text("{}", encoding="utf-8")  # a previous preview's
    events, answers = [], iter([False, False, True, True, True, True])

    class Server:  # Hugo's server: answers from its third poll, ends after its sixth
        returncode = 0

        def __init__(self, argv):
            events.append(("started, warm file there", (warm_dir / hugowarm.WARM_FILE).exists()))
            self.polls = 0

        def poll(self):
            self.polls += 1
            return 0 if self.polls > 6 else None

    def answers_now(bind, port):
        answer = next(answers)
        events.append(("answers", answer))
        return answer

    monkeypatch.setattr(serve_module.subprocess, "Popen", Server)
    monkeypatch.setattr(serve_module.os, "nice", lambda step: None)
    monkeypatch.setattr(serve_module, "server_answers", answers_now)
    monkeypatch.setattr(serve_module, "POLL_SECONDS", 0.01)
    monkeypatch.setattr(serve_module, "warm", lambda folder: (events.append(("warmed", folder)),
                                                              hugowarm.warm(folder)))
    assert serve_module.serve(root / "data" / "cards", root / "out", tmp_path / "hugo", root, print) == 0
    assert events == [("started, warm file there", False), ("answers", False), ("answers", False),
                      ("answers", True), ("warmed", warm_dir)]
    assert "started" in json.loads((warm_dir / hugowarm.WARM_FILE).read_text(encoding="utf-8"))
    config = json.loads((root / "hugo-serve.json").read_text(encoding="utf-8"))
    assert {"source": "hugo-serve-data", "target": "data"} in config["module"]["mounts"]


def _partials(text):
    return re.findall(r'partial(?:Cached)? "([^"]+)"', text)


def test_card_pages_depend_on_their_section_and_read_neither_content_nor_the_card_index():
    """What keeps `make serve` quick at thousands of cards (publish/hugowarm.py): a template reading either
    would tie every card page to each change again."""
    layouts = ROOT / "layouts"
    card = (layouts / "cards" / "card.html").read_text(encoding="utf-8")
    assert ".Parent" in card
    todo, seen, texts = _partials(card), set(), [card]
    while todo:
        name = todo.pop()
        if name not in seen:
            seen.add(name)
            text = (layouts / "_partials" / name).read_text(encoding="utf-8")
            texts.append(text)
            todo += _partials(text)
    assert {"card/meta.html", "card/kept-text.html", "card/text.html", "meta.html"} <= seen
    for text in texts:
        code = re.sub(r"\{\{-?\s*/\*.*?\*/\s*-?\}\}", "", text, flags=re.S)  # comments may name them
        assert not re.search(r"\b(hugo|site)\.Data\b", code)
        assert not re.search(r"\.(Content|RawContent|Plain|PlainWords|Summary|WordCount|ReadingTime|TableOfContents)"
                             r"(?![A-Za-z])", code)
    adapter = (ROOT / "content" / "cards" / "_content.gotmpl").read_text(encoding="utf-8")
    assert '"layout" "card"' in adapter


@pytest.mark.build
def test_the_warm_up_page_is_neither_rendered_nor_listed(tmp_path):
    project = sitebuild.make_project(tmp_path / "site")
    assert sitebuild.aggregate(project).returncode == 0
    out = project / "build" / "hugo-data"
    hugowarm.warm(hugowarm.preview_data_dir(out))
    config = serve_module.serve_config(project, out)
    public = tmp_path / "public"
    built = sitebuild.hugo(project, "--config", str(config), destination=public)
    assert built.returncode == 0, built.stdout + built.stderr
    assert not [p for p in public.rglob("*") if "preview" in p.name.lower() and p.name != "preview.png"]
    sitemap = (public / "sitemap.xml").read_text(encoding="utf-8")
    assert "_preview" not in sitemap and "/cards/" in sitemap
    shipped = sorted(p.stem for p in (ROOT / "data" / "cards").glob("*.yaml"))
    assert sorted(p.parent.name for p in (public / "cards").glob("*/index.html")) == shipped


@pytest.mark.parametrize("intruder", ["file", "link", "folder link"])
def test_the_preview_refuses_a_data_folder_not_its_own(tmp_path, monkeypatch, intruder):
    """Hugo's server reads every data file of the folder: one put there (a cards.json, a link to
    elsewhere) would change what the preview shows, or where its file is written."""
    root = _site(tmp_path)
    folder = root / "hugo-serve-data"
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    if intruder == "folder link":
        folder.symlink_to(elsewhere, target_is_directory=True)
    else:
        folder.mkdir()
        if intruder == "file":
            (folder / "cards.json").write_text("{}", encoding="utf-8")
        else:
            (folder / "preview.yaml").symlink_to(elsewhere / "preview.yaml")
    started, said = [], []
    monkeypatch.setattr(serve_module.subprocess, "Popen", lambda argv: started.append(argv))
    assert serve_module.serve(root / "data" / "cards", root / "out", tmp_path / "hugo", root, said.append) == 1
    assert not started and "the preview is not started" in said[-1] and str(folder) in said[-1]
    assert list(elsewhere.iterdir()) == []


def test_a_killed_previews_half_written_file_is_cleared(tmp_path):
    folder = hugowarm.preview_data_dir(tmp_path / "out")
    (folder / ".preview.json.999999999.abcdef.tmp").write_text("{", encoding="utf-8")  # no such process
    assert hugowarm.preview_data_dir(tmp_path / "out") == folder and os.listdir(folder) == []
