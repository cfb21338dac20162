"""A bar's length beside the fastest figure, on a log scale: the full bar is the fastest, an empty one a
thousandth of it, so a 20 MB/s card and a 900 MB/s one both show (a linear bar would leave UHS-I cards a sliver
beside SD Express). The /readers/ page's bars and the link-preview image's use it; the leaderboard draws its bars
in the browser by the same scale (assets/js/leaderboard.js logShare, held to these values by tests/test_bars.py)."""

import math

BAR_DECADES = 3  # each tenth less takes a third of the bar off
SHORTEST_BAR = 0.02  # a figure far below the fastest still shows as a bar


def bar_share(value, top):
    """The share of a bar `value` fills beside `top`; 0 when either is no positive figure."""
    if not value or not top or value <= 0 or top <= 0:
        return 0
    return max(SHORTEST_BAR, min(1.0, 1 + math.log10(value / top) / BAR_DECADES))


__all__ = ["bar_share", "BAR_DECADES", "SHORTEST_BAR"]
