"""fio's read/write patterns and the CrystalDiskMark-style subtest names of its jobs: the one home of
the naming that the fio JSON and fio text parsers share.

test_name("randread", 4096, 32, 1) -> "RND4K Q32T1"; None when the block size is not a whole number
    of KiB (no such name).
(A job mixing reads and writes is named by core.subtest_names.mixed_test_name: "RND4K Q1T1 mix 35/65".)
not_stated_test("read", mixed=False) -> "fio read (block size and depth not stated)": figures of a job whose
    pattern, block size and depth the output does not give (fio's text pasted without the job's first line,
    fio 2.x JSON without its job options), kept as fio tool results, never a named subtest.
"""

from ...core.subtest_names import cdm_test_name
from ...core.units import size_label_from_bytes

# rw= value -> (SEQ or RND, directions measured)
RW_KINDS = {
    "read": ("SEQ", ("read",)),
    "write": ("SEQ", ("write",)),
    "rw": ("SEQ", ("read", "write")),
    "readwrite": ("SEQ", ("read", "write")),
    "randread": ("RND", ("read",)),
    "randwrite": ("RND", ("write",)),
    "randrw": ("RND", ("read", "write")),
}


def test_name(rw, bs_bytes, iodepth, numjobs):
    """The CrystalDiskMark-style name of a fio job: SEQ or RND, block size, Q depth, T jobs."""
    label = size_label_from_bytes(bs_bytes) if bs_bytes else None
    return cdm_test_name(RW_KINDS[rw][0], label, iodepth, numjobs) if label else None


NOT_STATED = "block size and depth not stated"


def not_stated_test(op, mixed=False):
    """The tool-result name of fio figures whose block size and depth are not stated."""
    other = "writes" if op == "read" else "reads"
    return f"fio {op}" + (f", mixed with {other}" if mixed else "") + f" ({NOT_STATED})"
