"""f3probe output -> the session's f3probe block: real against announced capacity, with the
verdict (and the counterfeit's type) in the session's notes. A log holding other tools' commands
too is cut apart by mixed.several_tools."""

from ..card import sessions
from ..parsers import f3probe as f3probe_parser
from .result import SessionFields
from .mixed import several_tools


def from_f3probe(text):
    mixed = several_tools(text)
    if mixed is not None:
        return mixed
    parsed = f3probe_parser.parse(text)
    tool = {"name": "f3probe", "version": parsed["version"]} if parsed["version"] else {"name": "f3probe"}
    verdict = parsed["verdict"] + (f" ({parsed['fake_type']})" if parsed["fake_type"] else "")
    gib = 1024**3
    note = (f"f3probe verdict: {verdict}; {parsed['usable_bytes'] / gib:.2f} GiB usable of "
            f"{parsed['announced_bytes'] / gib:.2f} GiB announced.")
    return SessionFields(tools=[tool], measurements={"f3probe": sessions.f3probe_entry(parsed)}, runs=1, notes=[note])
