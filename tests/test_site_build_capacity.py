"""The card page shows a damaged f3probe verdict as damaged, a capacity check in the tool's words (escaped),
and an A1 marking judged by the Raspberry Pi SD Card Speed Test's own verdict."""

from pathlib import Path

import pytest

import sitebuild
from cardbench.card.dump import new_card_text
from cardbench.parsers import agnostics

pytestmark = [pytest.mark.build, pytest.mark.slow]
SPEED_TEST = (Path(__file__).parent / "fixtures" / "import-corpus" / "agnostics"
              / "agnostics--gui-log-three-runs-fail.out")


def capacity_card():
    speed = agnostics.to_session(agnostics.parse(SPEED_TEST.read_text(encoding="utf-8"))).measurements
    return {
        "schema_version": 1, "slug": "acme-capacity", "brand": "Acme", "model": "Capacity", "capacity_gb": 64,
        "form_factor": "microSD", "bus": "UHS-I", "markings": ["A1"], "source": {"name": "t"},
        "sessions": [
            {"id": "s1", "label": "probe", "f3probe": {"fake": False, "verdict": "damaged",
                                                       "announced_bytes": 4294967296, "usable_bytes": 0}},
            {"id": "s2", "label": "h2testw", "capacity_check": {
                "tool": "h2testw", "verdict": "data lost",
                "verdict_text": "The media is <b>likely</b> to be defective.",
                "bytes_written": 1048576, "bytes_ok": 524288, "bytes_lost": 524288}},
            {"id": "s3", "label": "speed test", **speed},
        ],
    }


def test_capacity_verdicts_and_the_speed_test_on_the_card_page(tmp_path):
    cards = tmp_path / "cards"
    cards.mkdir()
    (cards / "acme-capacity.yaml").write_text(new_card_text(capacity_card()), encoding="utf-8")
    project, agg, hugo = sitebuild.build(tmp_path / "site", cards_dir=cards)
    assert agg.returncode == 0, agg.stderr
    assert hugo.returncode == 0, hugo.stdout + hugo.stderr
    html = (project / "public" / "cards" / "acme-capacity" / "index.html").read_text(encoding="utf-8")
    html = html.replace('"', "")  # attributes compared without their quotes
    assert "f3probe:</strong> <span class=bad>damaged</span>" in html
    assert "DAMAGED: the card does not keep the data written to it" in html
    assert "Capacity check (h2testw):</strong> <span class=bad>data lost</span>" in html
    assert "&lt;b&gt;likely&lt;/b&gt;" in html and "<b>likely</b>" not in html
    assert ("A1: <span class=verdict bad>does not meet</span> <span class=verdict-note>— the Raspberry Pi SD Card "
            "Speed Test's own verdict") in html.replace("&#39;", "'").replace("&#x27;", "'")
