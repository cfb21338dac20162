"""What an expert reads from the stored runs, as numbers with the reason beside each: flash
structure (flashbench), the SLC cache and the speed after it (sustained fill), figures held back by
the reader or bus (only where the card is shown to be faster), run-to-run stability and slowing over
repeated runs, real capacity and the manufacturer ID. Every rate in a finding is MB/s (10^6 bytes/s).

card_findings(card) is pure: a card dict in, findings out. Every figure a finding takes from the runs
(a subtest's mean, its runs in MB/s) is the statistics' own (stats.CardFigures), so a finding and the
page's tables never disagree on which runs count. Each finding is
    {id, label, value, unit, at_least, text, basis, session, session_label, ...}
where `basis` says in words what it rests on and `text` is the value as a reader sees it. Where
a session holds data of a kind that cannot support its finding, `notes` says why and no finding
is given. Thresholds live in thresholds.py.
"""

from ..stats import CardFigures
from .capacity import capacity_check_findings, f3probe_findings, manufacturer_findings
from .devicefacts import read_device_facts
from .fill import fill_findings
from .flash import align_findings, open_au_findings
from .signal_path import reader_findings
from .stability import stability_findings
from .words_only import words_only_notes

# Order on the page: what a card is, then how fast it writes for long, then how it was measured.
ORDER = ("fake_capacity", "manufacturer_id", "erase_block", "page_size", "open_aus_sequential", "open_aus_random",
         "slc_cache", "write_in_cache", "write_after_cache", "write_later", "sustained_write", "reader_limited",
         "stability", "slows_over_runs")


def card_findings(card, device_facts=None, figures=None):
    """(findings, notes) for one card dict. device_facts: session id -> the collector's device facts
    (collect.json), for the manufacturer ID check; figures: the card's stats.CardFigures (computed here
    when not given)."""
    figures = figures or CardFigures.of_card(card)
    findings, notes = [], []
    aligned, align_notes = align_findings(card)
    erase_blocks = {f["session"]: f["value"] for f in aligned if f["id"] == "erase_block"}
    parts = [(aligned, align_notes), open_au_findings(card, erase_blocks), fill_findings(card),
             reader_findings(card, figures), stability_findings(card, figures), f3probe_findings(card),
             capacity_check_findings(card), manufacturer_findings(card, device_facts)]
    for found, why in parts:
        findings += found
        notes += why
    notes += words_only_notes(card, findings, notes)
    findings.sort(key=lambda f: ORDER.index(f["id"]))
    return findings, notes


def attach_findings(card, card_json, figures=None, data_dir=None):
    """Put the card's findings into its JSON twin (the class checks read them: classchecks.class_checks)."""
    findings, notes = card_findings(card, read_device_facts(card, data_dir), figures)
    card_json["findings"] = findings
    card_json["findings_notes"] = notes
    return card_json


__all__ = ["attach_findings", "card_findings", "ORDER"]
