"""Typed errors. Each names the file, line or field it is about, so a reader can fix it."""


# An error's `asks` names what a contributor can give where the output does not say it, so each way in
# words it in its own terms (make import's OP=, cardbench import's --op, the issue form's fields): "op",
# "block_size", "format", "capacity", "bus", "form_factor", and "no_dd_hints" (read or write and the block
# size given for a log that is not dd's). Its `reason` is the message without how to give it.


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
        self.asks = tuple(asks)  # what the contributor can give to fix it (see above)
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
        self.asks = tuple(asks)  # what the contributor can give to fix it (see above)
        self.reason = reason or message  # the message without how to give it
        super().__init__(str(self))

    def __str__(self):
        where = f" line {self.line}" if self.line is not None else ""
        shown = f": {quoted(self.text)}" if self.text is not None else ""
        return f"{self.tool} output{where}: {self.message}{shown}"
