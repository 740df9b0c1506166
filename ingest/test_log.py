"""The Jetstress test log, wherever it is printed: the HTML "Test Log" section, a *.log file,
or text extracted from an ESRP PDF appendix.

Lines read ``M/D/YYYY h:mm:ss AM -- message``. Jetstress 2007 sometimes drops the ``--``,
PDF text runs several events into one paragraph, and long messages wrap onto lines with no
timestamp; those continue the previous event. Pure: text in, records out.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from datetime import datetime

from esrpdb.ingest.jetstress_vocabulary import parse_datetime, parse_number
from esrpdb.ingest.records import LogEvent, Thresholds

# A timestamp starts an event anywhere but inside a longer number ("Test Log10/5/2008 …" in PDF text).
_TIMESTAMP = re.compile(r"(?<![\d/])(\d{1,2}/\d{1,2}/\d{4}\s+\d{1,2}:\d{2}:\d{2}\s*[AaPp][Mm])(?!\w)")
_SEPARATOR = re.compile(r"^\s*-{2,}\s?")


def parse_test_log(text: str, *, first_line: int = 1) -> tuple[list[LogEvent], Thresholds | None]:
    """Events and announced latency thresholds of a test log; `first_line` numbers the first text line."""
    return parse_test_log_lines(enumerate(text.splitlines(), start=first_line))


def parse_test_log_lines(lines: Iterable[tuple[int | None, str]]) -> tuple[list[LogEvent], Thresholds | None]:
    """The same, from (source line, text) pairs, for callers that know where each line came from."""
    events: list[tuple[datetime | None, list[str], int | None]] = []
    for line_no, text in lines:
        stamps = _timestamps(text)
        _continue(events, text[: stamps[0].start()] if stamps else text, line_no)
        for stamp, following in zip(stamps, [*stamps[1:], None]):
            message = text[stamp.end() : following.start() if following else len(text)]
            events.append((parse_datetime(stamp[1]), [_SEPARATOR.sub("", message)], line_no))
    log = [LogEvent(at, _join(parts), line) for at, parts, line in events]
    return log, extract_thresholds(event.message for event in log)


def _timestamps(text: str) -> list[re.Match[str]]:
    """Timestamp matches that really are dates (13/45/2008 is text, not an event)."""
    found = []
    for match in _TIMESTAMP.finditer(text):
        try:
            parse_datetime(match[1])
        except ValueError:
            continue
        found.append(match)
    return found


def _continue(events: list, text: str, line_no: int | None) -> None:
    """Text without its own timestamp belongs to the previous event (or opens an undated one)."""
    if not text.strip():
        return
    if not events:
        events.append((None, [], line_no))
    events[-1][1].append(text)


def _join(parts: list[str]) -> str:
    return " ".join(" ".join(part.split()) for part in parts if part.strip())


_THRESHOLD = re.compile(
    r"(?P<kind>database read|log write) latency thresholds:\s*\(\s*"
    r"average:\s*(?P<avg>[\d.,]+)\s*(?P<unit>seconds|second|sec|msec|ms)\s*/\s*\w+\s*,\s*"
    r"maximum:\s*(?P<max>[\d.,]+)\s*(?P<max_unit>seconds|second|sec|msec|ms)\s*/\s*\w+\s*\)",
    re.IGNORECASE,
)
_UNITS = {"seconds": "s", "second": "s", "sec": "s", "msec": "ms", "ms": "ms"}
_TO_MS = {"s": 1000.0, "ms": 1.0}


def extract_thresholds(messages: Iterable[str]) -> Thresholds | None:
    """Thresholds from the first "Database read latency thresholds: (…)" and "Log write …" lines.

    The unit stays as printed (2007 prints seconds, 2010+ msec). Should the two lines ever
    disagree, the log-write values are scaled into the database-read unit.
    """
    found: dict[str, tuple[str, float | None, float | None]] = {}
    for message in messages:
        for match in _THRESHOLD.finditer(message):
            kind = "db_read" if match["kind"].lower().startswith("database") else "log_write"
            if kind in found:
                continue
            unit = _UNITS[match["unit"].lower()]
            scale = _TO_MS[_UNITS[match["max_unit"].lower()]] / _TO_MS[unit]
            maximum = parse_number(match["max"])
            found[kind] = (unit, parse_number(match["avg"]), None if maximum is None else maximum * scale)
    if not found:
        return None
    unit = found.get("db_read", found.get("log_write"))[0]
    values = {}
    for kind, (own_unit, average, maximum) in found.items():
        scale = _TO_MS[own_unit] / _TO_MS[unit]
        values[f"{kind}_avg"] = None if average is None else average * scale
        values[f"{kind}_max"] = None if maximum is None else maximum * scale
    return Thresholds(unit=unit, **values)
