"""The format registry: every format's parser says whether a text is its own, detection picks the
surest claim (the earlier format on a tie), every format has an import handler, and nothing
outside a parser module reaches into its private names."""

import ast
from pathlib import Path

import pytest

from cardbench.imports.importer import HANDLERS
from cardbench.imports.read import decode_text
from cardbench.parsers import NAMED, NOT_MINE, SHAPED, registry

FIXTURES = Path(__file__).parent / "fixtures"
PACKAGE = Path(registry.__file__).resolve().parents[1]
FOLDER_FORMAT = {"fio": "fio-json", "cdm_fio": "cdm-fio", "crystaldiskmark": "crystaldiskmark",
                 "kdiskmark": "kdiskmark", "dd": "dd", "flashbench": "flashbench", "nvme": "nvme", "f3probe": "f3probe",
                 "fio_bwlog": "fio-bwlog", "fio_text": "fio-text"}


def test_every_format_has_a_parser_a_detector_a_description_and_a_handler():
    assert len(set(registry.NAMES)) == len(registry.FORMATS)
    for fmt in registry.FORMATS:
        assert callable(fmt.module.parse) and callable(fmt.module.detect), fmt.name
        assert fmt.description and "\n" not in fmt.description
    # the older formats have a handler in the importer; a tool module brings its own to_session()
    tool_modules = {fmt.name for fmt in registry.FORMATS if callable(getattr(fmt.module, "to_session", None))}
    assert set(HANDLERS) | tool_modules == set(registry.NAMES)


@pytest.mark.parametrize("path", sorted(p for folder in FOLDER_FORMAT for p in (FIXTURES / folder).glob("*.out")),
                         ids=lambda p: p.name)
def test_each_fixture_is_detected_as_its_format(path):
    text = decode_text(path.read_bytes())
    assert registry.detect_format(text).name == FOLDER_FORMAT[path.parent.name]


def test_a_named_tool_wins_over_lines_shaped_like_another():
    cdm = (FIXTURES / "crystaldiskmark" / "crystaldiskmark--cdm6.out").read_text()
    nvme_line = "Thermal Management Temperature 1 (TMT1): 80°C (353 Kelvin)\n"
    assert registry.detect_format(nvme_line).name == "nvme"
    assert registry.detect_format(nvme_line + cdm).name == "crystaldiskmark"


def test_on_a_tie_the_earlier_format_wins():
    cdm_fio_line = "Sequential Read: 737MB/s IOPS=0\n"
    cdm_line = "  SEQ    1MiB (Q=  8, T= 1):   543.188 MB/s [    518.0 IOPS] < 15407.04 us>\n"  # no header
    dd_line = "1073741824 bytes (1.1 GB, 1.0 GiB) copied, 12.7332 s, 84.3 MB/s\n"
    assert registry.detect_format(cdm_line + cdm_fio_line).name == "cdm-fio"
    assert registry.detect_format(dd_line + cdm_line).name == "crystaldiskmark"
    # CrystalDiskMark 3/4's "Sequential Read :   561.237 MB/s" (a space before the colon) is its own shape
    assert registry.detect_format("Sequential Read :   561.237 MB/s\n").name == "crystaldiskmark"
    assert registry.detect_format("my card is fast\n") is None


def test_detect_answers_with_a_level():
    for fmt in registry.FORMATS:
        for text in ("", "1 2 3\n", "\x00" * 10):
            assert fmt.module.detect(text) in (NOT_MINE, SHAPED, NAMED)


def _private_uses(path):
    """(line, name) where a module outside cardbench.parsers uses a parser's private name."""
    tree = ast.parse(path.read_text(), filename=str(path))
    modules, uses = set(), []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and "parsers" in (node.module or "").split("."):
            for alias in node.names:
                if alias.name.startswith("_"):
                    uses.append((node.lineno, f"{node.module}.{alias.name}"))
                modules.add(alias.asname or alias.name)
    uses += [(node.lineno, f"{node.value.id}.{node.attr}") for node in ast.walk(tree)
             if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
             and node.value.id in modules and node.attr.startswith("_")]
    return uses


def test_only_a_parser_uses_its_private_names():
    outside = [p for p in PACKAGE.rglob("*.py") if "parsers" not in p.relative_to(PACKAGE).parts]
    assert len(outside) > 10
    found = {str(p.relative_to(PACKAGE)): uses for p in outside if (uses := _private_uses(p))}
    assert found == {}
