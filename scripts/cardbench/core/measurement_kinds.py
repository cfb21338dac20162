"""The session fields that hold a card's measurements ("kinds": results, dd, dd_sweeps, fill, flashbench_*,
f3probe, capacity_check, tool_results, nvme, headline), and the groups of them each part of the code reads.
Every list of kinds is named here: a kind added to a card's sessions is added once, and no reader of
sessions forgets it."""

# Entries holding repeated runs of a subtest: what the leaderboard ranks and pools, in the order the card's
# checks and the importer go through them.
RUN_KINDS = ("results", "dd", "tool_results")
# flashbench's three runs (-a, --open-au, -f), each under its own session key.
FLASHBENCH_KINDS = ("flashbench_open_au", "flashbench_align", "flashbench_find_fat")
# Measurements without repeated runs; the card's JSON twin passes them on as stored, in this order.
MEASURED_WITHOUT_RUNS = ("dd_sweeps", *FLASHBENCH_KINDS, "fill", "f3probe", "capacity_check", "nvme")
# Figures the source states (a review's table), written by hand: no tool measured them here.
STATED_KIND = "headline"
# Every kind, in the order a session lists them.
MEASUREMENT_KINDS = ("results", "tool_results", "dd", *MEASURED_WITHOUT_RUNS, STATED_KIND)
# What a tool module's output can give (a dd sweep comes from the collector, a headline from the card's
# author), in the order an imported session lists them.
PARSED_KINDS = tuple(kind for kind in MEASUREMENT_KINDS if kind not in ("dd_sweeps", STATED_KIND))
# One block a session (a mapping), not a list of entries; in the order the card page lists them.
SINGLE_BLOCK_KINDS = ("nvme", "f3probe", "capacity_check")
# Entries whose figures are a curve of points ({"value": MB/s, …}).
POINT_KINDS = ("dd_sweeps", "fill", "flashbench_open_au")
# Which of the card page's curve charts draws each kind.
CURVE_CHART_KINDS = {"sweeps": ("dd_sweeps", "flashbench_open_au", "flashbench_find_fat"),
                     "align": ("flashbench_align",), "fill": ("fill",)}
CURVE_KINDS = tuple(kind for kinds in CURVE_CHART_KINDS.values() for kind in kinds)
# Measurements the card page charts but no leaderboard column shows (a capacity check is told as a finding).
CHARTED_WITHOUT_RUNS = tuple(kind for kind in MEASURED_WITHOUT_RUNS if kind != "capacity_check")

# What a card or path measured besides runs of a subtest, as the leaderboard names it, in the order it lists them.
LEADERBOARD_WORDS = (("dd_sweeps", "dd sweep"), ("flashbench_open_au", "flashbench"),
                     ("flashbench_find_fat", "flashbench"), ("flashbench_align", "flashbench"),
                     ("fill", "sustained fill"), ("f3probe", "f3probe"), ("capacity_check", "capacity check"),
                     ("tool_results", "other tools"), (STATED_KIND, "figures the source states"))
# What a card's page holds instead of runs of a shared test, in the sentence saying why it joins no comparison.
NO_SUITE_WORDS = (("dd_sweeps", "dd block-size sweeps"), ("flashbench_open_au", "flashbench"),
                  ("flashbench_align", "flashbench"), ("fill", "a sustained fill"),
                  (STATED_KIND, "figures the source stated"))
