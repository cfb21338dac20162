"""Typed errors. Each names the file, line or field it is about, so a reader can fix it."""


class CardbenchError(Exception):
    """Base of every error the command line reports without a traceback."""


class CardFileError(CardbenchError):
    """A card file is unreadable or invalid. Carries file, line, column and field path."""

    def __init__(self, path, message, line=None, column=None, field=None, rule=None, asks=(), reason=None):
        self.path = str(path)
        self.message = message
        self.line = line
        self.column = column
        self.field = field
        self.rule = rule
        self.asks = tuple(asks)  # what the contributor can give to fix it (ASKS keys)
        self.reason = reason or message  # the message without how to give it
        super().__init__(str(self))

    def __str__(self):
        where = self.path
        if self.line is not None:
            where += f":{self.line}"
            if self.column is not None:
                where += f":{self.column}"
        field = f" {self.field}:" if self.field else ""
        rule = f" [{self.rule}]" if self.rule else ""
        return f"{where}:{field} {self.message}{rule}"


# What a contributor can give where the output does not say it: the key an error's `asks` names, and
# how each way in takes it (make import's variable, cardbench import's option); the issue form's own
# fields are named in imports/submission.py.
ASKS = {"op": ("OP=", "--op"), "block_size": ("BS=", "--bs"), "format": ("FORMAT=", "--format"),
        "capacity": ("CAPACITY=", "--capacity"), "bus": ("BUS=", "--bus"), "form_factor": ("FORM=", "--form")}

QUOTED_CHARS = 80  # enough of a line to find it; never a whole secret pasted or read by mistake


def quoted(text, limit=QUOTED_CHARS):
    """A line of input as shown in a message: repr-escaped (no control characters reach the terminal), cut."""
    return repr(text if len(text) <= limit else text[:limit] + "…")


class ParseError(CardbenchError):
    """Tool output that a parser cannot read. Names the line (1-based) it stopped at, quoting a part of it."""

    def __init__(self, tool, message, line=None, text=None, asks=(), reason=None):
        self.tool = tool
        self.message = message
        self.line = line
        self.text = text
        self.asks = tuple(asks)  # what the contributor can give to fix it (ASKS keys)
        self.reason = reason or message  # the message without how to give it
        super().__init__(str(self))

    def __str__(self):
        where = f" line {self.line}" if self.line is not None else ""
        shown = f": {quoted(self.text)}" if self.text is not None else ""
        return f"{self.tool} output{where}: {self.message}{shown}"
