"""Rules the site, the card's checks and the importer share live in one module each, and every other
module imports them: two copies of one rule drift apart (one names a dd entry 'dd bs=not stated', the
other 'dd bs=None'). Each check reads the package's syntax trees, so a copy inside an f-string is seen
and one named in a docstring or comment is not; each is shown to catch a planted copy."""

import ast
import re
from pathlib import Path

import pytest

from packagefiles import MODULES, PACKAGE, assert_no_breaches, syntax_tree
from planted import breaches_in_copy



def _strings(node):
    return [part for part in ast.walk(node) if isinstance(part, ast.Constant) and isinstance(part.value, str)]


# --- a dd entry's subtest name ------------------------------------------------------------------------

DD_NAME_HOME = PACKAGE / "core" / "subtest_names.py"
DD_NAME = "dd bs="


def dd_names_built(source):
    """Lines where a dd subtest name ('dd bs=…') is put together: an f-string, a sum, a % or a .format()."""
    found = []
    for node in ast.walk(syntax_tree(source)):
        if isinstance(node, ast.JoinedStr):
            parts = [v for v in node.values if isinstance(v, ast.Constant)]
        elif isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Mod)):
            parts = [node.left, node.right]
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "format":
            parts = [node.func.value]
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "join":
            parts = [item for arg in node.args if isinstance(arg, (ast.List, ast.Tuple)) for item in arg.elts]
        else:
            continue
        if any(isinstance(p, ast.Constant) and isinstance(p.value, str) and DD_NAME in p.value for p in parts):
            found.append(node.lineno)
    return sorted(set(found))


def test_a_dd_entry_is_named_in_one_place():
    assert_no_breaches(dd_names_built, [p for p in MODULES if p != DD_NAME_HOME],
                       "{where} names a dd entry itself (lines {found}); use core.subtest_names.dd_test_name")


def test_the_dd_name_home_builds_the_name():
    assert dd_names_built(DD_NAME_HOME.read_text(encoding="utf-8"))


@pytest.mark.parametrize("planted", [
    "test = f\"dd bs={entry.get('block_size', 'not stated')}\"",
    "name = entry.get('test') or 'dd bs=' + str(entry.get('block_size'))",
    "name = 'dd bs=%s' % size",
    "name = 'dd bs={}'.format(size)",
    "name = ''.join(('dd bs=', size))",
])
def test_a_planted_dd_name_is_caught(planted):
    assert dd_names_built(planted) == [1]


def test_a_suite_naming_a_dd_subtest_is_no_copy():
    assert not dd_names_built('SUITE = {"tests": ["dd bs=4M"]}')


# --- bandwidth against IOPS × block size ---------------------------------------------------------------

AGREEMENT_HOME = PACKAGE / "core" / "figure_agreement.py"


def _names(node):
    """The lower-case names and attribute names and string subscripts in an expression."""
    found = set()
    for part in ast.walk(node):
        if isinstance(part, ast.Name):
            found.add(part.id.lower())
        elif isinstance(part, ast.Attribute):
            found.add(part.attr.lower())
        elif isinstance(part, ast.Subscript) and isinstance(part.slice, ast.Constant):
            if isinstance(part.slice.value, str):
                found.add(part.slice.value.lower())
    return found


def _iops_times_block(node):
    if not (isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult)):
        return False
    sides = [_names(node.left), _names(node.right)]
    return any(any("iops" in n for n in one) and any("block" in n or n.startswith("bs") for n in other)
               for one, other in (sides, sides[::-1]))


def iops_block_comparisons(source):
    """Lines where IOPS × block size is compared with something (a bandwidth) or taken the larger or smaller
    of: the test of whether the two figures agree."""
    found = []
    for node in ast.walk(syntax_tree(source)):
        called = node.func.attr if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) else \
            node.func.id if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) else None
        compared = isinstance(node, ast.Compare) or called in ("max", "min", "isclose")
        if compared and any(_iops_times_block(part) for part in ast.walk(node)):
            found.append(node.lineno)
    return sorted(set(found))


def test_bandwidth_and_iops_are_compared_in_one_place():
    assert_no_breaches(iops_block_comparisons, [p for p in MODULES if p != AGREEMENT_HOME],
                       "{where} compares a bandwidth with IOPS × block itself (lines {found}); "
                       "use core.figure_agreement")


def test_the_agreement_home_compares():
    assert iops_block_comparisons(AGREEMENT_HOME.read_text(encoding="utf-8"))


@pytest.mark.parametrize("planted", [
    'fits = result["iops_printed"] * block < high and low < (result["iops_printed"] + 1) * block',
    "gap = max(0.0, expect_lo - hi, lo - (iops + step) * block)",
    "agree = abs(value * unit_bytes - entry['iops'][0] * block_bytes(entry['test'])) <= tolerance",
    "agree = math.isclose(bw_bytes, iops * block_size, rel_tol=0.05)",
])
def test_a_planted_agreement_check_is_caught(planted):
    assert iops_block_comparisons(planted) == [1]


def test_stating_the_expected_bandwidth_is_no_copy():
    assert not iops_block_comparisons("expected = count * block / RATE_UNIT_BYTES[unit]")



# --- a fio job's MB/s ----------------------------------------------------------------------------------

FIO_RATE_HOME = PACKAGE / "parsers" / "fio" / "json_output.py"


def _reads_bw_bytes(node):
    """Whether an expression reads a record's "bw_bytes" (job["bw_bytes"], job.get("bw_bytes")): a fio job's."""
    for part in ast.walk(node):
        key = part.slice if isinstance(part, ast.Subscript) else None
        if (isinstance(part, ast.Call) and isinstance(part.func, ast.Attribute) and part.func.attr == "get"
                and part.args):
            key = part.args[0]
        if isinstance(key, ast.Constant) and key.value == "bw_bytes":
            return True
    return False


# core/units.py's conversions of a byte rate: scaling a job's bw_bytes by name is scaling it all the same.
_RATE_CONVERTERS = re.compile(r"^(?:mb|kb|gb|kib|mib|gib)_from_bytes$")


def _converts(node):
    """Whether a node scales what it reads: arithmetic, or a call of a rate converter."""
    if isinstance(node, ast.BinOp):
        return isinstance(node.op, (ast.Div, ast.Mult, ast.FloorDiv)), (node.left, node.right)
    if isinstance(node, ast.Call):
        name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
        return bool(_RATE_CONVERTERS.match(name or "")), tuple(node.args)
    return False, ()


def fio_rates_worked_out(source):
    """Lines where a fio job's bw_bytes is scaled (to MB/s, KiB/s), by arithmetic or by a core/units.py
    converter: the job's figures carry its MB/s. (The readers of fio's text check its printed figures against
    each other in local names: no job's rate.)"""
    found = set()
    tree = syntax_tree(source)
    for node in ast.walk(tree):
        scales, operands = _converts(node)
        if scales and any(_reads_bw_bytes(side) for side in operands):
            found.add(node.lineno)
    return sorted(found)


def _converts_local_bw_bytes(source):
    """Lines where a converter or arithmetic scales the local name bw_bytes (the home's own way)."""
    return sorted({node.lineno for node in ast.walk(syntax_tree(source)) if _converts(node)[0]
                   and any(isinstance(side, ast.Name) and side.id == "bw_bytes" for side in _converts(node)[1])})


def test_a_fio_jobs_rate_is_worked_out_in_one_place():
    assert_no_breaches(fio_rates_worked_out, [p for p in MODULES if p != FIO_RATE_HOME],
                       "{where} works out a fio job's rate itself (lines {found}); read the job's mb_s "
                       "(parsers/fio/json_output.py job_bandwidth)")


def test_the_fio_rate_home_works_it_out():
    assert _converts_local_bw_bytes(FIO_RATE_HOME.read_text(encoding="utf-8"))


@pytest.mark.parametrize("planted", [
    'runs = [_num(job["bw_bytes"] / 1e6) for _, job in jobs]',
    "mb_s = sections[0]['bw_bytes'] / 1_000_000",
    'kib_s = job.get("bw_bytes") / 1024',
    'runs = [_num(mb_from_bytes(job["bw_bytes"])) for _, job in jobs]',
    'kib_s = units.kib_from_bytes(job.get("bw_bytes"))',
])
def test_a_planted_fio_rate_is_caught(planted):
    assert fio_rates_worked_out(planted) == [1]


def test_checking_fio_text_figures_is_no_copy():
    assert not fio_rates_worked_out("if abs(bw_bytes / measured - 1) > allowed: raise error(bw_bytes / 1e6)")


# --- an import reads the file with each format's detector once ------------------------------------------

FIXTURES = Path(__file__).parent / "fixtures"


def _whole_text_readings(tmp_path, monkeypatch, relpath):
    """How many times the most-run detector read the whole text while one file was imported (the guard of
    where the output of a tool starts reads shorter heads of it: not counted)."""
    from cardbench.imports.importer import import_file
    from cardbench.parsers.registry import FORMATS

    readings = []
    for fmt in FORMATS:
        def counted(text, _detect=fmt.module.detect, _name=fmt.name):
            readings.append((_name, len(text)))
            return _detect(text)
        monkeypatch.setattr(fmt.module, "detect", counted)
    (tmp_path / "cards").mkdir()
    import_file(FIXTURES / relpath, tmp_path / "cards", "test-card", name="Lexar PLAY PRO microSD Express 1TB")
    whole = max(length for _, length in readings)
    counts = {}
    for name, length in readings:
        if length == whole:
            counts[name] = counts.get(name, 0) + 1
    return max(counts.values())


@pytest.mark.parametrize("relpath", ["cdm_fio/cdm_fio--lexar-10-runs.out", "kdiskmark/kdiskmark--default.out",
                                     "fio/fio--note-before-json.out"])
def test_an_import_detects_the_format_once(tmp_path, monkeypatch, relpath):
    assert _whole_text_readings(tmp_path, monkeypatch, relpath) == 1


def test_a_second_detection_is_caught(tmp_path, monkeypatch):
    from cardbench.imports import importer
    from cardbench.parsers.registry import detect_format

    check_one_tool = importer.check_one_tool

    def detecting_again(text, fmt, claims=None):
        detect_format(text)
        return check_one_tool(text, fmt)
    monkeypatch.setattr(importer, "check_one_tool", detecting_again)
    assert _whole_text_readings(tmp_path, monkeypatch, "cdm_fio/cdm_fio--lexar-10-runs.out") > 1


# --- lists of measurement kinds ------------------------------------------------------------------------

KINDS_HOME = PACKAGE / "core" / "measurement_kinds.py"
KINDS = {"results", "tool_results", "dd", "dd_sweeps", "fill", "flashbench_open_au", "flashbench_align",
         "flashbench_find_fat", "f3probe", "capacity_check", "nvme", "headline"}
# Kinds named after the tool that measures them: a list of tools (the packages to install, the tools a log
# runs) may hold all three without listing kinds.
TOOL_NAMED = {"dd", "f3probe", "nvme"}
LITERALS = (ast.List, ast.Tuple, ast.Set, ast.Dict)


def _literal_strings(node):
    """The strings a literal collection holds, through nested literals; a dict only when it is a table (its
    values literals too: a dict of computed values builds a session, it lists nothing)."""
    if isinstance(node, ast.Constant):
        return {node.value} if isinstance(node.value, str) else set()
    if isinstance(node, (ast.List, ast.Tuple, ast.Set)):
        return set().union(*(_literal_strings(item) for item in node.elts))
    if isinstance(node, ast.Dict) and all(isinstance(value, (ast.Constant, *LITERALS)) for value in node.values):
        return set().union(*(_literal_strings(part) for part in [*node.keys, *node.values] if part is not None))
    return set()


def _split_words(node):
    """The words of a string split into a list ('results dd fill'.split(), "dd,fill".split(",")), else none."""
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "split"
            and isinstance(node.func.value, ast.Constant) and isinstance(node.func.value.value, str)):
        return set()
    separator = node.args[0] if node.args else next((k.value for k in node.keywords if k.arg == "sep"), None)
    if separator is not None and not (isinstance(separator, ast.Constant) and isinstance(separator.value, str)):
        return set()
    return {word.strip() for word in node.func.value.value.split(separator.value if separator else None)}


def kind_lists(source):
    """(line, kinds) of every literal collection, or string split into one, naming three or more measurement
    kinds."""
    found, inside = [], set()
    for node in ast.walk(syntax_tree(source)):
        words = _split_words(node)
        if not (isinstance(node, LITERALS) or words) or id(node) in inside:
            continue
        inside.update(id(part) for part in ast.walk(node) if part is not node)
        kinds = (words or _literal_strings(node)) & KINDS
        if len(kinds) >= 3 and not kinds <= TOOL_NAMED:
            found.append((node.lineno, sorted(kinds)))
    return found


def test_measurement_kinds_are_listed_in_one_place():
    assert_no_breaches(kind_lists, [p for p in MODULES if p != KINDS_HOME],
                       "{where} lists measurement kinds itself: {found}; use core/measurement_kinds.py")


def test_the_kinds_home_lists_them():
    assert kind_lists(KINDS_HOME.read_text(encoding="utf-8"))


@pytest.mark.parametrize("planted", [
    'FIGURE_KEYS = ("results", "dd", "dd_sweeps", "fill", "f3probe", "nvme", "headline", "tool_results")',
    "for kind in ('results', 'dd', 'tool_results'):\n    pass",
    'found = {"flashbench_open_au": [], "flashbench_align": [], "flashbench_find_fat": []}',
    'WORDS = [("dd_sweeps", "dd sweep"), ("fill", "sustained fill"), ("capacity_check", "capacity check")]',
    'SHOWN = ["id", "label", "reading", "nvme", "f3probe", "capacity_check", "cid"]',
    'SOURCES = {"sweeps": ("dd_sweeps", "flashbench_open_au"), "fill": ("fill",)}',
    "KINDS = 'results dd fill'.split()",
    'for kind in "results dd_sweeps tool_results".split(" "):\n    pass',
    'KINDS = "results, dd, fill".split(sep=",")',
])
def test_a_planted_kind_list_is_caught(planted):
    assert kind_lists(planted)


def test_a_kind_list_split_from_a_string_planted_in_a_copy_is_caught(tmp_path):
    where = "figures/headlines.py"
    assert where in breaches_in_copy(tmp_path, kind_lists, where, "SHOWN_KINDS = 'results dd fill headline'.split()")


@pytest.mark.parametrize("source", [
    'TOOL_PACKAGES = {"fio": "fio", "f3probe": "f3", "nvme": "nvme-cli", "dd": "coreutils"}',
    'session = {"dd": dd, "dd_sweeps": [sweep], "flashbench_open_au": open_au, "fill": fill}',
    'for kind in ("results", "dd"):\n    pass',
    "TOOLS = 'dd f3probe nvme'.split()",
    "words = 'results of a dd fill'.split(separator)",
])
def test_tools_sessions_and_pairs_are_no_kind_list(source):
    assert not kind_lists(source)


# --- CrystalDiskMark-style names: the mixed-job mark and the queue depth ------------------------------------

SUBTEST_NAMES_HOME = PACKAGE / "core" / "subtest_names.py"
# Reading 'Q8T1' out of a name: Q, a run of digits, T (a tool's own screen text, read with bounded digits
# such as \d{1,4}, is no subtest name).
QUEUE_PATTERN = re.compile(r"Q\(?(?:\[0-9\]|\\d)\+\)?T")


def _docstrings(tree):
    return {id(node.body[0].value) for node in ast.walk(tree)
            if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body
            and isinstance(node.body[0], ast.Expr) and isinstance(node.body[0].value, ast.Constant)}


def subtest_name_rules(source):
    """(line, what) where a module builds or reads a subtest name's mix mark or queue depth itself."""
    tree = syntax_tree(source)
    skipped, found = _docstrings(tree), set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skipped:
            if " mix " in node.value or node.value.endswith(" mix"):
                found.add((node.lineno, "mixed mark"))
            if QUEUE_PATTERN.search(node.value):
                found.add((node.lineno, "queue depth read"))
        elif isinstance(node, ast.JoinedStr):
            for before, value, after in zip(node.values, node.values[1:], node.values[2:]):
                if (isinstance(before, ast.Constant) and before.value.endswith("Q")
                        and isinstance(value, ast.FormattedValue)
                        and isinstance(after, ast.Constant) and after.value.startswith("T")):
                    found.add((node.lineno, "queue depth built"))
    return sorted(found)


def test_subtest_names_are_built_and_read_in_one_place():
    assert_no_breaches(subtest_name_rules, [p for p in MODULES if p != SUBTEST_NAMES_HOME],
                       "{where} builds or reads a subtest name itself: {found}; use core/subtest_names.py")


def test_the_subtest_names_home_builds_and_reads_them():
    found = {what for _, what in subtest_name_rules(SUBTEST_NAMES_HOME.read_text(encoding="utf-8"))}
    assert found == {"mixed mark", "queue depth read", "queue depth built"}


@pytest.mark.parametrize("planted, what", [
    ('def is_mixed(test):\n    return " mix " in test', "mixed mark"),
    ('name = f"{test} mix {read}/{100 - read}"', "mixed mark"),
    ('match = re.search(r" Q([0-9]+)T([0-9]+)$", test)', "queue depth read"),
    ('CDM = re.compile(r"^(?:SEQ|RND)([0-9]+[KMG]) Q\\d+T\\d+$")', "queue depth read"),
    ('name = f"{kind}{label} Q{queue}T{threads}"', "queue depth built"),
])
def test_a_planted_subtest_name_rule_is_caught(planted, what):
    assert [found for _, found in subtest_name_rules(planted)] == [what]


def test_crystaldiskmarks_screen_text_and_docstrings_are_no_copy():
    source = ('def f():\n    """A job mixing reads and writes (\'RND4K Q1T1 mix 35/65\')."""\n'
              '    return re.fullmatch(r"(SEQ|RND) ?(\\d{1,6}) ?(KiB|MiB|K|M) Q(\\d{1,4}) ?T(\\d{1,4})", text)')
    assert not subtest_name_rules(source)


# --- which formats share a file ------------------------------------------------------------------------


def _format_names():
    from cardbench.parsers.registry import FORMATS, NAMED_ONLY
    return {f.name for f in FORMATS + NAMED_ONLY}


def formats_named_by_tool_info(source, names):
    """(line, names) where a ToolInfo(...) lists other formats (the tools its output is read with): that
    table is registry.READ_TOGETHER's alone."""
    found = []
    for node in ast.walk(syntax_tree(source)):
        called = getattr(node, "func", None)
        if not (isinstance(node, ast.Call) and getattr(called, "id", getattr(called, "attr", None)) == "ToolInfo"):
            continue
        own = {k.value.value for k in node.keywords if k.arg == "name" and isinstance(k.value, ast.Constant)}
        for keyword in node.keywords:
            if isinstance(keyword.value, (ast.List, ast.Tuple, ast.Set)):
                others = (_literal_strings(keyword.value) & names) - own
                if others:
                    found.append((node.lineno, sorted(others)))
    return found


def test_no_tool_module_names_the_formats_it_shares_a_file_with():
    names = _format_names()
    assert_no_breaches(lambda source: formats_named_by_tool_info(source, names),
                       [p for p in MODULES if "parsers" in p.parts],
                       "{where} names the formats it is read with: {found}; see registry.READ_TOGETHER")


def test_a_planted_list_of_formats_read_together_is_caught():
    planted = ('INFO = ToolInfo(name="hdparm", programs=("hdparm",), family="sequential", description="hdparm -t",\n'
               '                logs_with=("dd", "iozone", "flashbench", "f3probe", "nvme"))')
    listed = ["dd", "f3probe", "flashbench", "iozone", "nvme"]
    assert formats_named_by_tool_info(planted, _format_names()) == [(1, listed)]


def test_the_formats_read_together_are_formats():
    from cardbench.parsers.registry import READ_TOGETHER
    assert {name for names in READ_TOGETHER for name in names} <= _format_names()


def test_a_subtests_kind_is_the_session_field_holding_it():
    from cardbench.core.measurement_kinds import RUN_KINDS
    from cardbench.figures.stats import session_entries
    session = {"results": [{"test": "SEQ1M Q8T1", "op": "read"}], "dd": [{"block_size": "4M", "op": "write"}]}
    kinds = [kind for kind, _, _, _ in session_entries(session)]
    assert kinds == ["results", "dd"] and set(kinds) <= set(RUN_KINDS)


# --- a slug's words -------------------------------------------------------------------------------------

SLUG_HOME = PACKAGE / "card" / "identity.py"
# A run of letters and digits, or of what is none ([^a-z0-9]+, [a-z0-9]+, \W+): a text cut into a slug's words.
# (A file name's characters, [^A-Za-z0-9._-]+, keep more than a slug and are no copy.)
SLUG_WORD_PATTERN = re.compile(r"^\[\^?(?:a-z|A-Z|0-9|\\d)+\]\+$|^\\W\+$")


def slug_word_rules(source):
    """Lines where a module cuts a text into a slug's words itself, with a pattern of its own."""
    tree = syntax_tree(source)
    skipped = _docstrings(tree)
    return sorted({node.lineno for node in ast.walk(tree) if isinstance(node, ast.Constant)
                   and isinstance(node.value, str) and id(node) not in skipped and SLUG_WORD_PATTERN.match(node.value)})


def test_a_slugs_words_are_cut_in_one_place():
    assert_no_breaches(slug_word_rules, [p for p in MODULES if p != SLUG_HOME],
                       "{where} cuts a slug's words itself (lines {found}); use card.identity.slug_words")


def test_the_slug_home_cuts_the_words():
    assert slug_word_rules(SLUG_HOME.read_text(encoding="utf-8"))


@pytest.mark.parametrize("planted", [
    'tail = re.sub(r"[^a-z0-9]+", "-", str(label).lower()).strip("-")',
    'words = re.findall(r"[a-z0-9]+", name.lower())',
    'slug = re.sub(r"[^A-Za-z0-9]+", "-", name).lower()',
    'slug = re.sub(r"\\W+", "-", name.lower())',
])
def test_a_planted_slug_rule_is_caught(tmp_path, planted):
    where = "card/new_card_data.py"
    assert where in breaches_in_copy(tmp_path, slug_word_rules, where, planted)


def test_a_file_names_characters_are_no_slug_rule():
    assert not slug_word_rules('cleaned = re.sub(r"[^A-Za-z0-9._-]+", "-", name)')


# --- the file lock and compact JSON text ------------------------------------------------------------------

LOCK_HOME = PACKAGE / "core" / "filelock.py"
JSON_TEXT_HOME = PACKAGE / "core" / "jsontext.py"
COMPACT_SEPARATORS = (",", ":")


def file_locks_taken(source):
    """Lines where a module locks a file with fcntl itself (fcntl.flock or fcntl.lockf, called or imported)."""
    found = set()
    for node in ast.walk(syntax_tree(source)):
        if isinstance(node, ast.Attribute) and node.attr in ("flock", "lockf") \
                and isinstance(node.value, ast.Name) and node.value.id == "fcntl":
            found.add(node.lineno)
        elif isinstance(node, ast.ImportFrom) and node.module == "fcntl" \
                and any(alias.name in ("flock", "lockf", "*") for alias in node.names):
            found.add(node.lineno)
    return sorted(found)


def compact_separators(source):
    """Lines where a module spells compact JSON's separators, (",", ":"), itself."""
    return sorted({node.lineno for node in ast.walk(syntax_tree(source)) if isinstance(node, (ast.Tuple, ast.List))
                   and len(node.elts) == 2 and all(isinstance(e, ast.Constant) for e in node.elts)
                   and tuple(e.value for e in node.elts) == COMPACT_SEPARATORS})


def test_files_are_locked_in_one_place():
    assert_no_breaches(file_locks_taken, [p for p in MODULES if p != LOCK_HOME],
                       "{where} locks a file itself (lines {found}); use core.filelock.lock_exclusive")


def test_compact_json_is_written_in_one_place():
    assert_no_breaches(compact_separators, [p for p in MODULES if p != JSON_TEXT_HOME],
                       "{where} writes compact JSON itself (lines {found}); use core.jsontext.compact_json")


def test_the_lock_and_json_homes_do_it():
    assert file_locks_taken(LOCK_HOME.read_text(encoding="utf-8"))
    assert compact_separators(JSON_TEXT_HOME.read_text(encoding="utf-8"))


@pytest.mark.parametrize("where, planted", [
    ("publish/build_cache.py", "import fcntl\nfcntl.flock(handle, fcntl.LOCK_EX)"),
    ("card/store/transaction.py", "from fcntl import LOCK_EX, flock"),
    ("collect/guard/guard.py", "fcntl.lockf(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)"),
])
def test_a_planted_file_lock_is_caught(tmp_path, where, planted):
    assert where in breaches_in_copy(tmp_path, file_locks_taken, where, planted)


@pytest.mark.parametrize("where, planted", [
    ("publish/sitedata.py", 'text = json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)'),
    ("pages/htmltemplates.py", "COMPACT = [',', ':']"),
])
def test_planted_compact_json_is_caught(tmp_path, where, planted):
    assert where in breaches_in_copy(tmp_path, compact_separators, where, planted)


def test_an_ioctl_and_other_separators_are_no_copy():
    assert not file_locks_taken("size = fcntl.ioctl(fd, BLKGETSIZE64, buffer)")
    assert not compact_separators('text = json.dumps(value, separators=(", ", ": "))\nmark = ":"')
