"""A comparison that leaves out many cards names the first few on /compare/ and every one, with why, on
/compare/left-out/: the comparison page stays small at thousands of cards."""

import re
from html import unescape

import pytest

import sitebuild
from cardbench.bench.synth import card_data, card_text
from cardbench.publish.sitedata import LEFT_OUT_SHOWN

pytestmark = pytest.mark.build
ODD = '<b>Odd</b> & "Co"'


@pytest.fixture(scope="module")
def public(tmp_path_factory):
    cards = tmp_path_factory.mktemp("cards")
    for i in range(36):
        data = card_data(i)
        if i == 1:
            data["brand"], data["model"] = "Oddity", ODD
        (cards / f"{data['slug']}.yaml").write_text(card_text(data), encoding="utf-8")
    project, agg, built = sitebuild.build(tmp_path_factory.mktemp("site"), cards_dir=cards)
    assert agg.returncode == 0, agg.stderr
    assert built.returncode == 0, built.stdout + built.stderr
    return project / "public"


def items(html):
    return re.findall(r'<li><a href="?([^" >]+)"?>(.*?)</a>: ', html)


def test_the_comparison_names_a_few_and_links_every_card_left_out(public):
    page = (public / "compare" / "index.html").read_text(encoding="utf-8")
    whole = (public / "compare" / "left-out" / "index.html").read_text(encoding="utf-8")
    capped = 0
    for block in re.findall(r'<div class="?left-out"?>(.*?)</div>', page, re.S):
        first = re.search(r"the first \d+ of ([\d,]+)", block)
        if not first:  # a short list is named whole
            assert len(items(block)) <= LEFT_OUT_SHOWN and "compare/left-out/" not in block
            continue
        capped += 1
        count = int(first.group(1).replace(",", ""))
        assert len(items(block)) == LEFT_OUT_SHOWN < count
        suite = re.search(r'href="?/compare/left-out/#(suite-[a-z0-9-]+)"?', block).group(1)
        section = whole[whole.index(f'id="{suite}"'):]
        section = section[:section.index("</section>")]
        assert len(items(section)) == count and items(section)[:LEFT_OUT_SHOWN] == items(block)
    assert capped


def test_a_card_title_on_the_left_out_page_is_text(public):
    whole = (public / "compare" / "left-out" / "index.html").read_text(encoding="utf-8")
    titles = [unescape(title) for _, title in items(whole)]
    assert any(ODD in t for t in titles) and "<b>Odd</b>" not in whole
    assert all(href.startswith("/cards/synthetic-card-") for href, _ in items(whole))
