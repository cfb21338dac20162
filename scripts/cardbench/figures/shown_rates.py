"""Rates a card page shows in MB/s and MiB/s that the card's JSON twin carries in one unit only: each curve
(a dd sweep, a flashbench open-AU sweep, an erase block of flashbench -f, a sustained fill) and the vendor's
claimed read and write speeds; and each measured sequential headline's share of the speed claimed for it.
stats.py converts; the page and chart models place these figures as they are.

A curve is {"x": [...], "mb_s": [...], "mib_s": [...]}: its x values (bytes of a block, GB written) with the
rate at each in both units, None where a point has no figure.
"""

from .stats import curve_mb_s, mib_s_of

# The claimed speeds a card records, by direction.
CLAIMED_KEYS = {"read": "read_mb_s", "write": "write_mb_s"}
# The headline each claimed speed is measured against.
CLAIMED_HEADLINES = {"read": "seq_read", "write": "seq_write"}


def _curve(x, mb_s):
    return {"x": x, "mb_s": mb_s, "mib_s": None if mb_s is None else mib_s_of(mb_s)}


def dd_sweep_curve(sweep):
    """A dd block-size sweep: throughput by block size, from points stored in the sweep's unit."""
    return _curve([p["block_size_bytes"] for p in sweep["points"]], curve_mb_s(sweep["points"], sweep["unit"]))


def open_au_curve(au):
    """A flashbench --open-au sweep: throughput by block size (flashbench prints M/s, 10^6 bytes/s: MB/s)."""
    return _curve([p["block_size_bytes"] for p in au["points"]], [p["value"] for p in au["points"]])


def find_fat_curves(table):
    """A flashbench -f table: one curve per erase block (a column of its rows), throughput by block size in MB/s;
    a row shorter than the widest has no point in the columns it lacks."""
    rows = table["rows"]
    curves = []
    for column in range(max((len(r["values"]) for r in rows), default=0)):
        picked = [r for r in rows if column < len(r["values"])]
        curves.append(_curve([r["block_size_bytes"] for r in picked], [r["values"][column] for r in picked]))
    return curves


def fill_curve(fill):
    """A sustained fill: throughput by GB written, from points stored in the fill's unit."""
    return _curve([p["written_gb"] for p in fill["points"]], curve_mb_s(fill["points"], fill["unit"]))


def claimed_rates(card):
    """The vendor's claimed speeds: {"read", "write"} → {"mb_s", "mib_s"}, or None where the card claims none."""
    claimed = card.get("claimed") or {}
    return {direction: {"mb_s": claimed[key], "mib_s": mib_s_of(claimed[key])} if claimed.get(key) else None
            for direction, key in CLAIMED_KEYS.items()}


def claimed_shares(card, picks):
    """{"read", "write"} → the measured headline (picks: the card's headline picks) as a percent of the claimed
    speed, or None where the card claims none or measured none."""
    claimed = card.get("claimed") or {}
    shares = {}
    for direction, key in CLAIMED_KEYS.items():
        measured = picks.get(CLAIMED_HEADLINES[direction])
        shares[direction] = 100 * measured["mb_s"] / claimed[key] if claimed.get(key) and measured else None
    return shares


__all__ = ["dd_sweep_curve", "open_au_curve", "find_fat_curves", "fill_curve", "claimed_rates", "claimed_shares"]
