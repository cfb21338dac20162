"""The card file the site serves (/data/cards/<slug>.yaml) is the text its figures were computed from."""

from cardbench.bench.synth import card_data, card_text, slug_for
from cardbench.publish.incremental import SiteDataBuilder, build_site_data, cache_path_for


def test_the_served_card_file_is_the_checked_text_byte_for_byte(tmp_path):
    cards, out = tmp_path / "cards", tmp_path / "out"
    cards.mkdir()
    slug = slug_for(0)
    text = card_text(card_data(0)).replace("\n", "\r\n", 3)  # bytes as written, "\r\n" included
    (cards / f"{slug}.yaml").write_bytes(text.encode("utf-8"))
    assert not build_site_data(cards, out, data_dir=tmp_path / "data").errors
    served = out / "static" / "data" / "cards" / f"{slug}.yaml"
    assert served.read_bytes() == text.encode("utf-8")

    # edited after the build: the site keeps serving what its pages were made from until the next build
    (cards / f"{slug}.yaml").write_text(text + "# a later note\n", encoding="utf-8")
    assert served.read_bytes() == text.encode("utf-8")
    assert not build_site_data(cards, out, data_dir=tmp_path / "data").errors
    assert served.read_bytes().endswith(b"# a later note\n")

    # a removed card leaves the site with its copy; a lost copy is written again
    (cards / f"{slug}.yaml").rename(cards / f"{slug_for(1)}.yaml.off")
    (cards / f"{slug_for(1)}.yaml").write_text(card_text(card_data(1)), encoding="utf-8")
    build_site_data(cards, out, data_dir=tmp_path / "data")
    assert sorted(p.name for p in served.parent.iterdir()) == [f"{slug_for(1)}.yaml"]
    (served.parent / f"{slug_for(1)}.yaml").unlink()
    build_site_data(cards, out, data_dir=tmp_path / "data")
    assert (served.parent / f"{slug_for(1)}.yaml").read_text(encoding="utf-8") == card_text(card_data(1))


def test_the_preview_leaves_the_all_cards_csv_to_the_next_full_build(tmp_path):
    cards, out = tmp_path / "cards", tmp_path / "out"
    cards.mkdir()
    (cards / f"{slug_for(0)}.yaml").write_text(card_text(card_data(0)), encoding="utf-8")
    build_site_data(cards, out, data_dir=tmp_path / "data")
    joined = (out / "static" / "runs.csv").read_text(encoding="utf-8")

    # the preview (saving its cache, as its first build does) sees a run changed
    preview = SiteDataBuilder(cards, out, cache_path_for(out), tmp_path / "data", preview=True)
    data = card_data(0)
    data["sessions"][0]["results"][0]["runs"][0] += 1
    (cards / f"{slug_for(0)}.yaml").write_text(card_text(data), encoding="utf-8")
    assert not preview.build().errors
    assert (out / "static" / "runs.csv").read_text(encoding="utf-8") == joined  # not joined while previewing
    own = (out / "static" / "cards" / slug_for(0) / "runs.csv").read_text(encoding="utf-8")
    assert own.split("\n", 1)[1] not in joined

    result = build_site_data(cards, out, data_dir=tmp_path / "data")
    assert (result.checked, result.reused) == (0, 1)  # the card itself comes from the cache
    assert own.split("\n", 1)[1] in (out / "static" / "runs.csv").read_text(encoding="utf-8")
