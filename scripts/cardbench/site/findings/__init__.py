"""What an expert reads from the stored runs, as numbers with the reason beside each: flash
structure (flashbench), the SLC cache and the speed after it (sustained fill), figures held back by
the reader or bus (only where the card is shown to be faster), run-to-run stability and slowing over
repeated runs, real capacity and the manufacturer ID. Every rate in a finding is MB/s (10^6 bytes/s).

card_findings(card) is pure: a card dict in, findings out. Each finding is
    {id, label, value, unit, at_least, text, basis, session, session_label, ...}
where `basis` says in words what it rests on and `text` is the value as a reader sees it. Where
a session holds data of a kind that cannot support its finding, `notes` says why and no finding
is given. Thresholds live in thresholds.py.
"""

from .capacity import capacity_check_findings, f3probe_findings, manufacturer_findings
from .classes import amend_class_checks, amend_with_speed_test
from .devicefacts import read_device_facts
from .fill import fill_findings
from .flash import align_findings, open_au_findings
from .path import reader_findings
from .stability import stability_findings
from .words_only import words_only_notes

# Order on the page: what a card is, then how fast it writes for long, then how it was measured.
ORDER = ("fake_capacity", "manufacturer_id", "erase_block", "page_size", "open_aus_sequential", "open_aus_random",
         "slc_cache", "write_in_cache", "write_after_cache", "write_later", "sustained_write", "reader_limited",
         "stability", "slows_over_runs")


def card_findings(card, device_facts=None):
    """(findings, notes) for one card dict. device_facts: session id -> the collector's device facts
    (collect.json), for the manufacturer ID check."""
    findings, notes = [], []
    aligned, align_notes = align_findings(card)
    erase_blocks = {f["session"]: f["value"] for f in aligned if f["id"] == "erase_block"}
    parts = [(aligned, align_notes), open_au_findings(card, erase_blocks), fill_findings(card), reader_findings(card),
             stability_findings(card), f3probe_findings(card), capacity_check_findings(card),
             manufacturer_findings(card, device_facts)]
    for found, why in parts:
        findings += found
        notes += why
    notes += words_only_notes(card, findings, notes)
    findings.sort(key=lambda f: ORDER.index(f["id"]))
    return findings, notes


def attach_findings(card, card_json, data_dir=None):
    """Put the card's findings into its JSON twin, and judge sustained-write markings on them."""
    findings, notes = card_findings(card, read_device_facts(card, data_dir))
    card_json["findings"] = findings
    card_json["findings_notes"] = notes
    compared = [s["id"] for s in card.get("sessions") or [] if s.get("compare", True)]
    amend_class_checks(card_json.get("class_checks"), findings, compared)
    amend_with_speed_test(card_json.get("class_checks"), card, compared)
    return card_json


__all__ = ["attach_findings", "card_findings", "ORDER"]
