"""Every regular expression the package applies to text from outside (tool output, card files, issue
forms, names typed on the command line), and, for each, the inputs that are worst for it.

patterns_of(module) -> {name: (compiled pattern, "match" | "search")}: the module's compiled patterns
    (module-level, in its containers and classes) and the patterns it spells out in a call of re.search,
    re.sub, …, with how the module applies each: at the start of a text only, or anywhere in it.
dynamic_calls(module) -> {(module, function)}: where a re.* call's pattern is made as the program runs.
worst_inputs(pattern, size) -> [text]: for each repetition in the pattern, the shortest text that
    reaches it, then `size` characters it repeats (one of each kind of character the pattern tells
    apart), then a character that stops it: the shape on which a backtracking pattern with two
    quantifiers over the same characters takes quadratic time (`^### (.+?)\\s*$` on '### x', spaces,
    and an end that is no space).
"""

import ast
import importlib
import inspect
import pkgutil
import re
import re._compiler as sre_compile
import re._constants as sre
import re._parser as sre_parse

# One character of each kind a pattern may tell apart: white space, letters, digits, punctuation,
# line breaks and controls, and letters of other scripts.
POOL = (" ", "\t", "a", "x", "Z", "é", "1", "0", ".", ",", "-", "_", "/", ":", ";", "=", "+", "*", "#", "$", "%",
        "(", ")", "[", "]", "{", "}", "<", ">", "|", "\\", "'", '"', "`", "~", "@", "!", "?", "&", "^", "\x1b",
        "\r", "\n", "\x00", "\u00a0", "\u3000", "µ", "з", "日")
STOP = "\x00"  # what follows the repeated characters: a character few patterns take
REPEATS = (sre.MAX_REPEAT, sre.MIN_REPEAT, sre.POSSESSIVE_REPEAT)
LONG = 64  # a bounded repetition shorter than this cannot be pumped far
RE_CALLS = {"compile", "search", "match", "fullmatch", "sub", "subn", "findall", "finditer", "split"}


# --- which patterns ------------------------------------------------------------------------------

def modules_of(*packages):
    """Every module of the packages (sub-packages included), imported."""
    found = []
    for package in packages:
        found.append(package)
        for info in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
            found.append(importlib.import_module(info.name))
    return found


def _compiled_in(value, name, depth=0):
    if isinstance(value, re.Pattern):
        yield name, value
    elif depth < 3 and isinstance(value, (tuple, list, set, frozenset)):
        for index, item in enumerate(value):
            yield from _compiled_in(item, f"{name}[{index}]", depth + 1)
    elif depth < 3 and isinstance(value, dict):
        for key, item in value.items():
            yield from _compiled_in(item, f"{name}[{key!r}]", depth + 1)


def _re_calls(tree):
    """(call node, whether its pattern is spelled out) of every re.<function>(pattern, …) in a module's tree."""
    for node in ast.walk(tree):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                and isinstance(node.func.value, ast.Name)
                and node.func.value.id == "re" and node.func.attr in RE_CALLS and node.args):
            yield node, _spelled_out(node.args[0])


def _spelled_out(node):
    return isinstance(node, ast.Constant) or (isinstance(node, ast.JoinedStr)
                                              and all(isinstance(part, ast.Constant) for part in node.values))


def _literal(node):
    """The text of a spelled-out pattern (a string, or an f-string without fields), else None."""
    if isinstance(node, ast.Constant):
        return node.value if isinstance(node.value, str) else None
    if _spelled_out(node):
        return "".join(part.value for part in node.values)
    return None


def _flags_of(call):
    """The flags of a re.* call, where they are spelled out (re.M | re.I), else 0."""
    position = {"compile": 1, "search": 2, "match": 2, "fullmatch": 2, "findall": 2, "finditer": 2, "split": 3,
                "sub": 4, "subn": 4}[call.func.attr]
    given = next((k.value for k in call.keywords if k.arg == "flags"), None)
    if given is None and len(call.args) > position:
        given = call.args[position]
    if given is None:
        return 0
    try:
        return eval(compile(ast.Expression(given), "<flags>", "eval"), {"re": re})  # only re.X | re.Y
    except Exception:
        return 0


def _anchored_names(tree):
    """Names whose every use in the module is name.match(…) or name.fullmatch(…): such a pattern is tried
    at the start of the text only."""
    uses = {}
    methods = {id(node.value): node.attr for node in ast.walk(tree)
               if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)}
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
            uses.setdefault(node.id, set()).add(methods.get(id(node)))
    return {name for name, used in uses.items() if used <= {"match", "fullmatch"}}


def patterns_of(module):
    """{name: (compiled pattern, "match" or "search")} of a module: its compiled patterns, module-level (in
    containers and class bodies too), and each pattern spelled out in a re.* call, compiled with the
    call's flags. "match": the module only ever tries it at the start of a text."""
    tree = ast.parse(inspect.getsource(module))
    anchored = _anchored_names(tree)
    found = {}
    for name, value in vars(module).items():
        if inspect.isclass(value) and value.__module__ == module.__name__:
            for attribute, item in vars(value).items():
                found.update((key, (pattern, "search")) for key, pattern in _compiled_in(item, f"{name}.{attribute}"))
        else:
            how = "match" if name in anchored else "search"
            found.update((key, (pattern, how)) for key, pattern in _compiled_in(value, name))
    known = {(pattern.pattern, pattern.flags) for pattern, _ in found.values()}
    for call, spelled in _re_calls(tree):
        text = _literal(call.args[0]) if spelled else None
        if text is None:
            continue
        pattern = re.compile(text, _flags_of(call))
        if call.func.attr == "compile" and (pattern.pattern, pattern.flags) in known:
            continue  # a module-level pattern, found above with how the module uses it
        how = "match" if call.func.attr in ("match", "fullmatch") else "search"
        found[f"re.{call.func.attr} on line {call.lineno}"] = (pattern, how)
    return {f"{module.__name__}.{name}": entry for name, entry in found.items() if isinstance(entry[0].pattern, str)}


def dynamic_calls(module):
    """{(module name, function name)} of the functions holding a re.* call whose pattern is made as the
    program runs: the test reaches each and records the patterns it makes. (A call at module level makes
    a module-level pattern, which patterns_of() finds.)"""
    tree = ast.parse(inspect.getsource(module))
    sites = set()
    for function in ast.walk(tree):
        if isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
            own = {id(node) for node in ast.walk(function)} - {
                id(node) for inner in ast.walk(function) if inner is not function
                and isinstance(inner, (ast.FunctionDef, ast.AsyncFunctionDef)) for node in ast.walk(inner)}
            if any(not spelled and id(call) in own for call, spelled in _re_calls(tree)):
                sites.add((module.__name__, function.name))
    return sites


# --- the worst inputs ------------------------------------------------------------------------------

class _Shapes:
    """A parsed pattern: which characters each of its character tests takes, and the shortest text of
    any part of it that prefers a given character."""

    def __init__(self, pattern):
        self.flags = pattern.flags
        self.tree = sre_parse.parse(pattern.pattern, pattern.flags)
        self._tests = {}  # (op, id of its argument) -> the character test compiled alone
        self.named = tuple(dict.fromkeys(_named_chars(self.tree)))  # the characters the pattern names
        self.pool = tuple(dict.fromkeys(POOL + self.named))

    def takes(self, node, char):
        op, av = node
        key = (op, id(av))
        if key not in self._tests:
            try:
                self._tests[key] = sre_compile.compile(sre_parse.SubPattern(self.tree.state, [node]), self.flags)
            except Exception:
                self._tests[key] = None
        test = self._tests[key]
        return test is not None and test.fullmatch(char) is not None

    def leaves(self, nodes=None):
        """Every character test of the pattern (a literal, '.', a class)."""
        for op, av in self.tree if nodes is None else nodes:
            if op in (sre.LITERAL, sre.NOT_LITERAL, sre.ANY, sre.IN):
                yield (op, av)
            else:
                for inner in _inner(op, av):
                    yield from self.leaves(inner)

    def shortest(self, nodes, prefer):
        return "".join(self._one(op, av, prefer) for op, av in nodes)

    def _one(self, op, av, prefer):
        if op is sre.LITERAL:
            return chr(av)
        if op in (sre.NOT_LITERAL, sre.ANY, sre.IN):
            return next((c for c in (prefer, *self.pool) if self.takes((op, av), c)), "")
        if op in REPEATS:
            return self.shortest(av[2], prefer) * av[0]
        if op is sre.SUBPATTERN:
            return self.shortest(av[3], prefer)
        if op is sre.ATOMIC_GROUP:
            return self.shortest(av, prefer)
        if op is sre.BRANCH:
            return min((self.shortest(alternative, prefer) for alternative in av[1]), key=len)
        if op is sre.GROUPREF_EXISTS:
            return self.shortest(av[2], prefer) if av[2] else ""
        return ""  # anchors, look-arounds and back-references take no text of their own

    def repeats(self, nodes=None, prefix=""):
        """(the shortest text that reaches it, the repeated part) of every long repetition."""
        for op, av in self.tree if nodes is None else nodes:
            if op in REPEATS and (av[1] is sre.MAXREPEAT or av[1] >= LONG):
                yield prefix, av[2]
            for inner in _inner(op, av):
                yield from self.repeats(inner, prefix)
            prefix += self.shortest([(op, av)], " ")


def _named_chars(nodes):
    """The characters a pattern's literals and classes name ('P' of 'Probe', 'K' of [KMG], range ends)."""
    for op, av in nodes:
        if op in (sre.LITERAL, sre.NOT_LITERAL):
            yield chr(av)
        elif op is sre.IN:
            for item_op, item_av in av:
                if item_op is sre.LITERAL:
                    yield chr(item_av)
                elif item_op is sre.RANGE:
                    yield from (chr(item_av[0]), chr(item_av[1]))
        else:
            for inner in _inner(op, av):
                yield from _named_chars(inner)


def _inner(op, av):
    """The node lists inside a node."""
    if op in REPEATS:
        return [av[2]]
    if op is sre.SUBPATTERN:
        return [av[3]]
    if op is sre.ATOMIC_GROUP:
        return [av]
    if op is sre.BRANCH:
        return list(av[1])
    if op in (sre.ASSERT, sre.ASSERT_NOT):
        return [av[1]]
    if op is sre.GROUPREF_EXISTS:
        return [branch for branch in av[1:] if branch]
    return []


def worst_inputs(pattern, size):
    """For each long repetition of the pattern and each kind of character it tells apart: the shortest
    text reaching the repetition, `size` characters of what it repeats, and STOP."""
    shapes = _Shapes(pattern)
    leaves = list(shapes.leaves())
    kinds = {}  # one character per set of character tests that take it: the others behave the same
    for char in shapes.pool:
        kinds.setdefault(tuple(shapes.takes(leaf, char) for leaf in leaves), char)
    inputs = {}
    for prefix, repeated in shapes.repeats():
        for char in kinds.values():
            unit = shapes.shortest(repeated, char)
            if unit:
                inputs.setdefault(prefix + unit * (size // len(unit)) + STOP, None)
    return list(inputs)
