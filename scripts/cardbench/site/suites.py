"""The subtest families that make cards comparable, and the order subtests are listed in."""

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
        "id": "dd-4m-method-not-stated",
        "name": "dd, 4 MiB blocks, method not stated by the source",
        "tests": ["dd bs=4M (method not stated)"],
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


def is_mixed(test):
    """True for a job that mixed reads and writes ('RND4K Q1T1 mix 35/65'): its figures never stand
    for pure reads or writes."""
    return " mix " in test


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


__all__ = ["KNOWN_SUITES", "KNOWN_TEST_ORDER", "is_mixed", "test_order", "subtest_order", "suite_of_tests"]
