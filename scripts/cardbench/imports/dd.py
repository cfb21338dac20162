"""A dd log -> session fields: the summaries below every logged dd command that means the same test
(read or write, block size, count, flags, device or file) are the runs of one entry.

What the command says: read or write, and whether the card is the raw device or holds a file.
The side that is a device (/dev/sdc, /dev/mmcblk0p1, /dev/nvme0n1, /dev/disk4, /dev/rdisk4, …)
is the card: dd wrote the card when it is `of=` (an image or /dev/zero written to it), read it
when it is `if=` (to /dev/null, or a backup image). Without a device, the card holds a file: the
side that is an ordinary file (of=/media/user/CARD/test.bin from /dev/zero; if=test.bin to
/dev/null), or, between two files, the one on a mounted filesystem (/media, /run/media, /mnt,
/Volumes). The block size (bs=, or obs= / ibs= on the card's side), count= (with dd's suffixes:
count=10k is 10240) and the flags that change what is measured (iflag/oflag direct, dsync, sync,
nocache, fullblock; conv=fdatasync, fsync) are kept.

A log without its dd command (output alone, `2>&1 | tail -1`) needs read or write from outside
(`op`: OP= on make import, --op on cardbench import); its block size comes from `block_size`
(BS=, --bs) or from the "N+0 records out" line above each summary. A logged attempt that failed
before copying (no summary, a dd error message) is skipped. A command whose status=progress
updates make a long series (a write over a whole card) is a sustained fill instead (imports.fill).
"""

import re

from ..card import sessions
from ..errors import ParseError, quoted
from ..parsers import NOT_MINE
from ..parsers import dd as dd_parser
from .fill import dd_fills, is_fill, with_fills
from .result import SessionFields
from .shell import MAX_COMMAND, Shell, command_words, variable_references
from .transcript import renumbered, segments

OPS = ("read", "write")
NOT_THE_CARD = {"/dev/zero", "/dev/null", "/dev/urandom", "/dev/random", "/dev/full", "/dev/stdin", "/dev/stdout",
                "/dev/stderr", "-"}
NOT_DEVICES = ("/dev/fd/", "/dev/shm/", "/dev/pts/")  # a shell's pipes, shared memory, terminals
DATA_SOURCES = ("/dev/zero", "/dev/urandom", "/dev/random")
MOUNT_POINTS = ("/media/", "/run/media/", "/mnt/", "/Volumes/")
IO_FLAGS = ("direct", "dsync", "sync", "nocache", "fullblock")  # iflag= / oflag= values that change the figure
CONV_FLAGS = ("fdatasync", "fsync")  # conv= values that do (conv=sync pads blocks: not a speed matter)
HOW_TO_SAY = ("give OP=read or OP=write (and BS=, e.g. BS=4M, when the output has no 'N+0 records out' line) on "
              "make import, or --op/--bs on cardbench import")
NO_COMMAND = ("the dd command is not in the file, so read or write is unknown: " + HOW_TO_SAY + "; or put the command "
              "line (e.g. '$ dd if=/dev/sdX of=/dev/null bs=4M count=256 iflag=direct') above its output")

# dd's multiplicative suffixes (GNU, BSD and BusyBox spellings), for bs=, count= and --bs.
_SUFFIX = {"": 1, "c": 1, "w": 2, "b": 512, "kB": 1000, "KB": 1000, "kD": 1000, "k": 1024, "K": 1024, "KiB": 1024,
           "MB": 10**6, "MD": 10**6, "m": 1024**2, "M": 1024**2, "MiB": 1024**2,
           "GB": 10**9, "GD": 10**9, "g": 1024**3, "G": 1024**3, "GiB": 1024**3,
           "TB": 10**12, "t": 1024**4, "T": 1024**4, "TiB": 1024**4}
_FACTOR = re.compile(r"([0-9]{1,18}+)([A-Za-z]{0,3}+)")
_REDIRECTION = re.compile(r"[0-9]{0,2}+(?:>>?+|<|&>>?+|>&)(\S*+)")
_SCHEMA_BLOCK = re.compile(r"[0-9]{1,15}+(?:\.[0-9]{1,4}+)?+[KMGT]?+i?+B?+")


def dd_command(line, shell=None):
    """The arguments of a logged dd command (those after "dd", "/bin/dd", "busybox dd"), or None for
    any other line. With `shell` (the log read so far, line by line), variables the log set earlier
    (DEV=/dev/sdc, export BS=4M) and shell arithmetic are worked out in the command."""
    looped, budget_left = None, True
    if shell is not None and len(line) <= MAX_COMMAND:
        before = shell.expand(line)  # the variables set above this line, not those its own loop sets
        commands = shell.read(line)  # records NAME=value lines, runs a logged for loop
        looped = [list(c.args) for c in commands or () if c.name == "dd"]
        budget_left = shell.loop_budget > 0  # a loop cut short by the budget ran more than it gives
        line = before
    words = command_words(line, "dd")
    if words is None:
        return None
    at = next((i for i, word in enumerate(words) if word.rpartition("/")[2] == "dd"), None)
    if at is None:
        return None
    args = _own_words(words[at + 1:])
    if not any(a.startswith(("if=", "of=")) or ("=" not in a and _unexpanded(a)) for a in args):
        return None  # "dd $OPTS" may hold if= and of=: a command described() asks about
    if looped and len(looped) > 1 and any(each != looped[0] for each in looped):
        return Looped(tuple(looped))
    if looped and len(looped) > 1 and budget_left:
        return Repeated(args, len(looped))
    return args


class Looped(tuple):
    """The dd commands one logged for loop ran, in order, when they differ (for bs in 1M 4M; do dd … bs=$bs)."""


class Repeated(list):
    """The arguments of a dd command one logged line ran `times` times, the same each time
    (for i in 1 2 3; do dd …; done): more summaries below it than that are not its output."""

    def __init__(self, args, times):
        super().__init__(args)
        self.times = times


def _own_words(args):
    """The words of the dd command itself, without what follows it in a logged loop or pipe
    ("…; done", "| tail -1", "&& sync") and without redirections ("2>&1", "2> dd.log")."""
    own, skip = [], False
    for arg in args:
        if arg.startswith(("|", "&&", ";")) or arg == "&":
            break
        redirection = _REDIRECTION.fullmatch(arg)
        if skip or redirection:
            if arg.endswith(";"):
                break
            skip = not skip and not redirection.group(1)  # "2> dd.log": the target is the next word
            continue
        if arg.endswith(";"):
            own.append(arg.rstrip(";"))
            break
        own.append(arg)
    return own


def size_bytes(text):
    """Bytes of a dd size operand: '4M' -> 4194304, '10k' -> 10240, '1MB' -> 10**6, '2x512' -> 1024,
    '8b' -> 4096; None when dd would not take it."""
    total = 1
    for factor in str(text).split("x"):  # "2x512": a product
        match = _FACTOR.fullmatch(factor)
        if not match or match.group(2) not in _SUFFIX:
            return None
        total *= int(match.group(1)) * _SUFFIX[match.group(2)]
    return total if 0 < total < 10**18 else None


def block_text(size):
    """A block size as the card file writes it: '4m' -> '4M', '64k' -> '64K', '1MB' kept; sizes in
    other spellings ('2x512', '8b') as bytes in the largest binary unit that divides them."""
    text = re.sub(r"^([0-9]{1,18})([kmgt])$", lambda m: m.group(1) + m.group(2).upper(), str(size))
    if _SCHEMA_BLOCK.fullmatch(text) and size_bytes(text) is not None:
        return text
    count = size_bytes(size)
    return None if count is None else block_from_bytes(count)


def block_from_bytes(count):
    """4194304 -> '4M', 65536 -> '64K', 1000 -> '1000': the largest binary unit that divides it, as dd's bs= takes it."""
    for unit, factor in (("G", 1024**3), ("M", 1024**2), ("K", 1024)):
        if count % factor == 0:
            return f"{count // factor}{unit}"
    return str(count)


def _is_device(path):
    return path.startswith("/dev/") and path not in NOT_THE_CARD and not path.startswith(NOT_DEVICES)


def _unexpanded(word):
    """A shell variable or command substitution the log does not say the value of."""
    return "$" in word or "`" in word


def card_side(source, target):
    """(op, target kind) of a dd copy from `source` to `target` ("" for stdin / stdout), or None
    when the command does not say which side is the card."""
    source_device, target_device = _is_device(source), _is_device(target)
    if source_device and target_device:
        return None  # a device copied to a device: either may be the card
    if target_device:
        return "write", "device"
    if source_device:
        return "read", "device"
    if _unexpanded(source) or _unexpanded(target):
        return None  # of=$DEV that the log never set: a device or a file, nobody can say
    source_file = source not in ("", *NOT_THE_CARD) and not source.startswith("/dev/")
    target_file = target not in ("", *NOT_THE_CARD) and not target.startswith("/dev/")
    if source_file and target_file:
        mounted = [side for side in (source, target) if side.startswith(MOUNT_POINTS)]
        if len(mounted) != 1:
            return None
        return ("read" if mounted[0] == source else "write"), "file"
    if target_file and (source in DATA_SOURCES or source == ""):
        return "write", "file"
    if source_file and target in ("", "/dev/null", "-"):
        return "read", "file"
    return None


def described(args, line, op=None, block_size=None, known=()):
    """{"op", "block_size", "count", "flags", "target"} of a dd command's arguments; `op` and
    `block_size` (given on the command line) settle what the command leaves open and must agree
    with what it says. `known`: the variables the log sets, for naming a reference left unexpanded."""
    opts = {}
    for arg in args:
        if "=" in arg:
            key, value = arg.split("=", 1)
            opts[key] = value.rstrip(";&|)")  # "oflag=direct;" inside a logged for-loop
    source, target = opts.get("if", ""), opts.get("of", "")
    hidden = [arg for arg in args if "=" not in arg and _unexpanded(arg)]
    if hidden:  # "dd $OPTS": any operand may be in it
        _refuse_hidden(hidden, line, op, block_size, known)
        return {"op": op, "block_size": block_text(block_size), "count": None, "flags": None,
                "target": "device" if (target if op == "write" else source).startswith("/dev/") else "file"}
    side = card_side(source, target)
    shown = " ".join(f"{key}={opts[key]}" for key in ("if", "of") if key in opts)
    if side is None and op is None:
        unset = _unset_names(source, target, known=known)
        raise ParseError("dd", f"cannot tell which side of this dd command ({shown}) is the card"
                               f"{unset}, so read or write is unknown: {HOW_TO_SAY}", line=line)
    if side is None:
        card = target if op == "write" else source
        side = op, "device" if card.startswith("/dev/") else "file"
    elif op is not None and op != side[0]:
        raise ParseError("dd", f"this dd command ({shown}) {side[0]}s the card, but the import was told op {op}",
                         line=line)
    block = opts.get("bs") or opts.get("obs" if side[0] == "write" else "ibs") or "512"
    written = block_text(block)
    if written is None and _unexpanded(block) and block_size is None:
        raise ParseError("dd", f"block size bs={block}{_unset_names(block, known=known)}: give BS= (e.g. BS=4M) on make import, "
                               "or --bs on cardbench import, or set it in the log above the command", line=line)
    if written is None and _unexpanded(block):
        written = block_text(block_size)
    if written is None:
        raise ParseError("dd", f"block size bs={block} is not a size dd takes", line=line)
    if block_size is not None and size_bytes(written) != size_bytes(block_size):
        raise ParseError("dd", f"this dd command has bs={block}, but the import was told bs {block_size}", line=line)
    flags = []
    for key, allowed in (("iflag", IO_FLAGS), ("oflag", IO_FLAGS), ("conv", CONV_FLAGS)):
        for flag in opts.get(key, "").split(","):
            if flag in allowed and flag not in flags:
                flags.append(flag)
    count = size_bytes(opts["count"]) if "count" in opts and "count_bytes" not in opts.get("iflag", "") else None
    return {"op": side[0], "block_size": written, "count": count, "flags": flags or None, "target": side[1]}


def _refuse_hidden(words, line, op, block_size, known):
    """A dd command with a word the log leaves unexpanded ("dd $OPTS") says nothing sure about
    its operands: read or write and the block size must come from outside."""
    if op is None or block_size is None:
        raise ParseError("dd", f"this dd command's operands may be in {' '.join(words)}{_unset_names(*words, known=known)}, "
                               f"so what it measured is unknown: {HOW_TO_SAY} (BS= is needed here too)", line=line)


def _unset_names(*words, known=()):
    """" (the log does not set $DEV)" for the variables left in words (those it sets to blanks or
    shell syntax said so), or ""."""
    found = {shown: name for w in words for shown, name in variable_references(w).items()}
    if not found:
        return " (it uses a command's output the log does not show)" if any("`" in w or "$(" in w for w in words) else ""
    unset = sorted(shown for shown, name in found.items() if name not in known)
    odd = sorted(shown for shown, name in found.items() if name in known)
    said = ([f"the log does not set {', '.join(unset)}"] if unset else []) + (
        [f"the log sets {', '.join(odd)} to more than one plain word, which is not read as shell"] if odd else [])
    return f" ({'; '.join(said)})"


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


def _without_command(parsed, start, op, block_size):
    if op is None:
        raise ParseError("dd", NO_COMMAND, line=start)
    block = block_text(block_size) if block_size else _block_from_records(parsed, start)
    if block is None:
        raise ParseError("dd", "the dd command is not in the file and the block size cannot be told from its "
                               "output: give BS= (e.g. BS=4M) on make import, or --bs on cardbench import",
                         line=start)
    return {"op": op, "block_size": block, "count": None, "flags": None, "target": None}


def _failed_attempt(output):
    """(line, message) of a logged dd run that stopped before copying anything, else None."""
    return dd_parser.failure(output) if dd_parser.detect(output) == NOT_MINE else None


def _progress_fills(args, start, output, op, block_size):
    """(fill entries, notes) of a logged dd command whose status=progress updates make a series long
    enough to chart (imports.fill), or None: a shorter copy is a dd entry like any other."""
    try:
        series = dd_parser.progress(output)
    except ParseError as exc:
        raise renumbered(exc, start) from None
    if not is_fill(series):
        return None
    if args is not None:
        command = described(args, start, op, block_size)
    elif op is None:
        raise ParseError("dd", NO_COMMAND, line=start)
    else:
        command = {"op": op, "flags": None}
    text = ("dd " + " ".join(args))[:2000] if args is not None else None
    return dd_fills(series, command["op"], command["flags"], text, start)


def check_hints(op, block_size):
    """ParseError when the op or block size given on the command line is not one dd could have used."""
    if op is not None and op not in OPS:
        raise ParseError("dd", f"op {quoted(str(op))} is neither read nor write")
    if block_size is not None and block_text(block_size) is None:
        raise ParseError("dd", f"block size {quoted(str(block_size))} is not a size dd takes (e.g. 4M, 512K, 1048576)")


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
    write, block size and count in bytes, the flags in any order, and whether the card is the
    device or holds a file. Another output file, device name, prompt or sudo is the same test."""
    count = command["count"]
    if count is None and args is not None:  # iflag=count_bytes: count= is then bytes, still the test's extent
        given = dict(arg.split("=", 1) for arg in args if "=" in arg).get("count", "").rstrip(";&|)")
        count = size_bytes(given) or given or None
    return (command["op"], size_bytes(command["block_size"]), count, frozenset(command["flags"] or ()),
            command["target"])


def from_dd(text, op=None, block_size=None):
    """A dd log's entries: the runs of every logged command that means the same test (_same_test)
    in one entry, in the order each test first appears; the entry keeps the first command's text."""
    check_hints(op, block_size)
    tests, failures = {}, []  # _same_test() -> the first command's description and text, every run
    shell = Shell()
    parts = segments(text, lambda line: dd_command(line, shell))
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
            command = _without_command(parsed, start, op, block_size)
        else:
            # the command's own line, just above its output
            command = described(args, start - 1, op, block_size, known=shell.variables)
            _check_extent(args, command, parsed, start)
        if isinstance(args, Repeated) and len(parsed["runs"]) > args.times:
            raise ParseError("dd", f"the line above runs dd {args.times} times, but {len(parsed['runs'])} summaries "
                                   "follow it; the extra ones are another command's output: import each with its "
                                   "own command line", line=parsed["runs"][args.times]["line"] + start - 1)
        test = tests.setdefault(_same_test(command, args), {
            "command": command, "runs": [],
            "text": ("dd " + " ".join(args))[:2000] if args is not None else None})
        test["runs"] += parsed["runs"]
    entries = [sessions.dd_entry(test["command"]["op"], test["command"]["block_size"], test["runs"],
                                 count=test["command"]["count"], flags=test["command"]["flags"],
                                 target=test["command"]["target"], command=test["text"])
               for test in tests.values()]
    if not entries and not fills and failures:
        line, message = failures[0]
        raise ParseError("dd", "every dd command in the file failed before copying anything; nothing to import",
                         line=line, text=message)
    runs = max((len(entry["runs"]) for entry in entries), default=0)
    return with_fills(SessionFields(tools=[{"name": "dd"}], measurements={"dd": entries}, runs=runs), fills,
                      fill_notes)
