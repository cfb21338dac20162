"""The shell around logged commands, read without running anything.

Shell(programs).read(line) -> the commands a logged line ran ([Command(program, args)], [] for a
    line that only sets variables), or None for a line of output. Variables assigned earlier in
    the log (NAME=value, export, readonly, declare, let) are expanded ($NAME, ${NAME}, and inside
    $((..)) and $[..]) when the value is one plain word (blanks, quotes or ; & | < > ( ) ` $ \\ in
    it leave the reference as written); "a; b && c | d" gives each command; a script's `set -x` trace ("+ cmd")
    counts as a command line, and so does a line without a prompt that starts with one of
    `programs`; sudo, time, nice, stdbuf and the like are taken off; a for loop over words,
    {1..8} or $(seq ..) gives its body once per value, in order (a loop inside it too). Nothing is run or evaluated:
    arithmetic (shell_words.py) reads integers and operators only.
command_lines(text) -> [(first line number, logical line)]: logical_lines() with a for loop typed
    over several lines ("for n in 2 3; do" / "> …" / "> done") joined into one.
"""

import os
import re
from dataclasses import dataclass

from .log_lines import PROMPT, logical_lines
from .shell_words import (ASSIGNMENT, MAX_ARITHMETIC, MAX_COMMAND, NAME, REFERENCE, arithmetic, split_commands,
                          unwrapped, without_redirections, split_words)

MAX_VARIABLES = 256  # names a log may set; more are not kept
MAX_VALUE = 1024  # characters of a value kept; a variable with a longer one stays unexpanded
MAX_EXPANDED = MAX_COMMAND  # characters variables may add to one command line
MAX_LOOP_COMMANDS = 256  # commands one logged for loop may give
MAX_LOG_LOOP_COMMANDS = 4096  # and all the loops of one log: past that, a loop's body is not run
MAX_LOOP_LINES = 20  # lines of a for loop typed over several lines

_ARITHMETIC = re.compile(r"\$\(\(([^$]*?)\)\)|\$\[([^$\[\]]*+)\]")
_ARITHMETIC_NAME = re.compile(rf"(?<![0-9A-Za-z_]){NAME}")
_FOR = re.compile(rf"for[ \t]++({NAME})[ \t]++in(?:[ \t]++(.*+))?+", re.S)  # fullmatch on one command
_SEQ = re.compile(r"\$\(seq((?:[ \t]++-?\d{1,9}+){1,3}+)[ \t]*+\)|`seq((?:[ \t]++-?\d{1,9}+){1,3}+)[ \t]*+`")
_RANGE = re.compile(r"\{(-?\d{1,9}+)\.\.(-?\d{1,9}+)(?:\.\.(-?\d{1,9}+))?+\}")  # fullmatch on one word
# A line without a prompt that is still shell: an assignment, a declaration, a for loop, `let`.
_BARE_SHELL = re.compile(rf"(?:(?:export|readonly|declare|typeset|local)[ \t]++(?:-[A-Za-z]{{1,8}}+[ \t]++)*+)?+"
                         rf"{NAME}=|for[ \t]++{NAME}[ \t]++in(?:[ \t]|$)|let[ \t]++{NAME}=")
_TRACED = re.compile(r"\+{1,8}+[ \t]++(?=\S)")  # `set -x`: "+ flashbench …", "++ seq 1 3"
_NOT_PLAIN = re.compile(r"""[\s;&|<>()`$'"\\]""")  # a value holding these is not expanded
_DECLARATIONS = {"export", "readonly", "declare", "typeset", "local"}


@dataclass(frozen=True)
class Command:
    """One command a logged line ran: the program as typed (./flashbench, /usr/sbin/nvme) and its arguments."""
    program: str
    args: tuple

    @property
    def name(self):
        return os.path.basename(self.program)


class Shell:
    """The variables a logged session has set so far, for reading its command lines in order.

    programs: names of programs whose lines count as commands without a prompt ("./flashbench -a …")."""

    def __init__(self, programs=()):
        self.variables = {}
        self.programs = frozenset(programs)
        self.loop_budget = MAX_LOG_LOOP_COMMANDS

    def read(self, line):
        """The commands a logged line ran, in order ([] when it only sets variables); None when the
        line is not a command line."""
        body = self._command_text(line)
        if body is None:
            return None
        return self._run(split_commands(body))

    def _run(self, parts, loop=None):
        """The commands of a line's parts, a for loop's body (a loop inside it too) once per value."""
        commands, i = [], 0
        while i < len(parts):
            opened = _FOR.fullmatch(parts[i].strip())
            if not opened:
                commands += self._simple(parts[i], loop)
                i += 1
                continue
            end, depth = None, 1
            for j in range(i + 1, len(parts)):
                part = re.sub(r"^do(?:[ \t]++|$)", "", parts[j].strip())
                depth += 1 if _FOR.fullmatch(part) else -1 if part == "done" else 0
                if depth == 0:
                    end = j
                    break
            if end is None:
                break  # a loop cut off: what it ran is not known
            commands += self._loop(opened.group(1), opened.group(2) or "", parts[i + 1:end], loop)
            i = end + 1
        return commands

    def _command_text(self, line):
        if len(line) > MAX_COMMAND:
            return None
        stripped = line.strip()
        if stripped.startswith(PROMPT) or stripped == PROMPT.strip():
            return stripped[1:].strip()
        if stripped.startswith("+"):
            traced = _TRACED.match(stripped)  # a script run with `set -x` shows each command so
            if traced:
                return stripped[traced.end():]
        if _BARE_SHELL.match(stripped):
            return stripped
        if self.programs and stripped:
            words = stripped.split(None, 12)[:12]
            program = unwrapped(words)
            if program and os.path.basename(program[0]) in self.programs:
                return stripped
        return None

    def _loop(self, name, listed, body, outer=None):
        body = [part.strip() for part in body]
        if body and re.match(r"do(?:[ \t]|$)", body[0]):
            body[0] = body[0][2:].strip()
        body = [part for part in body if part]
        commands = []
        values = self._loop_values(listed, outer)
        most = min(MAX_LOOP_COMMANDS, self.loop_budget)
        for value in values:
            if len(commands) >= most or self.loop_budget <= 0:
                break
            commands += self._run(body, {**(outer or {}), name: value})
        if values:
            self._set(name, values[-1])  # the shell keeps the last value
        self.loop_budget -= min(len(commands), most)
        return commands[:most]

    def _loop_values(self, listed, outer=None):
        def seq(match):
            numbers = [int(n) for n in (match.group(1) or match.group(2)).split()]
            first, step, last = (numbers[0], 1, numbers[1]) if len(numbers) == 2 else (
                (1, 1, numbers[0]) if len(numbers) == 1 else numbers)
            return " ".join(str(n) for n in _counted(first, step, last))
        values = []
        for word in split_words(_SEQ.sub(seq, self.expand(listed, outer))):
            counted = _RANGE.fullmatch(word)
            if counted:
                first, last = int(counted.group(1)), int(counted.group(2))
                step = abs(int(counted.group(3) or 1)) or 1
                values += [str(n) for n in _counted(first, step if last >= first else -step, last)]
            else:
                values.append(word)
            if len(values) > MAX_LOOP_COMMANDS:
                break
        return values[:MAX_LOOP_COMMANDS]

    def _simple(self, part, loop=None):
        words = without_redirections(split_words(self.expand(part, loop)))
        leading = []
        while words and ASSIGNMENT.fullmatch(words[0]):
            leading.append(ASSIGNMENT.fullmatch(words[0]).groups())
            words = words[1:]
        if not words:  # NAME=value alone sets it for the rest of the session
            for name, value in leading:
                self._set(name, value)
            return []
        if words[0] in _DECLARATIONS or words[0] == "let":
            for word in words[1:]:
                assignment = ASSIGNMENT.fullmatch(word)
                if assignment and words[0] == "let":
                    value = self._arithmetic(assignment.group(2), self.variables)
                    if value is not None:
                        self._set(assignment.group(1), str(value))
                elif assignment:
                    self._set(*assignment.groups())
            return []
        if words[0] == "unset":
            for word in words[1:]:
                self.variables.pop(word, None)
            return []
        words = unwrapped(words)
        return [Command(words[0], tuple(words[1:]))] if words else []

    def _set(self, name, value):
        if len(value) > MAX_VALUE or (name not in self.variables and len(self.variables) >= MAX_VARIABLES):
            self.variables.pop(name, None)
            return
        self.variables[name] = value

    def expand(self, text, loop=None):
        """text with the variables set so far ($NAME, ${NAME}) and $((..)) / $[..] arithmetic worked
        out; what is not known is left as written."""
        if "$" not in text:
            return text
        variables = {**self.variables, **loop} if loop else self.variables
        budget = [MAX_EXPANDED]

        def reference(match):
            value = variables.get(match.group(1) or match.group(2))
            # A value with blanks or shell syntax would be read again as words and commands the
            # shell never made of it (X='/dev/null; rm …'): such a reference stays as written.
            if value is None or len(value) > budget[0] or _NOT_PLAIN.search(value):
                return match.group(0)
            budget[0] -= len(value)
            return value

        def arithmetic_of(match):
            value = self._arithmetic(match.group(1) if match.group(1) is not None else match.group(2), variables)
            return match.group(0) if value is None else str(value)

        return _ARITHMETIC.sub(arithmetic_of, REFERENCE.sub(reference, text))

    @staticmethod
    def _arithmetic(expr, variables):
        """Shell arithmetic whose bare names (ERASE / 2) are variables holding integers."""
        if len(expr) > MAX_ARITHMETIC:
            return None
        unknown = []

        def name(match):
            value = variables.get(match.group(0), "")
            if not re.fullmatch(r"-?\d{1,18}", value):
                unknown.append(match.group(0))
                return match.group(0)
            return f"({value})"
        worked = _ARITHMETIC_NAME.sub(name, expr)
        return None if unknown else arithmetic(worked)

def _counted(first, step, last):
    """first, first + step, … up to last (seq and {a..b}), at most MAX_LOOP_COMMANDS + 1 numbers."""
    if step == 0 or (last - first) * step < 0:
        return []
    count = min((last - first) // step + 1, MAX_LOOP_COMMANDS + 1)
    return [first + step * i for i in range(count)]

def command_lines(text):
    """(first line number, line): logical_lines() with a for loop typed over several lines
    ("$ for n in 2 3; do", "> flashbench …", "> done") joined into one line."""
    lines = logical_lines(text)
    out, i = [], 0
    while i < len(lines):
        number, line = lines[i]
        stripped = line.strip()
        body = stripped[1:].strip() if stripped.startswith(PROMPT) else stripped
        opened = (len(line) <= MAX_COMMAND and body.startswith("for")
                  and _FOR.fullmatch(split_commands(body)[0].strip())
                  and not any(part.strip() == "done" for part in split_commands(body)))
        if opened:
            pieces, end = [body], None
            for j in range(i + 1, min(len(lines), i + 1 + MAX_LOOP_LINES)):
                piece = re.sub(r"^(?:>|\$)(?:[ \t]|$)", "", lines[j][1].strip()).strip()
                pieces.append(piece)
                if any(part.strip() == "done" for part in split_commands(piece)):
                    end = j
                    break
            joined = "; ".join(piece for piece in pieces if piece)
            if end is not None and len(joined) <= MAX_COMMAND:
                out.append((number, (PROMPT if stripped.startswith(PROMPT) else "") + joined))
                i = end + 1
                continue
        out.append((number, line))
        i += 1
    return out
