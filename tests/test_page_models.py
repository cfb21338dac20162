"""Every page is drawn from one model that Python writes and a JSON Schema checks as the site data is
written (pages/schemas/): the card page, the comparison page and its cards, the cards it leaves out, the home
page's rows and filters, the /readers/ page. A model that no longer holds what its page reads stops the build
naming the file and the field."""

import ast
import json
from pathlib import Path

import pytest

from cardbench.publish import sitedata
from cardbench.figures.aggregate import aggregate
from cardbench.pages.modelcheck import SCHEMA_DIR, PageModelError, check_model
from cardbench.pages.pagemodel import card_page
from cardbench.pages.card_readers_page import readers_page
from cardbench.publish.site_files import write_outputs
from markupcards import runs_card, summary_card
from planted import planted_copy
from readercards import hostile_reader, two_readers


@pytest.fixture(scope="module")
def shipped(shipped_result):
    return shipped_result


PAGE_MODELS = {"card-page", "compare", "compare-card", "leaderboard-row", "leaderboard-filters", "left-out", "readers"}
PUBLISH = Path(sitedata.__file__).parent


def checked_models(source):
    """The schema names a module's source checks models against (the first argument of each check_model call)."""
    return {node.args[0].value for node in ast.walk(ast.parse(source))
            if isinstance(node, ast.Call)
            and getattr(node.func, "id", getattr(node.func, "attr", None)) == "check_model"
            and node.args and isinstance(node.args[0], ast.Constant)}


def unmatched_models(schema_dir, publish_dir, listed=PAGE_MODELS):
    """What keeps a page model from being checked: a schema no module checks against, a check with no schema, and
    either one missing from `listed` (the models this test covers)."""
    schemas = {path.name.removesuffix(".schema.json") for path in Path(schema_dir).glob("*.schema.json")}
    checked = set().union(*(checked_models(p.read_text(encoding="utf-8")) for p in Path(publish_dir).rglob("*.py")))
    return {"schema never checked": schemas - checked, "checked with no schema": checked - schemas,
            "not covered here": (schemas | checked) - listed, "covered here, gone": listed - (schemas | checked)}


def test_every_page_model_has_its_schema_and_is_checked_where_it_is_written():
    assert not any(unmatched_models(SCHEMA_DIR, PUBLISH).values()), unmatched_models(SCHEMA_DIR, PUBLISH)
    for path in SCHEMA_DIR.glob("*.schema.json"):
        assert json.loads(path.read_text(encoding="utf-8"))["title"]


def test_a_model_written_unchecked_is_reported(tmp_path):
    text = (PUBLISH / "sitedata.py").read_text(encoding="utf-8")
    assert 'check_model("readers", ' in text
    publish = planted_copy(tmp_path, {"sitedata.py": text.replace('check_model("readers", ', 'print("readers", ')},
                           tree=PUBLISH)
    assert unmatched_models(SCHEMA_DIR, publish)["schema never checked"] == {"readers"}


def test_a_schema_or_check_this_test_does_not_cover_is_reported(tmp_path):
    readers_schema = (SCHEMA_DIR / "readers.schema.json").read_text(encoding="utf-8")
    schemas = planted_copy(tmp_path, {"hosts.schema.json": readers_schema}, tree=SCHEMA_DIR)
    publish = planted_copy(tmp_path, {"planted.py": 'check_model("hosts", {}, "site/hosts.json")\n'}, tree=PUBLISH)
    found = unmatched_models(schemas, publish)
    assert found["not covered here"] == {"hosts"} and not found["schema never checked"]

    assert unmatched_models(SCHEMA_DIR, PUBLISH, PAGE_MODELS - {"readers"})["not covered here"] == {"readers"}


def test_a_check_with_no_schema_is_reported(tmp_path):
    schemas = planted_copy(tmp_path, {"readers.schema.json": None}, tree=SCHEMA_DIR)
    assert unmatched_models(schemas, PUBLISH)["checked with no schema"] == {"readers"}


def test_every_shipped_and_hostile_cards_page_model_matches_its_schema(shipped):
    hostile = aggregate([two_readers(), hostile_reader(), runs_card(), summary_card()])
    for card in [*shipped["cards"].values(), *hostile["cards"].values()]:
        check_model("card-page", card_page(card), card["slug"])


@pytest.mark.parametrize("break_it, field, words", [
    (lambda page: page["sessions"][0].pop("stats"), "sessions[0]", "'stats' is a required property"),
    (lambda page: page["sessions"][0]["chart"].update(height="300"), "sessions[0].chart.height",
     "is not of type 'integer'"),
    (lambda page: page.update(findings=[{"id": "erase_block"}]), "findings[0]", "'label' is a required property"),
    (lambda page: page.update(sessions_shown=1), "", "Additional properties are not allowed"),
])
def test_a_wrong_card_page_model_stops_the_build_naming_the_card_and_field(shipped, tmp_path, monkeypatch, break_it,
                                                                           field, words):
    def broken(card):
        page = card_page(card)
        break_it(page)
        return page
    monkeypatch.setattr(sitedata, "card_page", broken)
    with pytest.raises(PageModelError) as caught:
        write_outputs(shipped, tmp_path)
    assert caught.value.where.startswith("pages/") and caught.value.where.endswith(".html (its page model)")
    assert caught.value.field.startswith(field) and words in caught.value.message
    assert not (tmp_path / "pages").exists() or not list((tmp_path / "pages").iterdir())  # nothing half-written


def test_the_readers_page_model_of_shipped_and_hostile_cards_matches_its_schema(shipped, tmp_path):
    write_outputs(shipped, tmp_path)  # checks it as it is written
    check_model("readers", json.loads((tmp_path / "site" / "readers.json").read_text(encoding="utf-8")), "shipped")
    hostile = aggregate([two_readers(), hostile_reader(), runs_card(), summary_card()])
    write_outputs(hostile, tmp_path / "hostile")
    assert json.loads((tmp_path / "hostile" / "site" / "readers.json").read_text(encoding="utf-8"))["readers"]


@pytest.mark.parametrize("break_it, field, words", [
    (lambda page: page["readers"][0].pop("cards"), "readers[0]", "'cards' is a required property"),
    (lambda page: page["hosts"][0]["cards"][0].update(read={"text": "9"}), "hosts[0].cards[0].read",
     "is a required property"),
    (lambda page: page.update(adapters=[]), "", "Additional properties are not allowed"),
])
def test_a_wrong_readers_page_model_stops_the_build(shipped, tmp_path, monkeypatch, break_it, field, words):
    def broken(cards, text_order):
        page = readers_page(cards, text_order)
        break_it(page)
        return page
    monkeypatch.setattr(sitedata, "readers_page", broken)
    with pytest.raises(PageModelError) as caught:
        write_outputs(shipped, tmp_path)
    assert caught.value.where == "site/readers.json"
    assert caught.value.field.startswith(field) and words in caught.value.message
