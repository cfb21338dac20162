"""A card's name as a contributor types it: the capacity is said once in the title, the slug is made
from the name when none is given (and said), and a name close to a card the site has gets a "did you
mean" in every way in."""

import shutil
from pathlib import Path

import pytest

from cardbench import cli
from cardbench.card.identity import model_without_capacity
from cardbench.card.load import load_card
from cardbench.core.titles import card_title
from cardbench.imports.submission import submit
from test_submission import body_of

ROOT = Path(__file__).resolve().parents[1]
LOG = ROOT / "tests" / "fixtures" / "import-corpus" / "dd" / "dd--oflag-dsync-kb-per-s.out"
FORM = (ROOT / ".github" / "ISSUE_TEMPLATE" / "add-result.yml").read_text(encoding="utf-8")


@pytest.mark.parametrize("model, capacity, kept", [
    ("Speedy 32GB", 32, "Speedy"), ("Extreme 64 GB", 64, "Extreme"), ("PLAY PRO 1TB", 1000, "PLAY PRO"),
    ("Evo (64GB)", 64, "Evo"), ("Ultra 64GB/128GB", 64, "Ultra 64GB/128GB"), ("Evo 32GB", 64, "Evo 32GB"),
    ("16GB", 16, "16GB"), ("Pro-64GB", 64, "Pro-64GB"),
])
def test_the_model_leaves_out_the_cards_own_capacity(model, capacity, kept):
    assert model_without_capacity(model, capacity) == kept


def test_a_named_import_says_the_capacity_once(tmp_path, capsys):
    cards = tmp_path / "data" / "cards"
    cards.mkdir(parents=True)
    assert cli.main(["import", str(LOG), "--name", "Acme Speedy 32GB", "--cards-dir", str(cards)]) == 0
    err = capsys.readouterr().err
    assert "import: card acme-speedy-32gb-microsdhc (made from the name" in err
    card = load_card(cards / "acme-speedy-32gb-microsdhc.yaml").data
    assert card_title(card) == "Acme Speedy 32 GB microSDHC"


def test_the_forms_own_placeholder_name_says_the_capacity_once(tmp_path):
    placeholder = FORM.split("placeholder: ", 1)[1].split("\n", 1)[0]
    cards = tmp_path / "data" / "cards"
    cards.mkdir(parents=True)
    result = submit(body_of(LOG.read_text(encoding="utf-8"), name=placeholder), cards)
    assert result.accepted, result.message
    title = card_title(load_card(result.card_path).data)
    assert title.count("64") == 1, title


@pytest.fixture
def shipped_cards(tmp_path):
    data = tmp_path / "data"
    shutil.copytree(ROOT / "data", data, ignore=shutil.ignore_patterns(".locks"))
    return data / "cards"


def test_a_name_close_to_a_shipped_card_gets_a_did_you_mean(shipped_cards, tmp_path, capsys):
    # The shipped Samsung UHS-I C10 U1 64GB is an SD card; a microSD of that line is another card.
    form_cards = tmp_path / "form" / "cards"
    shutil.copytree(shipped_cards, form_cards)
    assert cli.main(["import", str(LOG), "--name", "Samsung UHS-I C10 U1 64GB", "--form", "microSD",
                     "--cards-dir", str(shipped_cards)]) == 0
    err = capsys.readouterr().err
    assert "did you mean samsung-uhs-i-c10-u1-64gb-sdxc" in err
    result = submit(body_of(LOG.read_text(encoding="utf-8"), name="Samsung UHS-I C10 U1 64GB", form="microSD",
                            host="Laptop"), form_cards)
    assert result.accepted and "Did you mean `samsung-uhs-i-c10-u1-64gb-sdxc`" in result.message


def test_a_result_for_the_card_itself_gets_none(shipped_cards, capsys):
    assert cli.main(["import", str(LOG), "--card", "sandisk-extreme-64gb-sdxc", "--cards-dir",
                     str(shipped_cards)]) == 0
    assert "did you mean" not in capsys.readouterr().err


def test_the_collector_suggests_the_slug_before_touching_a_device(shipped_cards, capsys):
    code = cli.main(["collect", "/dev/null", "--name", "Samsung UHS-I C10 U1 64GB", "--data-dir",
                     str(shipped_cards.parent)])
    err = capsys.readouterr().err
    assert code == 2
    assert "CARD=samsung-uhs-i-c10-u1-64gb-microsdxc" in err and "did you mean samsung-uhs-i-c10-u1-64gb-sdxc" in err
