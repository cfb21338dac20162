"""Every page is drawn from one model that Python writes and a JSON Schema checks as the site data is
written (pages/schemas/): the card page, the comparison page, the home page's rows and filters. A model
that no longer holds what its page reads stops the build naming the file and the field."""

import json
from pathlib import Path

import pytest

from cardbench.card.load import load_card
from cardbench.core.paths import CARDS_DIR
from cardbench.publish import sitedata
from cardbench.figures.aggregate import aggregate
from cardbench.pages.modelcheck import SCHEMA_DIR, PageModelError, check_model
from cardbench.pages.pagemodel import card_page
from cardbench.publish.site_files import write_outputs
from markupcards import runs_card, summary_card
from readercards import hostile_reader, two_readers


@pytest.fixture(scope="module")
def shipped():
    return aggregate([load_card(path).data for path in sorted(Path(CARDS_DIR).glob("*.yaml"))])


def test_every_page_kind_has_its_schema():
    names = {path.name.removesuffix(".schema.json") for path in SCHEMA_DIR.glob("*.schema.json")}
    assert {"card-page", "compare", "compare-card", "leaderboard-row", "leaderboard-filters"} <= names
    for path in SCHEMA_DIR.glob("*.schema.json"):
        assert json.loads(path.read_text(encoding="utf-8"))["title"]


def test_every_shipped_and_hostile_cards_page_model_matches_its_schema(shipped):
    hostile = aggregate([two_readers(), hostile_reader(), runs_card(), summary_card()])
    for card in [*shipped["cards"].values(), *hostile["cards"].values()]:
        check_model("card-page", card_page(card), card["slug"])


@pytest.mark.parametrize("break_it, field, words", [
    (lambda page: page["sessions"][0].pop("stats"), "sessions[0]", "'stats' is a required property"),
    (lambda page: page["sessions"][0]["chart"].update(height="300"), "sessions[0].chart.height", "is not of type 'integer'"),
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
