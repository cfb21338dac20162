"""Read and write card files safely.

Reading: YAML safe-load semantics only (plain mappings, lists, text, numbers, booleans), no tags,
no merge keys, duplicate keys rejected, file size, aliases, expansion and nesting depth bounded,
and every value's line remembered so later checks can name the line. Every problem is a
CardFileError naming file, line and column; nothing else escapes.
Writing: temp file in the same folder, fsync, rename; earlier sessions stay byte-identical
when a session is appended. Raw tool outputs are fingerprinted in data/raw/<slug>/SHA256SUMS.
"""

import hashlib
import math
import os
import re
import tempfile
from pathlib import Path

import yaml

from ..errors import CardFileError

MAX_FILE_BYTES = 2 * 1024 * 1024
MAX_ALIASES = 100
MAX_NODES = 100_000
MAX_DEPTH = 32
MAX_NUMBER_CHARS = 40

# Tags a card file may carry: the ones plain YAML text resolves to (timestamps stay text, below).
_PLAIN_TAGS = {f"tag:yaml.org,2002:{name}" for name in ("str", "int", "float", "bool", "null", "seq", "map")}
_STR_TAG = "tag:yaml.org,2002:str"
_MERGE_TAG = "tag:yaml.org,2002:merge"


class _BoundedLoader(yaml.SafeLoader):
    """SafeLoader that counts aliases and nesting while composing, so bombs stop early."""

    def compose_node(self, parent, index):
        self._nodes = getattr(self, "_nodes", 0) + 1
        if self._nodes > MAX_NODES:
            mark = self.peek_event().start_mark
            raise CardFileError(self.name, f"document has more than {MAX_NODES} values; refused",
                                line=mark.line + 1, column=mark.column + 1, rule="size")
        if self.check_event(yaml.AliasEvent):
            self._aliases = getattr(self, "_aliases", 0) + 1
            if self._aliases > MAX_ALIASES:
                mark = self.peek_event().start_mark
                raise CardFileError(self.name, f"more than {MAX_ALIASES} YAML aliases (*name); alias expansion refused",
                                    line=mark.line + 1, column=mark.column + 1, rule="aliases")
        self._depth = getattr(self, "_depth", 0) + 1
        try:
            if self._depth > MAX_DEPTH:
                mark = self.peek_event().start_mark
                raise CardFileError(self.name, f"nesting deeper than {MAX_DEPTH} levels; refused",
                                    line=mark.line + 1, column=mark.column + 1, rule="depth")
            return super().compose_node(parent, index)
        finally:
            self._depth -= 1


# Dates stay strings ("2025-05-17"): the schema checks their form, and JSON output needs no conversion.
# A lone '=' stays text too (YAML 1.1 would make it a 'value' key, which nothing can construct).
_BoundedLoader.yaml_implicit_resolvers = {
    key: [(tag, rx) for tag, rx in resolvers if tag not in ("tag:yaml.org,2002:timestamp", "tag:yaml.org,2002:value")]
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


def _line_col(node):
    return node.start_mark.line + 1, node.start_mark.column + 1


class _Walk:
    """Checks the composed node graph before anything is constructed from it."""

    def __init__(self, path, aliases_used):
        self.path = path
        self.aliases_used = aliases_used
        self.positions = {}
        self.count = 0
        self.open = set()  # ids of nodes on the current branch, to spot self-referencing aliases

    def fail(self, node, message, rule, field=None):
        line, column = _line_col(node)
        raise CardFileError(self.path, message, line=line, column=column,
                            field=format_field(field) if field else None, rule=rule)

    def walk(self, node, field):
        self.count += 1
        if self.count > MAX_NODES:
            if self.aliases_used:
                self.fail(node, f"YAML aliases expand the document to more than {MAX_NODES} values; refused",
                          "aliases")
            self.fail(node, f"document has more than {MAX_NODES} values; refused", "size")
        if id(node) in self.open:
            self.fail(node, "YAML alias refers to a value containing itself; refused", "aliases", field)
        if node.tag == _MERGE_TAG and isinstance(node, yaml.ScalarNode):
            node.tag = _STR_TAG  # '<<' as a value is just text (as a key it is refused below)
        if node.tag not in _PLAIN_TAGS:
            self.fail(node, f"YAML tag {node.tag.replace('tag:yaml.org,2002:', '!!')} is not allowed; "
                            "card files hold plain text, numbers, lists and mappings only", "tag", field)
        self.positions.setdefault(field, _line_col(node))
        if isinstance(node, yaml.ScalarNode):
            if node.tag in ("tag:yaml.org,2002:int", "tag:yaml.org,2002:float") and len(node.value) > MAX_NUMBER_CHARS:
                self.fail(node, f"number written with {len(node.value)} characters; at most {MAX_NUMBER_CHARS}",
                          "size", field)
            return
        self.open.add(id(node))
        if isinstance(node, yaml.MappingNode):
            seen = {}
            for key_node, value_node in node.value:
                if key_node.tag == _MERGE_TAG:
                    self.fail(key_node, "YAML merge keys (<<) are not supported; write the fields out", "merge-key", field)
                if not isinstance(key_node, yaml.ScalarNode):
                    self.fail(key_node, "a key must be plain text, not a list or mapping", "key-type", field)
                if key_node.tag != _STR_TAG:
                    self.fail(key_node, f"key '{_short(key_node.value)}' is not text (YAML reads it as "
                                        f"{key_node.tag.rsplit(':', 1)[-1]}); put it in quotes", "key-type",
                              field + (key_node.value,))
                key = key_node.value
                if key in seen:
                    self.fail(key_node, f"duplicate key '{_short(key)}' (first at line {seen[key]})", "duplicate-key",
                              field + (key,))
                seen[key] = key_node.start_mark.line + 1
                self.positions.setdefault(field + (key,), _line_col(key_node))
                self.walk(value_node, field + (key,))
        else:
            for index, item in enumerate(node.value):
                self.walk(item, field + (index,))
        self.open.discard(id(node))


def _short(text, limit=60):
    text = str(text)
    return text if len(text) <= limit else text[:limit] + "…"


# Plain-language hints for PyYAML's most common complaints.
_YAML_HINTS = [
    ("mapping values are not allowed here", "a ':' inside unquoted text? put the text in quotes"),
    ("while scanning a quoted scalar", "a quote is not closed"),
    ("expected <block end>", "indentation does not line up with the lines above"),
    ("found undefined alias", "'*' starts an alias in YAML; put the text in quotes"),
    ("that cannot start any token", "put the text in quotes"),
    ("expected a single document", "a card file holds one document; remove the '---' line"),
    ("found duplicate anchor", "each &anchor name may be used once"),
]


def _indent_tab(text, line):
    """1-based column of a tab in the indentation of a line, or None."""
    lines = text.splitlines()
    if not 1 <= line <= len(lines):
        return None
    row = lines[line - 1]
    indent = row[: len(row) - len(row.lstrip(" \t"))]
    return indent.index("\t") + 1 if "\t" in indent else None


_OPENING_QUOTE = re.compile(r"""^\s*(?:-\s+)?[^\s"'#][^:#]*:\s+(["'])(.*)$""")


def _unclosed_quote_line(text, before):
    """First line before `before` whose value opens a quote it does not close on that line."""
    for number, row in enumerate(text.splitlines()[: max(before - 1, 0)], 1):
        match = _OPENING_QUOTE.match(row)
        if match and match.group(1) not in match.group(2):
            return number
    return None


def _yaml_error(exc, path, text):
    """CardFileError for a PyYAML error: its position, its reason, and a hint."""
    mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
    line = mark.line + 1 if mark else None
    column = mark.column + 1 if mark else None
    problem = getattr(exc, "problem", None) or ""
    if "'\\t'" in problem:
        tab_column = _indent_tab(text, line)
        if tab_column is not None:
            return CardFileError(path, "tab character in the indentation; YAML indents with spaces only",
                                 line=line, column=tab_column, rule="tab-indent")
        return CardFileError(path, "tab character outside quotes; use spaces, or put the text in quotes",
                             line=line, column=column, rule="tab-indent")
    if "could not determine a constructor" in problem:
        return CardFileError(path, "YAML tag is not allowed; card files hold plain text, numbers, lists and "
                                   "mappings only", line=line, column=column, rule="tag")
    reason = " ".join(str(part) for part in (getattr(exc, "context", None), problem) if part) or str(exc)
    hint = next((h for key, h in _YAML_HINTS if key in reason), None)
    opened = _unclosed_quote_line(text, line) if line else None
    if opened is not None:
        hint = f"the quote opened at line {opened} is not closed on that line"
    message = f"YAML syntax error: {reason}" + (f" ({hint})" if hint else "")
    if mark is None:
        message = f"YAML syntax error: {_short(exc, 200)}"
    return CardFileError(path, message, line=line, column=column, rule="yaml")


def _reader_error(exc, path, text):
    """Characters YAML does not allow (NUL, most control characters) with their line and column."""
    position = exc.position if isinstance(exc.position, int) else 0
    before = text[:position]
    line = before.count("\n") + 1
    column = position - (before.rfind("\n") + 1) + 1
    char = exc.character
    shown = f"U+{char:04X}" if isinstance(char, int) else repr(char)
    return CardFileError(path, f"character {shown} is not allowed in YAML text", line=line, column=column,
                         rule="encoding")


# --- Fast path: libyaml composes, the same checks run on its nodes ------------------------------
# libyaml (PyYAML's C parser) is several times faster but bounds neither aliases nor nesting, and
# words errors differently. So it only ever accepts: a text it cannot take cleanly, or that comes
# near a limit, goes to the careful loader above, whose verdict and message stand.

_FAST_NESTING_BOUND = 4000  # libyaml composes recursively; far deeper nesting overflows the C stack


class _FastLoader(getattr(yaml, "CSafeLoader", yaml.SafeLoader)):
    yaml_implicit_resolvers = _BoundedLoader.yaml_implicit_resolvers


class _NotFast(Exception):
    """The fast path declines; the careful loader decides."""


class _FastWalk(_Walk):
    """_Walk that also counts nesting and alias uses (a node met twice), which libyaml does not bound."""

    def __init__(self, path):
        super().__init__(path, False)
        self.seen = set()
        self.aliases = 0
        self.depth = 0

    def walk(self, node, field):
        if id(node) in self.seen:
            self.aliases += 1
            if self.aliases > MAX_ALIASES:
                raise _NotFast()
        self.seen.add(id(node))
        self.depth += 1  # counted per node, scalars included, as _BoundedLoader counts
        try:
            if self.depth > MAX_DEPTH:
                raise _NotFast()
            super().walk(node, field)
        finally:
            self.depth -= 1


def _parse_fast(text, path):
    """LoadedCard through libyaml, or None when the careful loader must decide."""
    if not getattr(yaml, "__with_libyaml__", False) or "\t" in text:
        return None
    if yaml.reader.Reader.NON_PRINTABLE.search(text):
        return None
    # Block nesting needs indentation (an indentless list adds one level per column), flow nesting brackets.
    longest = max(map(len, text.split("\n")))
    if 2 * longest + text.count("[") + text.count("{") > _FAST_NESTING_BOUND:
        return None
    try:
        loader = _FastLoader(text)
        try:
            node = loader.get_single_node()
            if node is None:
                return None
            walk = _FastWalk(str(path))
            walk.walk(node, ())
            data = loader.construct_document(node)
        finally:
            loader.dispose()
    except (_NotFast, CardFileError, yaml.YAMLError, RecursionError, ValueError, TypeError, OverflowError):
        return None
    if not isinstance(data, dict):
        return None
    return LoadedCard(path, data, walk.positions, text)


def parse_card_text(text, path="<text>"):
    """Parse YAML text into a LoadedCard, or raise CardFileError with the line."""
    if len(text) > MAX_FILE_BYTES:
        raise CardFileError(path, f"text is {len(text)} characters; the limit is {MAX_FILE_BYTES}", rule="size")
    # Every value needs a line or a comma of its own: refuse before parsing what cannot be under the limit.
    separators = text.count("\n") + text.count(",")
    if separators > MAX_NODES:
        raise CardFileError(path, f"{separators} lines and commas; a card file has at most {MAX_NODES} values",
                            rule="size")
    fast = _parse_fast(text, path)
    if fast is not None:
        return fast
    try:
        loader = _BoundedLoader(text)
    except yaml.reader.ReaderError as exc:
        raise _reader_error(exc, path, text) from None
    loader.name = str(path)
    try:
        try:
            node = loader.get_single_node()
            if node is None:
                raise CardFileError(path, "file is empty", line=1, rule="type")
            walk = _Walk(str(path), getattr(loader, "_aliases", 0) > 0)
            walk.walk(node, ())
            data = loader.construct_document(node)
        finally:
            loader.dispose()
    except yaml.reader.ReaderError as exc:
        raise _reader_error(exc, path, text) from None
    except yaml.YAMLError as exc:
        raise _yaml_error(exc, path, text) from None
    except RecursionError:
        raise CardFileError(path, "YAML nesting too deep", rule="depth") from None
    except (ValueError, TypeError, OverflowError) as exc:
        # A scalar PyYAML cannot turn into a value (e.g. an integer beyond Python's digit limit).
        raise CardFileError(path, f"value cannot be read: {_short(exc, 120)}", rule="yaml") from None
    if not isinstance(data, dict):
        raise CardFileError(path, "a card file must be a mapping (key: value) at the top", line=1, rule="type")
    return LoadedCard(path, data, walk.positions, text)


def load_card(path):
    """Read a card file from disk with size and encoding checks."""
    path = Path(path)
    try:
        stat = path.stat()
    except OSError as exc:
        raise CardFileError(path, f"cannot read: {exc.strerror}", rule="read") from None
    if not path.is_file():
        raise CardFileError(path, "not a regular file", rule="read")
    if stat.st_size > MAX_FILE_BYTES:
        raise CardFileError(path, f"file is {stat.st_size} bytes; the limit is {MAX_FILE_BYTES}", rule="size")
    try:
        with open(path, "rb") as handle:
            raw = handle.read(MAX_FILE_BYTES + 1)
    except OSError as exc:
        raise CardFileError(path, f"cannot read: {exc.strerror}", rule="read") from None
    if len(raw) > MAX_FILE_BYTES:
        raise CardFileError(path, f"file is larger than the limit of {MAX_FILE_BYTES} bytes", rule="size")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise CardFileError(path, f"not UTF-8 text (byte {exc.start}); save the file as UTF-8", line=line,
                            rule="encoding") from None
    return parse_card_text(text, path)


def non_finite_paths(value, path=()):
    """Yield field paths of NaN/Inf numbers (YAML .nan/.inf), which JSON cannot carry, and of
    integers too large for a float."""
    if isinstance(value, bool):
        return
    if isinstance(value, float) and not math.isfinite(value):
        yield path
    elif isinstance(value, int):
        try:
            float(value)
        except OverflowError:
            yield path
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from non_finite_paths(item, path + (key,))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from non_finite_paths(item, path + (index,))


def _umask():
    mask = os.umask(0)
    os.umask(mask)
    return mask


def write_temp_beside(path, text, fsync=True):
    """Write text (or bytes) to a new temp file in path's folder, with the mode open() would give;
    returns its path. The caller renames (or links) it into place, so readers never see half a file.

    The name carries the writer's process id (.<name>.<pid>.<random>.tmp), so a temp file left by a
    killed writer can be told from one being written now (remove_stale_temps).
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.{os.getpid()}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb" if isinstance(text, bytes) else "w",
                       **({} if isinstance(text, bytes) else {"encoding": "utf-8"})) as handle:
            os.fchmod(handle.fileno(), 0o666 & ~_umask())  # mkstemp makes 0600
            handle.write(text)
            handle.flush()
            if fsync:
                os.fsync(handle.fileno())
    except BaseException:
        os.unlink(tmp)
        raise
    return tmp


_TEMP_NAME = re.compile(r"^\..+\.(\d{1,10})\.[A-Za-z0-9_]{6,12}\.tmp$")


def _process_alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # another user's live process
    return True


def remove_stale_temps(folder, recursive=False):
    """Delete temp files that write_temp_beside left behind when its writer died (kill -9, power cut).

    Only names of that form whose writer's process is gone are removed; returns them.
    """
    folder = Path(folder)
    if not folder.is_dir():
        return []
    found = folder.rglob("*.tmp") if recursive else folder.glob("*.tmp")
    removed = []
    for candidate in found:
        match = _TEMP_NAME.match(candidate.name)
        if match and candidate.is_file() and not candidate.is_symlink() and not _process_alive(int(match.group(1))):
            candidate.unlink(missing_ok=True)
            removed.append(candidate)
    return removed


def atomic_write_text(path, text, fsync=True):
    """Write text to path through a temp file and rename, so readers never see half a file."""
    tmp = write_temp_beside(path, text, fsync=fsync)
    try:
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise


def atomic_create_text(path, text):
    """Like atomic_write_text, but never replaces an existing file: raises FileExistsError.

    The temp file is hard-linked to its name, which fails atomically when the name is taken.
    """
    tmp = write_temp_beside(path, text)
    try:
        os.link(tmp, path)
    finally:
        os.unlink(tmp)


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


def yaml_scalar(value):
    """One value as single-line YAML: text always double-quoted (escapes included), numbers and
    booleans plain, lists in flow style. For templates, where pasting text would be unsafe."""
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(yaml_scalar(item) for item in value) + "]"
    if value is None:
        return "null"
    if isinstance(value, str):
        text = yaml.safe_dump(value, default_style='"', allow_unicode=True, width=2**30)
    elif isinstance(value, (bool, int, float)):
        text = yaml.safe_dump(value, allow_unicode=True, width=2**30)
    else:
        raise TypeError(f"cannot write a {type(value).__name__} as a YAML scalar")
    text = text.strip()
    return text[:-4].rstrip() if text.endswith("\n...") else text


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


# --- Raw tool outputs: data/raw/<slug>/SHA256SUMS, in `sha256sum` format ----------------------
# Each line: 64 hex digits, two spaces (or space and '*'), a path relative to data/raw/<slug>/.
# `cd data/raw/<slug> && sha256sum -c SHA256SUMS` checks them by hand.

SUMS_NAME = "SHA256SUMS"
_SUMS_LINE = re.compile(r"^([0-9a-f]{64}) [ *](\S(?:.*\S)?)$")


def sha256_file(path):
    """Hex SHA-256 of a file's bytes."""
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def read_sha256sums(sums_path):
    """{relative path: (hex digest, line number)} from a SHA256SUMS file; CardFileError on a bad line."""
    entries = {}
    text = Path(sums_path).read_text(encoding="utf-8", errors="replace")
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        match = _SUMS_LINE.match(line)
        if not match:
            raise CardFileError(sums_path, "line is not '<sha256 hex>  <file>'", line=number, rule="raw-hash")
        name = match.group(2)
        if name in entries:
            raise CardFileError(sums_path, f"'{_short(name)}' is listed twice (first at line {entries[name][1]})",
                                line=number, rule="raw-hash")
        entries[name] = (match.group(1), number)
    return entries


def update_sha256sums(card_raw_dir, relative_paths):
    """Record the SHA-256 of files (paths relative to data/raw/<slug>/) in that folder's SHA256SUMS.

    Existing lines for other files are kept; entries are sorted by path. Returns the digests written.
    """
    folder = Path(card_raw_dir)
    sums_path = folder / SUMS_NAME
    entries = {name: digest for name, (digest, _) in read_sha256sums(sums_path).items()} if sums_path.exists() else {}
    written = {}
    for rel in relative_paths:
        rel = Path(rel).as_posix()
        if rel.startswith("/") or ".." in rel.split("/"):
            raise ValueError(f"raw path {rel!r} must stay inside {folder}")
        written[rel] = entries[rel] = sha256_file(folder / rel)
    atomic_write_text(sums_path, "".join(f"{digest}  {name}\n" for name, digest in sorted(entries.items())))
    return written
