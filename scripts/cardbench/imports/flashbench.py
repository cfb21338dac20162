"""A flashbench log -> session fields: each logged flashbench command and the rows below it are
one -a, --open-au or -f entry, with block, erase and open-AU sizes taken from the command."""

from ..card import sessions
from ..errors import ParseError
from ..parsers import flashbench as flashbench_parser
from .result import SessionFields
from .transcript import command_words, renumbered, segments

DEFAULT_BLOCK_BYTES = 16384  # flashbench's -b when the command gives none


def flashbench_command(line):
    """The arguments of a logged flashbench command, or None for any other line."""
    words = command_words(line, "flashbench")
    if not words or not any(w.endswith("flashbench") for w in words[:3]):
        return None
    return words[[i for i, w in enumerate(words) if w.endswith("flashbench")][0] + 1:]


def options(args):
    """The options that describe an entry; ValueError when a size is not a number."""
    opts = {"mode": "sequential", "open_au": None, "erase": None, "block": None, "count": None, "offset": None}
    i = 0
    while i < len(args):
        name, _, value = args[i].partition("=")

        def take():
            nonlocal i
            if value:
                return value
            i += 1
            return args[i] if i < len(args) else ""
        if name in ("-r", "--random"):
            opts["mode"] = "random"
        elif name == "--open-au-nr":
            opts["open_au"] = int(take())
        elif name in ("-e", "--erasesize"):
            opts["erase"] = int(take())
        elif name in ("-b", "--blocksize"):
            opts["block"] = int(take())
        elif name in ("-c", "--count"):
            opts["count"] = int(take())
        elif name == "--offset":
            opts["offset"] = int(take())
        elif name in ("-o", "--out", "--fat-nr", "--scatter-order", "--scatter-span"):
            take()
        i += 1
    return opts


def from_flashbench(text):
    found = {"flashbench_open_au": [], "flashbench_align": [], "flashbench_find_fat": []}
    for args, start, output in segments(text, flashbench_command):
        try:
            parsed = flashbench_parser.parse(output)
        except ParseError as exc:
            raise renumbered(exc, start) from None
        try:
            opts = options(args or [])
        except ValueError:
            raise ParseError("flashbench", "command options not understood", line=start) from None
        command = ("flashbench " + " ".join(args))[:2000] if args else None
        if parsed["kind"] == "align":
            block = (opts["block"] or DEFAULT_BLOCK_BYTES) if args else None
            found["flashbench_align"].append(sessions.align_entry(parsed, block, opts["count"], command))
        elif parsed["kind"] == "find_fat":
            found["flashbench_find_fat"].append(sessions.find_fat_entry(parsed, opts["erase"], opts["block"], command))
        else:
            if not opts["open_au"]:
                raise ParseError("flashbench", "an --open-au sweep needs its command line (with --open-au-nr) above "
                                               "it in the file", line=start)
            found["flashbench_open_au"].append(sessions.open_au_entry(parsed, opts["mode"], opts["open_au"],
                                                                      opts["erase"], opts["block"], command,
                                                                      offset_bytes=opts["offset"]))
    return SessionFields(tools=[{"name": "flashbench"}], measurements={k: v for k, v in found.items() if v}, runs=1)
