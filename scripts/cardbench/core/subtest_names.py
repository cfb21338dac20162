"""How subtests are named, built and read in one place: a CrystalDiskMark-style name ('RND4K Q32T1': pattern,
block size, queue depth Q, threads T), a job mixing reads and writes ('RND4K Q1T1 mix 35/65'), and a dd
entry ('dd bs=4M'). The parsers build the names here, and the site, the card's checks and the importer
read them here."""

import re

# A job mixing reads and writes: its figures never stand for pure reads or writes.
MIXED_MARK = " mix "
# A CrystalDiskMark-style subtest name, as the card schema spells it: 'SEQ1M Q8T1', 'RND4K Q1T1 mix 35/65'.
CDM_TEST = re.compile(r"^(?:SEQ|RND)([0-9]+[KMG]) Q[0-9]+T[0-9]+(?: mix [0-9]{1,3}/[0-9]{1,3})?$")
_QUEUE = re.compile(r" Q([0-9]+)T([0-9]+)$")


def cdm_test_name(pattern, block_label, queue_depth, threads):
    """'RND', '4K', 32, 1 -> 'RND4K Q32T1'."""
    return f"{pattern}{block_label} Q{queue_depth}T{threads}"


def mixed_test_name(test, read_percent):
    """'RND4K Q1T1', 35 -> 'RND4K Q1T1 mix 35/65'."""
    return f"{test}{MIXED_MARK}{read_percent}/{100 - read_percent}"


def is_mixed(test):
    """True for a job that mixed reads and writes ('RND4K Q1T1 mix 35/65'): its figures never stand
    for pure reads or writes."""
    return MIXED_MARK in test


def ios_in_flight(test):
    """Queue depth × threads of a subtest whose name ends in them ('SEQ1M Q8T1' -> 8); 0 for any other name."""
    match = _QUEUE.search(test)
    return int(match.group(1)) * int(match.group(2)) if match else 0

METHOD_NOT_STATED = " (method not stated)"
BLOCK_SIZE_NOT_STATED = " (block size not stated)"


def dd_test_name(entry):
    """How a dd entry is named among subtests: 'dd bs=4M'; 'dd (method not stated)' when the source does not
    say which command gave its figures (method_stated: false: no block size either, so it never pools or
    compares with a stated method); 'dd (block size not stated)' when nothing told the block size
    (block_size_stated: false). An entry that gives no block size without saying so (one a card's checks
    refuse) is 'dd bs=not stated'."""
    if not entry.get("method_stated", True):
        return "dd" + METHOD_NOT_STATED
    if not entry.get("block_size_stated", True):
        return "dd" + BLOCK_SIZE_NOT_STATED
    return f"dd bs={entry.get('block_size', 'not stated')}"
