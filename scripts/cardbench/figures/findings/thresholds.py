"""Every threshold the findings use, in one place, with the reason for each value.

Rates are MB/s (10^6 bytes/s); sizes are bytes; shares are fractions of 1.
"""

from ...core.units import KIB_BYTES as KiB, MIB_BYTES as MiB

# --- flashbench -a (alignment scan) ---------------------------------------------------------------
# A boundary shows as access times that step up at one alignment and stay up for every larger one.
# Steps are measured on log(delay) for the "Aligned @ N Delay" and "on" columns (a ratio), and on
# the diff column in nanoseconds (diff is near zero off a boundary, so a ratio means nothing there).
ALIGN_MIN_POINTS = 6  # fewer alignments cannot show two levels with room on both sides
ALIGN_STEP_MIN_RATIO = 1.3  # the level above the boundary at least 30 % slower than the one below
ALIGN_DIFF_STEP_MIN_NS = 50_000  # diff column: at least 50 µs higher above the boundary
ALIGN_NOISE_FACTOR = 3.0  # and at least 3 robust standard deviations (MAD x 1.4826) of either level
ALIGN_MIN_POINTS_ABOVE = 2  # a step must hold for at least two larger alignments to be a boundary
# SD cards' pages are 2–64 KiB; allocation units (erase blocks as flashbench sees them) 128 KiB to
# 64 MiB (the SD specification's largest AU for SDXC is 64 MiB).
PAGE_SIZE_RANGE = (2 * KiB, 64 * KiB)
ERASE_BLOCK_RANGE = (128 * KiB, 64 * MiB)

# --- flashbench --open-au sweeps ------------------------------------------------------------------
# Compared block sizes: below the AU size (the first row is often off either way) down to AU/16.
# Smaller blocks are slow on every card and say nothing about open AUs.
OPEN_AU_SMALLEST_SHARE = 1 / 16
# A sweep has collapsed when the median of its figures over the compared block sizes is below
# half of the reference (the best figure at the same block size with fewer AUs open, from find-fat
# or from a dd write sweep). Cards that cannot keep N AUs open fall to a fifth or less (garbage
# collection on every write); a healthy sweep stays within 10–20 % of the reference.
OPEN_AU_COLLAPSE_SHARE = 0.5

# --- sustained fill -------------------------------------------------------------------------------
FILL_MIN_POINTS = 8  # a change point needs a few samples on each side
FILL_MIN_SEGMENT_POINTS = 3  # a level lasts at least three samples (one is a hiccup)
FILL_MEDIAN_WINDOW = 5  # samples in the running median that removes single-sample spikes first
# A level change counts when the later level is at most 75 % of the earlier one (a 25 % drop) or
# 1/0.75 above it, and the step is larger than FILL_NOISE_FACTOR robust standard deviations of
# the samples on either side (so an unsteady card's swings are not taken for a cache end).
FILL_STEP_MIN_SHARE = 0.75
FILL_NOISE_FACTOR = 3.0
FILL_TRIM_SHARE = 0.1  # a level's speed leaves out its highest and lowest tenth of samples
FILL_MAX_LEVELS = 4  # the cache, and up to three speeds after it
# A first level is an SLC cache only when it ends before the last 2 % of the data written (a drop
# in the last seconds is the end of the card, not of a cache).
FILL_CACHE_END_SHARE = 0.98

# --- the path between card and computer ------------------------------------------------------------
# What the path reaches in practice, MB/s: USB 2.0 high speed carries 480 Mb/s but bulk transfers
# with the reader's protocol overhead reach 35–42 MB/s; a UHS-I (SDR104, 104 MB/s) bus reaches
# about 90 MB/s in most readers; a PCIe link reaches about 85 % of its line rate after protocol
# overhead (TLP headers, flow control).
USB2_PRACTICAL_MB_S = (35.0, 42.0)
UHS_I_PRACTICAL_MB_S = 90.0
PCIE_PRACTICAL_SHARE = 0.85
# A figure within 10 % of the practical ceiling (at or above 90 % of it, and not above it) is at the ceiling.
AT_CEILING_SHARE = 0.9
# Such a figure is the path's limit only when the card is shown faster than the path can carry even on
# paper: rated, or measured through another path, above the path's line rate (USB 2.0 480 Mb/s = 60 MB/s,
# UHS-I 104 MB/s, a PCIe link's rate). The practical ceilings are estimates and ratings are "up to"
# figures: a card rated 100 MB/s read at 86 MB/s on a ~90 MB/s UHS-I path may well be at its own limit.
USB2_LINE_MB_S = 60.0

# --- stability over runs ---------------------------------------------------------------------------
STABILITY_MIN_RUNS = 3  # a spread needs three runs
# Coefficient of variation (sample std / mean), upper bounds of each verdict.
CV_VERDICTS = ((0.02, "very steady"), (0.05, "steady"), (0.15, "varies from run to run"),
               (float("inf"), "unsteady"))
# A run is an outlier when it lies more than 3.5 robust standard deviations from the median
# (modified z-score, Iglewicz and Hoaglin) and more than 10 % away from it (identical runs give a
# MAD of zero, where any difference would count).
OUTLIER_Z = 3.5
OUTLIER_MIN_SHARE = 0.10
# A trend over runs: Mann–Kendall test at 5 % (two-sided), on at least 5 runs, and a Theil–Sen
# slope that changes the figure by at least 10 % from the first run to the last.
TREND_MIN_RUNS = 5
TREND_Z = 1.96
TREND_MIN_CHANGE = 0.10
# A session slows over runs when at least a third of its subtests (and at least two) do.
TREND_SESSION_SHARE = 1 / 3
