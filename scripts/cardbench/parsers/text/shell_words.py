"""The words of logged shell command lines, read without running anything.

shell_words(command) -> argv, with $((..)) and $[..] arithmetic worked out.
command_words(line, program) -> argv of a logged command line mentioning `program` (prompt taken
    off), or None.
arithmetic(expr) -> the integer value of + - * / % << >> ** ( ) arithmetic (names of variables
    worked out by the caller); nothing but these operators on integers is read.
split_commands(line) -> the commands of one line, split at ; && || | & outside quotes.
split_words(command) -> argv as the shell splits and unquotes it; without_redirections(argv); unwrapped(argv):
    the words from the program on (sudo, time, nice … taken off).
variable_references(text) -> {'$DEV': 'DEV'}.
The shell around them (variables, loops) is logged_shell.py's.
"""

import ast
import os
import re
import shlex

MAX_COMMAND = 4096  # a longer line is not taken for a logged command
MAX_ARITHMETIC = 200  # a logged block size or count; longer input is not worth parsing

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


NAME = r"[A-Za-z_][A-Za-z0-9_]{0,63}+"
ASSIGNMENT = re.compile(rf"({NAME})=(.*+)", re.S)  # fullmatch on one word
REFERENCE = re.compile(rf"\$(?:\{{({NAME})\}}|({NAME}))")
_COMMAND_TOKEN = re.compile(r"""[^'"\\;&|#]++|'[^']*+'|"(?:[^"\\]|\\.)*+"|\\.|&&|\|\||\|&|[;&|#'"\\]""", re.S)
_WORD = re.compile(r"""(?:[^\s'"\\]++|'[^']*+'|"(?:[^"\\]|\\.)*+"|\\.)++""", re.S)
_WORD_PIECE = re.compile(r"""[^'"\\]++|'([^']*+)'|"((?:[^"\\]|\\.)*+)"|\\(.)""", re.S)
_REDIRECTION = re.compile(r"\d{0,2}+(?:>>?+|<|&>>?+|>&)(.*+)", re.S)  # fullmatch on one word
# Programs that run the next word as the command, with their options that take a value.
_WRAPPERS = {"sudo": {"-u", "-g", "-C", "-D", "-h", "-p", "-r", "-t", "-U"}, "doas": {"-u", "-C"},
             "time": {"-f", "-o"}, "nice": {"-n"}, "ionice": {"-c", "-n", "-p"}, "stdbuf": {"-i", "-o", "-e"},
             "taskset": {"-c", "-p"}, "chrt": {"-p"}, "env": {"-u", "-C", "-S"}, "nohup": set(), "command": set(),
             "exec": set(), "unbuffer": set(), "script": {"-c"}}
_WRAPPER_VALUE = re.compile(r"-?\d++|0[xX][0-9a-fA-F]++|[0-9,-]{1,64}+")  # nice -10, taskset 0x3, chrt 99


def variable_references(text):
    """{'$DEV' or '${DEV}': 'DEV'} for every variable reference in text, as Shell.expand reads them."""
    return {m.group(0): m.group(1) or m.group(2) for m in REFERENCE.finditer(text)}

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

def split_words(text):
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

def without_redirections(words):
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

def unwrapped(words):
    """The words from the program on: sudo, time, nice, stdbuf … with their options taken off."""
    i = 0
    while i < len(words) and os.path.basename(words[i]) in _WRAPPERS:
        valued = _WRAPPERS[os.path.basename(words[i])]
        i += 1
        while i < len(words) and (words[i].startswith("-") or _WRAPPER_VALUE.fullmatch(words[i])
                                  or ASSIGNMENT.fullmatch(words[i])):
            i += 2 if words[i] in valued else 1
    return words[i:]
