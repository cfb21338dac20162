"""A dd log -> session fields: each logged dd command and the summaries below it are one entry
(read or write, block size, count and flags taken from the command)."""

import re

from ..card import sessions
from ..errors import ParseError
from ..parsers import dd as dd_parser
from .result import SessionFields
from .transcript import command_words, renumbered, segments

NO_COMMAND = ("the dd command is not in the file, so read/write and block size are unknown; put the command line "
              "(e.g. '$ dd if=/dev/sdX of=/dev/null bs=4M count=256 iflag=direct') above its output")


def dd_command(line):
    """The arguments of a logged dd command (those after "dd"), or None for any other line."""
    words = command_words(line, "dd")
    if words is None or "dd" not in words:
        return None
    args = _own_words(words[words.index("dd") + 1:])
    return args if any(a.startswith(("if=", "of=")) for a in args) else None


def _own_words(args):
    """The words of the dd command itself, without what follows it in a logged loop or pipe
    ("…; done", "| tail -1", "&& sync")."""
    for i, arg in enumerate(args):
        if arg.startswith(("|", "&&", ";")) or arg == "&":
            return args[:i]
        if arg.endswith(";"):
            return args[:i] + [arg.rstrip(";")]
    return args


def described(args, line):
    """{"op", "block_size", "count", "flags", "target"} of a dd command's arguments."""
    opts = {}
    for arg in args:
        if "=" in arg:
            key, value = arg.split("=", 1)
            opts[key] = value.rstrip(";&|)")  # "oflag=direct;" inside a logged for-loop
    source, target = opts.get("if", ""), opts.get("of", "")
    if target == "/dev/null" or (source and not source.startswith("/dev/zero") and not source.startswith("/dev/urandom")
                                  and target in ("", "/dev/null")):
        op, subject = "read", source
    elif source in ("/dev/zero", "/dev/urandom", "/dev/random"):
        op, subject = "write", target
    else:
        raise ParseError("dd", "cannot tell whether this dd command reads or writes the card", line=line)
    flags = []
    for key in ("iflag", "oflag"):
        for flag in opts.get(key, "").split(","):
            if flag in ("direct", "dsync", "sync", "nocache", "fullblock") and flag not in flags:
                flags.append(flag)
    block = opts.get("bs", "512")
    block = re.sub(r"(?i)^(\d+)([kmgt])$", lambda m: m.group(1) + m.group(2).upper(), block)
    # str.isdigit() accepts "²", which int() refuses, and int() refuses more than 4300 digits
    count = int(opts["count"]) if re.fullmatch(r"[0-9]{1,18}", opts.get("count", "")) else None
    return {"op": op, "block_size": block, "count": count, "flags": flags or None,
            "target": "device" if subject.startswith("/dev/") else "file"}


def from_dd(text):
    entries, runs = [], 0
    parts = segments(text, dd_command)
    for args, start, output in parts:
        try:
            parsed = dd_parser.parse(output)
        except ParseError as exc:
            if args is None and len(parts) > 1:
                continue  # text before the first command
            raise renumbered(exc, start) from None
        if args is None:
            raise ParseError("dd", NO_COMMAND, line=start)
        command = described(args, start)
        entries.append(sessions.dd_entry(command["op"], command["block_size"], parsed, count=command["count"],
                                         flags=command["flags"], target=command["target"],
                                         command=("dd " + " ".join(args))[:2000]))
        runs = max(runs, len(parsed["runs"]))
    return SessionFields(tools=[{"name": "dd"}], measurements={"dd": entries}, runs=runs)
