"""A card's identity read one way everywhere (card.identity): the slug rule as `make new-card`, `cardbench
import` and the collector apply it, capacity and form factor from a name or a device."""

import pytest

from cardbench.card.identity import (capacity_from_name, check_slug, form_factor_from_name, make_slug,
                                     marketed_capacity_gb)
from cardbench.card.store.newcard import card_values
from cardbench.collect.errors import CardMismatchError
from cardbench.collect.runner import CollectRequest, collect
from cardbench.errors import CardbenchError
from cardbench.imports.naming import card_for_name, check_slug as import_check_slug

ANSWERS = {"brand": "SanDisk", "model": "Extreme", "capacity_gb": 64, "form_factor": "microSD", "bus": "UHS-I",
           "markings": []}


@pytest.mark.parametrize("size,gb", [(63864569856, 64), (15931539456, 16), (31914983424, 32), (1000204886016, 1000),
                                     (127865454592, 128), (17179869184, 17.2)])
def test_marketed_capacity(size, gb):
    assert marketed_capacity_gb(size) == gb


@pytest.mark.parametrize("name,form", [("SanDisk Extreme 64GB", ("microSD", "default")),
                                       ("Lexar Professional SDXC 1667x", ("SD", "from the name")),
                                       ("Samsung EVO Select microSDXC", ("microSD", "from the name")),
                                       ("Kingston Canvas SD", ("SD", "from the name")), (None, ("microSD", "default"))])
def test_form_factor_from_name(name, form):
    assert form_factor_from_name(name) == form


@pytest.mark.parametrize("name, capacity", [("Lexar PLAY PRO 1TB", 1000), ("SanDisk Ultra 64GB", 64),
                                            ("Samsung PRO Plus 512 GB", 512), ("Lexar", None)])
def test_capacity_from_name(name, capacity):
    assert capacity_from_name(name) == capacity


def test_an_import_reads_a_full_size_card_from_its_name_as_the_collector_does():
    # The import used to take every new card for a microSD card unless told; the collector read "SDXC".
    _, used = card_for_name("x-card", "SanDisk Extreme PRO SDXC 64GB")
    assert used["form_factor"] == ("SD", "from the name")
    card, used = card_for_name("x-card", "SanDisk Extreme PRO 64GB")
    assert used["form_factor"] == ("microSD", "default") and card["form_factor"] == "microSD"


def _collector_refusal(slug, tmp_path):
    request = CollectRequest(device="/dev/null", slug=slug, name="SanDisk Extreme 64GB", data_dir=tmp_path)
    with pytest.raises(CardMismatchError) as refused:
        collect(request)  # the slug is checked first, before root, the card file or the device
    return str(refused.value)


@pytest.mark.parametrize("slug", ["sandisk-extreme-64gb\n", "Sandisk", "-x-", "a", "x" * 101, "../x"])
def test_new_card_import_and_collector_refuse_the_same_slugs(slug, tmp_path):
    with pytest.raises(CardbenchError, match="pass --slug|--slug"):
        card_values(ANSWERS, slug=slug)
    with pytest.raises(CardbenchError, match=r"\(--card, CARD=\)"):
        import_check_slug(slug)
    assert "(--card, make: CARD=)" in _collector_refusal(slug, tmp_path)


def test_a_slug_of_the_schema_form_and_length_passes_everywhere():
    slug = "s" * 100
    assert check_slug(slug, "--slug") == import_check_slug(slug) == card_values(ANSWERS, slug=slug)["slug"] == slug


def test_a_final_newline_does_not_pass_as_part_of_a_slug():
    # Python's $ matches before a final newline; the schema's pattern means the whole text.
    with pytest.raises(CardbenchError, match=r"'sandisk-extreme-64gb\\n'"):
        check_slug("sandisk-extreme-64gb\n", "--card")


def test_made_slugs_stay_within_the_schema_length():
    slug = make_slug("SanDisk", "Extreme " * 30, 64, "microSD", "SDXC")
    assert len(slug) <= 100 and check_slug(slug, "--slug") == slug and slug.endswith("extreme")
