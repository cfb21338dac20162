"""Walking a card's data: its sessions, their entries, the numbers in a list, every value.

Rules read the data before the schema has passed, so each helper skips what has the wrong type
(the schema reports it) instead of failing on it.
"""

import math


def sessions_of(card):
    """(index, session) of every session that is a mapping."""
    sessions = card.data.get("sessions")
    return [(i, s) for i, s in enumerate(sessions) if isinstance(s, dict)] if isinstance(sessions, list) else []


def entries_of(session, kind):
    """(index, entry) of every mapping in the session's list `kind` (results, dd, fill…)."""
    items = session.get(kind)
    return [(i, e) for i, e in enumerate(items) if isinstance(e, dict)] if isinstance(items, list) else []


def is_number(value):
    """An int or float as JSON Schema's "number" means it: true and false are not numbers."""
    return isinstance(value, (int, float)) and not isinstance(value, bool)


_SURELY_A_FLOAT = 2 ** 1000  # integers below this in size are floats too


def finite_number(value):
    if not is_number(value):
        return False
    try:
        return float(value) - float(value) == 0
    except OverflowError:
        return False


def finite_numbers(values):
    """(index, value) of the finite numbers of a list (other items are the schema's to report)."""
    if not isinstance(values, list):
        return []
    return [(j, v) for j, v in enumerate(values)  # plain floats and integers told in place, others by finite_number
            if (v - v == 0 if v.__class__ is float
                else -_SURELY_A_FLOAT < v < _SURELY_A_FLOAT or finite_number(v) if v.__class__ is int
                else finite_number(v))]


def walk_values(value, path=()):
    """Every (path, key-or-None, value) in a nested structure, keys included as text."""
    yield path, None, value
    if isinstance(value, dict):
        for key, item in value.items():
            yield path + (key,), key, item
            yield from walk_values(item, path + (key,)) if isinstance(item, (dict, list)) else ()
    elif isinstance(value, list):
        for index, item in enumerate(value):
            if isinstance(item, (dict, list)):
                yield from walk_values(item, path + (index,))
            else:
                yield path + (index,), None, item


def text_values(value):
    """The (path, key, value) of walk_values(value) whose key or value is text, in the same order, without
    making a path for each number in between (the rules on text read only these)."""
    out = [((), None, value)] if isinstance(value, str) else []
    _texts_in(value, (), out)
    return out


def _texts_in(value, path, out):
    if isinstance(value, dict):
        for key, item in value.items():
            if isinstance(key, str) or isinstance(item, str):
                out.append((path + (key,), key, item))
            if isinstance(item, (dict, list)):
                _texts_in(item, path + (key,), out)
    elif isinstance(value, list):
        for index, item in enumerate(value):
            if isinstance(item, (dict, list)):
                _texts_in(item, path + (index,), out)
            elif isinstance(item, str):
                out.append((path + (index,), None, item))


def non_finite_paths(value, path=()):
    """Field paths of NaN/Inf numbers (YAML .nan/.inf), which JSON cannot carry, and of integers too
    large for a float, in the card's order."""
    out = []
    _non_finite_in(value, path, out)
    return out


def _non_finite_in(value, path, out):
    if isinstance(value, (dict, list)):
        for key, item in value.items() if isinstance(value, dict) else enumerate(value):
            if item.__class__ is float:  # most values: no call each
                if item - item != 0:  # infinite or NaN
                    out.append(path + (key,))
            elif item.__class__ is int:
                if not -_SURELY_A_FLOAT < item < _SURELY_A_FLOAT:
                    _non_finite_in(item, path + (key,), out)
            else:
                _non_finite_in(item, path + (key,), out)
    elif isinstance(value, bool):
        return
    elif isinstance(value, float):
        if not math.isfinite(value):
            out.append(path)
    elif isinstance(value, int):
        try:
            float(value)
        except OverflowError:
            out.append(path)
