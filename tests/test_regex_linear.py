"""Every regular expression applied to text from outside (tool output, card files and review pages, the
issue form, names given on the command line) ends in linear time on the input that is worst for it.

The patterns: every compiled pattern of cardbench.parsers, .imports, .card and .core (module-level, in a
container or a class body), every pattern spelled out in a re.* call there, and the patterns made as the
program runs (the functions that make them are run with typical values and what they compile is
recorded). For each long repetition of a pattern, regexaudit.worst_inputs() makes a line of SIZE
characters: the shortest text that reaches the repetition, then one kind of character it repeats (each
kind the pattern tells apart in turn), then a NUL that stops it; the shape that takes a backtracking
pattern with two quantifiers over the same characters quadratic time. A pattern the package only ever
tries at the start of a text (match, fullmatch) is tried so; any other is searched through the whole
line (finditer), as search, sub and findall do.

The time check is an absolute limit of this process's CPU time, LIMIT_S for each line (CPU time, so other
work on the machine does not change it), not a ratio of two timings: here the slowest
of these lines takes under a second (a Markdown heading pattern trying a bounded repetition at every
position), while a quadratic pattern takes minutes (the form's heading pattern `^### (.+?)\\s*$` took 32 s at
120,000 characters, and the time grows with the square of the length). 5 s is several times the first and a
small share of the second, so neither a loaded machine nor a slower one changes the verdict, whereas the
ratio of two timings of a few milliseconds is mostly noise. The regex engine checks for signals, so a
pattern over the limit is stopped at it rather than run to its end.
"""

import re
import signal
import sys

import pytest

import cardbench.card
import cardbench.core
import cardbench.imports
import cardbench.parsers
from carddata import card_data, findings_for
from regexaudit import dynamic_calls, modules_of, patterns_of, worst_inputs

SIZE = 300_000
LIMIT_S = 5.0
MODULES = modules_of(cardbench.parsers, cardbench.imports, cardbench.card, cardbench.core)


def _module_patterns():
    """{(pattern, flags): (compiled, "match" | "search", where)}: each pattern once, searched if any module
    searches it."""
    found = {}
    for module in MODULES:
        for name, (pattern, how) in patterns_of(module).items():
            key = (pattern.pattern, pattern.flags)
            earlier = found.get(key)
            if earlier and earlier[1] == "search":
                how = "search"
            found[key] = (pattern, how, earlier[2] if earlier else name)
    return found


def _reach_patterns_made_as_the_program_runs(tmp_path):
    """Runs each function that makes a pattern as the program runs, with typical values."""
    from cardbench.card import identity
    from cardbench.card.checks import schema_findings, schemacheck
    from cardbench.card.dump import new_card_text
    from cardbench.card.lookalike import name_problem
    from cardbench.card.store.transaction import card_change
    from cardbench.imports.several_tools import several_tools
    from cardbench.imports.submission import _without_paths
    from cardbench.parsers import f3probe, nvme, result_table, sysbench
    from cardbench.parsers.fio import json_output as fio_json

    f3probe.parse_duration("1'02\"")
    _without_paths("in /tmp/cardbench-submission-x/tool-output.txt")
    table = "| Test | Size | KB/s |\n|---|---|---|\n| **Raw** | | |\n| Read (CMD18) | 4 KB | 1,005 KB/s |\n"
    result_table.to_session(result_table.parse(table), layout={
        "rows": "all", "column": "KB/s", "printed": "KB/s", "unit": "kB/s", "tool": "t", "test": "{section}: {Test}",
        "ops": {"read": "read"}, "access": {"CMD18": "sequential"}, "block_column": "Size", "block_binary": True})
    cell = "| Card | Observed |\n|---|---|\n| A | 58.2GB usable<br>45 MB/s write |\n"
    result_table.to_session(result_table.parse(cell), layout={"row": "A", "figures": [
        {"column": "Observed", "part": "write", "printed": "MB/s", "unit": "MB/s", "tool": "t", "test": "w",
         "op": "write"}]})
    sysbench.parse("sysbench --test=fileio --file-test-mode=seqwr --file-block-size=16K run\n"
                   "Operations performed:  0 Read, 6400 Write, 0 Other = 6400 Total\n"
                   "Read 0b  Written 100Mb  Total transferred 100Mb  (10.5Mb/sec)\n")
    text = '{"jobs": [{"jobname": "seq", "read": {"bw": 1}}]}'
    fio_json._field_locator(text, [text.index('"jobname"')], len(text), lambda position: 1)(0, "read", "bw")
    for temperature in ("318 K", "45 °C", "113 F"):
        nvme.temperature_c(temperature)
    several_tools("$ sudo dd if=/dev/sdc of=/dev/null bs=4M count=8\n$ sudo hdparm -t /dev/sdc\n")
    identity.check_slug("acme-x-64gb-microsdxc", "--card")
    identity.make_slug("Acme", "X 64GB", 64, "microSD", "SDXC")
    findings_for(card_data(brand="Ac\u200bme"), tmp_path)  # the schema's `not`, worded
    schema_findings._guard = None
    name_problem("Acme")
    schemacheck.quick_check(schema_findings.schema_validator().schema)
    cards = tmp_path / "data" / "cards"
    cards.mkdir(parents=True)
    (cards / "acme-fast-64gb-microsdxc.yaml").write_text(new_card_text(card_data()), encoding="utf-8")
    with card_change(cards.parent, "acme-fast-64gb-microsdxc") as change:
        change.set_card_field("bus", "UHS-II")  # not committed: nothing written


@pytest.fixture(scope="module")
def made_as_the_program_runs(tmp_path_factory):
    """{(module, function): {pattern}} compiled by the package's own functions while they run."""
    recorded = {}
    original = re._compile

    def recording(pattern, flags):
        compiled = original(pattern, flags)
        caller = sys._getframe(2)  # re.search (or compile, sub, …) called by the package's function
        while caller.f_code.co_name.startswith("<") and caller.f_code.co_name != "<module>":
            caller = caller.f_back  # a comprehension runs as a function of its own
        module = caller.f_globals.get("__name__", "")
        if module.startswith("cardbench."):
            recorded.setdefault((module, caller.f_code.co_name), set()).add(compiled)
        return compiled

    re._compile = recording
    try:
        _reach_patterns_made_as_the_program_runs(tmp_path_factory.mktemp("made"))
    finally:
        re._compile = original
    return recorded


def test_every_pattern_made_as_the_program_runs_is_reached(made_as_the_program_runs):
    sites = set().union(*(dynamic_calls(module) for module in MODULES))
    assert sites, "the package makes some patterns as it runs"
    missing = sorted(sites - set(made_as_the_program_runs))
    assert missing == [], f"add a call reaching these to _reach_patterns_made_as_the_program_runs: {missing}"


def _over_limit(pattern, how, texts, limit):
    """The first text on which trying the pattern (match at the start, or finditer through it) is still
    running after `limit` seconds of CPU time, or None."""
    def stop(signum, frame):
        raise TimeoutError

    previous = signal.signal(signal.SIGPROF, stop)
    try:
        for text in texts:
            signal.setitimer(signal.ITIMER_PROF, limit)
            try:
                if how == "match":
                    pattern.match(text)
                else:
                    for _ in pattern.finditer(text):
                        pass
            except TimeoutError:
                return text
            finally:
                signal.setitimer(signal.ITIMER_PROF, 0)
    finally:
        signal.signal(signal.SIGPROF, previous)
    return None


def test_every_pattern_ends_in_linear_time_on_its_worst_line(made_as_the_program_runs):
    patterns = _module_patterns()
    for (module, function), compiled in made_as_the_program_runs.items():
        for pattern in compiled:
            patterns.setdefault((pattern.pattern, pattern.flags), (pattern, "search", f"{module}.{function}"))
    assert len(patterns) > 200
    slow = []
    for pattern, how, where in patterns.values():
        text = _over_limit(pattern, how, worst_inputs(pattern, SIZE), LIMIT_S)
        if text is not None:
            slow.append(f"{where} ({how}) {pattern.pattern!r}: over {LIMIT_S} s on {text[:40]!r}… "
                        f"({len(text):,} characters)")
    assert slow == [], "\n".join(slow)


# Shapes known to take quadratic (or worse) time: the same inputs find each of them.
QUADRATIC = [(r"^### (.+?)\s*$", 0, "match"), (r"^Probe time:(.+?)\s*$", 0, "match"),
             (r"(\d+(?:\.\d+)?)\s*(GB|TB|G|T)\b", re.I, "search"), (r"(`+)(?:(?!\1).){0,2000}?\1", 0, "search"),
             (r'"[^"\\]*(?:\\.[^"\\]*)*"|[\[\]{}]', re.S, "search"), (r"[ ]{0,3}(?:`{3,}|~{3,}).*\{", 0, "match"),
             (r"bs=\(R\) (\S+)-(\S+), \(W\) (\S+)-([^,\s]+)", 0, "search"), (r"(a+)+b", 0, "match")]


@pytest.mark.parametrize("pattern, flags, how", QUADRATIC, ids=[p for p, _, _ in QUADRATIC])
def test_the_worst_lines_find_the_known_quadratic_shapes(pattern, flags, how):
    """A quadratic pattern takes far longer than half a second on such a line on any machine."""
    compiled = re.compile(pattern, flags)
    assert _over_limit(compiled, how, worst_inputs(compiled, SIZE), 0.5) is not None
