"""A throughput becomes MB/s, MiB/s or IOPS in one place: figures/stats.py (its unit factors named in
core/units.py). Every other module of the site, and the card's entry builders, read the figures stats
computed and convert nothing: two conversions of one figure drift apart (one left excluded runs in its
mean, the other did not).

The check reads each module's syntax tree, so a conversion inside an f-string is seen and one named in
a docstring or comment is not."""

import ast
import re
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "scripts" / "cardbench"
HOME = PACKAGE / "figures" / "stats.py"
CHECKED = sorted(p for part in ("figures", "pages", "publish") for p in (PACKAGE / part).rglob("*.py"))

# Unit factors: bytes in a MB (10^6), a MiB (2^20), a kKiB (1000 × 1024), a KiB (1024); MiB/s ÷ MB/s
# (1.048576) and back; kKiB/s and KiB/s in MB/s. Used to multiply or divide, each is a conversion.
FACTORS = {1e6, 1e-6, 1_048_576, 1.048576, 1 / 1.048576, 1_024_000, 1.024, 0.001024, 1024}
SHIFTS = {10, 20}  # 1 << 10, 1 << 20: KiB and MiB
ARITHMETIC = (ast.Mult, ast.Div, ast.FloorDiv, ast.Pow, ast.MatMult)
# core/units.py's rate factors and its rate conversion, by name (imported, called or read as an attribute).
UNIT_NAMES = re.compile(r"^(?:(?:MIB|MB|KIB|KKIB)_PER_S_IN_\w+|RATE_TO_MB_S|RATE_UNIT_BYTES|mb_s_from_rate)$")


def _number(node):
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        node = node.operand
    value = getattr(node, "value", None) if isinstance(node, ast.Constant) else None
    return value if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def _is_factor(node):
    value = _number(node)
    return value is not None and any(abs(value - factor) <= 1e-12 * abs(factor) for factor in FACTORS)


def conversions(source):
    """(line, what) of every unit conversion in a module's source."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.BinOp, ast.AugAssign)):
            op = node.op
            operands = (node.left, node.right) if isinstance(node, ast.BinOp) else (node.target, node.value)
            if isinstance(op, ARITHMETIC) and any(_is_factor(o) for o in operands):
                found.append((node.lineno, ast.unparse(node)))
            elif isinstance(op, ast.LShift) and _number(operands[1]) in SHIFTS:
                found.append((node.lineno, ast.unparse(node)))
        elif isinstance(node, ast.Name) and UNIT_NAMES.match(node.id):
            found.append((node.lineno, node.id))
        elif isinstance(node, ast.Attribute) and UNIT_NAMES.match(node.attr):
            found.append((node.lineno, node.attr))
        elif isinstance(node, ast.ImportFrom):
            found += [(node.lineno, f"import {alias.name}") for alias in node.names if UNIT_NAMES.match(alias.name)]
    return sorted(set(found))


@pytest.mark.parametrize("path", [p for p in CHECKED if p != HOME], ids=lambda p: str(p.relative_to(PACKAGE)))
def test_no_unit_conversion_outside_the_statistics(path):
    found = conversions(path.read_text(encoding="utf-8"))
    assert not found, f"{path.relative_to(PACKAGE)} converts units itself; read figures/stats.py's figures: {found}"


def test_the_statistics_module_is_where_conversions_are():
    assert conversions(HOME.read_text(encoding="utf-8"))  # else the check above has lost its target


# Conversions the site's modules once made themselves: each must be caught.
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
]


@pytest.mark.parametrize("line", PAST_OFFENDERS)
def test_past_conversions_are_caught(line):
    assert conversions(line)


@pytest.mark.parametrize("line", ['"""MB/s ÷ 1.048576 is MiB/s"""', "# bw_bytes / 1e6", "gb = size_bytes / 1e9",
                                  "ms = latency_us / 1000", "ticks = [2 ** p for p in powers]"])
def test_words_and_other_quantities_are_not_conversions(line):
    assert not conversions(line)
