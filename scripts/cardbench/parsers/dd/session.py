"""A dd log -> session fields: the summaries below every logged dd command that means the same test
(read or write, block size, count, flags, device or file, what it read and wrote) are the runs of
one entry. parsers.dd reads the summaries; this is its log-level side, beside it because dd.py
would pass 400 lines:

parse_file(text) -> {"segments": [(command arguments or None, first output line, output text)],
    "variables": {name: value} the log sets}: the log cut at its logged dd commands.
to_session(parsed, op=None, block_size=None) -> SessionFields: the entries, fills and notes.
from_dd(text, op=None, block_size=None) -> both in one.

What each command says (read or write, whether the card is the device or holds a file, block size,
count, flags) is read by dd/command.py, which side is the card by dd/card.py. Runs that
measured no card never reach the card's figures: a copy without a card (if=/dev/zero of=/dev/null),
and a file outside the card's mount points and working folder (of=/var/log/test) when the log's
other runs are surely on the card; each is named in the session's notes. Such a file alone in the
log is taken to be on the card (a card holding the system, as a Raspberry Pi's), and said so.

A log without its dd command (output alone, `2>&1 | tail -1`) needs read or write from outside
(`op`: OP= on make import, --op on cardbench import); its block size comes from `block_size`
(BS=, --bs) or from the "N+0 records out" line above each summary. A logged attempt that failed
before copying (no summary, a dd error message) is skipped. A command whose status=progress
updates make a long series (a write over a whole card) is a sustained fill instead (dd/fill.py).
"""

from ...errors import ParseError
from .. import NOT_MINE
from . import lines as dd_parser
from .card import place
from .command import (Looped, Repeated, block_from_bytes, block_text, check_hints, dd_command, described,
                      no_command_error, size_bytes)
from .fill import dd_fills, is_fill, with_fills
from ..card_entries import dd_entry
from ..fields import SessionFields
from ..text.log_lines import renumbered, segments
from ..text.logged_shell import Shell


def _block_from_records(parsed, line):
    """The block size of runs without their command: bytes ÷ full blocks of the 'N+0 records out'
    line above each summary, when every run agrees and no block was partial."""
    sizes = set()
    for run in parsed["runs"]:
        records = run.get("records_out")
        if not records or records[1] != 0 or records[0] == 0 or run["bytes"] % records[0]:
            return None
        sizes.add(run["bytes"] // records[0])
    if len(sizes) != 1:
        return None
    return block_from_bytes(sizes.pop())


def _without_command(parsed, start, op, block_size, ran=None):
    """The test of dd output without its command: read or write from the command line, the block size
    from it or from the output's "N+0 records out" lines, else not stated (block_size None); without
    read or write, everything missing is asked for at once. ran: the count, flags and target of the
    command the caller ran (the collector's), which the output does not show."""
    block = block_text(block_size) if block_size else _block_from_records(parsed, start)
    if op is None:
        raise no_command_error(start, block_unknown=block is None)
    return {"op": op, "block_size": block, "count": None, "flags": None, "target": None, **(ran or {})}


def _failed_attempt(output):
    """(line, message) of a logged dd run that stopped before copying anything, else None."""
    return dd_parser.failure(output) if dd_parser.detect(output) == NOT_MINE else None


def _progress_fills(args, start, output, op, block_size):
    """(fill entries, notes) of a logged dd command whose status=progress updates make a series long
    enough to chart (dd/fill.py), or None: a shorter copy is a dd entry like any other."""
    try:
        series = dd_parser.progress(output)
    except ParseError as exc:
        raise renumbered(exc, start) from None
    if not is_fill(series):
        return None
    if args is not None:
        command = described(args, start, op, block_size)
    elif op is None:
        raise no_command_error(start)
    else:
        command = {"op": op, "flags": None}
    text = ("dd " + " ".join(args))[:2000] if args is not None else None
    return dd_fills(series, command["op"], command["flags"], text, start)



def _one_command_each(parts):
    """The log's segments with a logged loop's output split among the commands it ran: the
    summaries below a loop that ran dd N times are the N runs, in order."""
    for args, start, output in parts:
        if not isinstance(args, Looped):
            yield args, start, output
            continue
        try:
            ends = [run["line"] for run in dd_parser.parse(output)["runs"]]
        except ParseError as exc:
            raise renumbered(exc, start) from None
        lines = output.split("\n")
        pieces = [(first + 1, "\n".join(lines[first:end])) for first, end in zip([0, *ends], ends)]
        if len(pieces) != len(args):
            raise ParseError("dd", f"the loop runs dd {len(args)} times with different options, but "
                                   f"{len(pieces)} summaries follow it; import each run with its own command line",
                             line=start - 1)
        for each, (first, piece) in zip(args, pieces):
            yield each, start + first - 1, piece


def _check_extent(args, command, parsed, start):
    """ParseError naming the summary whose bytes the logged command could not have copied: with
    bs= (or no block size, 512), full×bs ≤ bytes ≤ (full+partial)×bs of its "N+M records out"
    line, and bytes ≤ count×bs. Catches a summary pasted below another command (bs=1M, 4M copied)."""
    opts = {}
    for arg in args:
        if "=" in arg:
            key, value = arg.split("=", 1)
            opts[key] = value.rstrip(";&|)")
    if "bs" not in opts and ("ibs" in opts or "obs" in opts):
        return  # records are counted in output blocks, count= in input ones: no single size to check
    block = size_bytes(command["block_size"])
    if block is None:
        return
    said = f"bs={opts.get('bs', '512 (no bs=)')}" + (f" count={opts['count']}" if command["count"] else "")
    for run in parsed["runs"]:
        records, copied = run.get("records_out"), run["bytes"]
        fits = copied <= command["count"] * block if command["count"] else True
        if records:
            fits = fits and records[0] * block <= copied <= (records[0] + records[1]) * block
        if not fits:
            held = f" in {records[0]}+{records[1]} records" if records else ""
            raise ParseError("dd", f"this summary copied {copied} bytes{held}, but the command above says {said}; "
                                   "was it pasted below another command?", line=run["line"] + start - 1)


def _same_test(command, args):
    """What makes logged dd commands one test with several runs, whatever their text: read or
    write, block size and count in bytes, the flags in any order, whether the card is the device
    or holds a file, and what dd read and wrote (if=, of=): runs to another file or device are
    another entry. A prompt, sudo or the operands' order make no difference."""
    count = command["count"]
    if count is None and args is not None:  # iflag=count_bytes: count= is then bytes, still the test's extent
        given = dict(arg.split("=", 1) for arg in args if "=" in arg).get("count", "").rstrip(";&|)")
        count = size_bytes(given) or given or None
    return (command["op"], size_bytes(command["block_size"]), count, frozenset(command["flags"] or ()),
            command["target"], command.get("source"), command.get("sink"))


def parse_file(text):
    """The log cut at its logged dd commands (read as a shell would have run them: variables, loops),
    and the variables it sets, for naming a reference left unexpanded."""
    shell = Shell()
    return {"segments": segments(text, lambda line: dd_command(line, shell)), "variables": shell.variables}


def from_dd(text, op=None, block_size=None):
    """parse_file() and to_session() of a dd log."""
    return to_session(parse_file(text), op=op, block_size=block_size)


def to_session(parsed, op=None, block_size=None, count=None, flags=None, target=None, command=None, raw=None,
               **hints):
    """A dd log's entries: the runs of every logged command that means the same test (_same_test)
    in one entry, in the order each test first appears; the entry keeps the first command's text.
    Output without its command takes op and block_size (the command line's OP=, BS=) and, from the
    collector, which ran it: count, flags, target ("device" or "file") and command (its text); raw:
    the raw files' paths, given to every dd entry."""
    check_hints(op, block_size)
    ran = {key: value for key, value in (("count", count), ("flags", flags), ("target", target)) if value is not None}
    command_text = command  # `command` below: each logged command as described
    tests, failures = {}, []  # _same_test() -> the first command's description and text, every run
    left_out = []  # (line, command, why) of the commands that measured no card
    parts, variables = parsed["segments"], parsed["variables"]
    fills, fill_notes = [], []  # runs whose progress updates make a series: sustained fills, not dd entries
    for args, start, output in _one_command_each(parts):
        progress = _progress_fills(args, start, output, op, block_size)
        if progress is not None:
            fills += progress[0]
            fill_notes += progress[1]
            continue
        try:
            parsed = dd_parser.parse(output)
        except ParseError as exc:
            failed = _failed_attempt(output)
            if failed is not None:
                failures.append((failed[0] + start - 1, failed[1]))
                continue  # "Permission denied", "Resource busy": tried again below
            if args is None and len(parts) > 1:
                continue  # text before the first command
            raise renumbered(exc, start) from None
        if args is None:
            command = _without_command(parsed, start, op, block_size, ran)
        else:
            # the command's own line, just above its output
            command = described(args, start - 1, op, block_size, known=variables)
            if command["no_card"]:
                left_out.append((start - 1, _command_text(args), command["no_card"]))
                continue
            _check_extent(args, command, parsed, start)
        if isinstance(args, Repeated) and len(parsed["runs"]) > args.times:
            raise ParseError("dd", f"the line above runs dd {args.times} times, but {len(parsed['runs'])} summaries "
                                   "follow it; the extra ones are another command's output: import each with its "
                                   "own command line", line=parsed["runs"][args.times]["line"] + start - 1)
        test = tests.setdefault(_same_test(command, args), {
            "command": command, "runs": [], "line": start - 1,
            "text": _command_text(args) if args is not None else command_text})
        test["runs"] += parsed["runs"]
    notes = []
    for key, why in _elsewhere(tests).items():
        test = tests.pop(key)
        left_out.append((test["line"], test["text"], why))
    for key, path in _taken_as_the_card(tests).items():
        notes.append(f"{tests[key]['text']} (line {tests[key]['line']}): {path} is taken to be on the card, "
                     "which holds the system here (as a Raspberry Pi's does); if it is another disk, "
                     "import without that command.")
    notes += [f"Left out of the card's figures: {text} (line {line}) {why}." for line, text, why in sorted(left_out)]
    if any(test["command"]["block_size"] is None for test in tests.values()):
        notes.append("The block size is not stated (no command, no 'N+0 records out' line, no BS=): the figures are "
                     "kept as 'dd (block size not stated)', a test of their own, never pooled with a stated block "
                     "size or ranked.")
    entries = [dd_entry(test["command"]["op"], test["command"]["block_size"], test["runs"],
                         count=test["command"]["count"], flags=test["command"]["flags"],
                         target=test["command"]["target"], command=test["text"], raw=raw)
               for test in tests.values()]
    if not entries and not fills and left_out:
        line, text, why = min(left_out)
        raise ParseError("dd", f"no dd command in the file measured the card: this one {why}; import a log of dd "
                               "reading or writing the card", line=line, text=text)
    if not entries and not fills and failures:
        line, message = failures[0]
        raise ParseError("dd", "every dd command in the file failed before copying anything; nothing to import",
                         line=line, text=message)
    runs = max((len(entry["runs"]) for entry in entries), default=0)
    return with_fills(SessionFields(tools=[{"name": "dd"}], measurements={"dd": entries}, runs=runs, notes=notes),
                      fills, fill_notes)


def _command_text(args):
    return ("dd " + " ".join(args))[:2000]


def _card_path(command):
    """The card's side of a described command: what it wrote, or what it read."""
    return command.get("sink") if command["op"] == "write" else command.get("source")


def _places(tests):
    return {key: place(_card_path(test["command"])) for key, test in tests.items()
            if _card_path(test["command"]) is not None}


def _elsewhere(tests):
    """{test key: why} of the tests on a file outside the card's mount points and working folder
    (/var/log/test, /tmp/x) when other tests of the log are surely on the card: another disk."""
    places = _places(tests)
    sure = [key for key, where in places.items() if where != "elsewhere"]
    if not sure:
        return {}
    card = _card_path(tests[sure[0]]["command"])
    return {key: f"{'writes' if tests[key]['command']['op'] == 'write' else 'reads'} "
                 f"{_card_path(tests[key]['command'])}, not on the card: the log's other runs are on {card}"
            for key, where in places.items() if where == "elsewhere"}


def _taken_as_the_card(tests):
    """{test key: path} of the tests on a file outside the mount points, kept when the log names no
    other place for the card."""
    return {key: _card_path(tests[key]["command"]) for key, where in _places(tests).items() if where == "elsewhere"}
