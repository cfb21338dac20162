"""Shell transcripts: commands and their output as a terminal showed them, pasted into one file.

unwrap(text) -> the text every format's parser reads, line for line (line N stays line N, so an
    error names the line of the file): a Markdown or reStructuredText document is cut down to its
    code blocks (``` and ~~~ fences, "::" literal blocks, ".. code-block::"), the common
    indentation of a block (list items, literal blocks, a quoted log) is taken off, and a command
    line is written one way, "$ <command>": prompts ("$ ", "# ", "% ", "user@host:~$ ",
    "[root@h ~]# ", "pi@raspberrypi:~ $ ", "(venv) user@host ~ % ") and "sudo" with its options
    taken off. Plain tool output comes back unchanged.
logical_lines(text) -> [(first line number, line)]: backslash-continued lines joined.
segments(text, command_of) -> [(command words or None, first line number, output text)]: the log
    split at the lines command_of() takes for a command of one tool.
command_words(line, program) -> argv of a logged command line mentioning `program` (prompt taken
    off, $((..)) and $[..] arithmetic worked out), or None.
shell_words(command) -> argv; arithmetic(expr) -> the integer value of + - * / % << >> ** ( )
    arithmetic (names of variables worked out by the caller).
renumbered(exc, first_line) -> a segment's ParseError with its line counted in the whole file.

The shell around logged commands, read without running anything:
Shell(programs).read(line) -> the commands a logged line ran ([Command(program, args)], [] for a
    line that only sets variables), or None for a line of output. Variables assigned earlier in
    the log (NAME=value, export, readonly, declare, let) are expanded ($NAME, ${NAME}, and inside
    $((..)) and $[..]); "a; b && c | d" gives each command; a script's `set -x` trace ("+ cmd")
    counts as a command line, and so does a line without a prompt that starts with one of
    `programs`; sudo, time, nice, stdbuf and the like are taken off; a for loop over words,
    {1..8} or $(seq ..) gives its body once per value, in order. Nothing is run or evaluated:
    arithmetic() reads integers and operators only.
command_lines(text) -> [(first line number, logical line)]: logical_lines() with a for loop typed
    over several lines ("for n in 2 3; do" / "> …" / "> done") joined into one.
tool_parts(text, tools, claim) -> {tool: text}: a log holding commands of several tools cut into
    one text per tool, line for line (other lines blank), for each tool's own import.
several_tools(text) -> SessionFields of a log of dd, flashbench, f3probe and nvme-cli commands
    together (each tool's part read by its own import, the results merged), or None for a log of
    one tool: the flashbench, f3probe and nvme imports start with it.
"""

import ast
import os
import re
import shlex
from dataclasses import dataclass

from ..errors import ParseError
from .result import SessionFields

MAX_COMMAND = 4096  # a longer line is not taken for a logged command
MAX_ARITHMETIC = 200  # a logged block size or count; longer input is not worth parsing
PROMPT = "$ "  # how unwrap() writes every command line

# Bounded and possessive quantifiers throughout: a pasted file may hold lines of 10^5 characters.
_FENCE = re.compile(r"^[ \t]{0,12}+(`{3,}+|~{3,}+)[^`\r\n]{0,200}+$")
_LITERAL_MARK = re.compile(r"::[ \t]*+$|^[ \t]*+\.\.[ \t]++(?:code-block|code|sourcecode)::")
_DIRECTIVE_OPTION = re.compile(r"^[ \t]*+:[\w-]{1,40}+:")
_INDENT = re.compile(r"^[ \t]*+")
_PROMPT = re.compile(
    r"^(?:\([^()\s]{1,64}+\)[ ]++)?+"  # a virtualenv or conda name: "(venv) "
    r"(?:\[[^\[\]\r\n]{1,120}+\][ ]?+[$#%]"  # [root@h ~]#, [user@host dir]$
    r"|[\w.-]{1,64}+@[\w.-]{1,64}+(?::[^\s$#%]{0,200}+)?+(?:[ ]++[^\s$#%]{1,200}+)?+[ ]?+[$#%]"  # user@host:~$, user@host ~ %
    r"|[\w.-]{1,64}+:[^\s$#%]{0,200}+[ ]++[\w.-]{1,64}+[$#]"  # macOS bash: host:~ user$
    r"|[$#%]"
    r")(?:[ \t]++|$)")
_SUDO = re.compile(r"^sudo(?:[ \t]++(?:-[ugCDhprtU][ \t]++[^\s-]\S{0,100}+|-\S{1,100}+))*+[ \t]++(?=\S)")

MAX_SHIFT = 64  # 1 << 20, 2 ** 22: sizes; larger exponents are no size and would not end


def _power(a, b):
    if not 0 <= b <= MAX_SHIFT or abs(a) > 2**32:
        raise ValueError("exponent out of range")
    return a**b


def _shift(a, b, left):
    if not 0 <= b <= MAX_SHIFT:
        raise ValueError("shift out of range")
    return a << b if left else a >> b


def _divide(a, b):
    quotient = abs(a) // abs(b)  # the shell's division truncates toward zero
    return quotient if (a < 0) == (b < 0) else -quotient


def _remainder(a, b):
    return a - b * _divide(a, b)


_OPERATORS = {ast.Add: lambda a, b: a + b, ast.Sub: lambda a, b: a - b, ast.Mult: lambda a, b: a * b,
              ast.FloorDiv: _divide, ast.Div: _divide, ast.Mod: _remainder, ast.Pow: _power,
              ast.LShift: lambda a, b: _shift(a, b, True), ast.RShift: lambda a, b: _shift(a, b, False)}
_UNARY = {ast.USub: lambda a: -a, ast.UAdd: lambda a: a}


# --- the front end: what people paste -> what the parsers read --------------------------------

def unwrap(text):
    """The tool output and commands in a pasted transcript or document, line for line."""
    pieces = text.splitlines(keepends=True)
    lines = [piece.rstrip("\r\n\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029") for piece in pieces]
    ends = [piece[len(line):] for piece, line in zip(pieces, lines)]
    blocks = _code_blocks(lines)
    if blocks is None:
        blocks = [range(len(lines))]  # not a document: all of it is the log
        kept = lines[:]
    else:
        kept = [""] * len(lines)
    for block in blocks:
        indent = _common_indent(lines[i] for i in block)
        for i in block:
            kept[i] = _command_line(lines[i][len(indent):] if lines[i].strip() else lines[i])
    if kept == lines:
        return text
    return "".join(line + end for line, end in zip(kept, ends))


def _code_blocks(lines):
    """Line index ranges of the code blocks of a Markdown or reStructuredText document; None when
    the text has none (a plain log)."""
    blocks, i = [], 0
    while i < len(lines):
        fence = _FENCE.match(lines[i]) if "``" in lines[i] or "~~" in lines[i] else None
        if fence:
            marker = fence.group(1)
            end = i + 1
            while end < len(lines) and not _closes(lines[end], marker):
                end += 1
            blocks.append(range(i + 1, end))
            i = end + 1
            continue
        if lines[i].strip() and _LITERAL_MARK.search(lines[i]):
            block = _literal_block(lines, i)
            if block:
                blocks.append(block)
                i = block.stop
                continue
        i += 1
    return blocks or None


def _closes(line, marker):
    stripped = line.strip()
    return (stripped.startswith(marker) and set(stripped) == {marker[0]}
            and len(line) - len(line.lstrip(" \t")) <= 12)


def _literal_block(lines, mark):
    """The reStructuredText literal block after line `mark` ("Results::", ".. code-block:: console"):
    the lines indented deeper than it, up to the first that is not; None when there are none."""
    depth = len(_INDENT.match(lines[mark]).group())
    start = mark + 1
    if not lines[mark].rstrip().endswith("::"):  # a directive: its options come first
        while start < len(lines) and _DIRECTIVE_OPTION.match(lines[start]):
            start += 1
    if start >= len(lines) or lines[start].strip():
        return None  # reStructuredText wants a blank line before the block
    while start < len(lines) and not lines[start].strip():
        start += 1
    end = start
    while end < len(lines) and (not lines[end].strip() or len(_INDENT.match(lines[end]).group()) > depth):
        end += 1
    while end > start and not lines[end - 1].strip():
        end -= 1
    return range(start, end) if end > start else None


def _common_indent(lines):
    """The leading spaces and tabs every non-blank line starts with."""
    common = None
    for line in lines:
        if not line.strip():
            continue
        indent = _INDENT.match(line).group()
        if common is None or not indent.startswith(common):
            common = indent if common is None else _shared_prefix(common, indent)
        if not common:
            return ""
    return common or ""


def _shared_prefix(a, b):
    size = 0
    while size < min(len(a), len(b)) and a[size] == b[size]:
        size += 1
    return a[:size]


def _command_line(line):
    """A command line written as "$ <command>" (prompt and sudo taken off); any other line as it is."""
    body = line.lstrip(" \t")
    prompt = _PROMPT.match(body) if body[:1] in "$#%([" or "@" in body[:130] or ":" in body[:130] else None
    if prompt:
        body = body[prompt.end():]
    sudo = _SUDO.match(body) if body.startswith("sudo") else None
    if sudo:
        body = body[sudo.end():]
    if not prompt and not sudo:
        return line
    return PROMPT + body


# --- logged commands ---------------------------------------------------------------------------

def arithmetic(expr):
    """Integer value of shell arithmetic made of numbers and + - * / % << >> ** ( ); None otherwise.
    Nothing is evaluated but these operators on integers (Python's own parser reads the expression)."""
    def value(node):
        if isinstance(node, ast.Constant) and type(node.value) is int:
            return node.value
        if isinstance(node, ast.BinOp) and type(node.op) in _OPERATORS:
            result = _OPERATORS[type(node.op)](value(node.left), value(node.right))
            if abs(result) >= 10**18:  # no size is that large; keeps every step small
                raise ValueError("out of range")
            return result
        if isinstance(node, ast.UnaryOp) and type(node.op) in _UNARY:
            return _UNARY[type(node.op)](value(node.operand))
        raise ValueError("not plain arithmetic")

    if len(expr) > MAX_ARITHMETIC:
        return None
    text = expr.strip()
    if "_" in text:
        return None  # Python reads 1_000 as a number, the shell does not
    try:
        result = value(ast.parse(text, mode="eval").body)
    except (SyntaxError, ValueError, ZeroDivisionError, MemoryError, RecursionError):
        return None
    return result if abs(result) < 10**18 else None  # str() refuses more than 4300 digits


def shell_words(command):
    """argv of a logged command, with $(( a * b )) and $[ a * b ] arithmetic worked out."""
    def arith(match):
        value = arithmetic(match.group(1) if match.group(1) is not None else match.group(2))
        return match.group(0) if value is None else str(value)
    # [^$]: a search from each "$((" or "$[" stops at the next one, so a line of many is not quadratic
    command = re.sub(r"\$\(\(([^$]*?)\)\)|\$\[([^$\[\]]*+)\]", arith, command)
    if not any(c in command for c in "'\"\\"):
        # What shlex.split gives without quotes or escapes, fifty times faster: a log can hold 10^5 lines.
        return [word for word in re.split(r"[ \t\r\n]+", command) if word]
    try:
        return shlex.split(command, comments=False)
    except ValueError:
        return command.split()


def command_words(line, program):
    """The words of a logged command line that mentions `program`, its prompt ('$ ', '# ') taken
    off; None when `program` is not in the line or the line is too long to be a command."""
    if program not in line or len(line) > MAX_COMMAND:
        return None
    return shell_words(line.lstrip("$# ").strip())


def logical_lines(text):
    """(line number, text) with backslash-continued lines joined."""
    out = []
    parts, start = [], None  # pieces so far; looking only at the newest keeps many continued lines linear
    for number, line in enumerate(text.splitlines(), start=1):
        if len(parts) > 1 or (parts and parts[0]):
            piece = line.strip()
        else:
            parts, start, piece = [], number, line
        if piece.rstrip().endswith("\\"):
            parts.append(piece.rstrip()[:-1])
            continue
        parts.append(piece)
        out.append((start, " ".join(parts)))
        parts = []
    if len(parts) > 1 or (parts and parts[0]):
        out.append((start, " ".join(parts)))
    return out


def segments(text, command_of):
    """Split a log at command lines: [(command words or None, first line, segment text)].

    command_of(logical line) gives the words of a command of the tool, or None for any other line;
    text before the first command is a segment of its own (command None)."""
    found = []
    command, start, lines = None, 1, []
    for number, logical in logical_lines(text):
        words = command_of(logical)
        if words is not None:
            if lines and any(line.strip() for line in lines):
                found.append((command, start, "\n".join(lines)))
            command, start, lines = words, number, []
            continue
        if not lines:
            start = number
        lines.append(logical)
    if lines and any(line.strip() for line in lines):
        found.append((command, start, "\n".join(lines)))
    return found or [(None, 1, "\n".join(text.splitlines()))]


def renumbered(exc, first_line):
    """The ParseError of a segment starting at first_line, its line counted in the whole file."""
    if isinstance(exc, ParseError) and exc.line is not None:
        return ParseError(exc.tool, exc.message, line=exc.line + first_line - 1, text=exc.text)
    return exc


# --- the shell around logged commands: variables, loops, several commands a line ---------------

MAX_VARIABLES = 256  # names a log may set; more are not kept
MAX_VALUE = 1024  # characters of a value kept; a variable with a longer one stays unexpanded
MAX_EXPANDED = MAX_COMMAND  # characters variables may add to one command line
MAX_LOOP_COMMANDS = 256  # commands one logged for loop may give
MAX_LOG_LOOP_COMMANDS = 4096  # and all the loops of one log: past that, a loop's body is not run
MAX_LOOP_LINES = 20  # lines of a for loop typed over several lines

_NAME = r"[A-Za-z_][A-Za-z0-9_]{0,63}+"
_ASSIGNMENT = re.compile(rf"({_NAME})=(.*+)", re.S)  # fullmatch on one word
_REFERENCE = re.compile(rf"\$(?:\{{({_NAME})\}}|({_NAME}))")
_ARITHMETIC = re.compile(r"\$\(\(([^$]*?)\)\)|\$\[([^$\[\]]*+)\]")
_ARITHMETIC_NAME = re.compile(rf"(?<![0-9A-Za-z_]){_NAME}")
_FOR = re.compile(rf"for[ \t]++({_NAME})[ \t]++in(?:[ \t]++(.*+))?+", re.S)  # fullmatch on one command
_SEQ = re.compile(r"\$\(seq((?:[ \t]++-?\d{1,9}+){1,3}+)[ \t]*+\)|`seq((?:[ \t]++-?\d{1,9}+){1,3}+)[ \t]*+`")
_RANGE = re.compile(r"\{(-?\d{1,9}+)\.\.(-?\d{1,9}+)(?:\.\.(-?\d{1,9}+))?+\}")  # fullmatch on one word
# A line without a prompt that is still shell: an assignment, a declaration, a for loop, `let`.
_BARE_SHELL = re.compile(rf"(?:(?:export|readonly|declare|typeset|local)[ \t]++(?:-[A-Za-z]{{1,8}}+[ \t]++)*+)?+"
                         rf"{_NAME}=|for[ \t]++{_NAME}[ \t]++in(?:[ \t]|$)|let[ \t]++{_NAME}=")
_TRACED = re.compile(r"\+{1,8}+[ \t]++(?=\S)")  # `set -x`: "+ flashbench …", "++ seq 1 3"
# Runs of ordinary characters are taken whole, so a line is scanned in a few steps.
_COMMAND_TOKEN = re.compile(r"""[^'"\\;&|#]++|'[^']*+'|"(?:[^"\\]|\\.)*+"|\\.|&&|\|\||\|&|[;&|#'"\\]""", re.S)
_WORD = re.compile(r"""(?:[^\s'"\\]++|'[^']*+'|"(?:[^"\\]|\\.)*+"|\\.)++""", re.S)
_WORD_PIECE = re.compile(r"""[^'"\\]++|'([^']*+)'|"((?:[^"\\]|\\.)*+)"|\\(.)""", re.S)
_REDIRECTION = re.compile(r"\d{0,2}+(?:>>?+|<|&>>?+|>&)(.*+)", re.S)  # fullmatch on one word
_DECLARATIONS = {"export", "readonly", "declare", "typeset", "local"}
# Programs that run the next word as the command, with their options that take a value.
_WRAPPERS = {"sudo": {"-u", "-g", "-C", "-D", "-h", "-p", "-r", "-t", "-U"}, "doas": {"-u", "-C"},
             "time": {"-f", "-o"}, "nice": {"-n"}, "ionice": {"-c", "-n", "-p"}, "stdbuf": {"-i", "-o", "-e"},
             "taskset": {"-c", "-p"}, "chrt": {"-p"}, "env": {"-u", "-C", "-S"}, "nohup": set(), "command": set(),
             "exec": set(), "unbuffer": set(), "script": {"-c"}}
_WRAPPER_VALUE = re.compile(r"-?\d++|0[xX][0-9a-fA-F]++|[0-9,-]{1,64}+")  # nice -10, taskset 0x3, chrt 99


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
        commands, parts, i = [], split_commands(body), 0
        while i < len(parts):
            loop = _FOR.fullmatch(parts[i].strip())
            if not loop:
                commands += self._simple(parts[i])
                i += 1
                continue
            end = next((j for j in range(i + 1, len(parts)) if parts[j].strip() == "done"), None)
            if end is None:
                break  # a loop cut off: what it ran is not known
            commands += self._loop(loop.group(1), loop.group(2) or "", parts[i + 1:end])
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
            program = _unwrapped(words)
            if program and os.path.basename(program[0]) in self.programs:
                return stripped
        return None

    def _loop(self, name, listed, body):
        body = [part.strip() for part in body]
        if body and re.match(r"do(?:[ \t]|$)", body[0]):
            body[0] = body[0][2:].strip()
        body = [part for part in body if part]
        commands = []
        values = self._loop_values(listed)
        most = min(MAX_LOOP_COMMANDS, self.loop_budget)
        for value in values:
            if len(commands) >= most:
                break
            for part in body:
                commands += self._simple(part, {name: value})
        if values:
            self._set(name, values[-1])  # the shell keeps the last value
        self.loop_budget -= min(len(commands), most)
        return commands[:most]

    def _loop_values(self, listed):
        def seq(match):
            numbers = [int(n) for n in (match.group(1) or match.group(2)).split()]
            first, step, last = (numbers[0], 1, numbers[1]) if len(numbers) == 2 else (
                (1, 1, numbers[0]) if len(numbers) == 1 else numbers)
            return " ".join(str(n) for n in _counted(first, step, last))
        values = []
        for word in _words(_SEQ.sub(seq, self.expand(listed))):
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
        words = _without_redirections(_words(self.expand(part, loop)))
        leading = []
        while words and _ASSIGNMENT.fullmatch(words[0]):
            leading.append(_ASSIGNMENT.fullmatch(words[0]).groups())
            words = words[1:]
        if not words:  # NAME=value alone sets it for the rest of the session
            for name, value in leading:
                self._set(name, value)
            return []
        if words[0] in _DECLARATIONS or words[0] == "let":
            for word in words[1:]:
                assignment = _ASSIGNMENT.fullmatch(word)
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
        words = _unwrapped(words)
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
            if value is None or len(value) > budget[0]:
                return match.group(0)
            budget[0] -= len(value)
            return value

        def arithmetic_of(match):
            value = self._arithmetic(match.group(1) if match.group(1) is not None else match.group(2), variables)
            return match.group(0) if value is None else str(value)

        return _ARITHMETIC.sub(arithmetic_of, _REFERENCE.sub(reference, text))

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


def split_commands(text):
    """The commands of one shell line: split at ; && || | & outside quotes (not in 2>&1 or &>), a
    trailing # comment left out."""
    if not any(c in text for c in ";&|#'\"\\"):
        return [text]
    parts, current = [], ""
    for match in _COMMAND_TOKEN.finditer(text):
        token = match.group(0)
        if token == "#" and (not current or current[-1] in " \t"):
            break  # a comment
        redirection = current[-1:] in ("<", ">") or text[match.end():match.end() + 1] == ">"
        if token in (";", "&&", "||", "|", "|&", "&") and not (token in ("&", "|") and redirection):
            parts.append(current)
            current = ""
        else:
            current += token
    parts.append(current)
    return [part for part in parts if part.strip()]


def _words(text):
    """argv of one command as the shell splits and unquotes it ('a b', "a b", a\\ b); a line with an
    unclosed quote split at blanks. Regular expressions do the scanning: a log may hold 10^5 lines."""
    words, end = [], 0
    for match in _WORD.finditer(text):
        if text[end:match.start()].strip():
            return text.split()  # an unclosed quote or a lone backslash
        words.append("".join(_unquoted(piece) for piece in _WORD_PIECE.finditer(match.group(0))))
        end = match.end()
    return words if not text[end:].strip() else text.split()


def _unquoted(piece):
    single, double, escaped = piece.group(1), piece.group(2), piece.group(3)
    if single is not None:
        return single
    if double is not None:  # inside "…" a backslash escapes only \ " $ ` and a line break
        return re.sub(r'\\([\\"$`\n])', r"\1", double)
    if escaped is not None:
        return escaped
    return piece.group(0)


def _without_redirections(words):
    """argv without "> file", "2>&1", "<in" and the like."""
    out, skip = [], False
    for word in words:
        if skip:
            skip = False
            continue
        redirection = _REDIRECTION.fullmatch(word)
        if redirection:
            skip = not redirection.group(1)  # "> file": the file is the next word
            continue
        out.append(word)
    return out


def _unwrapped(words):
    """The words from the program on: sudo, time, nice, stdbuf … with their options taken off."""
    i = 0
    while i < len(words) and os.path.basename(words[i]) in _WRAPPERS:
        valued = _WRAPPERS[os.path.basename(words[i])]
        i += 1
        while i < len(words) and (words[i].startswith("-") or _WRAPPER_VALUE.fullmatch(words[i])
                                  or _ASSIGNMENT.fullmatch(words[i])):
            i += 2 if words[i] in valued else 1
    return words[i:]


def command_lines(text):
    """(first line number, line): logical_lines() with a for loop typed over several lines
    ("$ for n in 2 3; do", "> flashbench …", "> done") joined into one line."""
    lines = logical_lines(text)
    out, i = [], 0
    while i < len(lines):
        number, line = lines[i]
        stripped = line.strip()
        body = stripped[1:].strip() if stripped.startswith(PROMPT) else stripped
        opened = (len(line) <= MAX_COMMAND and body.startswith("for") and _FOR.fullmatch(split_commands(body)[0].strip())
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


def tool_parts(text, tools, claim=None):
    """A log cut into one text per tool: {tool: text}, each the whole log's length with the lines of
    other tools blank, so that an error still names the line of the file.

    tools: {tool: program names}. A tool's commands and the output below them are its own; lines
    that run no tool's command (NAME=value, lsblk) are in every part; output below them, and before
    the first command, goes to claim(chunk text) -> tool (or None: left out)."""
    physical = text.splitlines()
    owners = [None] * len(physical)  # tool, "*" (every part) or None (output of no tool)
    shell = Shell(programs={name for names in tools.values() for name in names})
    entries = command_lines(text)
    current = None
    for k, (number, line) in enumerate(entries):
        end = entries[k + 1][0] - 1 if k + 1 < len(entries) else len(physical)
        commands = shell.read(line)
        if commands is not None:
            found = [tool for command in commands for tool, names in tools.items() if command.name in names]
            current = found[0] if found else None
            mark = current or "*"
        else:
            mark = current
        for index in range(number - 1, end):
            owners[index] = mark
    if claim is not None:
        _claim_unowned(physical, owners, claim)
    return {tool: "\n".join(line if owners[i] in (tool, "*") else "" for i, line in enumerate(physical))
            for tool in dict.fromkeys(owner for owner in owners if owner not in (None, "*"))}


def _claim_unowned(physical, owners, claim):
    """Give each run of lines that no command owns to the tool claim() names for it."""
    start = None
    for i in range(len(owners) + 1):
        if i < len(owners) and owners[i] is None:
            start = i if start is None else start
            continue
        if start is not None:
            tool = claim("\n".join(physical[start:i]))
            if tool is not None:
                owners[start:i] = [tool] * (i - start)
            start = None


# --- a log of several tools --------------------------------------------------------------------

# Tools whose commands a log may hold together: {tool: program names}, in the registry's names.
LOGGED_TOOLS = {"dd": {"dd"}, "flashbench": {"flashbench"}, "f3probe": {"f3probe"}, "nvme": {"nvme"}}
# A tool's name as a command's first word could be (a quick look before the log is read as shell).
_MENTIONS = {tool: re.compile(rf"(?:^|[\s/;&|(`]){'|'.join(names)}(?:[ \t]|$)", re.M)
             for tool, names in LOGGED_TOOLS.items()}


def several_tools(text):
    """SessionFields of a log holding the commands and output of more than one of LOGGED_TOOLS
    (dd, flashbench, f3probe, nvme-cli in one pasted session): each tool's part read by that
    tool's own import, the results put together as one session. None when one tool's output is
    all the log holds."""
    if sum(1 for mention in _MENTIONS.values() if mention.search(text)) < 2:
        return None  # one tool at most: no need to read the log twice
    from ..parsers.registry import format_named
    from . import dd, f3probe, flashbench, nvme  # each of them imports this module
    handlers = {"dd": dd.from_dd, "flashbench": flashbench.from_flashbench, "f3probe": f3probe.from_f3probe,
                "nvme": nvme.from_nvme}
    detectors = {tool: format_named(tool).module.detect for tool in LOGGED_TOOLS}

    def claim(chunk):
        scores = {tool: detect(chunk) for tool, detect in detectors.items()}
        best = max(scores, key=scores.get)
        return best if scores[best] else None

    parts = {tool: part for tool, part in tool_parts(text, LOGGED_TOOLS, claim).items() if detectors[tool](part)}
    if len(parts) < 2:
        return None
    return merged([handlers[tool](part) for tool, part in parts.items()])


def merged(results):
    """One session's fields from the SessionFields of each tool of a log."""
    tools, measurements, notes = [], {}, []
    for fields in results:
        tools += [tool for tool in fields.tools if tool not in tools]
        for key, value in fields.measurements.items():
            if isinstance(value, list):
                measurements.setdefault(key, []).extend(value)
            elif key in measurements:
                raise ParseError("import", f"the log holds two {key} results; import them one file each")
            else:
                measurements[key] = value
        notes += fields.notes
    fields = SessionFields(tools=tools, measurements=measurements, runs=max(f.runs for f in results), notes=notes,
                           date=next((f.date for f in results if f.date), None),
                           host=next((f.host for f in results if f.host), None))
    if hasattr(fields, "assumption"):
        fields.assumption = next((f.assumption for f in results if f.assumption), None)
    return fields
