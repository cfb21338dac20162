"""Card files whose text holds Plotly's pseudo-HTML (a link, a restyled span) and template fields, for the
tests that charts show card text as text: one card with runs, a sweep, a fill and an alignment scan, one with only a
reviewer's summary table (so the two share no subtest and compare on headline figures)."""

LINK = '<a href="https://example.invalid/">x</a>'
SPAN = '<span style="font-size:60px">FAKE</span>'
TEMPLATE = "%{x}"
AMPERSAND_BRAND = "Lexar & Co"


def runs_card():
    label = f"{LINK}{SPAN} {TEMPLATE}"
    return {
        "schema_version": 1, "slug": "markup-runs", "brand": AMPERSAND_BRAND, "model": f"{LINK} {SPAN}",
        "capacity_gb": 64, "form_factor": "microSD", "bus": "UHS-I", "source": {"name": SPAN},
        "sessions": [{
            "id": "s1", "label": label, "date": "2025-01-02",
            "results": [{"test": "SEQ1M Q8T1", "op": "read", "unit": "MB/s", "runs": [90.5, 91.2, 89.9]},
                        {"test": "SEQ1M Q8T1", "op": "write", "unit": "MB/s", "runs": [60.1, 61.0, 59.7]}],
            "dd_sweeps": [{"op": "write", "flags": ["direct"], "target": "device", "unit": "MB/s",
                           "points": [{"block_size_bytes": 4096, "value": 3.2},
                                      {"block_size_bytes": 4194304, "value": 55.0}]}],
            "fill": [{"op": "write", "unit": "MB/s",
                      "points": [{"written_gb": 1, "value": 60.2, "seconds": 17},
                                 {"written_gb": 2, "value": 30.1, "seconds": 50}]}],
            "flashbench_align": [{"block_size_bytes": 1024, "count": 8, "points": [
                {"offset_bytes": 4194304, "pre_ns": 900000, "on_ns": 1200000, "post_ns": 880000, "diff_ns": 310000},
                {"offset_bytes": 8388608, "pre_ns": 900000, "on_ns": 1250000, "post_ns": 880000, "diff_ns": 360000}]}],
            "headline": [{"name": f"Sequential read {LINK}", "value": f"{SPAN} {TEMPLATE}"}]}],
    }


def summary_card():
    return {
        "schema_version": 1, "slug": "markup-summary", "brand": SPAN, "model": f"{LINK} %{{y}}",
        "capacity_gb": 32, "form_factor": "microSD", "bus": "UHS-I", "source": {"name": LINK},
        "sessions": [{"id": "s1", "label": SPAN, "date": "2025-01-02",
                      "headline": [{"name": "Sequential read", "value": f"90 MB/s {LINK}{SPAN} {TEMPLATE}",
                                    "number": 90, "unit": "MB/s"}]}],
    }


def write_cards(folder):
    """Both cards as files in `folder` (created); returns it."""
    from cardbench.card.dump import new_card_text

    folder.mkdir(parents=True, exist_ok=True)
    for card in (runs_card(), summary_card()):
        (folder / f"{card['slug']}.yaml").write_text(new_card_text(card), encoding="utf-8")
    return folder
