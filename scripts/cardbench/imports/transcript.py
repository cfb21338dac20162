"""Shell transcripts: commands and their output as a terminal showed them, pasted into one file.

unwrap(text) -> the text every format's parser reads, line for line (line N stays line N, so an
    error names the line of the file): a mail body in quoted-printable decoded (quoted_printable), a web
    page's <br>, <pre> and <code> tags taken out (html_text), a quote or comment mark on every line ("> ",
    "// ") taken off (unprefixed), a Markdown or reStructuredText document is cut down to its
    code blocks (``` and ~~~ fences, "::" literal blocks, ".. code-block::"), the common
    indentation of a block (list items, literal blocks, a quoted log) is taken off, and a command
    line is written one way, "$ <command>": prompts ("$ ", "# ", "% ", "user@host:~$ ",
    "[root@h ~]# ", "pi@raspberrypi:~ $ ", "(venv) user@host ~ % ") and "sudo" with its options
    taken off, and sudo's "[sudo] password for …:" prompt too. Plain tool output comes back unchanged.

Reading the logged commands is parsers/text/logged_shell.py's (its lines: parsers/text/log_lines.py); cutting a log of
several tools apart, imports.several_tools'.
"""

import html
import re

from ..parsers.text.log_lines import PROMPT
from ..parsers.registry import logged_tools

# Bounded and possessive quantifiers throughout: a pasted file may hold lines of 10^5 characters.
_FENCE = re.compile(r"^[ \t]{0,12}+(`{3,}+|~{3,}+)[^`\r\n]{0,200}+$")
_LITERAL_MARK = re.compile(r"::[ \t]*+$|^[ \t]*+\.\.[ \t]++(?:code-block|code|sourcecode)::")
_DIRECTIVE_OPTION = re.compile(r"^[ \t]*+:[\w-]{1,40}+:")
_INDENT = re.compile(r"^[ \t]*+")
_PROMPT = re.compile(
    r"^(?:\([^()\s]{1,64}+\)[ ]++)?+"  # a virtualenv or conda name: "(venv) "
    r"(?:\[[^\[\]\r\n]{1,120}+\][ ]?+[$#%]"  # [root@h ~]#, [user@host dir]$
    # user@host:~$, user@host ~ %, @host:~$ (user cut)
    r"|[\w.-]{0,64}+@[\w.-]{1,64}+(?::[^\s$#%]{0,200}+)?+(?:[ ]++[^\s$#%]{1,200}+)?+[ ]?+[$#%]"
    r"|[\w.-]{1,64}+:[^\s$#%]{0,200}+[ ]++[\w.-]{1,64}+[$#]"  # macOS bash: host:~ user$
    r"|[$#%]"
    r")(?:[ \t]++|$)")
# sudo's password prompt ("[sudo] password for pi: "): a line of its own, or before the output when the
# terminal log kept no line break after the typed password.
_SUDO_PASSWORD = re.compile(r"^[ \t]*+\[sudo\] password for [^:\r\n]{1,64}+:[ \t]*+")
_SUDO = re.compile(r"^sudo(?:[ \t]++(?:-[ugCDhprtU][ \t]++[^\s-]\S{0,100}+|-\S{1,100}+))*+[ \t]++(?=\S)")


# --- the front end: what people paste -> what the parsers read --------------------------------

_QP_ESCAPE = re.compile(r"=(?:[0-9A-F]{2}|(?=\r?\n|$))", re.M)
_QP_BYTES = re.compile(r"(?:=[0-9A-F]{2})++")


def quoted_printable(text):
    """A mail body pasted as it travelled, quoted-printable ("iodepth=3D1", "Datens=C3=A4tze", lines broken by a
    soft "=" at their end), decoded: each soft-broken line joined to the next, and a blank line for each piece
    joined added where the paragraph ends, so that the lines below it keep their numbers. Any other text
    comes back unchanged: one whose every "=" is an escape or a soft break and that holds "=3D" (an "="
    encoded)."""
    if "=3D" not in text or len(_QP_ESCAPE.findall(text)) != text.count("="):
        return text
    lines = text.splitlines(keepends=True)
    out, pending, owed = [], "", 0
    for line in lines:
        body = line.rstrip("\r\n")
        if body.endswith("=") and not body.endswith("=="):  # a soft break: the line goes on below
            pending += body[:-1]
            owed += 1
            continue
        out.append(_QP_BYTES.sub(_qp_decoded, pending + body) + line[len(body):])
        pending = ""
        if owed and not body.strip(" \t>"):  # the blank lines owed go where a paragraph ends
            out.extend(["\n"] * owed)
            owed = 0
    if pending:
        out.append(_QP_BYTES.sub(_qp_decoded, pending) + "\n")
        owed -= 1
    out.extend(["\n"] * owed)
    return "".join(out)


def _qp_decoded(match):
    return bytes.fromhex(match.group().replace("=", "")).decode("utf-8", errors="replace")


_HTML_TAG = re.compile(r"<(?:br[ \t]*+/?+|/?+(?:pre|code|kbd|samp|tt)(?:[ \t][^<>\r\n]{0,200}+)?+)>", re.I)
_BREAK = re.compile(r"<br[ \t]*+/?+>", re.I)


_TRAILING_BREAK = re.compile(r"<br[ \t]*+/?+>[ \t]*+\Z", re.I)


def _without_trailing_breaks(body):
    """The line without the <br> tags that end it, one at a time from the end (a pattern anchored at the end
    would be tried from every <br> of a long run)."""
    while body.rstrip(" \t")[-1:] == ">":
        found = _TRAILING_BREAK.search(body, max(0, len(body.rstrip(" \t")) - 16))
        if not found:
            break
        body = body[:found.start()]
    return body


def html_text(text):
    """Tool output pasted from a web page's source: line breaks written "<br>" or "<br />" made line breaks
    (one at a line's end is dropped, so the lines keep their numbers; a whole transcript joined into one line
    by them is split), <pre>, <code …>, <kbd>, <samp> and <tt> tags taken out and entities ("&gt;") decoded.
    Text without such tags comes back unchanged."""
    if "<" not in text or not _HTML_TAG.search(text):
        return text
    out = []
    for line in text.splitlines(keepends=True):
        body = line.rstrip("\r\n")
        body = _BREAK.sub("\n", _without_trailing_breaks(body))
        out.append(html.unescape(_HTML_TAG.sub("", body)) + line[len(line.rstrip("\r\n")):])
    return "".join(out)


_LINE_PREFIXES = (re.compile(r"^[ \t]{0,8}+(?:>[ \t]?+){1,16}+"),  # a mail's or Markdown's quote: "> ", "> > "
                  re.compile(r"^[ \t]{0,8}+//[ \t]?+"))  # a source file's comment: "// "


def unprefixed(text):
    """Text whose every non-blank line carries the same quote or comment mark ("> ", "> > ", "// "), as a
    quoted mail, a Markdown blockquote or a comment in a source file hold a log, without the mark. A text
    where some lines carry it and others not (commands typed behind "> " above their output) is left alone."""
    lines = text.splitlines(keepends=True)
    filled = [line for line in lines if line.strip()]
    for prefix in _LINE_PREFIXES:
        if filled and all(prefix.match(line) for line in filled):
            return "".join(prefix.sub("", line, count=1) if line.strip() else line for line in lines)
    return text


def unwrap(text):
    """The tool output and commands in a pasted transcript or document, line for line."""
    text = unprefixed(html_text(quoted_printable(text)))
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
    for i in _quoted_commands(kept):
        kept[i] = PROMPT + _QUOTED_COMMAND.match(kept[i]).group(1)
    if len(blocks) < len(lines) or kept != lines:  # a document: commands written inline above output blocks
        _inline_commands(lines, kept, blocks)
    _join_wrapped_operands(kept)
    if kept == lines:
        return text
    return "".join(line + end for line, end in zip(kept, ends))


_QUOTED_COMMAND = re.compile(r"^[ \t]{0,12}+>[ \t]?+(?:sudo[ \t]++)?+"
                             r"((?:\S{0,200}+/)?+([\w.-]{1,40}+)(?:[ \t].{0,4000}+)?+)$")


def _quoted_commands(lines):
    """Indexes of lines that type a tool's command behind "> " (a Markdown quote used as a prompt) with the
    tool's output below them not quoted: "> dd if=/dev/zero of=test bs=1M", then dd's lines. A quoted
    command whose output is quoted too is a quoted log, read as such."""
    programs = {name for names in logged_tools().values() for name in names}
    found = []
    for i, line in enumerate(lines):
        match = _QUOTED_COMMAND.match(line) if ">" in line[:14] else None
        if not match or match.group(2) not in programs:
            continue
        following = next((later for later in lines[i + 1:i + 40] if later.strip()), None)
        if following is not None and not following.lstrip(" \t").startswith(">"):
            found.append(i)
    return found


_INLINE_CODE = re.compile(r"`((?:sudo[ \t]++)?+((?:[^\s/`]{0,200}+/){0,20}+)([\w.-]{1,40}+)[ \t][^`\r\n]{1,2000}+)`")


def _inline_commands(lines, kept, blocks):
    """A tool's command written in the prose as inline code ("write it with `dd if=… of=/dev/sdb bs=512k`") right
    above a code block of output that holds no command: the command the output came from, kept on its own line
    ("$ dd if=…") so that the tool reads it. Only a command of a registered tool, the last one within five lines
    above the block."""
    programs = {name for names in logged_tools().values() for name in names}
    inside = {i for block in blocks for i in block}
    for block in blocks:
        if not block or any(kept[i].startswith(PROMPT) for i in block):
            continue
        for i in range(block.start - 1, max(block.start - 7, -1), -1):
            if i in inside:
                break
            found = [m for m in _INLINE_CODE.finditer(lines[i]) if m.group(3) in programs]
            if found:
                body = found[-1].group(1)
                kept[i] = PROMPT + (body[body.index(found[-1].group(2) + found[-1].group(3)):]
                                    if body.startswith("sudo") else body)
                break


_OPERANDS = re.compile(r"^[ \t]*+(?:if|of|bs|ibs|obs|count|skip|seek|iflag|oflag|conv|status)=\S")


def _join_wrapped_operands(lines):
    """A dd command a mail broke after its name ("$ dd", then "if=disk.raw of=test.dat bs=1024k") made one line
    again, a blank line left where its operands were so that the lines below keep their numbers."""
    for i in range(len(lines) - 1):
        if lines[i].rstrip().endswith((" dd", "/dd")) and lines[i].startswith(PROMPT) and _OPERANDS.match(lines[i + 1]):
            lines[i], lines[i + 1] = lines[i].rstrip() + " " + lines[i + 1].strip(), ""


def _code_blocks(lines):
    """Line index ranges of the code blocks of a Markdown or reStructuredText document; None when
    the text has none (a plain log). A fence that closes nothing and has nothing below it closes a block
    whose opening fence was not pasted: the lines above it (from the last block's end). In a document
    with fences, lines indented four spaces or a tab below a blank line are a block too (Markdown's
    indented code: a command typed there above its output in a fence)."""
    blocks, i, last_end = [], 0, 0
    while i < len(lines):
        fence = _FENCE.match(lines[i]) if "``" in lines[i] or "~~" in lines[i] else None
        if fence:
            marker = fence.group(1)
            end = i + 1
            while end < len(lines) and not _closes(lines[end], marker):
                end += 1
            if end >= len(lines) and not any(line.strip() for line in lines[i + 1:]) and \
                    any(line.strip() for line in lines[last_end:i]):
                blocks.append(range(last_end, i))  # a lone closing fence: its opening one was left out
            else:
                blocks.append(range(i + 1, end))
            i = last_end = end + 1
            continue
        if lines[i].strip() and _LITERAL_MARK.search(lines[i]):
            block = _literal_block(lines, i)
            if block:
                blocks.append(block)
                i = block.stop
                continue
        i += 1
    if blocks and any(_FENCE.match(line) for line in lines if "``" in line or "~~" in line):
        blocks = sorted(blocks + _indented_blocks(lines, blocks), key=lambda block: block.start)
    return blocks or None


def _indented_blocks(lines, blocks):
    """Markdown's indented code blocks outside the fenced ones: lines indented four spaces or a tab, the
    first below a blank line (or the document's start)."""
    inside = {i for block in blocks for i in block} | {block.start - 1 for block in blocks} | \
             {block.stop for block in blocks}
    found, i = [], 0
    while i < len(lines):
        if i not in inside and _INDENTED.match(lines[i]) and (i == 0 or not lines[i - 1].strip()):
            end = i
            while end < len(lines) and end not in inside and (_INDENTED.match(lines[end]) or not lines[end].strip()):
                end += 1
            while end > i and not lines[end - 1].strip():
                end -= 1
            found.append(range(i, end))
            i = end
            continue
        i += 1
    return found


_INDENTED = re.compile(r"^(?: {4}|\t)[ \t]*+\S")


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
    """A command line written as "$ <command>" (prompt and sudo taken off), sudo's password prompt taken
    off; any other line as it is."""
    if line.lstrip(" \t").startswith("[sudo]"):
        password = _SUDO_PASSWORD.match(line)
        if password:
            return line[password.end():]
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
