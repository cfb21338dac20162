"""The subtest families that make cards comparable, and the order subtests are listed in."""

from ..core.measurement_kinds import NO_SUITE_WORDS

# A card joins a suite when its compared sessions ran every subtest of it.
KNOWN_SUITES = [
    {
        "id": "cdm8-default",
        "name": "CrystalDiskMark 8 default set",
        "tests": ["SEQ1M Q8T1", "SEQ1M Q1T1", "RND4K Q32T1", "RND4K Q1T1"],
        "ops": ["read", "write"],
    },
    {
        "id": "cdm-fio-sh-1g",
        "name": "cdm_fio.sh set (1 GiB)",
        "tests": ["SEQ1G Q1T1", "SEQ512K Q1T1", "SEQ32M Q32T1", "RND4K Q1T1", "RND4K Q32T1", "RND4K Q8T8"],
        "ops": ["read", "write"],
    },
    {
        "id": "dd-4m",
        "name": "dd, 4 MiB blocks, direct I/O",
        "tests": ["dd bs=4M"],
        "ops": ["read", "write"],
    },
    {
        # Figures a source published without the dd command behind them: alike among themselves only.
        "id": "dd-method-not-stated",
        "name": "dd, the commands behind these figures not stated",
        "tests": ["dd (method not stated)"],
        "ops": ["read", "write"],
    },
    {
        # dd output imported without its command or record lines: whatever block size it used.
        "id": "dd-block-size-not-stated",
        "name": "dd, block size not stated",
        "tests": ["dd (block size not stated)"],
        "ops": ["read", "write"],
    },
]

# Display order of subtests: as CrystalDiskMark and cdm_fio.sh list them; others after, SEQ before RND.
KNOWN_TEST_ORDER = ["SEQ1M Q8T1", "SEQ1M Q1T1", "SEQ1G Q1T1", "SEQ512K Q1T1", "SEQ32M Q32T1", "SEQ128K Q32T1",
                    "RND4K Q32T16", "RND4K Q32T1", "RND4K Q1T1", "RND4K Q8T8"]


# How the comparison names a subtest whose key alone would mislead.
TEST_LABELS = {"dd (method not stated)": "dd, this card's command not stated by its source"}


def test_label(test):
    """A subtest's name as the comparison page writes it."""
    return TEST_LABELS.get(test, test)


def suite_keys(suite):
    """The suite's subtests as 'test op', in its own order."""
    return [f"{t} {o}" for t in suite["tests"] for o in suite["ops"]]


def _what_instead(pooled_keys, missing):
    """For each missing 'test op', what the card has for that direction instead ('its read: dd bs=4K')."""
    notes = []
    for op in dict.fromkeys(key.rsplit(" ", 1)[1] for key in missing):
        others = [key.rsplit(" ", 1)[0] for key in pooled_keys if key.endswith(" " + op)]
        if others:
            notes.append(f"its {op}: {', '.join(others)}")
    return notes


def why_left_out(suite, pooled_keys):
    """Why a card that ran some of a suite's subtests is not among its members; None when it ran all of
    them or none."""
    wanted = suite_keys(suite)
    have = [key for key in wanted if key in pooled_keys]
    if not have or len(have) == len(wanted):
        return None
    missing = [key for key in wanted if key not in pooled_keys]
    one_test = len(suite["tests"]) == 1  # then the direction alone names what is missing
    text = "no " + ", ".join(key.rsplit(" ", 1)[1] if one_test else key for key in missing) + " in this set"
    instead = _what_instead(pooled_keys, missing)
    return text + ("; " + "; ".join(instead) if instead else "")


def why_in_no_suite(card):
    """Why a card's figures join no comparison, from its JSON twin."""
    pooled = list(card.get("pooled") or {})
    if pooled:
        return "its runs (" + ", ".join(pooled) + ") make up no shared set of subtests"
    kinds = [name for key, name in NO_SUITE_WORDS if any(s.get(key) for s in card.get("sessions") or [])]
    kinds = list(dict.fromkeys(kinds))
    if kinds:
        return "no repeated runs of a shared test; its page has " + ", ".join(kinds)
    return "no repeated runs of a shared test"


def test_order(test):
    """Known tests in CrystalDiskMark's order, then SEQ before RND before dd."""
    known = KNOWN_TEST_ORDER.index(test) if test in KNOWN_TEST_ORDER else len(KNOWN_TEST_ORDER)
    kind_rank = 0 if test.startswith("SEQ") else 1 if test.startswith("RND") else 2
    return (kind_rank, known, test)


def subtest_order(test, op):
    """test_order, then reads before writes."""
    return test_order(test) + ({"read": 0, "write": 1}.get(op, 2),)


def suite_of_tests(tests):
    """The first fio-style known suite whose every test is among `tests`, or None."""
    present = set(tests)
    for suite in KNOWN_SUITES:
        if not suite["tests"][0].startswith("dd ") and set(suite["tests"]) <= present:
            return suite
    return None


__all__ = ["KNOWN_SUITES", "KNOWN_TEST_ORDER", "TEST_LABELS", "test_label", "suite_keys", "why_left_out",
           "why_in_no_suite", "test_order", "subtest_order", "suite_of_tests"]
