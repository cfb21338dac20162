"""A logged dd command read: its words, its sizes, and what it says it measured.

dd_command(line, shell) -> the arguments of a logged dd command (Looped, Repeated for loops), or None.
described(args, line, op, block_size, known) -> {"op", "block_size", "count", "flags", "target",
    "source", "sink", "no_card"}: read or write (dd/card.py says which side is the card), the
    block size (bs=, or obs= / ibs= on the card's side), count= (with dd's suffixes: count=10k is
    10240) and the flags that change what is measured (iflag/oflag direct, dsync, sync, nocache,
    fullblock; conv=fdatasync, fsync); `no_card` says why a command measured no card.
"""

import re

from ...core.units import (GB_BYTES, GIB_BYTES, KB_BYTES, KIB_BYTES, MB_BYTES, MIB_BYTES, SECTOR_BYTES, TB_BYTES,
                           TIB_BYTES)
from ...errors import ParseError, quoted
from .card import card_side, no_card, unexpanded
from ..text.shell_words import MAX_COMMAND, command_words, variable_references

OPS = ("read", "write")
IO_FLAGS = ("direct", "dsync", "sync", "nocache", "fullblock")  # iflag= / oflag= values that change the figure
CONV_FLAGS = ("fdatasync", "fsync")  # conv= values that do (conv=sync pads blocks: not a speed matter)
HOW_TO_SAY = ("give OP=read or OP=write (and BS=, e.g. BS=4M, when the output has no 'N+0 records out' line) on "
              "make import, or --op/--bs on cardbench import")
PUT_THE_COMMAND = ("or put the command line (e.g. '$ dd if=/dev/sdX of=/dev/null bs=4M count=256 iflag=direct') "
                   "above its output")
NO_COMMAND_REASON = "the dd command is not in the file, so read or write is unknown"
NO_COMMAND = NO_COMMAND_REASON + ": " + HOW_TO_SAY + "; " + PUT_THE_COMMAND


def no_command_error(line, block_unknown=None):
    """The ParseError of dd output without its command, asking for read or write, and for the block size
    when `block_unknown` is given (True when no 'N+0 records out' line tells it)."""
    if block_unknown is None:
        return ParseError("dd", NO_COMMAND, line=line, asks=("op",), reason=NO_COMMAND_REASON)
    return ParseError("dd", without_command(True, block_unknown), line=line,
                      asks=("op",) + ("block_size",) * block_unknown,
                      reason=without_command_reason(True, block_unknown))


def without_command_reason(op_unknown, block_unknown):
    unknown = [what for what, missing in (("read or write", op_unknown), ("the block size (no 'N+0 records out' "
                                                                          "line tells it)", block_unknown)) if missing]
    verb = "are" if len(unknown) > 1 else "is"
    return f"the dd command is not in the file, so {' and '.join(unknown)} {verb} unknown"


def without_command(op_unknown, block_unknown):
    """What to give for dd output without its command, all in one message: read or write, the block
    size (when no 'N+0 records out' line tells it), or both."""
    make = [what for what, missing in (("OP=read or OP=write", op_unknown),
                                       ("BS= (e.g. BS=4M; without it the figures are kept as 'dd (block size not "
                                        "stated)', a test of their own)", block_unknown)) if missing]
    options = [what for what, missing in (("--op", op_unknown), ("--bs", block_unknown)) if missing]
    return (f"{without_command_reason(op_unknown, block_unknown)}: give {' and '.join(make)} on make import, or "
            f"{' and '.join(options)} on cardbench import; " + PUT_THE_COMMAND)

# dd's multiplicative suffixes (GNU, BSD and BusyBox spellings), for bs=, count= and --bs.
_SUFFIX = {"": 1, "c": 1, "w": 2, "b": SECTOR_BYTES, "kB": KB_BYTES, "KB": KB_BYTES, "kD": KB_BYTES, "k": KIB_BYTES,
           "K": KIB_BYTES, "KiB": KIB_BYTES, "MB": MB_BYTES, "MD": MB_BYTES, "m": MIB_BYTES, "M": MIB_BYTES,
           "MiB": MIB_BYTES, "GB": GB_BYTES, "GD": GB_BYTES, "g": GIB_BYTES, "G": GIB_BYTES, "GiB": GIB_BYTES,
           "TB": TB_BYTES, "t": TIB_BYTES, "T": TIB_BYTES, "TiB": TIB_BYTES}
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
    if not any(a.startswith(("if=", "of=")) or ("=" not in a and unexpanded(a)) for a in args):
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
    """4194304 -> '4M', 65536 -> '64K', 1000 -> '1000': the largest binary unit that divides it, as dd's bs=
    takes it."""
    for unit, factor in (("G", GIB_BYTES), ("M", MIB_BYTES), ("K", KIB_BYTES)):
        if count % factor == 0:
            return f"{count // factor}{unit}"
    return str(count)



def described(args, line, op=None, block_size=None, known=()):
    """{"op", "block_size", "count", "flags", "target", "source", "sink", "no_card"} of a dd command's
    arguments; `op` and `block_size` (given on the command line) settle what the command leaves open
    and must agree with what it says. `known`: the variables the log sets, for naming a reference
    left unexpanded. A command that measured no card (dd_card.no_card) is described with `no_card`
    saying why, whatever op it is given."""
    opts = {}
    for arg in args:
        if "=" in arg:
            key, value = arg.split("=", 1)
            opts[key] = value.rstrip(";&|)")  # "oflag=direct;" inside a logged for-loop
    source, target = opts.get("if", ""), opts.get("of", "")
    paths = {"source": source, "sink": target, "no_card": None}
    hidden = [arg for arg in args if "=" not in arg and unexpanded(arg)]
    if hidden:  # "dd $OPTS": any operand may be in it
        _refuse_hidden(hidden, line, op, block_size, known)
        return {"op": op, "block_size": block_text(block_size), "count": None, "flags": None,
                "target": "device" if (target if op == "write" else source).startswith("/dev/") else "file", **paths}
    side = card_side(source, target)
    shown = " ".join(f"{key}={opts[key]}" for key in ("if", "of") if key in opts)
    why = no_card(source, target, op)
    if why is not None:
        return {"op": op, "block_size": None, "count": None, "flags": None, "target": None, **paths, "no_card": why}
    if side is None and op is None:
        unset = _unset_names(source, target, known=known)
        reason = f"cannot tell which side of this dd command ({shown}) is the card{unset}, so read or write is unknown"
        raise ParseError("dd", f"{reason}: {HOW_TO_SAY}", line=line, asks=("op",), reason=reason)
    if side is None:
        card = target if op == "write" else source
        side = op, "device" if card.startswith("/dev/") else "file"
    elif op is not None and op != side[0]:
        raise ParseError("dd", f"this dd command ({shown}) {side[0]}s the card, but the import was told op {op}",
                         line=line)
    block = opts.get("bs") or opts.get("obs" if side[0] == "write" else "ibs") or "512"
    written = block_text(block)
    if written is None and unexpanded(block) and block_size is None:
        reason = f"block size bs={block}{_unset_names(block, known=known)}"
        raise ParseError("dd", f"{reason}: give BS= (e.g. BS=4M) on make import, or --bs on cardbench import, "
                               "or set it in the log above the command", line=line, asks=("block_size",),
                         reason=reason)
    if written is None and unexpanded(block):
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
    return {"op": side[0], "block_size": written, "count": count, "flags": flags or None, "target": side[1], **paths}


def _refuse_hidden(words, line, op, block_size, known):
    """A dd command with a word the log leaves unexpanded ("dd $OPTS") says nothing sure about
    its operands: read or write and the block size must come from outside."""
    if op is None or block_size is None:
        raise ParseError("dd", "this dd command's operands may be in "
                               f"{' '.join(words)}{_unset_names(*words, known=known)}, "
                               f"so what it measured is unknown: {HOW_TO_SAY} (BS= is needed here too)", line=line)


def _unset_names(*words, known=()):
    """" (the log does not set $DEV)" for the variables left in words (those it sets to blanks or
    shell syntax said so), or ""."""
    found = {shown: name for w in words for shown, name in variable_references(w).items()}
    if not found:
        if any("`" in w or "$(" in w for w in words):
            return " (it uses a command's output the log does not show)"
        return ""
    unset = sorted(shown for shown, name in found.items() if name not in known)
    odd = sorted(shown for shown, name in found.items() if name in known)
    said = ([f"the log does not set {', '.join(unset)}"] if unset else []) + (
        [f"the log sets {', '.join(odd)} to more than one plain word, which is not read as shell"] if odd else [])
    return f" ({'; '.join(said)})"


def check_hints(op, block_size):
    """ParseError when the op or block size given on the command line is not one dd could have used."""
    if op is not None and op not in OPS:
        raise ParseError("dd", f"op {quoted(str(op))} is neither read nor write")
    if block_size is not None and block_text(block_size) is None:
        raise ParseError("dd", f"block size {quoted(str(block_size))} is not a size dd takes (e.g. 4M, 512K, 1048576)")

