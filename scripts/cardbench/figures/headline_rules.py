"""The ranked rules that say which figure may stand for a card's headline, best first.

A rule names the subtest and the condition it accepts; a figure taken under any other condition (after a
fill, through a cache, on a filesystem written without direct I/O, at its lowest or peak, in a used state)
never stands for plain sequential or random figures. headlines.py applies them.

Kinds of rule:
  runs     the mean of every run of the matching subtest in the compared sessions (pandas)
  summary  a row of a reviewer's summary table, matched by its name (an allow-list of names and
           qualifiers, so an unknown qualifier is refused), first compared session first
  sweep    the largest block of a dd block-size sweep with direct I/O (one run)
  tool     the mean of every run of another tool's figure (hdparm -t, the SD Card Speed Test's seq-write,
           H2testw, f3write/f3read, a source's result table) that reads or writes the card sequentially
           or at random, in a bandwidth unit; the largest block first
"""

import re
from dataclasses import dataclass

from ..core.units import MIB_BYTES, bytes_from_size_text, is_rate_unit
from ..core.subtest_names import ios_in_flight, is_mixed
from .stats import block_bytes_of_test

LARGE_DD_BLOCK = MIB_BYTES  # dd blocks from 1 MiB on: per-call overhead no longer limits the rate



@dataclass(frozen=True)
class Rule:
    id: str
    kind: str          # runs, summary or sweep
    text: str          # what the rule accepts, for readers and the documentation
    accepts: object    # runs: (kind, entry, test, op) -> bool; summary: (name, op) -> bool; sweep: (sweep, op) -> bool
    prefer: object = None  # runs: sort key of a matching test name, smallest first (which test wins)
    ops: tuple = ("read", "write")


def _fio_test(name):
    return lambda kind, entry, test, op: kind == "results" and test == name


def _other_fio_seq(kind, entry, test, op):
    return kind == "results" and test.startswith("SEQ") and test not in _NAMED_SEQ and not is_mixed(test)


def _dd_block(entry):
    return bytes_from_size_text(entry.get("block_size") or "") or 0


def _dd_stated(kind, entry):
    return kind == "dd" and entry.get("method_stated", True) and entry.get("block_size_stated", True)


def _dd_direct(large):
    def accepts(kind, entry, test, op):
        if not _dd_stated(kind, entry) or "direct" not in (entry.get("flags") or []):
            return False
        return (_dd_block(entry) >= LARGE_DD_BLOCK) == large
    return accepts


def _dd_read_cache_dropped(kind, entry, test, op):
    """A dd read without direct I/O counts only when its command empties the page cache before each run."""
    return (_dd_stated(kind, entry) and op == "read" and "direct" not in (entry.get("flags") or [])
            and "drop_caches" in (entry.get("command") or ""))


def _largest_block_first(test):
    block = block_bytes_of_test(test) or bytes_from_size_text(test.split("=", 1)[-1]) or 0
    return (-block, ios_in_flight(test), test)


def summary_name(name):
    """A summary row name as compared: lower case, single spaces, no trailing colon, split into its
    base and its qualifiers (the parts after commas): 'Seq. write, direct' -> ('seq. write', ('direct',))."""
    parts = [re.sub(r"\s+", " ", part).strip() for part in name.lower().rstrip(": ").split(",")]
    return parts[0], tuple(p for p in parts[1:] if p)


def _summary(base_patterns, qualifiers=()):
    """Accepts a row whose base matches one of the patterns (each naming its operation as `op`) for this
    operation, and whose qualifiers are all allowed."""
    patterns = [re.compile(p) for p in base_patterns]
    allowed = frozenset(qualifiers)

    def accepts(name, op):
        base, quals = summary_name(name)
        ops = {m.group("op") for m in (p.fullmatch(base) for p in patterns) if m}
        return op in ops and set(quals) <= allowed
    return accepts


# Other tools' figures and how each reaches the card: the tool's test names say it, or the entry's own
# `access` (a source's result table, whose layout says what each column measured).
_TOOL_ACCESS = {("hdparm", "hdparm -t"): "sequential", ("hdparm", "hdparm -t --direct"): "sequential",
                ("agnostics", "seq-write"): "sequential", ("agnostics", "seq-read"): "sequential",
                ("agnostics", "rand-4k-write"): "random", ("agnostics", "rand-4k-read"): "random",
                ("h2testw", "Writing speed"): "sequential", ("h2testw", "Reading speed"): "sequential",
                ("f3rw", "Average writing speed"): "sequential", ("f3rw", "Average reading speed"): "sequential"}


def tool_access(entry):
    """'sequential', 'random' or None: how a tool_results figure reached the card."""
    return entry.get("access") or _TOOL_ACCESS.get((entry.get("tool"), entry.get("test")))


def _tool_sequential(entry, op):
    return tool_access(entry) == "sequential"


def _tool_random_4k(entry, op):
    return tool_access(entry) == "random" and bytes_from_size_text(entry.get("block_size") or "") == 4096


def _sweep_direct(sweep, op):
    return sweep["op"] == op and "direct" in (sweep.get("flags") or []) and is_rate_unit(sweep["unit"])


# dd write flags under which the time dd prints includes getting the data onto the card (oflag=dsync or
# sync: each write waits; conv=fsync or fdatasync: dd waits for the flush before it prints).
SYNCED_WRITE_FLAGS = frozenset({"dsync", "sync", "fsync", "fdatasync"})
# macOS's raw device (/dev/rdiskN) bypasses the buffer cache: what dd times there is the card.
RAW_DEVICE = re.compile(r"(?:^|[\s=])/dev/rdisk[0-9]+(?:s[0-9]+)?(?:\s|$)")


def _dd_synced_write(kind, entry, test, op):
    """A dd write onto the card's device whose data was synced before dd printed its rate."""
    return (_dd_stated(kind, entry) and op == "write" and entry.get("target", "device") == "device"
            and bool(SYNCED_WRITE_FLAGS & set(entry.get("flags") or ())))


def _dd_raw_device(kind, entry, test, op):
    """dd to or from macOS's raw device, which has no cache between dd and the card."""
    return _dd_stated(kind, entry) and bool(RAW_DEVICE.search(entry.get("command") or ""))


def _dd_method_not_stated(kind, entry, test, op):
    """dd figures a source published without their command: a sequential figure still, its method unknown."""
    return kind == "dd" and not entry.get("method_stated", True)


_NAMED_SEQ = ("SEQ1M Q8T1", "SEQ1G Q1T1", "SEQ1M Q1T1", "SEQ512K Q1T1")
_SEQ = r"(?:seq\.?|sequential)"

SEQUENTIAL_RULES = (
    Rule("cdm-seq1m-q8t1", "runs", "SEQ1M Q8T1, CrystalDiskMark's sequential test", _fio_test("SEQ1M Q8T1")),
    Rule("cdm-fio-seq1g-q1t1", "runs", "SEQ1G Q1T1, the first test of cdm_fio.sh", _fio_test("SEQ1G Q1T1")),
    Rule("cdm-seq1m-q1t1", "runs", "SEQ1M Q1T1, CrystalDiskMark's queue-depth-1 sequential test",
         _fio_test("SEQ1M Q1T1")),
    Rule("cdm-fio-seq512k-q1t1", "runs", "SEQ512K Q1T1 (cdm_fio.sh)", _fio_test("SEQ512K Q1T1")),
    Rule("fio-seq-other", "runs",
         "another fio sequential subtest: the largest block, then the fewest requests in flight",
         _other_fio_seq, _largest_block_first),
    Rule("dd-large-direct", "runs", "dd with direct I/O and blocks of 1 MiB or more (the largest block)",
         _dd_direct(True), _largest_block_first),
    Rule("dd-direct", "runs", "dd with direct I/O and blocks under 1 MiB (the largest block)",
         _dd_direct(False), _largest_block_first),
    Rule("dd-read-cache-dropped", "runs", "dd read without direct I/O, the page cache dropped before each run",
         _dd_read_cache_dropped, _largest_block_first, ops=("read",)),
    Rule("dd-synced-write", "runs", "dd written onto the card's device with its data synced (oflag=dsync or sync, "
         "conv=fsync or fdatasync; the largest block)", _dd_synced_write, _largest_block_first, ops=("write",)),
    Rule("dd-raw-device", "runs", "dd to or from macOS's raw device /dev/rdiskN, which no cache stands in front of "
         "(the largest block)", _dd_raw_device, _largest_block_first),
    Rule("dd-method-not-stated", "runs", "dd runs whose command the source does not state",
         _dd_method_not_stated, _largest_block_first),
    Rule("summary-cdm-seq", "summary",
         "the reviewer's summary row 'CrystalDiskMark sequential <op>', fresh or refreshed by a format",
         _summary([rf"crystaldiskmark {_SEQ} (?P<op>read|write)"],
                  ("fresh", "after format", "after a format", "refreshed after format"))),
    Rule("summary-seq", "summary",
         "the reviewer's summary row 'Seq. <op>' or 'Sequential <op>', plain or 'direct' (never 'cache', 'ext4', "
         "'after the fill', 'lowest', 'peak' or any other condition)",
         _summary([rf"{_SEQ} (?P<op>read|write)"], ("direct",))),
    Rule("dd-sweep-largest", "sweep", "a dd block-size sweep with direct I/O, at its largest block (one run)",
         _sweep_direct),
    Rule("tool-sequential", "tool", "another tool's sequential figure (hdparm -t, the Raspberry Pi SD Card Speed Test, "
         "H2testw, f3write/f3read, a source's result table; the largest block)", _tool_sequential),
)


RANDOM_4K_RULES = (
    Rule("cdm-rnd4k-q1t1", "runs", "RND4K Q1T1, random 4 KiB at queue depth 1", _fio_test("RND4K Q1T1")),
    Rule("summary-rnd4k", "summary", "the reviewer's summary row 'Random <op> 4KiB' (plain, no condition)",
         _summary([r"random (?P<op>read|write) 4 ?ki?b", r"random 4 ?ki?b? (?P<op>read|write)"])),
    Rule("tool-random-4k", "tool", "another tool's random 4 KiB figure in a bandwidth unit (a source's result table)",
         _tool_random_4k),
)

RULES = {"seq_read": SEQUENTIAL_RULES, "seq_write": SEQUENTIAL_RULES,
         "rnd4k_read": RANDOM_4K_RULES, "rnd4k_write": RANDOM_4K_RULES}


def op_of_key(key):
    """'read' or 'write': the operation a headline key names."""
    return key.rsplit("_", 1)[1]


def rules_text():
    """The ranked rules, for documentation: {key: [(rule id, text), …]}."""
    return {key: [(rule.id, rule.text) for rule in rules if op_of_key(key) in rule.ops] for key, rules in RULES.items()}
