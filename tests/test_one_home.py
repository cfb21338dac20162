"""Every unit factor has one home, core/units.py, and every figure the site shows of a card's runs is converted in
one place, figures/stats.py: two copies of a factor or of a conversion drift apart (one left excluded runs in its mean,
the other did not).

What counts as a unit factor, anywhere in scripts/cardbench but core/units.py:
- a number of bytes in a decimal or binary unit, or a time factor (ns → µs → ms → s), used to multiply,
  divide, take a remainder or raise: 1000, 1e3, 1e-3, 1e6, 1e-6, 1e9, 1e-9, 1e12 and 1024, 2**10, 1 << 20,
  1_048_576, 1024**3 ... in any spelling, written as a number or as a power or shift of numbers;
- a power of 1000 or 1024 (`1024 ** index`: a table of unit suffixes), a shift either way by 10, 20, 30 ...
  bits; the same arithmetic through a call (divmod(size, 1024), math.pow(2, 20), np.divide(x, 1e6));
- a name that says it holds a unit (KB, MiB, NS_IN_US) given one of those numbers;
- any name of a module or a class given a unit's size, whatever it is called (THOUSAND = 1000, KIB = 1024,
  MEGA = 1e6, SECTOR = 512, 1 << 20): divided by, it is the factor under a name of its own. A count or a limit
  that merely equals one (a cap of 1000 lines) is named in NOT_UNIT_FACTORS with its reason;
- the rate factors between MB/s, MiB/s, kKiB/s and KiB/s (1.048576, 1.024, 0.001024, 1_024_000 and the
  reciprocals), and a whole binary size of a MiB or more (1_048_576, 1 << 30), wherever they are written;
- a factor held as a value in a table of units, to be multiplied by once looked up (RATE_MB_S = {"K": 1e-3},
  ("clat_ns", 1e-3) pairs, {"b": 512}): a float factor (1e-3, 1e3, 1e-9) in any dict, list, tuple or set, and
  a whole size (1000, 1024, 512) beside the unit it sizes (a dict's string key, a ("k", 1000) pair) or in a table
  whose name says it holds factors (SCALE, TO_MB_S, _SUFFIX). A list of sizes (block sizes (512, 1024, 4096),
  capacities in GB) holds no factor; a table of other figures that holds one is named in NOT_FACTOR_TABLES;
Each is a named constant or a small conversion in core/units.py (MIB_BYTES, GB_BYTES, NS_IN_US, us_from_ns,
iops_from_mb_s ...), which parsers, card, collect, imports, bench and the figures import: a fixture size such
as 64 GB in a collector profile is 64 * GB_BYTES. Other numbers (a percent, a count, a limit of 1000 lines
compared, not multiplied) are no unit factor.

Which module may convert a stored figure: in figures/, only stats.py holds a rate's conversion (MB/s, MiB/s,
IOPS); the other figures modules read its figures or call its conversions, and use core/units.py only to name
sizes and times (a 4 MiB erase block, a latency in ms). The page models (pages/) and the files Hugo reads
(publish/) place figures: they import nothing from core/units.py but the spellings of a size ('4K', '4 KiB'),
and neither import nor call any of stats.py's conversions of one figure into another unit, by whatever route:
a figure they show in MB/s and MiB/s comes from the figures stage in both (a curve's or a claim's from
figures/shown_rates.py).

Figures no run gives are worked out in figures/ too, with the card's other figures: a card's read per unit of its
price and its price per GB (figures/price_figures.py), a headline's share of the speed the card claims
(figures/shown_rates.py). A page or published file's module that divides by or into a price or a claimed speed
(a name or key that says price, amount or claim, or a name given one) works such a figure out itself, and is reported.

The check reads each module's syntax tree, so a conversion inside an f-string is seen and one named in a
docstring or comment is not."""

import ast
import functools
import re
from pathlib import Path, PurePosixPath

import pytest

from packagefiles import PACKAGE
from planted import planted_copy, with_lines

UNITS = Path("core") / "units.py"
STATS = Path("figures") / "stats.py"
PLACING = ("pages", "publish")  # folders that place figures and convert nothing

ARITHMETIC = (ast.Mult, ast.Div, ast.FloorDiv, ast.Mod)
# Factors that convert only when multiplied or divided by: bytes and time in decimal and binary units.
OPERAND_FACTORS = {10**3, 10**6, 10**9, 10**12, 1e-3, 1e-6, 1e-9, 1e-12, 2**10, 1 / 2**10, 1 / 2**20, 1 / 2**30}
# Factors that are conversions wherever written: rate factors, whole binary sizes of a MiB or more.
RATE_FACTORS = {1.048576, 1 / 1.048576, 1.024, 1 / 1.024, 0.001024, 1_024_000, 2**20, 2**30, 2**40, 2**50}
UNIT_BASES = {2: {10, 20, 30, 40, 50}, 10: {3, 6, 9, 12}}  # 2**20, 10**9
# A name that says it holds a unit (KB, MiB, NS_IN_MS, GB_BYTES): given a factor, it copies core/units.py.
UNIT_NAME = re.compile(r"^(?:[KMGTP]I?B|[KMGTP]I?B_BYTES|(?:NS|US|MS|S|KIB|MIB|KB|MB|GB)_(?:IN|PER)_\w+)$", re.I)
# Sizes a name of a module or a class may not be given outside core/units.py (a sector, the decimal and binary
# units); the small reciprocals (1e-6) are left out, as relative tolerances are written so.
NAMED_FACTORS = {512, *(10**power for power in UNIT_BASES[10]), 10**15, *(2**power for power in UNIT_BASES[2])}
# Names given such a size that count or cap something else: (module, name) -> why it is no unit factor.
NOT_UNIT_FACTORS = {
    ("imports/importer.py", "MAX_MESSAGE"): "characters of a message kept",
    ("parsers/card_entries.py", "FILL_MAX_POINTS"): "points of a fill curve kept",
    ("collect/profiles.py", "max_points"): "points of a fill curve kept",
    ("parsers/text/logged_shell.py", "MAX_VALUE"): "characters of a shell variable's value kept",
    ("parsers/text/numbers.py", "PLAUSIBLE_FIGURE"): "the largest figure a tool's output is believed to print",
    ("pages/preview_image.py", "TOP_MB_S"): "the top of a preview's MB/s scale",
    ("publish/folderwatch.py", "IN_DELETE"): "inotify's event bit (0x200)",
}
# core/units.py's rate factors and conversions, by name (stats.py calls them for the rest of figures/).
RATE_CONVERTERS = re.compile(r"^(?:(?:MIB|MB|KIB|KKIB|KB)_PER_S_IN_\w+|RATE_TO_MB_S|RATE_UNIT_BYTES|mb_s_from_rate"
                             r"|iops_from_mb_s)$")
# What pages/ and publish/ may import from core/units.py: a size's spelling, no figure changed.
SIZE_SPELLINGS = {"size_label_from_bytes", "size_arg_from_bytes", "size_text_from_bytes"}
STATS_CONVERTERS = {"mb_s_of", "mib_s_of", "iops_of_mb_s", "curve_mb_s", "rate_figures"}


def _number(node):
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        value = _number(node.operand)
        return -value if value is not None and isinstance(node.op, ast.USub) else value
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Pow, ast.LShift)):
        base, power = _number(node.left), _number(node.right)
        if isinstance(base, int) and isinstance(power, int) and 0 <= power <= 64:
            return base ** power if isinstance(node.op, ast.Pow) else base << power
        return None
    value = node.value if isinstance(node, ast.Constant) else None
    return value if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def _among(value, factors):
    return value is not None and value != 0 and any(abs(abs(value) - f) <= 1e-12 * f for f in factors)


def _spelled_as_unit(node):
    """A power or shift that spells a unit whatever its value: 2**20, 1 << 30, 10**9, 1024 ** index."""
    if not isinstance(node, ast.BinOp):
        return False
    base, power = _number(node.left), _number(node.right)
    if isinstance(node.op, ast.Pow):
        return base in (1000, 1024) or power in UNIT_BASES.get(base, ())
    return isinstance(node.op, (ast.LShift, ast.RShift)) and power in UNIT_BASES[2]  # x >> 20: bytes to MiB


# Calls that multiply, divide or raise as the operators do: divmod(size, 1024), math.pow(2, 20), np.divide(x, 1e6).
ARITHMETIC_CALLS = {"divmod", "pow", "divide", "true_divide", "floor_divide", "multiply", "ldexp", "fmod"}


def _called_name(node):
    func = node.func
    return func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else None


def _factor_call(node):
    """A call of ARITHMETIC_CALLS with a unit factor among its arguments, or raising 2 or 10 to a unit's power."""
    if not (isinstance(node, ast.Call) and _called_name(node) in ARITHMETIC_CALLS):
        return False
    numbers = [_number(arg) for arg in node.args]
    if _called_name(node) == "pow" and len(numbers) >= 2:
        base, power = numbers[:2]
        if base in (1000, 1024) or power in UNIT_BASES.get(base, ()):
            return True
    return any(_among(n, OPERAND_FACTORS | RATE_FACTORS) for n in numbers)


def unit_factors(source):
    """(line, code) of every unit factor written in a module's source."""
    found = set()
    for node in ast.walk(ast.parse(source)):
        if (isinstance(node, ast.BinOp) and _spelled_as_unit(node)) or _factor_call(node):
            found.add((node.lineno, ast.unparse(node)))
        elif isinstance(node, (ast.BinOp, ast.AugAssign)) and isinstance(node.op, ARITHMETIC):
            operands = (node.left, node.right) if isinstance(node, ast.BinOp) else (node.value,)
            if any(_among(_number(o), OPERAND_FACTORS | RATE_FACTORS) for o in operands):
                found.add((node.lineno, ast.unparse(node)))
        elif isinstance(node, ast.Constant) and _among(_number(node), RATE_FACTORS):
            found.add((node.lineno, ast.unparse(node)))
        elif isinstance(node, ast.Assign) and _among(_number(node.value), OPERAND_FACTORS) and any(
                isinstance(target, ast.Name) and UNIT_NAME.match(target.id) for target in node.targets):
            found.add((node.lineno, ast.unparse(node)))
    return sorted(found)


# Names that say a table holds a unit's factors: SCALE, TO_MB_S, RATE_MB_S, _SUFFIX, BYTES_PER_UNIT.
FACTOR_TABLE_NAME = re.compile(r"(?:^|_)(?:rates?|scales?|factors?|units?|prefix(?:es)?|suffix(?:es)?|multipliers?"
                               r"|to|in|per)(?:_|$)", re.I)
# Tables of other figures that hold a number equal to a factor: (module, table's name) -> why it holds no factor.
NOT_FACTOR_TABLES = {
    ("bench/targets.py", "TARGETS"): "the benchmark's targets; 1000.0 is a time to the first chart, in ms",
}
TABLES = (ast.Dict, ast.List, ast.Tuple, ast.Set, ast.DictComp, ast.ListComp, ast.SetComp, ast.GeneratorExp)


def _tables(tree):
    """(table, name) of each table in a module: a dict, list, tuple or set, written out or as a comprehension,
    and dict(k=v) calls. Its name is what the assignment, keyword argument or dict key that holds it calls it."""
    found = []

    def visit(node, name):
        if isinstance(node, (ast.Assign, ast.AnnAssign)) and node.value is not None:
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if isinstance(node.value, ast.Tuple) and any(isinstance(target, ast.Tuple) for target in targets):
                for value in node.value.elts:  # KIB, MIB = 1024, 1024**2: names given sizes, no table
                    visit(value, None)
                return
            named = [target.id if isinstance(target, ast.Name) else target.attr for target in targets
                     if isinstance(target, (ast.Name, ast.Attribute))]
            visit(node.value, named[0] if named else name)
            return
        if isinstance(node, ast.keyword):
            visit(node.value, node.arg)
            return
        if isinstance(node, TABLES) or (isinstance(node, ast.Call) and _called_name(node) == "dict"):
            found.append((node, name))
        if isinstance(node, ast.Dict):
            for key, value in zip(node.keys, node.values):
                label = key.value if isinstance(key, ast.Constant) and isinstance(key.value, str) else name
                visit(value, label if isinstance(value, TABLES) else name)
            return
        for child in ast.iter_child_nodes(node):
            visit(child, name)

    visit(tree, None)
    return found


def _entries(table):
    """(key, value) of each entry of a table: a dict's key, a pair's string (("clat_ns", 1e-3)), else None."""
    if isinstance(table, ast.Call):
        return [(ast.Constant(keyword.arg), keyword.value) for keyword in table.keywords if keyword.arg]
    if isinstance(table, ast.Dict):
        return [(key, value) for key, value in zip(table.keys, table.values) if key is not None]
    if isinstance(table, ast.DictComp):
        return [(table.key, table.value)]
    if isinstance(table, (ast.ListComp, ast.SetComp, ast.GeneratorExp)):
        return [(None, table.elt)]
    if isinstance(table, ast.Tuple) and len(table.elts) == 2 and isinstance(table.elts[0], ast.Constant) \
            and isinstance(table.elts[0].value, str):
        return [tuple(table.elts)]
    return [(None, element) for element in table.elts]


def table_factors(source):
    """(line, table's name, code) of every unit factor held as a value in a table of a module's source."""
    found = set()
    for table, name in _tables(ast.parse(source)):
        for key, value in _entries(table):
            number = _number(value)
            beside_unit = isinstance(key, ast.Constant) and isinstance(key.value, str) and isinstance(number, int)
            if (isinstance(number, float) and _among(number, OPERAND_FACTORS)) or (beside_unit and _among(
                    number, NAMED_FACTORS)) or (FACTOR_TABLE_NAME.search(name or "") and _among(
                    number, NAMED_FACTORS | OPERAND_FACTORS)):
                code = f"{ast.unparse(key)}: {ast.unparse(value)}" if key is not None else ast.unparse(value)
                found.add((value.lineno, name, code))
    return sorted(found, key=lambda item: (item[0], item[2]))


def _outside_functions(tree):
    """The nodes of a module's own and its classes' bodies: a function's locals are not walked."""
    stack = [tree]
    while stack:
        node = stack.pop()
        yield node
        stack.extend(child for child in ast.iter_child_nodes(node)
                     if not isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)))


def _bound_numbers(node):
    """(name, value node) of each name an assignment binds, a tuple's names one by one (KIB, MIB = 1024, ...)."""
    targets = node.targets if isinstance(node, ast.Assign) else [node.target]
    for target in targets:
        if isinstance(target, ast.Name):
            yield target.id, node.value
        elif isinstance(target, ast.Tuple) and isinstance(node.value, ast.Tuple) \
                and len(target.elts) == len(node.value.elts):
            yield from ((name.id, value) for name, value in zip(target.elts, node.value.elts)
                        if isinstance(name, ast.Name))


def names_given_factors(source):
    """(line, name, code) of every name of a module or a class given a unit's size (THOUSAND = 1000)."""
    found = set()
    for node in _outside_functions(ast.parse(source)):
        if isinstance(node, (ast.Assign, ast.AnnAssign)) and node.value is not None:
            found |= {(node.lineno, name, ast.unparse(node)) for name, value in _bound_numbers(node)
                      if _among(_number(value), NAMED_FACTORS)}
    return sorted(found)


def _imported_from(tree, ending):
    """Names a module imports from a module whose dotted name ends with `ending` (core.units, figures.stats),
    and the names it reads as attributes of that module imported whole."""
    names, whole = set(), set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            module = node.module or ""
            if module.split(".")[-1] == ending:
                names |= {(node.lineno, alias.name) for alias in node.names}
            elif ending in {alias.name for alias in node.names}:
                whole |= {alias.asname or alias.name for alias in node.names if alias.name == ending}
    names |= {(node.lineno, node.attr) for node in ast.walk(tree) if isinstance(node, ast.Attribute)
              and isinstance(node.value, ast.Name) and node.value.id in whole}
    return names


def rate_conversions(source):
    """(line, name) of every rate factor or conversion of one figure a module names."""
    found = set()
    for node in ast.walk(ast.parse(source)):
        name = node.id if isinstance(node, ast.Name) else node.attr if isinstance(node, ast.Attribute) else None
        if name and RATE_CONVERTERS.match(name):
            found.add((node.lineno, name))
        elif isinstance(node, ast.ImportFrom):
            found |= {(node.lineno, a.name) for a in node.names if RATE_CONVERTERS.match(a.name)}
    return sorted(found)


def conversions_placing(source):
    """(line, name) of each unit name (but a size's spelling) a page or published file's module imports, and
    each stats.py conversion it imports, calls or names, from stats.py or through any other module."""
    tree = ast.parse(source)
    units = {(line, name) for line, name in _imported_from(tree, "units") if name not in SIZE_SPELLINGS}
    stats = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            stats |= {(node.lineno, alias.name) for alias in node.names if alias.name in STATS_CONVERTERS}
        name = node.id if isinstance(node, ast.Name) else node.attr if isinstance(node, ast.Attribute) else None
        if name in STATS_CONVERTERS:
            stats.add((node.lineno, name))
    return sorted(units | stats)


# What a divided figure names when it is a card's price or the speed a vendor claims for it.
PRICE_OR_CLAIM = re.compile(r"price|amount|claim", re.I)
# Calls that divide as the operators do: np.divide(speed, price), operator.truediv(measured, claim).
DIVIDING_CALLS = {"divide", "true_divide", "floor_divide", "truediv", "floordiv", "divmod"}


def _words(node):
    """The names, attributes and string keys an expression reads."""
    for part in ast.walk(node):
        if isinstance(part, ast.Name):
            yield part.id
        elif isinstance(part, ast.Attribute):
            yield part.attr
        elif isinstance(part, ast.Constant) and isinstance(part.value, str):
            yield part.value


def _own_nodes(scope):
    """The nodes of a function's (or a module's) own code, leaving out the functions defined inside it."""
    stack = list(ast.iter_child_nodes(scope))
    while stack:
        node = stack.pop()
        yield node
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            stack.extend(ast.iter_child_nodes(node))


def _names_given_price_or_claim(scope, given=frozenset()):
    """Names a function (or a module) assigns or loops over from an expression that reads a price or a claim,
    followed through further assignments (`amount = price["amount"]`, `bound = amount`), besides `given`: the
    names the code around it gave one."""
    given, pairs = set(given), []
    for node in _own_nodes(scope):
        if isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign, ast.NamedExpr)) and node.value is not None:
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            pairs += [(target, node.value) for target in targets]
        elif isinstance(node, (ast.For, ast.comprehension)):
            pairs.append((node.target, node.iter))
    while True:
        more = {name.id for target, value in pairs for name in ast.walk(target) if isinstance(name, ast.Name)
                and any(PRICE_OR_CLAIM.search(word) or word in given for word in _words(value))} - given
        if not more:
            return given
        given |= more


def _divisions(scope):
    """(node, operands) of each division in a function or module: by an operator or a call that divides."""
    for node in _own_nodes(scope):
        if isinstance(node, (ast.BinOp, ast.AugAssign)) and isinstance(node.op, (ast.Div, ast.FloorDiv)):
            yield node, (node.left, node.right) if isinstance(node, ast.BinOp) else (node.target, node.value)
        elif isinstance(node, ast.Call) and _called_name(node) in DIVIDING_CALLS:
            yield node, node.args


def figures_worked_out(source):
    """(line, code) of every division a module makes by or into a price or a claimed speed. A name counts as a
    price where the function that holds the division, or code around it, gives it one."""
    found = set()

    def check(scope, around):
        given = _names_given_price_or_claim(scope, around)
        for node, operands in _divisions(scope):
            if any(PRICE_OR_CLAIM.search(word) or word in given for operand in operands for word in _words(operand)):
                found.add((node.lineno, ast.unparse(node)))
        for node in _own_nodes(scope):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                check(node, given)

    check(ast.parse(source), frozenset())
    return sorted(found)


def findings(package=PACKAGE):
    """{module path: [(line, what)]} of every breach of the rules above in a copy of the package."""
    found = {}
    for path in sorted(Path(package).rglob("*.py")):
        where = path.relative_to(package)
        if where == UNITS or "__pycache__" in where.parts:
            continue
        breaches = module_breaches(where.as_posix(), path.read_text(encoding="utf-8"))
        if breaches:
            found[str(where)] = breaches
    return found


@functools.cache  # a planted copy differs from the package in one module: the others are read once per process
def module_breaches(where, source):
    """[(line, what)] of the rules above one module (`where`: its path in the package) breaks."""
    parts = PurePosixPath(where).parts
    breaches = unit_factors(source) + [(line, code) for line, name, code in names_given_factors(source)
                                       if (where, name) not in NOT_UNIT_FACTORS]
    breaches += [(line, code) for line, name, code in table_factors(source)
                 if (where, name) not in NOT_FACTOR_TABLES]
    if parts[0] == "figures" and Path(where) != STATS:
        breaches += rate_conversions(source)
    if parts[0] in PLACING:
        breaches += conversions_placing(source) + figures_worked_out(source)
    return sorted(set(breaches))


def test_no_unit_factor_or_conversion_outside_its_home():
    assert findings() == {}


def test_the_homes_are_where_the_factors_and_conversions_are():
    assert unit_factors((PACKAGE / UNITS).read_text(encoding="utf-8"))  # else the check has lost its target
    assert rate_conversions((PACKAGE / STATS).read_text(encoding="utf-8"))


# Conversions modules once made themselves: each must be caught.
PAST_OFFENDERS = [
    "mib = value * MB_PER_S_IN_MIB_PER_S",
    "from ..core.units import MIB_PER_S_IN_MB_PER_S, RATE_TO_MB_S",
    'row = {"mib_s": number(mb_s / MIB_PER_S_IN_MB_PER_S, 2)}',
    "factor = RATE_TO_MB_S[sweep['unit']]",
    "value = mb_s_from_rate(float(np.mean(entry['runs'])), entry['unit'])",
    "to_mb_s = units.mb_s_from_rate(1.0, entry.get('unit')) or 1.0",
    "iops = pick['mb_s'] * 1e6 / RANDOM_BLOCK_BYTES",
    "iops = pick['mb_s'] * 1_000_000 / 4096",
    "mb = value * 1.048576",
    "mib = mb / 1.048576",
    "kib = 1024 * value",
    "size = 1024**2",
    "size = 1 << 20",
    "value *= 1.024",
    'text = f"{value / 1e6:.1f} MB/s"',
    "mib = x * 2**20",
    "seconds = ms / 1000",
    "us = ns / 1e3",
    "gb = size / 1e9",
    "delay.append(p['delay_ns'] / 1000.0)",
    "text = f'{fmt(value / 1000)} ms'",
    "fixture = 64 * 1024**3",
    "card_bytes = 64 * 10**9",
    "KiB, MiB, GiB = 1024, 1024**2, 1024**3",
    "size = float(number) * 1024 ** ' KMGT'.index(suffix)",
    "SUFFIXES = {'K': 2 ** 10, 'M': 2 ** 20}",
    "kib = bw_bytes // 1024",
    "kib_left = kb % 1024",
    "elapsed_ms = (time.perf_counter() - start) * 1000",
    "mb = size * 1e-06",
    "FACTOR = 1_048_576",
    "rate = value * 0.001024",
    "KB = 1000",
    "MiB = 1048576",
    "NS_IN_US = 1000",
    "room = cards * (1 << 20) + (8 << 30)",
    "mib = size >> 20",
    "kib, rest = divmod(size, 1024)",
    "mib = size / math.pow(2, 20)",
    "ms = np.divide(latency_ns, 1e6)",
    "size = pow(1024, 3)",
]


@pytest.mark.parametrize("line", PAST_OFFENDERS)
def test_past_conversions_are_caught(line):
    assert unit_factors(line) or rate_conversions(line)


@pytest.mark.parametrize("line", ['"""MB/s ÷ 1.048576 is MiB/s"""', "# bw_bytes / 1e6", "share = 100 * part / whole",
                                  "ticks = [2 ** p for p in powers]", "if lines > 1000: stop()", "MAX_LINES = 1000",
                                  "half = count // 2", "from ..core.units import GB_BYTES\ngb = size / GB_BYTES",
                                  "RETRIES = 1024", "flags = 1 << 3", "minutes, secs = divmod(rest, 60)",
                                  "half = value >> 1", "area = pow(side, 2)"])
def test_words_and_other_quantities_are_not_unit_factors(line):
    assert not unit_factors(line) and not rate_conversions(line)


@pytest.mark.parametrize("source", [
    "from ..core.units import mb_s_from_rate",
    "from ..core.units import GB_BYTES",
    "from ..core import units\nx = units.us_from_ns(value)",
    "from ..figures.stats import iops_of_mb_s",
    "from ..figures import stats\nmib = stats.mib_s_of(mb)",
    "from ..figures.stats import mib_s_of\ncell = rate_cell(claim, mib_s_of(claim))",
    "from ..figures import stats as figures_stats\ny = figures_stats.curve_mb_s(points, unit)",
    "import cardbench.figures.stats\npick = cardbench.figures.stats.rate_figures(value, unit)",
    "from ..figures.shown_rates import mib_s_of",  # a conversion another module imported
    "patches.append({axis: mib_s_of(list(trace[axis]))})",
    'text = f"{mb_s_of(value, unit):.1f} MB/s"',
])
def test_a_page_converting_a_figure_is_caught(source):
    assert conversions_placing(source)


def test_a_page_placing_figures_of_both_units_is_no_conversion():
    assert not conversions_placing("from ..figures.shown_rates import claimed_rates\n"
                                   "claim = claimed_rates(card)['read']\n"
                                   "cell = rate_cell(claim['mb_s'], claim['mib_s'])")


def test_a_page_spelling_a_size_is_no_conversion():
    assert not conversions_placing("from ..core.units import size_arg_from_bytes, size_text_from_bytes")


@pytest.mark.parametrize("where, line", [
    ("collect/profiles.py", "FIXTURE_BYTES = 64 * 1024 ** 3"),
    ("parsers/fio/planted.py", "ms = runtime_us / 1e3"),
    ("bench/planted.py", "mib = rss_kib / 1024"),
    ("pages/gridmodel.py", "ms = latency_us / 1000"),
    ("pages/chartmodel.py", "from ..core.units import us_from_ns"),
    ("publish/sitedata.py", "from ..figures.stats import mib_s_of"),
    ("pages/chartmodel.py", "from ..figures.stats import curve_mb_s"),
    ("pages/pagemodel.py", "mib = stats.mib_s_of(claim)"),
    ("figures/headlines.py", "from ..core.units import RATE_TO_MB_S"),
    ("bench/report_page.py", "KB = 1000"),
    ("collect/profiles.py", "FIXTURE_MIB = fixture_bytes >> 20"),
    ("figures/findings/flash.py", "erase_kib = divmod(erase_bytes, 1024)[0]"),
])
def test_a_unit_factor_planted_in_a_copy_is_reported(tmp_path, where, line):
    assert list(findings(planted_copy(tmp_path, {where: with_lines(where, line)}))) == [where]


# Figures of a price or a claim page models once worked out themselves, and other spellings of them: each is caught.
FIGURES_WORKED_OUT = [
    "value = seq_read['mb_s'] / price['amount']",
    "value = price['amount'] / card['capacity_gb']",
    "share = f\"{whole(100 * measured['mb_s'] / claim['mb_s'])} %\"",
    "per_gb = card['price']['amount'] / card['capacity_gb']",
    "def cell(card, pick):\n    amount = card['price']['amount']\n    return pick['mb_s'] / amount",
    "def cell(card):\n    bound = card.get('claimed') or {}\n    top = bound['read_mb_s']\n    return mb_s // top",
    "for claim, measured in zip(claims, picks):\n    rows.append(measured / claim)",
    "share = np.divide(read, claimed_read)",
    "value = operator.truediv(speed, card['price'])",
    "value /= cost_price",
    "def cell(card, pick):\n    paid = price_amount(card)\n    return pick['mb_s'] / paid",
    "def row(card):\n    price = card['price']\n    def text(x):\n        return x / price['amount']",
]


@pytest.mark.parametrize("source", FIGURES_WORKED_OUT)
def test_a_page_working_out_a_price_or_claim_figure_is_caught(source):
    assert figures_worked_out(source)


@pytest.mark.parametrize("source", [
    "value = card[PAGE_FIGURES]['per_price']\ncell = {'value': round(value, 4), 'text': f'{value:.3f} USD/GB'}",
    "share = f\"{whole(percent)} %\" if percent is not None else DASH",
    "text = f\"{price['amount']:g} {price['currency']} ÷ {card['capacity_gb']:g} GB\"",
    "share = 100 * part / whole",
    "def cell(card):\n    price = card['price']\n    return price\ndef other(a, b):\n    return a / b",
    '"""read ÷ price"""',
])
def test_placing_a_price_or_claim_figure_is_no_working_out(source):
    assert not figures_worked_out(source)


def test_the_price_and_claim_figures_are_worked_out_in_their_homes():
    # else the check has lost its target
    for home in (Path("figures") / "price_figures.py", Path("figures") / "shown_rates.py"):
        assert figures_worked_out((PACKAGE / home).read_text(encoding="utf-8")), home


@pytest.mark.parametrize("where, line", [
    ("pages/pagemodel.py", "PER_GB = card['price']['amount'] / card['capacity_gb']"),
    ("pages/leaderhtml.py", "def share(row):\n    return row['seq_read']['mb_s'] / row['claimed']['read_mb_s']"),
    ("publish/sitedata.py", "def per_price(card, mb_s):\n    amount = card['price']['amount']\n"
                            "    return mb_s / amount"),
])
def test_a_price_or_claim_figure_planted_in_a_page_is_reported(tmp_path, where, line):
    assert list(findings(planted_copy(tmp_path, {where: with_lines(where, line)}))) == [where]


@pytest.mark.parametrize("source", ["THOUSAND = 1000\nseconds = ms / THOUSAND", "KIB = 1024", "MEGA = 1e6",
                                    "SECTOR_BYTES = 512", "BIG = 1_000_000", "MIB = 1048576", "GIGA = 10**9",
                                    "STEP = 2**20", "STEP = 1 << 30", "MILLI, KILO = 1e-3, 1000.0",
                                    "A = B = 1024", "class Step:\n    blocksize: int = 1024",
                                    "if True:\n    SCALE = 1e9"])
def test_a_name_given_a_units_size_is_caught(source):
    assert names_given_factors(source)


@pytest.mark.parametrize("source", ["def f():\n    limit = 1000\n    return limit", "BW_RELATIVE_SLACK = 1e-6",
                                    "RETRIES = 3", "SIZES = (512, 1024)", "STEP = MIB_BYTES", "MASK = 1 << 3"])
def test_other_names_are_given_no_units_size(source):
    assert not names_given_factors(source)


@pytest.mark.parametrize("where, name", sorted(NOT_UNIT_FACTORS))
def test_each_name_let_through_is_still_given_a_units_size(where, name):
    source = (PACKAGE / where).read_text(encoding="utf-8")
    assert name in {found for _, found, _ in names_given_factors(source)}, f"{where} {name}: drop it from the list"


@pytest.mark.parametrize("where, line", [
    ("parsers/h2testw.py", "SECTOR = 512"),
    ("figures/findings/flash.py", "THOUSAND = 1000\nERASE_KB = 4096 / THOUSAND"),
    ("collect/profiles.py", "class Planted:\n    KIB = 1024"),
    ("imports/importer.py", "MAX_KIB = 1024"),
])
def test_a_name_given_a_units_size_in_a_copy_is_reported(tmp_path, where, line):
    assert list(findings(planted_copy(tmp_path, {where: with_lines(where, line)}))) == [where]


# Tables of units parsers once held, and other spellings of one: each factor in them is caught.
FACTOR_TABLES = [
    'RATE_MB_S = {"B": 1e-6, "K": 1e-3, "M": 1.0, "G": 1e3}',
    'TIME_NS = {"ns": 1, "us": 1e3, "ms": 1e6, "s": 1e9}',
    'TO_MB_S = {"B/s": 1e-6, "kB/s": 1e-3, "MB/s": 1.0, "GB/s": 1e3}',
    "for key, to_us in (('clat_ns', 1e-3), ('lat_ns', 1e-3), ('clat', 1.0)):\n    pass",
    "def seconds(value, unit):\n    return value * {'s': 1, 'ms': 1e-3, 'us': 1e-6, 'ns': 1e-9}[unit]",
    "scale = {'nsec': 1e-3, 'usec': 1.0, 'msec': 1e3}[unit]",
    "_SUFFIX = {'': 1, 'b': 512, 'k': 1024}",
    "PAIRS = [('k', 1000), ('M', 1000000)]",
    "SCALE = (1, 1000, 10**6)",
    "UNIT_BYTES = [1, 1024]",
    "TIME = dict(ns=1, us=1e3)",
    "FACTOR = {unit: 1e-3 for unit in ('ms', 'msec')}",
    "UNITS = {'time': {'ms': 1e-3}}",
    "value = convert(text, scale=[1, 1000])",
    "STEPS: dict = {'K': 1000}",
]


@pytest.mark.parametrize("source", FACTOR_TABLES)
def test_a_factor_in_a_table_is_caught(source):
    assert table_factors(source)


@pytest.mark.parametrize("source", [
    "BLOCK_SIZES = (512, 1024, 4096)", "CAPACITIES_GB = [16, 32, 512, 1000, 1024]",
    "PLAUSIBLE = {'bw_bytes': 1e11, 'io_bytes': 1e18, 'io_kbytes': 1e15}", "LIMITS = {'max_lines': 5000}",
    "TO_MB_S = {**DECIMAL_RATE_IN_MB_S, 'KiB/s': KIB_BYTES / MB_BYTES}", "SHARES = {'half': 50.0, 'whole': 1.0}",
    "LOW, HIGH = 1000, 1024", "pair = ('usec', 1.0)", "TICKS = [0, 250, 500, 750]",
    "TIME_NS = {'ns': 1, 'us': NS_IN_US, 'ms': NS_IN_MS}",
])
def test_a_table_of_other_figures_holds_no_factor(source):
    assert not table_factors(source)


def test_core_units_holds_the_tables_of_factors():
    assert table_factors((PACKAGE / UNITS).read_text(encoding="utf-8"))  # else the check has lost its target


@pytest.mark.parametrize("where, name", sorted(NOT_FACTOR_TABLES))
def test_each_table_let_through_still_holds_a_number_equal_to_a_factor(where, name):
    source = (PACKAGE / where).read_text(encoding="utf-8")
    assert name in {found for _, found, _ in table_factors(source)}, f"{where} {name}: drop it from the list"


def _replaced(where, old, new):
    text = (PACKAGE / where).read_text(encoding="utf-8")
    assert old in text, f"{where} no longer holds {old!r}: plant another table"
    return text.replace(old, new)


@pytest.mark.parametrize("where, text", [
    ("parsers/flashbench.py", with_lines("parsers/flashbench.py", 'RATE_MB_S = {"B": 1e-6, "K": 1e-3, "M": 1.0}')),
    ("parsers/fio/latency.py", with_lines("parsers/fio/latency.py", "TO_US = (('clat_ns', 1e-3), ('clat', 1.0))")),
    ("parsers/f3probe.py", with_lines("parsers/f3probe.py", "def ms(value, unit):\n"
                                                            "    return value * dict(s=1e3, ms=1, us=1e-3)[unit]")),
    ("parsers/dd/command.py", _replaced("parsers/dd/command.py", '"b": SECTOR_BYTES', '"b": 512')),
    ("parsers/dd/lines.py", _replaced("parsers/dd/lines.py", "TO_MB_S = {**DECIMAL_RATE_IN_MB_S,",
                                      'TO_MB_S = {"B/s": 1e-6, "kB/s": 1e-3, "MB/s": 1.0, "GB/s": 1e3,')),
    ("imports/planted.py", "SCALE = (1, 1000, 1000000)\n"),
    ("bench/targets.py", with_lines("bench/targets.py", "UNIT_MS = {'s': 1000}")),
])
def test_a_factor_table_planted_in_a_copy_is_reported(tmp_path, where, text):
    assert list(findings(planted_copy(tmp_path, {where: text}))) == [where]
