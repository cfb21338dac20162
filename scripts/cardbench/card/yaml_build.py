"""A card's values straight from libyaml's nodes, in one pass, for the common card file.

load.py checks every node (tags, keys, numbers, limits) and then lets PyYAML construct the values:
two walks in Python over every node. Most card files hold nothing but plain mappings, lists, text
and decimal numbers; for them this builds the values while it checks, and leaves the line of each
field to be found when a message needs it. Whatever it is not sure of (an anchor, a tag, a number
not in plain decimal form, a duplicate key, a limit) it declines, and load.py's own walk decides and
words the message, so every refusal and every value stays that walk's.

It stays for its speed: the 135 shipped cards (637 KiB) read in 108 ms of CPU with it, in 211 ms through
load.py's walk alone and in 157 ms through PyYAML's bare CSafeLoader, which checks nothing and keeps no lines
(best of twelve passes). tests/test_yaml_build.py reads every shipped card and every card file under tests/
both ways and expects the same values and lines.
"""

import yaml
from yaml.constructor import SafeConstructor

_TAG = "tag:yaml.org,2002:"
STR, INT, FLOAT, BOOL, NULL, MAP, SEQ = (_TAG + name for name in ("str", "int", "float", "bool", "null", "map", "seq"))
_BOOL_VALUES = SafeConstructor.bool_values
_ScalarNode, _MappingNode, _SequenceNode = yaml.ScalarNode, yaml.MappingNode, yaml.SequenceNode
_RESOLVED_CACHE_LIMIT = 20_000  # plain texts remembered with their tag (keys and words repeat across cards)


class Declined(Exception):
    """Not a plain card file: load.py's walk decides."""


def plain_scalar_resolver(base_resolve, implicit_resolvers, plain_number):
    """A Resolver.resolve giving exactly `base_resolve`'s tags, faster for a card's scalars: a plain text
    that no implicit resolver can claim (by its first character) is text, a plain decimal number is an
    int or a float as the resolvers read it, and other plain texts are remembered once resolved."""
    claimed_first = {key for key in implicit_resolvers if key is not None}
    wildcard = None in implicit_resolvers
    cache = {}

    def resolve(self, kind, value, implicit):
        if kind is not _ScalarNode or not implicit[0] or wildcard:
            return base_resolve(self, kind, value, implicit)
        if value and value[0] not in claimed_first:
            return STR
        tag = cache.get(value)
        if tag is None:
            if plain_number.fullmatch(value):
                # no bool, null or merge text starts with a digit or sign; int or float by the point/exponent
                tag = FLOAT if ("." in value or "e" in value or "E" in value) else INT
            else:
                tag = base_resolve(self, kind, value, implicit)
            if len(cache) < _RESOLVED_CACHE_LIMIT:
                cache[value] = tag
        return tag

    return resolve


def build_values(root, resolve, plain_number, max_nodes, max_depth, max_number_chars):
    """The Python values of a node graph without anchors, as SafeConstructor makes them, or Declined.
    `resolve`: the loader's bound resolve, to tell a tag written by hand from the one the text reads as."""
    counted = [0]

    def scalar(node):
        tag, value = node.tag, node.value
        if node.style:  # quoted or block text: only text, as written
            if tag != STR:
                raise Declined()
            return value
        if resolve(_ScalarNode, value, (True, False)) != tag:
            raise Declined()  # an explicit tag that differs from what the text reads as
        if tag == STR:
            return value
        if tag == INT or tag == FLOAT:
            if len(value) > max_number_chars or not plain_number.fullmatch(value):
                raise Declined()
            return int(value) if tag == INT else float(value)
        if tag == BOOL:
            return _BOOL_VALUES[value.lower()]
        if tag == NULL:
            return None
        raise Declined()

    def container(node, depth):
        # load.py counts a scalar's depth too: children sit one level below their container
        if depth + 1 > max_depth:
            raise Declined()
        items = node.value
        counted[0] += len(items) * (2 if isinstance(node, _MappingNode) else 1)
        if counted[0] > max_nodes:
            raise Declined()
        if isinstance(node, _MappingNode):
            if node.tag != MAP:
                raise Declined()
            out = {}
            for key_node, value_node in items:
                if key_node.__class__ is not _ScalarNode or key_node.tag != STR:
                    raise Declined()
                key = key_node.value
                if not key_node.style and resolve(_ScalarNode, key, (True, False)) != STR:
                    raise Declined()
                if key in out:
                    raise Declined()
                out[key] = (scalar(value_node) if value_node.__class__ is _ScalarNode
                            else container(value_node, depth + 1))
            return out
        if node.__class__ is not _SequenceNode or node.tag != SEQ:
            raise Declined()
        return [scalar(item) if item.__class__ is _ScalarNode else container(item, depth + 1) for item in items]

    if root.__class__ is _ScalarNode:
        raise Declined()
    counted[0] = 1
    return container(root, 1)


def node_position(root, field_path):
    """(line, column), 1-based, of the nearest ancestor of a field path that the document holds: a
    mapping's field at its key, a list's item at the item, as load.py's walk records them."""
    node, mark = root, root.start_mark
    for part in field_path:
        if isinstance(node, yaml.MappingNode):
            found = next(((k, v) for k, v in node.value if isinstance(part, str) and k.value == part), None)
            if found is None:
                break
            mark, node = found[0].start_mark, found[1]
        elif isinstance(node, yaml.SequenceNode) and isinstance(part, int) and 0 <= part < len(node.value):
            node = node.value[part]
            mark = node.start_mark
        else:
            break
    return mark.line + 1, mark.column + 1


def node_positions(root):
    """Every field path's (line, column), as load.py's walk records them."""
    positions = {(): (root.start_mark.line + 1, root.start_mark.column + 1)}
    stack = [(root, ())]
    while stack:
        node, field = stack.pop()
        if isinstance(node, yaml.MappingNode):
            children = [(field + (k.value,), k, v) for k, v in node.value]
        elif isinstance(node, yaml.SequenceNode):
            children = [(field + (i,), v, v) for i, v in enumerate(node.value)]
        else:
            continue
        for path, marked, child in children:
            positions.setdefault(path, (marked.start_mark.line + 1, marked.start_mark.column + 1))
            stack.append((child, path))
    return positions


__all__ = ["Declined", "plain_scalar_resolver", "build_values", "node_position", "node_positions"]
