"""A card file or pull request made to mislead: huge keys, raw paths that collide on other systems,
SHA256SUMS lines reaching outside the card, brands that differ only in spacing, case or encoding."""

import unicodedata

from cardbench.card.store.checksums import update_sha256sums
from cardbench.card.dump import new_card_text
from cardbench.card.load import parse_card_text
from cardbench.card.checks.validate import check_card, validate_paths
from carddata import SLUG, TODAY, card_data

def test_a_megabyte_key_is_not_echoed_whole(tmp_path):
    text = new_card_text(card_data()) + "? " + "k" * 500_000 + "\n: 1\n"
    findings = check_card(parse_card_text(text, tmp_path / f"{SLUG}.yaml"), today=TODAY, data_dir=tmp_path)
    [unknown] = [f for f in findings if f.rule == "schema:additionalProperties"]
    assert len(str(unknown)) < 1000


def write_raw(tmp_path, name, content=b"fio output\n"):
    path = tmp_path / "raw" / SLUG / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(content)


def test_raw_paths_one_file_apart_only_on_macos_and_windows_are_refused(tmp_path):
    decomposed = unicodedata.normalize("NFD", "s1/é.json")
    names = ["s1/fio.json", "s1/FIO.json", "s1/é.json", decomposed]
    for name in names:
        write_raw(tmp_path, name, name.encode())
    update_sha256sums(tmp_path / "raw" / SLUG, names)
    data = card_data()
    data["sessions"][0]["raw"] = [f"raw/{SLUG}/{name}" for name in names]
    card = parse_card_text(new_card_text(data), tmp_path / f"{SLUG}.yaml")
    found = [(f.error.field, f.error.message) for f in check_card(card, today=TODAY, data_dir=tmp_path)
             if f.rule == "raw-path"]
    assert [field for field, _ in found] == ["sessions[0].raw[1]", "sessions[0].raw[3]"]
    assert "differs from 'raw/acme-fast-64gb-microsdxc/s1/fio.json' only in letter case" in found[0][1]


def card_with_sums_file(tmp_path):
    """(data folder holding the small valid card, where its SHA256SUMS goes, its folder made)."""
    data_dir = tmp_path / "data"
    (data_dir / "cards").mkdir(parents=True)
    (data_dir / "cards" / f"{SLUG}.yaml").write_text(new_card_text(card_data()), encoding="utf-8")
    sums = data_dir / "raw" / SLUG / "SHA256SUMS"
    sums.parent.mkdir(parents=True)
    return data_dir, sums


def test_sums_lines_naming_files_outside_the_card_are_orphans(tmp_path):
    data_dir, sums = card_with_sums_file(tmp_path)
    sums.write_text("0" * 64 + "  ../other-card/fio.json\n" + "1" * 64 + "  /etc/passwd\n")
    _, findings = validate_paths([data_dir / "cards" / f"{SLUG}.yaml"], today=TODAY)
    orphans = sorted((f.error.line, f.severity) for f in findings if f.rule == "raw-orphan")
    assert orphans == [(1, "error"), (2, "error")]


def test_brands_apart_only_in_spacing_case_or_encoding_are_one_brand(tmp_path):
    cards = tmp_path / "data" / "cards"
    cards.mkdir(parents=True)
    brands = {"emtec-a": "Émtec", "emtec-b": "Émtec", "emtec-c": unicodedata.normalize("NFD", "Émtec"),
              "emtec-d": "Émtec ", "emtec-e": "ÉMTEC", "emtec-f": "Em\u00a0tec"}
    for slug, brand in brands.items():
        (cards / f"{slug}.yaml").write_text(new_card_text(card_data(slug=slug, brand=brand, sessions=[])),
                                            encoding="utf-8")
    _, findings = validate_paths(sorted(cards.iterdir()), today=TODAY)
    refused = sorted(f.error.path.rsplit("/", 1)[1] for f in findings if f.rule == "brand-lookalike")
    assert refused == ["emtec-c.yaml", "emtec-d.yaml", "emtec-e.yaml"]


def test_a_symbolic_link_loop_as_raw_file_is_named_not_a_crash(tmp_path):
    (tmp_path / "raw" / SLUG / "s1").mkdir(parents=True)
    (tmp_path / "raw" / SLUG / "s1" / "loop.json").symlink_to("loop.json")
    data = card_data()
    data["sessions"][0]["raw"] = [f"raw/{SLUG}/s1/loop.json"]
    card = parse_card_text(new_card_text(data), tmp_path / f"{SLUG}.yaml")
    [finding] = [f for f in check_card(card, today=TODAY, data_dir=tmp_path) if f.rule == "raw-path"]
    assert "loop of symbolic links" in finding.error.message


def test_a_huge_or_malformed_sums_file_is_refused_even_when_no_session_names_a_file(tmp_path):
    data_dir, sums = card_with_sums_file(tmp_path)
    sums.write_text("# x\n" * (1024 * 1024 + 1))
    _, findings = validate_paths([data_dir / "cards" / f"{SLUG}.yaml"], today=TODAY)
    assert [f.rule for f in findings if f.severity == "error"] == ["raw-hash"]
    sums.write_text("not a line\n")
    _, findings = validate_paths([data_dir / "cards" / f"{SLUG}.yaml"], today=TODAY)
    assert [(f.rule, f.error.line) for f in findings if f.severity == "error"] == [("raw-hash", 1)]


def test_a_brand_padded_with_a_blank_looking_character_or_rn_for_m_is_refused(tmp_path):
    cards = tmp_path / "data" / "cards"
    cards.mkdir(parents=True)
    for slug, brand in {"samsung-a": "Samsung", "samsung-b": "Samsung", "samsung-c": "Sarnsung",
                        "samsung-d": "Samsung \u2800"}.items():
        (cards / f"{slug}.yaml").write_text(new_card_text(card_data(slug=slug, brand=brand, sessions=[])),
                                            encoding="utf-8")
    _, findings = validate_paths(sorted(cards.iterdir()), today=TODAY)
    found = sorted((f.error.path.rsplit("/", 1)[1], f.rule) for f in findings if f.severity == "error")
    assert found == [("samsung-c.yaml", "brand-lookalike"), ("samsung-d.yaml", "brand-lookalike"),
                     ("samsung-d.yaml", "name-script")]
