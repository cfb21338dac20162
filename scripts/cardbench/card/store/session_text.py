"""Where a card file's sessions lie in its text, so one session can be added or replaced while every
other byte stays as it was: a pull request's diff is then only that session.

Any valid card file is handled, not only the ones this package wrote: the session list at column 0
(`- id: …` under `sessions:`) or indented, comments anywhere, keys after the sessions, CRLF line ends,
a flow-style list (`sessions: []`, or JSON). The places come from the YAML parser's own marks, and
every result is parsed again and compared with what was meant before it is returned.
"""

import json
import re
from dataclasses import dataclass

import yaml

from ...errors import CardFileError
from ..dump import dump_yaml

# YAML's line breaks (PyYAML's reader counts these, and only these, as new lines).
_LINE = re.compile(r"[^\r\n\x85\u2028\u2029]*(?:\r\n|[\r\n\x85\u2028\u2029])|[^\r\n\x85\u2028\u2029]+\Z")


def split_lines(text):
    """The text's lines with their line breaks, as YAML counts lines."""
    return _LINE.findall(text)


@dataclass(frozen=True)
class SessionsPlace:
    """The session list of a card file's text: each item's lines, and where a new one goes."""

    lines: tuple  # the text's lines, with their breaks
    style: str  # "block", "flow", or "none" (no sessions yet: null, an empty flow list, or no key)
    column: int  # where a block item's dash stands (block, none)
    items: tuple  # (first line, line after) of each block item; (offset, offset after) of each flow item
    insert_line: int  # the line before which a new block item goes (block, none)
    flow_end: tuple = None  # (line, column) of a flow list's closing bracket (flow)
    flow_empty: bool = False
    empty_value: tuple = None  # (line, column, column after) of the `[]` or `null` a block list replaces (none)
    has_key: bool = True
    newline: str = "\n"

    def text_of(self, start, stop=None):
        return "".join(self.lines[start:stop])


def _compose(text, path):
    try:
        return yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.YAMLError as exc:
        raise CardFileError(path, f"the card file is not valid YAML: {str(exc).splitlines()[0]}",
                            field="sessions") from None


def _end_of_content(node, lines):
    """(line, column) just after the last character of the node's own text (not the blank lines or the
    comments a block scalar's or a block collection's end mark runs on to)."""
    if isinstance(node, yaml.MappingNode) and not node.flow_style and node.value:
        return _end_of_content(node.value[-1][1], lines)
    if isinstance(node, yaml.SequenceNode) and not node.flow_style and node.value:
        return _end_of_content(node.value[-1], lines)
    line, column = node.end_mark.line, node.end_mark.column
    kept = isinstance(node, yaml.ScalarNode) and node.style in ("|", ">") and node.value.endswith("\n\n")
    # A block scalar's end mark stands after its trailing breaks: step back to its last line, and over
    # blank lines unless they are the value's own (kept with `|+`).
    while line > node.start_mark.line and (line >= len(lines) or not lines[line][:column].strip()):
        line -= 1
        column = len(lines[line].rstrip("\r\n\x85\u2028\u2029"))
        if kept:
            break
    return line, column


def _dash_line(lines, item, column, first):
    """The line of the dash that opens a block item (the item's text may start on a later line)."""
    for number in range(item.start_mark.line, first - 1, -1):
        line = lines[number]
        if line[:column].strip(" ") == "" and line[column:column + 1] == "-":
            return number
    raise ValueError("no dash")


def sessions_place(text, path="<text>"):
    """The SessionsPlace of a card file's text; CardFileError when the text is not a card's mapping."""
    lines = tuple(split_lines(text))
    root = _compose(text, path)
    if not isinstance(root, yaml.MappingNode):
        raise CardFileError(path, "a card file must be a mapping (key: value) at the top", line=1, field="sessions")
    newline = "\r\n" if lines and lines[0].endswith("\r\n") else "\n"
    found = [(key, value) for key, value in root.value if isinstance(key, yaml.ScalarNode) and key.value == "sessions"]
    if root.flow_style:
        if not found or not isinstance(found[0][1], yaml.SequenceNode) or not found[0][1].flow_style:
            raise CardFileError(path, "a card written as one flow mapping needs a flow list of sessions "
                                      "(\"sessions\": [...]) to take a new one", field="sessions")
    if not found:
        end_line = _end_of_content(root, lines)[0] if root.value else -1
        return SessionsPlace(lines, "none", 0, (), end_line + 1, has_key=False, newline=newline)
    key, value = found[0]
    if isinstance(value, yaml.SequenceNode) and value.flow_style:
        end = (value.end_mark.line, value.end_mark.column - 1)
        if lines[end[0]][end[1]:end[1] + 1] != "]":
            raise CardFileError(path, "cannot find the end of the sessions list", field="sessions")
        if not value.value and not root.flow_style:
            empty = (value.start_mark.line, value.start_mark.column, value.end_mark.column)
            if value.start_mark.line != value.end_mark.line:
                raise CardFileError(path, "an empty sessions list spread over several lines cannot take a session",
                                    field="sessions")
            return SessionsPlace(lines, "none", key.start_mark.column, (), value.end_mark.line + 1,
                                 empty_value=empty, newline=newline)
        spans = tuple((_offset(lines, item.start_mark.line, item.start_mark.column),
                       _offset(lines, item.end_mark.line, item.end_mark.column)) for item in value.value)
        return SessionsPlace(lines, "flow", 0, spans, 0, flow_end=end, flow_empty=not value.value, newline=newline)
    if isinstance(value, yaml.ScalarNode) and value.tag == "tag:yaml.org,2002:null":
        if value.start_mark.index == value.end_mark.index:  # `sessions:` with nothing after it
            return SessionsPlace(lines, "none", key.start_mark.column, (), key.start_mark.line + 1, newline=newline)
        empty = (value.start_mark.line, value.start_mark.column, value.end_mark.column)
        if value.start_mark.line != value.end_mark.line or value.start_mark.line < key.start_mark.line:
            raise CardFileError(path, "an empty sessions value spread over several lines cannot take a session",
                                field="sessions")
        return SessionsPlace(lines, "none", key.start_mark.column, (), value.end_mark.line + 1,
                             empty_value=empty, newline=newline)
    if not isinstance(value, yaml.SequenceNode):
        raise CardFileError(path, "'sessions' is not a list", line=key.start_mark.line + 1, field="sessions")
    column = value.start_mark.column
    first = value.start_mark.line
    try:
        starts = [_dash_line(lines, item, column, first) for item in value.value]
    except ValueError:
        raise CardFileError(path, "cannot find where each session starts in the card file",
                            line=first + 1, field="sessions") from None
    last_line = _end_of_content(value.value[-1], lines)[0]
    stops = starts[1:] + [last_line + 1]
    return SessionsPlace(lines, "block", column, tuple(zip(starts, stops)), last_line + 1, newline=newline)


def _block(session, column, newline):
    """A session as a block list item with its dash at this column."""
    block = dump_yaml([session])
    pad = " " * column
    return "".join(pad + line if line.strip() else line for line in block.splitlines(True)).replace("\n", newline)


def _with_break(lines, number, newline):
    """The lines before `number`, the last one ending with a line break."""
    head = "".join(lines[:number])
    return head if not head or head.endswith(("\n", "\r", "\x85", "\u2028", "\u2029")) else head + newline


def _offset(lines, line, column):
    return sum(len(text) for text in lines[:line]) + column


def _checked(text, path, expected):
    """The new text, once it reads back as exactly the card meant."""
    from ..load import parse_card_text

    if parse_card_text(text, path).data != expected:
        raise CardFileError(path, "the session could not be added without changing the rest of the card file; "
                                  "was the file edited into an unusual layout?", field="sessions")
    return text


def append_session_text(existing_text, session, path="<text>"):
    """Text of a card file with one more session at the end of its session list; every other byte unchanged."""
    from ..load import parse_card_text

    before = parse_card_text(existing_text, path).data
    place = sessions_place(existing_text, path)
    lines, newline = place.lines, place.newline
    if place.style == "flow":
        line, column = place.flow_end
        at = _offset(lines, line, column)
        item = json.dumps(session, ensure_ascii=False)
        text = existing_text[:at] + ("" if place.flow_empty else ", ") + item + existing_text[at:]
    else:
        head = _with_break(lines, place.insert_line, newline)
        tail = "".join(lines[place.insert_line:])
        if place.style == "none" and not place.has_key:
            head += "sessions:" + newline
        elif place.style == "none" and place.empty_value:
            head = _emptied_key_line(lines, place, newline)
        text = head + _block(session, place.column, newline) + tail
    sessions = list(before.get("sessions") or [])
    return _checked(text, path, {**before, "sessions": sessions + [session]})


def _emptied_key_line(lines, place, newline):
    """The text up to the end of the sessions key's line, without the `[]` or `null` standing there."""
    number, start, stop = place.empty_value
    line = lines[number]
    rest = line[stop:].rstrip("\r\n\x85\u2028\u2029")
    body = line[:start].rstrip(" ") + (" " + rest.strip() if rest.strip() else "")
    return "".join(lines[:number]) + body + newline


def replace_session_text(existing_text, session, path="<text>"):
    """Text of a card file with the session of this one's id replaced where it stands; every byte outside
    that session, sessions after it included, unchanged."""
    from ..load import parse_card_text

    before = parse_card_text(existing_text, path).data
    found = before.get("sessions")
    ids = [s.get("id") if isinstance(s, dict) else None for s in found] if isinstance(found, list) else []
    if session.get("id") not in ids:
        raise CardFileError(path, f"there is no session '{session.get('id')}' any more; the file changed during "
                                  "the run", field="sessions")
    index = ids.index(session.get("id"))
    place = sessions_place(existing_text, path)
    start, stop = place.items[index]
    if place.style == "flow":
        text = existing_text[:start] + json.dumps(session, ensure_ascii=False) + existing_text[stop:]
    else:
        text = place.text_of(0, start) + _block(session, place.column, place.newline) + place.text_of(stop)
    sessions = list(found)
    sessions[index] = session
    return _checked(text, path, {**before, "sessions": sessions})
