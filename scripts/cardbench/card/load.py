"""Reading a card file: YAML text in, a LoadedCard (data plus each field's line) out.

YAML safe-load semantics only (plain mappings, lists, text, numbers, booleans), no tags, no merge
keys, duplicate keys rejected, file size, aliases, expansion and nesting depth bounded, and every
value's line remembered so later checks can name the line. Every problem is a CardFileError naming
file, line and column (yaml_errors.py words PyYAML's own); nothing else escapes.
"""

from pathlib import Path

import yaml

from ..core.units import MIB_BYTES
from ..errors import CardFileError
from .number_form import EXPONENT_NUMBER, PLAIN_NUMBER, number_form_problem
from .wording import shorten
from .yaml_build import Declined, build_values, node_position, node_positions, plain_scalar_resolver
from .yaml_errors import reader_error, yaml_error

MAX_FILE_BYTES = 2 * MIB_BYTES
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
# PyYAML leaves 1.5e3 and 1e3 as text; read them as numbers too, as YAML 1.2 and JSON do.
_BoundedLoader.add_implicit_resolver("tag:yaml.org,2002:float", EXPONENT_NUMBER, list("-+0123456789"))
_NUMBER_TAGS = ("tag:yaml.org,2002:int", "tag:yaml.org,2002:float")


class LoadedCard:
    """A card's data plus the source position of every field path."""

    def __init__(self, path, data, positions, text, known=None):
        self.path = Path(path)
        self.data = data
        # None: found again from the text when first asked (most cards never need a line); `known`
        # holds the few positions every card needs, taken while parsing
        self._positions = positions
        self._known = known or {}
        self.text = text

    @property
    def positions(self):
        """{field path: (line, column)} of every field."""
        if self._positions is None:
            self._positions = _positions_of_text(self.text)
        return self._positions

    def position(self, field_path):
        """(line, column) of the nearest known ancestor of a field path, 1-based."""
        if self._positions is None and tuple(field_path) in self._known:
            return self._known[tuple(field_path)]
        positions = self.positions
        path = tuple(field_path)
        while path not in positions and path:
            path = path[:-1]
        return positions.get(path, (None, None))

    def error(self, field_path, message, rule=None):
        line, column = self.position(field_path)
        return CardFileError(self.path, message, line=line, column=column,
                             field=format_field(field_path), rule=rule)


def format_field(field_path):
    """sessions[0].results[2].runs"""
    out = ""
    for part in field_path:
        part = part if isinstance(part, int) else shorten(part)  # a key may be megabytes long
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else part)
    return out or "(document)"


def _line_col(node):
    return node.start_mark.line + 1, node.start_mark.column + 1


class _Walk:
    """Checks the composed node graph before anything is constructed from it."""

    def __init__(self, path, aliases_used, resolve=None):
        self.path = path
        self.aliases_used = aliases_used
        self.resolve = resolve  # the loader's implicit resolver: a scalar tagged otherwise was tagged by hand
        self.positions = {}
        self.count = 0
        self.open = set()  # ids of nodes on the current branch, to spot self-referencing aliases

    def fail(self, node, message, rule, field=None):
        line, column = _line_col(node)
        raise CardFileError(self.path, message, line=line, column=column,
                            field=format_field(field) if field else None, rule=rule)

    def _refuse_explicit_tag(self, node, field):
        """`!!int "64"`, `!!float 54`, `!!bool 5`, `! 64`: a tag that makes a value other than what is
        written (quoted text as a number, a number as text or null) is refused like any other tag."""
        if self.resolve is None:
            return
        plain = not node.style  # None from PyYAML, '' from libyaml
        expected = self.resolve(yaml.ScalarNode, node.value, (plain, not plain))
        if expected == _MERGE_TAG:
            expected = _STR_TAG  # '<<' as a value is just text
        if node.tag != expected:
            self.fail(node, f"YAML tag {node.tag.replace('tag:yaml.org,2002:', '!!')} on '{shorten(node.value, 40)}' "
                            "is not allowed; write the value as it is meant (a number plain, text in quotes)", "tag",
                      field)

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
            self._refuse_explicit_tag(node, field)
            if node.tag in _NUMBER_TAGS:
                if len(node.value) > MAX_NUMBER_CHARS:
                    self.fail(node, f"number written with {len(node.value)} characters; at most {MAX_NUMBER_CHARS}",
                              "size", field)
                problem = number_form_problem(node.value)
                if problem:
                    self.fail(node, problem, "number-form", field)
            return
        self.open.add(id(node))
        if isinstance(node, yaml.MappingNode):
            seen = {}
            for key_node, value_node in node.value:
                if key_node.tag == _MERGE_TAG:
                    self.fail(key_node, "YAML merge keys (<<) are not supported; write the fields out", "merge-key",
                              field)
                if not isinstance(key_node, yaml.ScalarNode):
                    self.fail(key_node, "a key must be plain text, not a list or mapping", "key-type", field)
                if key_node.tag != _STR_TAG:
                    self.fail(key_node, f"key '{shorten(key_node.value)}' is not text (YAML reads it as "
                                        f"{key_node.tag.rsplit(':', 1)[-1]}); put it in quotes", "key-type",
                              field + (key_node.value,))
                key = key_node.value
                if key in seen:
                    self.fail(key_node, f"duplicate key '{shorten(key)}' (first at line {seen[key]})", "duplicate-key",
                              field + (key,))
                seen[key] = key_node.start_mark.line + 1
                self.positions.setdefault(field + (key,), _line_col(key_node))
                self.walk(value_node, field + (key,))
        else:
            for index, item in enumerate(node.value):
                self.walk(item, field + (index,))
        self.open.discard(id(node))


# --- Fast path: libyaml composes, the same checks run on its nodes ------------------------------
# libyaml (PyYAML's C parser) is several times faster but bounds neither aliases nor nesting, and
# words errors differently. So it only ever accepts: a text it cannot take cleanly, or that comes
# near a limit, goes to the careful loader above, whose verdict and message stand.

_FAST_NESTING_BOUND = 4000  # libyaml composes recursively; far deeper nesting overflows the C stack


class _FastLoader(getattr(yaml, "CSafeLoader", yaml.SafeLoader)):
    yaml_implicit_resolvers = _BoundedLoader.yaml_implicit_resolvers
    resolve = plain_scalar_resolver(yaml.resolver.BaseResolver.resolve, yaml_implicit_resolvers, PLAIN_NUMBER)


class _NotFast(Exception):
    """The fast path declines; the careful loader decides."""


class _FastWalk(_Walk):
    """_Walk that also counts nesting and alias uses (a node met twice), which libyaml does not bound."""

    def __init__(self, path, resolve=None):
        super().__init__(path, False, resolve)
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
            if "&" not in text:  # no anchor, so no alias: values straight from the nodes (yaml_build.py)
                try:
                    data = build_values(node, loader.resolve, PLAIN_NUMBER, MAX_NODES, MAX_DEPTH, MAX_NUMBER_CHARS)
                except Declined:
                    data = None
                if isinstance(data, dict):
                    return LoadedCard(path, data, None, text, {SLUG_FIELD: node_position(node, SLUG_FIELD)})
            walk = _FastWalk(str(path), loader.resolve)
            walk.walk(node, ())
            data = loader.construct_document(node)
        finally:
            loader.dispose()
    except (_NotFast, CardFileError, yaml.YAMLError, RecursionError, ValueError, TypeError, OverflowError):
        return None
    if not isinstance(data, dict):
        return None
    return LoadedCard(path, data, walk.positions, text)


SLUG_FIELD = ("slug",)  # every card's position of its slug is kept (the build compares slugs across cards)


def _positions_of_text(text):
    """Field positions of a text the one-pass builder read: composed again, only when a line is wanted."""
    loader = _FastLoader(text)
    try:
        return node_positions(loader.get_single_node())
    finally:
        loader.dispose()


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
        raise reader_error(exc, path, text) from None
    loader.name = str(path)
    try:
        try:
            node = loader.get_single_node()
            if node is None:
                raise CardFileError(path, "file is empty", line=1, rule="type")
            walk = _Walk(str(path), getattr(loader, "_aliases", 0) > 0, loader.resolve)
            walk.walk(node, ())
            data = loader.construct_document(node)
        finally:
            loader.dispose()
    except yaml.reader.ReaderError as exc:
        raise reader_error(exc, path, text) from None
    except yaml.YAMLError as exc:
        raise yaml_error(exc, path, text) from None
    except RecursionError:
        raise CardFileError(path, "YAML nesting too deep", rule="depth") from None
    except (ValueError, TypeError, OverflowError, KeyError) as exc:
        # A scalar PyYAML cannot turn into a value (e.g. an integer beyond Python's digit limit).
        raise CardFileError(path, f"value cannot be read: {shorten(exc, 120)}", rule="yaml") from None
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
