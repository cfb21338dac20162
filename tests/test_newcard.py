"""`cardbench new-card` / `make new-card`: a skeleton card file that validates unchanged, a review
page on request, safe quoting of any text, and no file ever replaced."""

import io
import os
import pty
import re
import subprocess
import sys
from types import SimpleNamespace

import jinja2
import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardbench.card.store.session_text import append_session_text
from cardbench.cli import main
from cardbench.card.load import load_card, parse_card_text
from cardbench.errors import CardbenchError
from cardbench.card.identity import make_slug, parse_capacity
from cardbench.card.store.newcard import _environment, card_values, create_card, gather_answers, parse_markings, render
from cardbench.card.checks.schema_findings import schema_validator
from cardbench.card.checks.validate import check_card, validate_paths

from conftest import ROOT

ANSWERS = {"brand": "SanDisk", "model": "Extreme PRO", "capacity_gb": 256, "form_factor": "microSD",
           "bus": "UHS-I", "markings": ["U3", "V30", "A2"]}
SLUG = "sandisk-extreme-pro-256gb-microsdxc"


@pytest.fixture
def run_cli(monkeypatch, capsys):
    """`cardbench new-card` through the command line's entry point in this process, with nothing on its input
    (no terminal to ask in): its exit status and what it wrote to stderr. An exception escaping it fails the
    test, as a traceback would."""
    def run(*args):
        monkeypatch.setattr(sys, "stdin", io.StringIO(""))
        code = main(["new-card", *args])
        return SimpleNamespace(returncode=code, stderr=capsys.readouterr().err)
    return run


def test_cli_writes_a_skeleton_that_validates_unchanged(tmp_path, run_cli, capsys):
    cards = tmp_path / "cards"
    run = run_cli("--brand", "SanDisk", "--model", "Extreme PRO", "--capacity-gb", "256", "--form-factor", "microsd",
                  "--bus", "uhs-i", "--markings", "U3, v30 A2", "--cards-dir", str(cards))
    assert run.returncode == 0, run.stderr
    path = cards / f"{SLUG}.yaml"
    text = path.read_text(encoding="utf-8")
    assert text.startswith("# yaml-language-server: $schema=../schema/card.schema.json\n")
    code = main(["validate", str(path)])
    err = capsys.readouterr().err
    assert code == 0 and "0 error(s)" in err, err
    data = load_card(path).data
    assert {k: data[k] for k in ANSWERS} == ANSWERS
    assert data["family"] == "SDXC" and data["sessions"] == [] and data["slug"] == SLUG


def test_review_page_has_title_front_matter_and_a_placeholder(tmp_path):
    create_card(ANSWERS, tmp_path / "cards", tmp_path / "content", review=True)
    text = (tmp_path / "content" / f"{SLUG}.md").read_text(encoding="utf-8")
    _, front, body = text.split("---\n", 2)
    assert yaml.safe_load(front) == {"title": "SanDisk Extreme PRO 256 GB microSDXC"}
    assert len(body.strip().splitlines()) == 1 and "review" in body


def test_never_replaces_a_file(tmp_path, run_cli):
    cards, content = tmp_path / "cards", tmp_path / "content"
    create_card(ANSWERS, cards, content)
    before = (cards / f"{SLUG}.yaml").read_bytes()
    with pytest.raises(CardbenchError, match="already exists"):
        create_card(dict(ANSWERS, brand="SanDisk"), cards, content)
    assert (cards / f"{SLUG}.yaml").read_bytes() == before
    run = run_cli("--brand", "SanDisk", "--model", "Extreme PRO", "--capacity-gb", "256", "--form-factor", "microSD",
                  "--bus", "UHS-I", "--cards-dir", str(cards))
    assert run.returncode == 2 and "already exists; not replacing it" in run.stderr


def test_existing_review_stops_before_anything_is_written(tmp_path):
    content = tmp_path / "content"
    content.mkdir()
    (content / f"{SLUG}.md").write_text("mine\n")
    with pytest.raises(CardbenchError, match="already exists"):
        create_card(ANSWERS, tmp_path / "cards", content, review=True)
    assert not (tmp_path / "cards" / f"{SLUG}.yaml").exists()
    assert (content / f"{SLUG}.md").read_text() == "mine\n"


def test_without_a_terminal_missing_answers_are_listed(tmp_path, run_cli):
    run = run_cli("--brand", "Acme", "--cards-dir", str(tmp_path))
    assert run.returncode == 2
    assert "missing --model, --capacity-gb, --form-factor, --bus" in run.stderr and "Traceback" not in run.stderr


def test_bad_answer_is_refused_naming_the_choices(tmp_path, run_cli):
    run = run_cli("--brand", "Acme", "--model", "X", "--capacity-gb", "64", "--form-factor", "nano", "--bus", "UHS-I",
                  "--cards-dir", str(tmp_path))
    assert run.returncode == 2 and "form factor 'nano' is not one of: microSD, SD" in run.stderr


def test_questions_are_asked_again_until_answered():
    replies = iter(["", "Acme", "Fast", "lots", "64", "microSD", "UHS-9", "UHS-I", "U3 X9", "U3"])
    problems = []

    def ask(prompt, problem):
        problems.append(problem)
        return next(replies)

    answers = gather_answers({}, ask)
    assert answers == {"brand": "Acme", "model": "Fast", "capacity_gb": 64, "form_factor": "microSD",
                       "bus": "UHS-I", "markings": ["U3"]}
    assert [p for p in problems if p] == ["brand is empty", "capacity 'lots' is not a number of GB (e.g. 256, or 1TB)",
                                          "bus 'UHS-9' is not one of: Default/High Speed, UHS-I, UHS-II, UHS-III, "
                                          "SD Express", "marking 'X9' is not one of: C2, C4, C6, C10, U1, U3, V6, V10, "
                                          "V30, V60, V90, A1, A2, E150, E300, E450, E600"]


def test_interactive_in_a_terminal(tmp_path):
    leader, follower = pty.openpty()
    try:
        os.write(leader, b"Lexar\nPlay PRO\n1TB\nmicroSD\nSD Express\nA2\n")
        run = subprocess.run([sys.executable, "-m", "cardbench", "new-card", "--cards-dir", str(tmp_path)],
                             stdin=follower, capture_output=True, text=True, cwd=ROOT, timeout=60)
    finally:
        os.close(leader)
        os.close(follower)
    assert run.returncode == 0, run.stderr
    assert "Brand as printed" in run.stdout
    data = load_card(tmp_path / "lexar-play-pro-1tb-microsd-express.yaml").data
    assert data["capacity_gb"] == 1000 and data["bus"] == "SD Express" and data["markings"] == ["A2"]


@pytest.mark.parametrize("brand, model, capacity, form, bus, slug", [
    ("SanDisk", "Extreme PRO", 256, "microSD", "UHS-I", "sandisk-extreme-pro-256gb-microsdxc"),
    ("Lexar", "Lexar Play PRO", 1000, "microSD", "SD Express", "lexar-play-pro-1tb-microsd-express"),
    ("Samsung", "EVO Plus", 32, "SD", "UHS-I", "samsung-evo-plus-32gb-sdhc"),
    ("Kingston", "Canvas Go! Plus", 1.5, "SD", "Default/High Speed", "kingston-canvas-go-plus-1-5gb-sd"),
    ("Señor", "Rápido", 2500, "SD", "UHS-II", "senor-rapido-2-5tb-sduc"),
])
def test_slug_from_brand_model_capacity_and_size(brand, model, capacity, form, bus, slug):
    values = card_values({"brand": brand, "model": model, "capacity_gb": capacity, "form_factor": form, "bus": bus,
                          "markings": []})
    assert values["slug"] == slug
    assert make_slug(brand, model, capacity, form, values["family"], bus) == slug


def test_slug_that_cannot_be_made_asks_for_one(tmp_path):
    answers = dict(ANSWERS, brand="東芝", model="高速")
    with pytest.raises(CardbenchError, match="pass --slug"):
        create_card(answers, tmp_path, tmp_path)
    [path] = create_card(answers, tmp_path, tmp_path, slug="toshiba-fast-256gb-microsdxc")
    assert load_card(path).data["brand"] == "東芝"


@pytest.mark.parametrize("text, gb", [("256", 256), ("256GB", 256), ("256 gb", 256), ("1TB", 1000), ("1.5 TB", 1500),
                                      ("0.5", 0.5)])
def test_capacity_forms(text, gb):
    assert parse_capacity(text) == gb


def test_markings_forms():
    assert parse_markings("u3,V30;  a2 U3") == ["U3", "V30", "A2"]
    assert parse_markings("") == []


def test_template_refuses_unquoted_values():
    with pytest.raises(TypeError, match="without the yaml filter"):
        _environment().from_string("brand: {{ brand }}").render(brand="x\nslug: evil")
    rendered = _environment().from_string("brand: {{ brand | yaml }}").render(brand="x\nslug: evil")
    assert rendered == 'brand: "x\\nslug: evil"'
    with pytest.raises(jinja2.UndefinedError):
        _environment().from_string("{{ missing | yaml }}").render()


def test_collector_can_append_a_session_to_the_skeleton(tmp_path):
    [path] = create_card(ANSWERS, tmp_path, tmp_path)
    text = path.read_text(encoding="utf-8")
    session = {"id": "2025-05-17-reader", "label": "USB 3 reader", "date": "2025-05-17",
               "results": [{"test": "SEQ1M Q8T1", "op": "read", "unit": "MB/s", "runs": [90.5, 91.0]}]}
    appended = append_session_text(text, session)
    assert appended.startswith(text.replace("sessions: []\n", "sessions:\n"))
    path.write_text(appended, encoding="utf-8")
    cards, findings = validate_paths([path])
    assert [str(f) for f in findings] == [] and cards[0].data["sessions"] == [session]


# Any text a name may hold (no control, zero-width or direction characters, which the schema refuses
# in names) survives the template byte for byte.
_HIDDEN = re.compile(schema_validator().schema["properties"]["brand"]["not"]["pattern"])
_TEXT = st.text(st.characters(blacklist_categories=("Cc", "Cs")), min_size=1, max_size=60).filter(
    lambda text: not _HIDDEN.search(text))


@settings(max_examples=200, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(brand=_TEXT, model=_TEXT)
def test_any_text_round_trips_through_the_template(brand, model):
    answers = dict(ANSWERS, brand=brand, model=model)
    values = card_values(answers, slug="fuzz-card")
    card = parse_card_text(render("card.yaml.j2", values), "fuzz-card.yaml")
    assert card.data["brand"] == brand and card.data["model"] == model and card.data["slug"] == "fuzz-card"
    review = render("review.md.j2", values)
    assert yaml.safe_load(review.split("---\n")[1]) == {"title": values["title"]}
    schema_errors = [f for f in check_card(card) if f.severity == "error" and f.rule.startswith("schema:")]
    if brand.strip() == brand and model.strip() == model:
        assert schema_errors == []
