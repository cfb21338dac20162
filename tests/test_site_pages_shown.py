"""What the built pages show a reader who knows the sources: the comparison names every card it leaves
out, sources are linked for what they are, findings lead with a line each and keep the basis a click away."""

import re
from html import unescape

import pytest

EXPRESS = "sandisk-microsd-express-256gb-microsd-express"


@pytest.fixture(scope="module")
def site(shipped_site):
    return shipped_site


def text_of(html):
    return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", html))).strip()


def page(site, *parts):
    return (site.joinpath(*parts) / "index.html").read_text(encoding="utf-8")


@pytest.mark.build
def test_comparison_names_the_cards_each_chart_leaves_out(site):
    html = page(site, "compare")
    suite = re.split(r'id="?suite-dd-method-not-stated"? ', html)[1].split("</section>")[0]
    left = text_of(re.split(r'class="?left-out', suite)[1])
    assert "SanDisk Ultra Plus 128 GB microSDXC : no read in this set; its read: dd bs=4K" in left
    heading = text_of(re.search(r"<h2 .*?</h2>", suite, re.S).group(0))
    assert "not stated" in heading and "method not stated" not in heading and "4 MiB" not in heading
    rest = text_of(re.split(r'id="?not-compared"? ', html)[1].split("</section>")[0])
    assert "All " in rest and " cards in no chart, and why" in rest  # a few named here, every one on its own page
    every = text_of(page(site, "compare", "left-out"))
    for title in ("Lexar Class 10 16 GB microSDHC", "SanDisk Ultra 64 GB microSDXC", "Silicon Motion SM2708"):
        assert title in every


@pytest.mark.build
def test_the_post_and_its_raw_data_are_linked_each_for_what_it_is(site):
    html = page(site, "cards", EXPRESS).replace("&#x27;", "'")
    post = re.search(r'<a href="?([^" >]+)"?[^>]*>microSD Express Benchmarks \(blog post\)</a>', html)
    data = re.search(r'<a href="?([^" >]+)"?[^>]*>sdexpress-research \(the post\'s raw data on GitHub\)</a>', html)
    assert post and "github.com" not in post.group(1)
    assert data and data.group(1) == "https://github.com/M1cha/sdexpress-research"
    korean = page(site, "cards", "sandisk-extreme-256gb-microsdxc")
    assert '"SD Card 성능 시험" ("SD card performance test")' in unescape(korean)


@pytest.mark.build
def test_findings_lead_with_a_line_and_keep_the_basis_one_click_away(site):
    html = page(site, "cards", "lexar-class-10-16gb-microsdhc")
    findings = re.split(r'id="?findings"?>', html)[1].split("</section>")[0]
    row = re.search(r'<tr id="?finding-erase_block-[^" >]+"?>(.*?)</tr>', findings, re.S).group(1)
    assert text_of(re.search(r'<td class="?verdict"?>(.*?)</td>', row, re.S).group(1)) == "Erases in blocks of 4 MiB"
    evidence = re.search(r'<td class="?evidence"?><details><summary>(.*?)</summary>(.*?)</details>', row, re.S)
    assert evidence and "flashbench -a" in evidence.group(2) and "flashbench -a" not in evidence.group(1)
    assert re.search(r'<th scope="?row"?>Erase block \(allocation unit\)</th>', row)  # still a table with row headers
