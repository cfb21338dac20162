"""Names that pose as other names: words mixing scripts, and brands that look like a brand on the site."""

from pathlib import Path

import pytest

from cardbench.card.dump import new_card_text
from cardbench.card.load import parse_card_text
from cardbench.card.lookalike import brand_key, lookalike_brands, skeleton
from cardbench.card.checks.validate import check_card, validate_paths
from cardbench.errors import CardFileError
from cardbench.imports.importer import import_file
from carddata import TODAY, card_data

FIXTURES = Path(__file__).parent / "fixtures"


def script_findings(tmp_path, data):
    card = parse_card_text(new_card_text(data), tmp_path / f"{data['slug']}.yaml")
    return [(f.error.field, f.error.message) for f in check_card(card, today=TODAY, data_dir=tmp_path)
            if f.rule == "name-script"]


def test_cyrillic_letter_in_a_latin_brand_is_named(tmp_path):
    [(field, message)] = script_findings(tmp_path, card_data(brand="S\u0430nDisk"))
    assert field == "brand"
    assert message.startswith("'\u0430' U+0430 CYRILLIC SMALL LETTER A at position 2 mixes Cyrillic into a "
                              "Latin word")


@pytest.mark.parametrize("field, value, shown", [
    ("model", "Extreme PR\u039f", "U+039F GREEK CAPITAL LETTER OMICRON at position 11 mixes Greek into a Latin"),
    ("controller", "Phis\u043conic", "U+043C CYRILLIC SMALL LETTER EM at position 5"),
    ("part_number", "SDSQ\u0425N", "U+0425 CYRILLIC CAPITAL LETTER HA at position 5"),
])
def test_mixed_scripts_in_other_names(tmp_path, field, value, shown):
    [(got_field, message)] = script_findings(tmp_path, card_data(**{field: value}))
    assert got_field == field and shown in message


def test_session_label_with_mixed_scripts_is_refused(tmp_path):
    data = card_data()
    data["sessions"][0]["label"] = "R\u0435ader run"
    [(field, message)] = script_findings(tmp_path, data)
    assert field == "sessions[0].label" and "U+0435 CYRILLIC SMALL LETTER IE at position 2" in message


@pytest.mark.parametrize("brand, model", [
    ("삼성", "EVO 플러스"),                 # Korean, Hangul
    ("キオクシア", "EXCERIA 高耐久"),        # Japanese: Katakana; Han with Latin in another word
    ("東京エレクトロン", "microSDカード"),   # Han and Katakana in one word; Latin with Katakana
    ("闪迪", "至尊超极速 microSD卡"),       # Chinese
    ("Кингстон", "Канва Селект"),          # all Cyrillic
    ("Σ Card", "Ultra-2 (A1)"),            # digits and punctuation belong to no script
])
def test_one_script_per_word_passes(tmp_path, brand, model):
    assert script_findings(tmp_path, card_data(brand=brand, model=model)) == []


def test_text_outside_names_is_not_checked(tmp_path):
    assert script_findings(tmp_path, card_data(notes="S\u0430nDisk reader")) == []


def test_skeleton_folds_lookalikes():
    assert skeleton("S\u0430nDisk") == skeleton("SanDisk") == skeleton("\uff33\uff41\uff4e\uff24\uff49\uff53\uff4b")
    assert skeleton("Lexar") != skeleton("Lexor")


@pytest.mark.parametrize("capitals, spelled", [("SANDISK", "SanDisk"), ("KINGSTON", "Kingston"), ("KIOXIA", "Kioxia"),
                                               ("SILICON POWER", "Silicon Power")])
def test_a_brand_in_capitals_is_the_same_brand(capitals, spelled):
    assert brand_key(capitals) == brand_key(spelled) == brand_key(spelled.lower())
    assert lookalike_brands({spelled: 2, capitals: 1}) == {capitals: spelled}


def test_capitals_drawn_like_other_letters_still_pose():
    assert lookalike_brands({"SANDISK": 2, "SANDlSK": 1, "KODAK": 2, "K0DAK": 1}) == {"SANDlSK": "SANDISK",
                                                                                      "K0DAK": "KODAK"}
    assert lookalike_brands({"SanDisk": 1, "Lexar": 1, "Kingston": 1, "Samsung": 1}) == {}


def write_card(cards, slug, brand):
    (cards / f"{slug}.yaml").write_text(new_card_text(card_data(slug=slug, brand=brand, sessions=[])),
                                        encoding="utf-8")
    return cards / f"{slug}.yaml"


def test_brand_that_looks_like_a_site_brand_is_refused(tmp_path):
    cards = tmp_path / "data" / "cards"
    cards.mkdir(parents=True)
    write_card(cards, "sandisk-a-64gb-microsdxc", "SanDisk")
    write_card(cards, "sandisk-b-64gb-microsdxc", "SanDisk")
    posing = write_card(cards, "fake-64gb-microsdxc", "\uff33\uff41\uff4e\uff24\uff49\uff53\uff4b")  # fullwidth
    _, findings = validate_paths(sorted(cards.iterdir()), today=TODAY)
    found = [(f.error.path, f.error.message) for f in findings if f.rule == "brand-lookalike"]
    assert found == [(str(posing),
                      "brand 'ＳａｎＤｉｓｋ' looks like the brand 'SanDisk' of 2 card(s) on the site but is "
                      "not the same text ('Ｓ' U+FF33 FULLWIDTH LATIN CAPITAL LETTER S at position 1); "
                      "spell it as that brand does")]


def test_brand_lookalike_is_found_when_only_the_new_card_is_checked(tmp_path):
    cards = tmp_path / "data" / "cards"
    cards.mkdir(parents=True)
    write_card(cards, "kodak-a-64gb-microsdxc", "KODAK")
    write_card(cards, "kodak-b-64gb-microsdxc", "KODAK")
    posing = write_card(cards, "k0dak-64gb-microsdxc", "K0DAK")
    _, findings = validate_paths([posing], today=TODAY)
    assert [f.rule for f in findings if f.severity == "error"] == ["brand-lookalike"]


def test_import_refuses_a_new_card_with_a_lookalike_brand(tmp_path):
    cards = tmp_path / "data" / "cards"
    cards.mkdir(parents=True)
    write_card(cards, "sandisk-a-64gb-microsdxc", "SanDisk")
    with pytest.raises(CardFileError, match=r"brand-lookalike|looks like the brand 'SanDisk'"):
        import_file(FIXTURES / "fio" / "fio--cdm-4-jobs.out", cards, "sandisk-x-64gb-microsdxc",
                    name="\uff33\uff41\uff4e\uff24\uff49\uff53\uff4b Extreme 64GB")
    assert sorted(p.name for p in cards.iterdir()) == ["sandisk-a-64gb-microsdxc.yaml"]
    assert not (tmp_path / "data" / "raw").exists() or not any((tmp_path / "data" / "raw").rglob("*.json"))


def test_the_site_cards_pass():
    root = Path(__file__).resolve().parents[1] / "data" / "cards"
    _, findings = validate_paths(sorted(root.glob("*.yaml")))
    assert [str(f) for f in findings if f.rule in ("name-script", "brand-lookalike")] == []


def test_an_import_of_a_file_whose_name_mixes_scripts_lands_under_the_copys_name(tmp_path):
    cards = tmp_path / "data" / "cards"
    cards.mkdir(parents=True)
    log = tmp_path / "fi\u043e-run.out"  # Cyrillic о
    log.write_bytes((FIXTURES / "fio" / "fio--cdm-4-jobs.out").read_bytes())
    result = import_file(log, cards, "acme-x-64gb-microsdxc", name="Acme X 64GB")
    [session] = parse_card_text((cards / "acme-x-64gb-microsdxc.yaml").read_text(encoding="utf-8"),
                                cards / "acme-x-64gb-microsdxc.yaml").data["sessions"]
    assert session["label"] == "Imported fi--run.out" and result.raw[0].endswith("/fi--run.out")


def test_new_card_refuses_a_brand_spelled_unlike_the_sites(tmp_path):
    from cardbench.card.store.newcard import create_card
    from cardbench.errors import CardbenchError

    cards = tmp_path / "data" / "cards"
    cards.mkdir(parents=True)
    write_card(cards, "sandisk-a-64gb-microsdxc", "SanDisk")
    answers = {"brand": "Sandisk", "model": "Ultra", "capacity_gb": 64, "form_factor": "microSD", "bus": "UHS-I",
               "markings": []}
    with pytest.raises(CardbenchError, match=r"looks like the brand 'SanDisk'.*\[brand-lookalike\]"):
        create_card(answers, cards, tmp_path / "content", today=TODAY)
    assert sorted(p.name for p in cards.iterdir()) == ["sandisk-a-64gb-microsdxc.yaml"]


def test_an_import_label_that_mixes_scripts_is_refused_as_a_label(tmp_path):
    cards = tmp_path / "data" / "cards"
    cards.mkdir(parents=True)
    with pytest.raises(Exception, match=r"the session label fails the card's checks: 'а' U\+0430 .*--label") as err:
        import_file(FIXTURES / "fio" / "fio--cdm-4-jobs.out", cards, "acme-x-64gb-microsdxc", name="Acme X 64GB",
                    label="Dаily run")
    assert "figures" not in str(err.value) and not any(cards.iterdir())
