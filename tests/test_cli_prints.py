"""cli.py is the one module that prints and ends the process: every other module returns text or raises a typed
error (errors.py) that the command line words. A module that prints writes into whatever output the caller has
(the collector's progress, a test's captured output), and one that exits takes the decision from its caller.

The check reads each module's syntax tree, so a call is found wherever it is and a word in a docstring is not.
The few processes of their own are named below with the reason."""

import ast


from packagefiles import PACKAGE

HOME = "cli.py"
# Entry points of processes of their own, each with what it may do there.
OWN_PROCESS = {
    "__main__.py": {"sys.exit"},  # `python -m cardbench`: ends with the code cli.main() returns
    # The benchmark's preview server for a copy of the project (bench/preview.py starts it): it reports on stderr
    # as `cardbench serve` does and ends with serve()'s code.
    "bench/serve_project.py": {"print", "sys.exit"},
    # The child process of a tool, between fork and exec: it ends itself when the collector is already gone.
    "collect/toolrun.py": {"os._exit"},
}
STREAMS = {"sys.stdout", "sys.stderr"}
# Library calls that write to a standard stream themselves.
PRINTERS = {"traceback.print_exc", "traceback.print_exception", "traceback.print_stack", "traceback.print_tb",
            "traceback.print_last", "pprint", "pprint.pprint", "print_exc"}


def _dotted(node):
    """'sys.exit' for sys.exit, 'print' for print; None for anything else."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        base = _dotted(node.value)
        return f"{base}.{node.attr}" if base else None
    return None


def prints_and_exits(source):
    """(line, what) of every print, exit and write to the standard streams in a module's source."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Raise) and _dotted(node.exc) == "SystemExit":  # raise SystemExit, no call
            found.append((node.lineno, "SystemExit"))
        if not isinstance(node, ast.Call):
            continue
        name = _dotted(node.func)
        if name in ("print", "exit", "quit", "sys.exit", "os._exit") or name in PRINTERS:
            found.append((node.lineno, name))
        elif name and name.rsplit(".", 1)[0] in STREAMS and name.endswith((".write", ".writelines")):
            found.append((node.lineno, name.rsplit(".", 1)[0]))
        elif name == "SystemExit":
            found.append((node.lineno, "SystemExit"))
    return sorted(found)


MODULES = sorted(p for p in PACKAGE.rglob("*.py") if p.relative_to(PACKAGE).as_posix() != HOME)


def test_only_the_command_line_prints_and_exits():
    found = {}
    for path in MODULES:
        allowed = OWN_PROCESS.get(path.relative_to(PACKAGE).as_posix(), set())
        printed = [(line, what) for line, what in prints_and_exits(path.read_text(encoding="utf-8"))
                   if what not in allowed]
        if printed:
            found[path.relative_to(PACKAGE).as_posix()] = printed
    assert found == {}, "\n".join(f"{where} prints or exits (return the text, or raise a typed error cli.py words): "
                                   f"{printed}" for where, printed in found.items())


def test_each_own_process_named_is_a_module_that_does_so():
    for name, allowed in OWN_PROCESS.items():
        assert {what for _, what in prints_and_exits((PACKAGE / name).read_text(encoding="utf-8"))} == allowed


def test_the_check_finds_a_planted_print_and_exit():
    source = '''"""A module that says print("x") in its docstring only."""
import os
import sys


def report(text):
    print(text)
    sys.stderr.write(text)
    if not text:
        sys.exit(2)
    os._exit(1)
    raise SystemExit(3)


def failed():
    traceback.print_exc()
    raise SystemExit
'''
    assert prints_and_exits(source) == [(7, "print"), (8, "sys.stderr"), (10, "sys.exit"), (11, "os._exit"),
                                        (12, "SystemExit"), (16, "traceback.print_exc"), (17, "SystemExit")]
