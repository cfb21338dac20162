"""Each card's JSON twin, written whole by cardbench aggregate with the card's addresses on the site."""

import json

from cardbench.publish import incremental, sitedata


def test_the_twin_carries_the_card_and_its_addresses(monkeypatch):
    monkeypatch.setattr(sitedata, "site_address", lambda: "https://mirror.example.org/cardbench/")
    twin = json.loads(sitedata.card_twin({"slug": "acme", "title": "Acme <b>"}))
    assert twin == {"format_version": sitedata.FORMAT_VERSION, "slug": "acme", "title": "Acme <b>",
                    "url": "https://mirror.example.org/cardbench/cards/acme/",
                    "yaml_url": "https://mirror.example.org/cardbench/data/cards/acme.yaml"}


def test_the_site_address_comes_from_the_config_and_a_new_one_rewrites_every_twin(tmp_path, monkeypatch):
    assert sitedata.site_address().startswith("https://") and sitedata.site_address().endswith("/")
    before = incremental._environment(tmp_path, tmp_path)
    monkeypatch.setattr(incremental, "site_address", lambda: "https://mirror.example.org/")
    assert incremental._environment(tmp_path, tmp_path) != before  # the cache is not reused
