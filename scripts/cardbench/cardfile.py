"""Read and write card files safely.

Reading: YAML safe-load semantics only (no object tags), duplicate keys rejected, aliases and
size bounded, and every value's line remembered so later checks can name the line.
Writing: temp file in the same folder, fsync, rename; earlier sessions stay byte-identical
when a session is appended.
"""

import math
import os
import tempfile
from pathlib import Path

import yaml

from .errors import CardFileError

MAX_FILE_BYTES = 2 * 1024 * 1024
MAX_ALIASES = 100
MAX_NODES = 200_000


class _BoundedLoader(yaml.SafeLoader):
    """SafeLoader that counts aliases while composing, so alias bombs stop early."""

    def compose_node(self, parent, index):
        if self.check_event(yaml.AliasEvent):
            self._aliases = getattr(self, "_aliases", 0) + 1
            if self._aliases > MAX_ALIASES:
                mark = self.peek_event().start_mark
                raise CardFileError(self.name, f"more than {MAX_ALIASES} YAML aliases; alias expansion refused",
                                    line=mark.line + 1, column=mark.column + 1, rule="aliases")
        return super().compose_node(parent, index)


# Dates stay strings ("2025-05-17"): the schema checks their form, and JSON output needs no conversion.
_BoundedLoader.yaml_implicit_resolvers = {
    key: [(tag, rx) for tag, rx in resolvers if tag != "tag:yaml.org,2002:timestamp"]
    for key, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}


class LoadedCard:
    """A card's data plus the source position of every field path."""

    def __init__(self, path, data, positions, text):
        self.path = Path(path)
        self.data = data
        self.positions = positions
        self.text = text

    def position(self, field_path):
        """(line, column) of the nearest known ancestor of a field path, 1-based."""
        path = tuple(field_path)
        while path not in self.positions and path:
            path = path[:-1]
        return self.positions.get(path, (None, None))

    def error(self, field_path, message, rule=None):
        line, column = self.position(field_path)
        return CardFileError(self.path, message, line=line, column=column,
                             field=format_field(field_path), rule=rule)


def format_field(field_path):
    """sessions[0].results[2].runs"""
    out = ""
    for part in field_path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out or "(document)"


def _walk(node, path, positions, seen, budget):
    """Record positions, reject duplicate keys, and bound the work on alias-heavy graphs."""
    budget[0] += 1
    if budget[0] > MAX_NODES:
        raise CardFileError(budget[1], f"document expands to more than {MAX_NODES} values; refused",
                            line=node.start_mark.line + 1, rule="size")
    positions.setdefault(path, (node.start_mark.line + 1, node.start_mark.column + 1))
    if isinstance(node, yaml.MappingNode):
        keys = {}
        for key_node, value_node in node.value:
            key = key_node.value
            if key in keys:
                raise CardFileError(budget[1], f"duplicate key '{key}' (first at line {keys[key]})",
                                    line=key_node.start_mark.line + 1, column=key_node.start_mark.column + 1,
                                    field=format_field(path + (key,)), rule="duplicate-key")
            keys[key] = key_node.start_mark.line + 1
            _walk(value_node, path + (key,), positions, seen, budget)
    elif isinstance(node, yaml.SequenceNode):
        for index, item in enumerate(node.value):
            _walk(item, path + (index,), positions, seen, budget)


def parse_card_text(text, path="<text>"):
    """Parse YAML text into a LoadedCard, or raise CardFileError with the line."""
    loader = _BoundedLoader(text)
    loader.name = str(path)
    try:
        try:
            node = loader.get_single_node()
            if node is None:
                raise CardFileError(path, "file is empty", line=1)
            positions = {}
            _walk(node, (), positions, set(), [0, str(path)])
            data = loader.construct_document(node)
        finally:
            loader.dispose()
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        reason = " ".join(str(part) for part in (exc.context, exc.problem) if part)
        if "!!python" in reason or "could not determine a constructor" in reason:
            reason = f"tag not allowed ({reason})"
        raise CardFileError(path, f"YAML error: {reason}", line=mark.line + 1 if mark else None,
                            column=mark.column + 1 if mark else None, rule="yaml") from None
    except yaml.YAMLError as exc:
        raise CardFileError(path, f"YAML error: {exc}", rule="yaml") from None
    except RecursionError:
        raise CardFileError(path, "YAML nesting too deep", rule="size") from None
    if not isinstance(data, dict):
        raise CardFileError(path, "a card file must be a mapping (key: value) at the top", line=1, rule="type")
    return LoadedCard(path, data, positions, text)


def load_card(path):
    """Read a card file from disk with size and encoding checks."""
    path = Path(path)
    try:
        size = path.stat().st_size
    except OSError as exc:
        raise CardFileError(path, f"cannot read: {exc.strerror}") from None
    if size > MAX_FILE_BYTES:
        raise CardFileError(path, f"file is {size} bytes; the limit is {MAX_FILE_BYTES}", rule="size")
    raw = path.read_bytes()
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise CardFileError(path, f"not UTF-8 text (byte {exc.start})", line=line, rule="encoding") from None
    return parse_card_text(text, path)


def non_finite_paths(value, path=()):
    """Yield field paths of NaN/Inf numbers (YAML .nan/.inf), which JSON cannot carry."""
    if isinstance(value, float) and not math.isfinite(value):
        yield path
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from non_finite_paths(item, path + (key,))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from non_finite_paths(item, path + (index,))


def atomic_write_text(path, text):
    """Write text to path through a temp file and rename, so readers never see half a file."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise


class _BlockDumper(yaml.SafeDumper):
    """Block style for mappings, flow style for lists of plain numbers (runs stay on one line)."""

    def represent_list(self, data):
        flow = bool(data) and all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in data)
        return self.represent_sequence("tag:yaml.org,2002:seq", data, flow_style=flow)


_BlockDumper.add_representer(list, _BlockDumper.represent_list)


def dump_yaml(data):
    """YAML text in the house layout: key order kept, unicode as is, wide lines."""
    return yaml.dump(data, Dumper=_BlockDumper, sort_keys=False, allow_unicode=True, width=110,
                     default_flow_style=False)


def new_card_text(card, header="# yaml-language-server: $schema=../schema/card.schema.json\n"):
    """Full text of a new card file."""
    return header + dump_yaml(card)


def append_session_text(existing_text, session):
    """Text of a card file with one more session at the end; earlier bytes unchanged.

    The card's 'sessions' list must be the file's last top-level key (as written by this module);
    an empty 'sessions: []' is replaced by a block list.
    """
    block = dump_yaml([session])
    block = "".join("  " + line if line.strip() else line for line in block.splitlines(True))
    text = existing_text if existing_text.endswith("\n") else existing_text + "\n"
    lines = text.splitlines(True)
    last_key = max((i for i, line in enumerate(lines) if line[:1] not in (" ", "#", "-", "\n", "")), default=None)
    if last_key is None or not lines[last_key].startswith("sessions:"):
        raise ValueError("'sessions:' is not the last top-level key of the card file; cannot append safely")
    if lines[last_key].strip() == "sessions: []":
        lines[last_key] = "sessions:\n"
        text = "".join(lines)
    return text + block
