"""Conclusions a source states only in words: a reviewer's "SLC cache ~5.5 GB" or "Block size 24MiB"
with no fill series or flashbench scan stored behind it. The site derives findings from runs only,
so for these it gives none and says why, instead of staying silent or repeating the words."""

import re

# finding id -> (what a summary row is called when it states it, the data the finding needs)
STATED_IN_WORDS = {
    "slc_cache": (re.compile(r"\bSLC\b|\bcache size\b", re.I),
                  "sustained-write series over the card (throughput against GB written)"),
    "erase_block": (re.compile(r"\berase[ -]?block\b|\bblock size\b", re.I), "flashbench -a scan"),
    "page_size": (re.compile(r"\bpage size\b", re.I), "flashbench -a scan"),
    "open_aus_sequential": (re.compile(r"\bopen AUs?\b", re.I), "flashbench --open-au sweeps"),
}


def words_only_notes(card, findings, notes):
    """A note for each conclusion a session's summary states that no finding or note covers."""
    covered = {f["id"] for f in findings} | {n["id"] for n in notes}
    if "open_aus_random" in covered:
        covered.add("open_aus_sequential")
    out = []
    for session in card.get("sessions") or []:
        for row in session.get("headline") or []:
            name = str(row.get("name") or "")
            for fid, (pattern, needed) in STATED_IN_WORDS.items():
                if fid in covered or not pattern.search(name):
                    continue
                covered.add(fid)
                out.append({"id": fid, "session": session.get("id"),
                            "reason": f"The source states “{name}: {row.get('value')}” in words; with no {needed} "
                                      "stored behind it, nothing here can confirm or derive it."})
    return out
