"""Property-based fuzzing of every tool-output parser in cardbench.parsers: random text, and the
fixtures with lines dropped, repeated, cut and their numbers replaced, give a dict (or, for helper
parse_* functions, any value) or a ParseError — never another exception. Pathological input
(long runs of digits, spaces or separators inside real lines) ends, for every pattern and parser.

Parsers are discovered when the tests run, so a new parser module is fuzzed without edits here.
"""

import functools
import importlib
import inspect
import json
import multiprocessing
import os
import pkgutil
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import cardbench.parsers
from cardbench.errors import ParseError
from cardbench.imports.transcript import unwrap

from conftest import field_paths

FIXTURES = Path(__file__).resolve().parent / "fixtures"
# The suite runs a fixed set of examples (same every run, so CI is stable); set
# CARDBENCH_FUZZ_EXAMPLES=5000 for a longer hunt with fresh random examples.
_HUNT = os.environ.get("CARDBENCH_FUZZ_EXAMPLES")
SETTINGS = settings(max_examples=int(_HUNT or 100), derandomize=not _HUNT, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])


def _parsers():
    """(module name, function name, function) for each parse / parse_* taking one text argument."""
    found = []
    for info in pkgutil.walk_packages(cardbench.parsers.__path__, "cardbench.parsers."):  # sub-packages too
        module = importlib.import_module(info.name)
        for name, func in inspect.getmembers(module, inspect.isfunction):
            if func.__module__ != module.__name__ or not (name == "parse" or name.startswith("parse_")):
                continue
            required = [p for p in inspect.signature(func).parameters.values()
                        if p.default is inspect.Parameter.empty
                        and p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
            if len(required) == 1:
                found.append((info.name.removeprefix("cardbench.parsers."), name, func))
    return found


PARSERS = _parsers()
IDS = [f"{module}.{name}" for module, name, _ in PARSERS]
# Each module's parse() on mutated fixtures; its helper parse_* functions get random text only.
MAIN = [p for p in PARSERS if p[1] == "parse"]
MAIN_IDS = [f"{module}.{name}" for module, name, _ in MAIN]


@functools.lru_cache(maxsize=None)
def _seeds(module):
    """Fixture outputs for a parser module: tests/fixtures/<module>/ or <first word of module>/, and its
    import corpus folder."""
    texts = []
    folders = dict.fromkeys([FIXTURES / module, FIXTURES / module.split("_")[0], FIXTURES / "import-corpus" / module])
    for folder in folders:
        for path in sorted(folder.glob("*.out")) if folder.is_dir() else []:
            texts.append(path.read_text(encoding="utf-8", errors="replace")[:50_000])
    return tuple(texts) or ("1 2 3\n",)


def _check(module, name, func, text):
    try:
        result = func(text)
    except ParseError as exc:
        assert exc.tool and exc.message, "a ParseError names its tool and says what is wrong"
        assert exc.line is None or (isinstance(exc.line, int) and exc.line >= 1)
        return
    if name == "parse":
        assert isinstance(result, dict), f"{module}.parse returned {type(result).__name__}"


def test_there_are_parsers_to_fuzz():
    assert PARSERS, "no parse functions found in cardbench.parsers"


@pytest.mark.parametrize("module, name, func", PARSERS, ids=IDS)
@SETTINGS
@given(text=st.text(max_size=600))
def test_random_text(module, name, func, text):
    _check(module, name, func, text)


NUMBER_SWAPS = ["", "-1", "0", "nan", "NaN", "inf", "-inf", "1e999", "9" * 40, "1,5", "1.2.3", "0x10", "-0", "١٢",
                "∞", "1e-999", "+", ".", "…", "9" * 400, "9" * 5000]  # int() refuses more than 4300 digits


@st.composite
def mutated_fixture(draw, module):
    lines = draw(st.sampled_from(_seeds(module))).splitlines(True)
    for _ in range(draw(st.integers(0, 6))):
        if not lines:
            break
        i = draw(st.integers(0, len(lines) - 1))
        action = draw(st.sampled_from(["drop", "repeat", "cut", "number", "insert", "join"]))
        if action == "drop":
            del lines[i]
        elif action == "repeat":
            lines.insert(i, lines[i])
        elif action == "cut":
            lines[i] = lines[i][: draw(st.integers(0, len(lines[i])))]
            del lines[i + 1:]
        elif action == "number":
            swap = draw(st.sampled_from(NUMBER_SWAPS))
            lines[i] = re.sub(r"\d+(\.\d+)?", lambda m, swap=swap: swap if draw(st.booleans()) else m.group(0),
                              lines[i])
        elif action == "insert":
            lines.insert(i, draw(st.text(max_size=40)) + "\n")
        elif action == "join" and i + 1 < len(lines):
            lines[i:i + 2] = [lines[i].rstrip("\n") + lines[i + 1]]
    return "".join(lines)


@pytest.mark.parametrize("module, name, func", MAIN, ids=MAIN_IDS)
@SETTINGS
@given(data=st.data())
def test_mutated_fixtures(module, name, func, data):
    _check(module, name, func, data.draw(mutated_fixture(module)))


JSON_VALUES = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False), st.text(max_size=12)),
    lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=8), inner, max_size=3)),
    max_leaves=8)


def _trimmed(value, keep=6):
    """Long mappings (latency bins, percentiles) cut to a few entries: fewer paths, same shapes."""
    if isinstance(value, dict):
        items = list(value.items())
        return {k: _trimmed(v, keep) for k, v in (items[:keep] if len(items) > 40 else items)}
    if isinstance(value, list):
        return [_trimmed(v, keep) for v in value]
    return value


@functools.lru_cache(maxsize=None)
def _json_seed_texts(module):
    docs = []
    for text in _seeds(module):
        start = text.find("{")
        try:
            docs.append(json.dumps(_trimmed(json.loads(text[start:])))) if start >= 0 else None
        except ValueError:
            continue
    return tuple(docs)


def _json_seeds(module):
    return [json.loads(text) for text in _json_seed_texts(module)]


JSON_PARSERS = [p for p in MAIN if _json_seed_texts(p[0])]


@pytest.mark.parametrize("module, name, func", JSON_PARSERS, ids=[f"{m}.{n}" for m, n, _ in JSON_PARSERS])
@SETTINGS
@given(data=st.data())
def test_json_with_values_of_the_wrong_type(module, name, func, data):
    """JSON outputs (fio, nvme -o json) with any value replaced by any other JSON value, or removed."""
    doc = data.draw(st.sampled_from(_json_seeds(module)))
    for _ in range(data.draw(st.integers(1, 4))):
        paths = [p for p in field_paths(doc) if p]
        if not paths:
            break
        path = data.draw(st.sampled_from(paths))
        target = doc
        for part in path[:-1]:
            target = target[part]
        if data.draw(st.booleans()):
            del target[path[-1]]
        else:
            target[path[-1]] = data.draw(JSON_VALUES)
    _check(module, name, func, json.dumps(doc))


TRANSCRIPT_PIECES = ["$ ", "# ", "% ", "user@host:~$ ", "[root@h ~]# ", "(venv) ", "sudo ", "sudo -u root ", "```",
                     "```console", "~~~", "::", ".. code-block:: console", ":linenos:", "    ", "\t", "   ", "\n",
                     "\r\n", "\r", "\u2028", "dd if=/dev/zero of=/dev/sdb", "8+0 records in", "x"]


@SETTINGS
@given(text=st.lists(st.sampled_from(TRANSCRIPT_PIECES) | st.characters(), max_size=80).map("".join))
def test_transcript_front_end_keeps_every_line(text):
    """The front end that unwraps pasted transcripts never fails and keeps line N at line N."""
    # "x" after both: a last line that unwraps to nothing still counts as one
    assert len((unwrap(text) + "x").splitlines()) == len((text + "x").splitlines())


# --- pathological input: every regex and parser ends in linear time ----------------------------
#
# Each input is a fixture line with a run of PUMP copies of one of its characters inserted (the
# rest of the line kept, or dropped) — the shape that makes a backtracking pattern with nested or
# adjacent quantifiers take quadratic or worse time — plus runs of digits, spaces and separators.
# Here every pattern and parser must end on such input without an error other than ParseError (an
# exponential pattern hangs at any length, which HANG_GUARD_S catches); that each one ends in linear time,
# on 300,000-character lines, is tests/test_regex_linear.py's check, so these lines need not be as long.

PUMP = 20_000
HANG_GUARD_S = 120
LOST_JOB_S = 1800  # no job's result for this long: its worker is gone
GENERIC_RUNS = ["1", " ", "1 ", "1.", "1,", "1s,", "1 s, ", "a", "a ", "-", "(", "$((", "\x1b[", ":", " :", "\t",
                "1+", "\\\n", "Q=", "e1"]


def pathological_inputs(module, lines_per_module=16):
    """Pumped lines from the module's fixtures (every place where a run of digits, letters, spaces
    or punctuation starts), and generic runs. The lines are the longest of each kind (first word),
    so that every layout the parser reads is among them."""
    kinds = {}
    for text in _seeds(module):
        for line in text.splitlines():
            line = line.strip()
            if 0 < len(line) < 200 and "\x00" not in line:  # not UTF-16 read as UTF-8
                kind = re.sub(r"[0-9]+", "1", line.split()[0])
                if len(line) > len(kinds.get(kind, "")):
                    kinds[kind] = line
    chosen = sorted(kinds.values(), key=len, reverse=True)[:lines_per_module]
    out = []
    for line in chosen:
        classes = [(c.isdigit(), c.isalpha(), c.isspace()) for c in line]
        for i, char in enumerate(line):
            if i and classes[i] == classes[i - 1]:
                continue
            out.append(line[:i] + char * PUMP + line[i:])
            out.append(line[:i] + char * PUMP)
    for run in GENERIC_RUNS:
        out.append(run * (PUMP // len(run)))
        out.append(run * (PUMP // len(run)) + "\x00")
    return out


def _importer_inputs():
    """Inputs for the glue (format detection, splitting logs at logged commands); the parsers' own
    patterns have their own targets. The last four are logged commands for the shell-word reader."""
    texts = list(dict.fromkeys(pathological_inputs("dd", 2) + pathological_inputs("flashbench", 2)
                               + pathological_inputs("transcript", 1)))
    texts += ["```\n" * PUMP, "x::\n\n" * (PUMP // 2), "".join(" " * (i % 500) + "x::\n" for i in range(PUMP // 50)),
              "user@" + "h" * PUMP, "sudo" + " -u" * (PUMP // 3)]  # documents and prompts
    texts += ["dd if=/dev/zero " + "$((" * PUMP, "$((1" * PUMP, "$[" * PUMP, "a \\\n" * PUMP]  # logged commands
    return texts


def _pathological_target(target):
    """({name: pattern}, {name: function}) of a parser module, or of "importer"."""
    from cardbench.imports import several_tools, transcript
    from cardbench.parsers.dd import session as dd_session
    from cardbench.parsers import flashbench, flashbench_command, nvme, registry
    from cardbench.parsers.text import logged_shell, shell_words

    if target == "importer":
        modules = (transcript, shell_words, logged_shell, several_tools, flashbench_command)
        funcs = [transcript.unwrap, registry.detect_format, dd_session.from_dd, flashbench.parse_file, nvme.parse_file]
    else:
        modules = (importlib.import_module("cardbench.parsers." + target),)
        funcs = [f for m, n, f in MAIN if m == target]
    patterns = {f"{module.__name__}.{name}": value for module in modules for name, value in vars(module).items()
                if isinstance(value, re.Pattern)}
    return patterns, {f"{func.__module__}.{func.__qualname__}": func for func in funcs}


@functools.lru_cache(maxsize=1)  # a target's inputs take up to 150 MB; a worker's jobs come target by target
def _pathological_texts(target):
    return _importer_inputs() if target == "importer" else list(dict.fromkeys(pathological_inputs(target)))


def _pathological_jobs():
    """One job per pattern and per function of each target: every one meets every input of its target."""
    jobs = []
    for target in sorted({m for m, _, _ in MAIN}) + ["importer"]:
        patterns, funcs = _pathological_target(target)
        jobs += [(target, "pattern", name) for name in patterns] + [(target, "function", name) for name in funcs]
    return jobs + [("importer", "shell words", "cardbench.parsers.text.shell_words.shell_words")]


def _shown(text):
    return f"{text[:60]!r}… ({len(text)} characters)"


def _run_pathological_job(job):
    """Runs one job under a hang guard per input; returns None, or what hung or failed on which input."""
    import signal
    import traceback

    target, kind, name = job
    patterns, funcs = _pathological_target(target)
    texts = _pathological_texts(target)
    if kind == "pattern":
        pattern = patterns[name]
        calls = [lambda text: (pattern.search(text), pattern.match(text))]
    elif kind == "function":
        func = funcs[name]
        calls = [func]
    else:
        from cardbench.parsers.text.shell_words import shell_words

        calls, texts = [shell_words], texts[-4:]

    def hung(signum, frame):
        raise TimeoutError

    signal.signal(signal.SIGALRM, hung)
    for text in texts:
        for call in calls:
            signal.setitimer(signal.ITIMER_REAL, HANG_GUARD_S)
            try:
                call(text)
            except ParseError:
                pass
            except TimeoutError:
                return f"{kind} {name} still running after {HANG_GUARD_S} s on {_shown(text)}: it hangs"
            except Exception:
                return f"{kind} {name} failed on {_shown(text)}:\n{traceback.format_exc(limit=-4)}"
            finally:
                signal.setitimer(signal.ITIMER_REAL, 0)
    return None


def test_pathological_input_ends():
    """Every module-level regex and each parse() of every parser module (and format detection and the
    log splitting of each format) on pumped lines: ends, with a dict or a ParseError. The jobs run in
    worker processes, one per core: each is CPU-bound, and a hang stops only its own worker's call."""
    jobs = _pathological_jobs()
    assert {target for target, kind, _ in jobs if kind == "function"} == {m for m, _, _ in MAIN} | {"importer"}
    with multiprocessing.get_context("fork").Pool(os.cpu_count() or 1) as pool:
        results = pool.imap_unordered(_run_pathological_job, jobs)
        # A worker that died (killed, out of memory) loses its job: waiting is bounded, not endless.
        problems = sorted(problem for problem in (results.next(timeout=LOST_JOB_S) for _ in jobs) if problem)
    assert not problems, "\n".join(problems)
