"""The day a pasted terminal log says it was made: the output of a `date` command in it.

date_in_log(text) -> (day "YYYY-MM-DD", line number) or None. Read are `date`'s own formats: its
default in the C locale ("Thu Nov 26 15:30:00 UTC 2026", also macOS and BusyBox), `date -R`
("Thu, 26 Nov 2026 15:30:00 +0000"), and, on the line below a logged `date` command, the ISO forms
of `date -I`, `date -Iseconds`, `date --rfc-3339=…` and `date +%F` ("2026-11-26…"). The first one
in the log dates the session: the runs follow it.
"""

import datetime
import re

_MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
_DAYS = r"(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)"
_MONTH = "(?P<month>" + "|".join(_MONTHS) + ")"
_TIME = r"\d{2}:\d{2}:\d{2}"
_DEFAULT = re.compile(rf"^{_DAYS} {_MONTH} {{1,2}}(?P<day>\d{{1,2}}) {_TIME}"
                      rf"(?: [A-Z][A-Za-z0-9+-]{{0,9}})? (?P<year>\d{{4}})$")
_RFC_2822 = re.compile(rf"^{_DAYS}, (?P<day>\d{{1,2}}) {_MONTH} (?P<year>\d{{4}}) {_TIME} [+-]\d{{4}}$")
_ISO = re.compile(r"^(?P<year>\d{4})-(?P<month>\d{2})-(?P<day>\d{2})"
                  r"(?:[T ]\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?(?:[+-]\d{2}:?\d{2}|Z)?)?$")
_DATE_COMMAND = re.compile(r"(?:^|[\s;&|$#>])(?:sudo\s+)?date"
                           r"(?:\s+(?:-I\w*|--iso-8601\S*|--rfc-3339=\S+|-u|\+%F\S*|'\+%F\S*'))*\s*$")


def _day(match):
    month = match.group("month")
    number = _MONTHS.index(month) + 1 if month in _MONTHS else int(month)
    try:
        return datetime.date(int(match.group("year")), number, int(match.group("day"))).isoformat()
    except ValueError:
        return None


def date_in_log(text):
    """(day, line number) of the first `date` output in text, or None."""
    previous = ""
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if len(line) <= 60:
            match = _DEFAULT.match(line) or _RFC_2822.match(line)
            if match is None and _DATE_COMMAND.search(previous):
                match = _ISO.match(line)
            day = _day(match) if match else None
            if day:
                return day, number
        if line:
            previous = line[-200:]
    return None
