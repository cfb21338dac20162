"""One figure, one reading: the sequential figures the findings judge are those the headlines accept, so
a card page never says "limited by the reader: writes …" beside "Sequential write: not measured"."""

import json

import pytest

from cardbench.figures.aggregate import aggregate
from cardbench.figures.findings.signal_path import _sequential_figures
from cardbench.pages.pagemodel import card_page
from cardbench.figures.stats import CardFigures
from test_headlines import card, dd, headline, session

RDISK = "dd if=/dev/zero of=/dev/rdisk4 bs=1m count=256"


@pytest.mark.parametrize("flag", ["fdatasync", "fsync", "dsync", "sync"])
def test_a_synced_dd_write_to_the_device_is_a_sequential_write(flag):
    pick = headline(card(session(dd=[dd("write", "4M", runs=[18.1], flags=(flag,))])), "seq_write")
    assert (pick["rule"], pick["mb_s"]) == ("dd-synced-write", 18.1)


def test_dd_on_macos_raw_device_is_measured_both_ways():
    the_card = card(session(dd=[dd("write", "1M", runs=[24.0], flags=(), command=RDISK),
                                dd("read", "1M", runs=[89.6], flags=(),
                                   command="dd if=/dev/rdisk4 of=/dev/null bs=1m")]))
    assert headline(the_card, "seq_write")["rule"] == headline(the_card, "seq_read")["rule"] == "dd-raw-device"
    buffered = card(session(dd=[dd("write", "1M", runs=[400.0], flags=(),
                                   command="dd if=/dev/zero of=/dev/disk4 bs=1m")]))
    assert headline(buffered, "seq_write") is None  # /dev/disk4 goes through the buffer cache


def sequential_figures(session):
    return _sequential_figures(session, 0, CardFigures.of_card({"sessions": [session]}))


def test_findings_judge_only_figures_the_headlines_accept():
    cached = session(reader="USB 2.0 reader", dd=[dd("write", "1M", runs=[400.0], flags=()),
                                                  dd("read", "1M", runs=[40.0], flags=(),
                                                     command="dd if=/dev/sdb of=/dev/null")])
    assert sequential_figures(cached) == {}  # memory, not the card: neither headline nor finding
    synced = session(dd=[dd("write", "4M", runs=[20.0], flags=("fdatasync",)), dd("read", "4M", runs=[41.0])])
    assert set(sequential_figures(synced)) == {"read", "write"}


def _page(flags):
    """A card imported from dd logs on a UHS-I reader: writes of 89.8 MB/s, near the bus's ceiling."""
    write = dd("write", "4M", runs=[89.8, 89.7], flags=flags, command="dd if=/dev/zero of=/dev/sdb bs=4M count=256")
    read = dd("read", "4M", runs=[90.1], flags=("direct",), command="dd if=/dev/sdb of=/dev/null bs=4M iflag=direct")
    the_card = card(session(reader="USB 3.0 card reader", dd=[write, read]))
    the_card["markings"] = ["U3"]
    twin = aggregate([the_card])["cards"]["acme-a"]
    reasons = " ".join(f.get("reason", "") + json.dumps(f) for f in twin["findings"] + twin["findings_notes"]
                       if f["id"] == "reader_limited")
    return twin, card_page(twin), reasons


def test_a_synced_write_near_the_ceiling_reads_the_same_in_findings_claims_and_classes():
    twin, page, reasons = _page(("fdatasync",))
    assert "dd bs=4M write, mean 89.8 MB/s" in reasons
    write = next(r for r in page["claimed_rows"] if r["name"] == "Sequential write")
    assert 'data-mb="89.8"' in write["measured"] and "synced (fdatasync)" in write["by"]
    assert page["class_checks"][0]["verdict"]["id"] == "meets"  # U3: 30 MB/s


def test_a_write_through_the_page_cache_is_neither_judged_nor_shown():
    twin, page, reasons = _page(())
    assert "write" not in reasons  # before: "limited by the reader: writes 89.8 MB/s" beside "not measured"
    write = next(r for r in page["claimed_rows"] if r["name"] == "Sequential write")
    assert write["measured"] is None and page["class_checks"][0]["verdict"]["id"] == "cannot_tell"
