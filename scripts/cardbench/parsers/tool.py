"""What a tool module says of itself: its ToolInfo, beside detect(), parse() and to_session().

A tool module (parsers/<tool>.py) is the one home of a tool's output format:
  INFO = ToolInfo(...)              the metadata below
  detect(text) -> NOT_MINE, SHAPED or NAMED
  parse(text) -> dict               pure; ParseError naming the line
  parse_file(text) -> dict          optional: what to_session() reads when a file holds more than parse()
                                    reads (several fio documents, a log of dd commands and their output)
  to_session(parsed, **hints) -> parsers.fields.SessionFields   the card entries (parsers/card_entries.py);
                                    hints: what the output may not say, from the command line (INFO.hints)
                                    or from the collector, which ran the tool (command, raw, …)
parsers.registry lists the modules; only the importer cuts a log of several tools apart.
"""

from dataclasses import dataclass, field


@dataclass(frozen=True)
class ToolInfo:
    name: str  # the --format value and registry name: "hdparm"
    programs: tuple  # command names that run it in a logged session: ("hdparm",)
    family: str  # what it measures: "sequential", "sustained", "random", "capacity", "suite", "device facts"
    description: str  # one line for --format's help
    # The units it prints and what they mean: {"MB/sec": "MiB/s (2^20 bytes a second)"}; the
    # docstring of the module says the same in words and a test holds the parser to it.
    units: dict = field(default_factory=dict)
    # What its to_session() takes beside the parsed text, which the output may not say ("op", "block_size").
    hints: tuple = ()
    # Whether its rates are the card's own whatever the page cache does: it writes more than a cache
    # holds and reads it back past the cache (f3write/f3read, H2testw), so the bus ceiling holds them.
    # Other tools' tool_results are held to it only when they say they bypassed the cache (direct).
    past_cache: bool = False
