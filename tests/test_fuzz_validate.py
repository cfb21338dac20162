"""Property-based fuzzing of the card loader and validator: whatever the text or structure, the
result is a CardFileError or a list of findings, never another exception."""

import copy
import math
import os

import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardbench.card.load import LoadedCard, parse_card_text
from cardbench.errors import CardFileError
from cardbench.card.checks.problems import RULES, Finding
from cardbench.card.checks.validate import check_card

from conftest import field_paths

# The suite runs a fixed set of examples (same every run, so CI is stable); set
# CARDBENCH_FUZZ_EXAMPLES=5000 for a longer hunt with fresh random examples.
_HUNT = os.environ.get("CARDBENCH_FUZZ_EXAMPLES")
SETTINGS = settings(max_examples=int(_HUNT or 100), derandomize=not _HUNT, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])

# A card that exercises every section, so mutations reach every rule.
BASE = {
    "schema_version": 1, "slug": "fuzz-card", "brand": "Acme", "model": "Fast", "part_number": "AC-64",
    "capacity_gb": 64, "form_factor": "microSD", "family": "SDXC", "bus": "UHS-I", "markings": ["U3", "A2"],
    "claimed": {"read_mb_s": 100, "write_mb_s": 60, "note": "reader"}, "controller": "X",
    "price": {"amount": 10, "currency": "EUR", "date": "2025-01-01", "shop": "S"},
    "shops": [{"name": "S", "url": "https://shop.example/x"}],
    "source": {"name": "test", "url": "https://example.com/", "date": "2025-01-01"},
    "notes": "n",
    "sessions": [{
        "id": "s1", "label": "L", "date": "2025-01-01", "host": "h", "compare": True, "complete": True,
        "source": {"name": "x"}, "tools": [{"name": "fio", "version": "3.35"}],
        "headline": [{"name": "Read", "value": "90 MB/s", "number": 90, "unit": "MB/s"}],
        "results": [{"test": "RND4K Q32T1", "op": "read", "unit": "MiB/s", "runs": [9, 9.5], "iops": [2319, 2400],
                     "latency_us": {"mean": [100, 110]}, "size": "1GiB", "command": "fio",
                     "raw": ["raw/fuzz-card/a.json"]}],
        "dd": [{"op": "read", "block_size": "4M", "count": 1, "flags": ["direct"], "target": "device", "unit": "MB/s",
                "runs": [80, 81], "seconds": [1, 1], "bytes": 4194304, "excluded_runs": [1]}],
        "dd_sweeps": [{"op": "write", "unit": "MB/s", "points": [{"block_size_bytes": 4096, "value": 3}]}],
        "flashbench_open_au": [{"mode": "random", "open_au": 2, "unit": "MB/s",
                                "points": [{"block_size_bytes": 4096, "value": 3}]}],
        "flashbench_align": [{"points": [{"offset_bytes": 4096, "delay_ns": 100}]}],
        "flashbench_find_fat": [{"unit": "MB/s", "rows": [{"block_size_bytes": 4096, "values": [1, 2]}]}],
        "fill": [{"op": "write", "unit": "MB/s", "points": [{"written_gb": 1, "value": 50}]}],
        "f3probe": {"fake": False, "announced_bytes": 1, "usable_bytes": 1},
        "nvme": {"model": "m", "pcie_link": "PCIe Gen3 x1", "thresholds_c": {"wctemp": 80},
                 "temperature_c": {"idle": 30, "samples": [{"seconds": 1, "value": 40}]}},
        "imported_sha256": ["0" * 64], "raw": ["raw/fuzz-card/b.out"],
    }],
}

SCALARS = st.one_of(
    st.none(), st.booleans(), st.integers(), st.integers(min_value=10**300, max_value=10**310),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=30), st.sampled_from(["UHS-I", "MB/s", "MiB/s", "IOPS", "read", "SEQ1M Q8T1", "2999-01-01",
                                            "raw/../../etc/passwd", "javascript:alert(1)", "https://a b", "\x1b[0m",
                                            "\u202e", "San\u200bDisk", "\U000e0041", "<script>", "", "0" * 64,
                                            "PCIe Gen4 x16", "4M"]),
)
VALUES = st.recursive(SCALARS, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                       st.dictionaries(st.text(max_size=10), inner, max_size=4)),
                      max_leaves=12)


def assert_findings(findings):
    assert isinstance(findings, list)
    for finding in findings:
        assert isinstance(finding, Finding) and finding.severity in ("error", "warning")
        assert finding.rule.startswith("schema:") or finding.severity in RULES[finding.rule]
        assert str(finding)


def load_and_check(text, tmp_path=None):
    try:
        card = parse_card_text(text, "fuzz-card.yaml")
    except CardFileError as exc:
        assert str(exc) and (exc.rule in RULES or exc.rule is None)
        return None
    findings = check_card(card, data_dir="/nonexistent-data")
    assert_findings(findings)
    return findings


BASE_PATHS = [p for p in field_paths(BASE) if p]


def replace(data, path, value):
    out = copy.deepcopy(data)
    target = out
    for part in path[:-1]:
        target = target[part]
    if value is _DELETE:
        del target[path[-1]]
    else:
        target[path[-1]] = value
    return out


_DELETE = object()


def test_base_card_is_valid_apart_from_its_missing_raw_files():
    findings = check_card(LoadedCard("fuzz-card.yaml", BASE, {}, ""), data_dir="/nonexistent-data")
    assert {f.rule for f in findings if f.severity == "error"} == {"raw-present"}


@SETTINGS
@given(st.text(max_size=400))
def test_any_text(text):
    load_and_check(text)


YAML_TOKENS = ["key: ", "slug: ", "sessions:\n", "  - ", "- ", "\n", "  ", "    ", "\t", "&a ", "*a", "&b ", "*b",
               "!!python/name:os.system ", "!!binary ", "!!set ", "!custom ", "[", "]", "{", "}", ", ", "'", '"',
               "# c\n", "---\n", "...\n", "? ", "<<: ", ".nan", ".inf", "-.inf", "1e5", "1.0e+999", "0x1F", "0o17",
               "1_000", "~", "=", "<<", "yes", "no", "on", "2025-01-01", "12:30:00", "|\n  ", ">\n  ", "runs: ",
               "results:\n", "[1, 2]", "%YAML 1.1\n", "\\x00", "\"\\e\"", "\ufeff", "é", "9" * 60, "-", ":", "@", "`"]


@SETTINGS
@given(st.lists(st.sampled_from(YAML_TOKENS), max_size=40))
def test_yaml_like_text(tokens):
    load_and_check("".join(tokens))


@SETTINGS
@given(st.sampled_from(BASE_PATHS), st.one_of(VALUES, st.just(_DELETE)))
def test_mutated_card_via_yaml(path, value):
    data = replace(BASE, path, value)
    try:
        text = yaml.safe_dump(data, allow_unicode=True, sort_keys=False)
    except (yaml.YAMLError, ValueError, OverflowError):
        return  # not representable as YAML: nothing to load
    load_and_check(text)


@SETTINGS
@given(st.sampled_from(BASE_PATHS), st.one_of(VALUES, st.just(_DELETE)))
def test_mutated_card_structure_directly(path, value):
    """check_card on structures YAML could not even produce (e.g. huge integers, NaN keys)."""
    findings = check_card(LoadedCard("fuzz-card.yaml", replace(BASE, path, value), {}, ""), data_dir="/nonexistent")
    assert_findings(findings)


@SETTINGS
@given(VALUES)
def test_any_structure(value):
    assert_findings(check_card(LoadedCard("fuzz-card.yaml", {"sessions": [value], "x": value}, {}, ""),
                               data_dir="/nonexistent"))
    if isinstance(value, dict):
        assert_findings(check_card(LoadedCard("fuzz-card.yaml", value, {}, ""), data_dir="/nonexistent"))


def test_non_finite_numbers_are_findings_not_crashes():
    data = replace(BASE, ("capacity_gb",), 10**400)
    findings = check_card(LoadedCard("fuzz-card.yaml", data, {}, ""), data_dir="/nonexistent")
    assert "finite" in {f.rule for f in findings}
    assert not math.isfinite(float("inf"))
