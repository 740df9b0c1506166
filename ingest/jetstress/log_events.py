"""The Jetstress test log, wherever it is printed: the HTML "Test Log" section, a *.log file,
or text extracted from an ESRP PDF appendix.

Lines read ``M/D/YYYY h:mm:ss AM -- message``. Jetstress 2007 sometimes drops the ``--``,
PDF text runs several events into one paragraph, and long messages wrap onto lines with no
timestamp; those continue the previous event. Pure: text in, records out.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from datetime import datetime
from typing import NamedTuple, cast

from .dates import LOG_STAMP, US_STAMP_FIELDS, us_datetime
from .records import LatencyUnit, LogEvent, Thresholds
from .values import parse_datetime, parse_number

# A timestamp starts an event anywhere but inside a longer number ("Test Log10/5/2008 …" in PDF text).
_TIMESTAMP = LOG_STAMP
_SEPARATOR = re.compile(r"^\s*-{2,}\s?")
# The same timestamp, at the head of a line only: one anchored match per line, not a scan of it.
_HEAD_STAMP = re.compile(rf"\s*({US_STAMP_FIELDS})(?!\w)")


def parse_test_log(text: str, *, first_line: int = 1, split_inside_lines: bool = False
                   ) -> tuple[list[LogEvent], Thresholds | None]:
    """Events and announced latency thresholds of a test log; `first_line` numbers the first text line."""
    return parse_test_log_lines(enumerate(text.splitlines(), start=first_line), split_inside_lines=split_inside_lines)


def _stamps_of(text: str, split_inside_lines: bool) -> list[_Stamp]:
    """Where events start: only at the head of a line, unless PDF text ran events together.

    A message may itself hold a date ("… created on 5/28/2011 11:00:00 AM"); in a *.log file or
    an HTML report each event has its own line, so such a date is text, not a new event.
    """
    if split_inside_lines:
        return list(_timestamps(text))
    match = _HEAD_STAMP.match(text)
    if match is None:
        return []
    month, day, year, hour, minute, second, half = match.groups()[1:]
    logged_at = us_datetime(month, day, year, hour, minute, second, half=half)
    # "13/45/2008 …" at the head is text, and no later date starts the line.
    return [] if logged_at is None else [_Stamp(match, logged_at)]


@dataclass
class _Event:
    """An event being read: its time, its line and the text parts gathered so far."""

    logged_at: datetime | None
    line: int | None
    parts: list[str] = field(default_factory=list)


def parse_test_log_lines(lines: Iterable[tuple[int | None, str]], *, split_inside_lines: bool = False
                         ) -> tuple[list[LogEvent], Thresholds | None]:
    """The same, from (source line, text) pairs, for callers that know where each line came from.

    `split_inside_lines` is for text extracted from PDF, where several events share a line.
    """
    events: list[_Event] = []
    for line_no, text in lines:
        stamps = _stamps_of(text, split_inside_lines)
        _continue(events, text[: stamps[0].match.start()] if stamps else text, line_no)
        for stamp, following in zip(stamps, [*stamps[1:], None], strict=False):
            message = text[stamp.match.end() : following.match.start() if following else len(text)]
            events.append(_Event(stamp.logged_at, line_no, [_SEPARATOR.sub("", message)]))
    log = [LogEvent(event.logged_at, _join(event.parts), event.line) for event in events]
    return log, extract_thresholds(event.message for event in log)


class _Stamp(NamedTuple):
    match: re.Match[str]
    logged_at: datetime


def _timestamps(text: str) -> Iterator[_Stamp]:
    """Timestamps that really are dates (13/45/2008 is text, not an event), with their value."""
    for match in _TIMESTAMP.finditer(text):
        try:
            yield _Stamp(match, parse_datetime(match[1]))
        except ValueError:
            continue


def _continue(events: list[_Event], text: str, line_no: int | None) -> None:
    """Text without its own timestamp belongs to the previous event (or opens an undated one)."""
    if not text.strip():
        return
    if not events:
        events.append(_Event(None, line_no))
    events[-1].parts.append(text)


def _join(parts: list[str]) -> str:
    if len(parts) == 1:  # the usual event: one line
        return " ".join(parts[0].split())
    return " ".join(" ".join(part.split()) for part in parts if part.strip())


_THRESHOLD = re.compile(
    r"(?P<kind>database read|log write) latency thresholds:\s*\(\s*"
    r"average:\s*(?P<avg>[\d.,]+)\s*(?P<unit>seconds|second|sec|msec|ms)\s*/\s*\w+\s*,\s*"
    r"maximum:\s*(?P<max>[\d.,]+)\s*(?P<max_unit>seconds|second|sec|msec|ms)\s*/\s*\w+\s*\)",
    re.IGNORECASE,
)
_UNITS = {"seconds": "s", "second": "s", "sec": "s", "msec": "ms", "ms": "ms"}
_TO_MS = {"s": 1000.0, "ms": 1.0}


class _Announced(NamedTuple):
    unit: str
    average: float | None
    maximum: float | None


def extract_thresholds(messages: Iterable[str]) -> Thresholds | None:
    """Thresholds from the first "Database read latency thresholds: (…)" and "Log write …" lines.

    The unit stays as printed (2007 prints seconds, 2010+ msec). Should the two lines ever
    disagree, the log-write values are scaled into the database-read unit.
    """
    found: dict[str, _Announced] = {}
    for message in messages:
        if "threshold" not in message.casefold():  # two lines of a log announce them; skip the rest cheaply
            continue
        for match in _THRESHOLD.finditer(message):
            kind = "db_read" if match["kind"].lower().startswith("database") else "log_write"
            if kind in found:
                continue
            unit, max_unit = _UNITS[match["unit"].lower()], _UNITS[match["max_unit"].lower()]
            try:
                average, maximum = parse_number(match["avg"]), _scaled(parse_number(match["max"]), max_unit, unit)
            except ValueError:
                continue  # "average: 1.2.3 msec" is no announcement
            found[kind] = _Announced(unit, average, maximum)
    if not found:
        return None
    unit = (found.get("db_read") or found["log_write"]).unit
    values = {}
    for kind, announced in found.items():
        values[f"{kind}_avg"] = _scaled(announced.average, announced.unit, unit)
        values[f"{kind}_max"] = _scaled(announced.maximum, announced.unit, unit)
    return Thresholds(unit=cast(LatencyUnit, unit), **values)


def _scaled(value: float | None, unit: str, into: str) -> float | None:
    """`value` in `unit` expressed in `into` (seconds <-> milliseconds); unchanged when they agree."""
    if value is None or unit == into:
        return value
    return value * _TO_MS[unit] / _TO_MS[into]
