"""A small valid card and its checks, for the tests of card files (validation, attacks, look-alike names)."""

import datetime

from cardbench.card.dump import new_card_text
from cardbench.card.load import parse_card_text
from cardbench.card.checks.validate import check_card

TODAY = datetime.date(2025, 6, 1)
SLUG = "acme-fast-64gb-microsdxc"


def card_data(slug=SLUG, **overrides):
    """A card with one session of one subtest that passes every check; overrides replace its fields."""
    data = {
        "schema_version": 1, "slug": slug, "brand": "Acme", "model": "Fast", "capacity_gb": 64,
        "form_factor": "microSD", "bus": "UHS-I", "source": {"name": "test"},
        "sessions": [{"id": "s1", "label": "Reader", "date": "2025-05-01", "results": [
            {"test": "SEQ1M Q8T1", "op": "read", "unit": "MB/s", "runs": [90.1, 91.2]}]}],
    }
    data.update(overrides)
    return data


def findings_for(data, tmp_path, today=TODAY, data_dir=None):
    """Every check's findings on `data` read as the card file acme-fast-64gb-microsdxc.yaml (whatever its slug)."""
    card = parse_card_text(new_card_text(data), tmp_path / f"{SLUG}.yaml")
    return check_card(card, today=today, data_dir=data_dir or tmp_path)


def by_rule(findings, rule):
    return [f for f in findings if f.rule == rule]
