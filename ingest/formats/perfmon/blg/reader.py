"""The BLG format's reader: `open_perfmon` and the rows it streams (see the package's docstring).

Apart from the package's `__init__`, which holds what detecting a file needs (`identify`), so that a
process that only detects files never imports the reader, the binary layout and the cooks.
"""

from __future__ import annotations

import io
import os
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import timedelta
from typing import BinaryIO

from ....errors import ParseError
from ..records import CounterPath, Row
from .cook import COOKS, COUNTER_TYPES, type_name
from .layout import (
    EVENT_DEFINITIONS,
    Definition,
    Event,
    Raw,
    fail,
    filetime,
    iter_events,
    read_definitions,
    read_logfile_header,
    read_sample,
)

_HEADER_READ = 0x48 + 0xFFFF  # the file header ends within its u16-sized system trace record
_VALID = (0, 1)  # PDH_CSTATUS_VALID_DATA, PDH_CSTATUS_NEW_DATA


@dataclass(frozen=True)
class BlgHeader:
    """What `PerfmonHeader` gives for a CSV, read from the binary header."""

    pdh_format: str  # "PDH binary log (ETW trace 10.0.1.5, Windows build 14393)"
    time_zone_name: str  # as stored: a Windows resource reference such as "@tzres.dll,-212"
    bias_minutes: int  # UTC = local + bias, in force at the first sample
    assumed_utc: bool  # always False: a binary log always records its time zone
    standard_zone: str
    daylight_zone: str
    log_file_name: str  # the path the log was written to, on the recording machine
    file_size: int
    buffer_size: int
    counters_defined: int


class BlgReader:
    """Header, definitions and columns read; iterate once for ``(utc_timestamp, values)`` rows."""

    def __init__(self, name: str, stream: BinaryIO, max_bytes: int):
        self.name = name
        self.rows_read = 0
        self.warnings: list[str] = []
        size = _file_size(stream)
        if size > max_bytes:
            raise fail(name, max_bytes, f"file is {size:,} bytes, over the {max_bytes:,}-byte limit for a .blg")
        if size == 0:
            raise fail(name, 0, "empty file: no PDH binary log header")
        stream.seek(0)
        log = read_logfile_header(name, stream.read(min(size, _HEADER_READ)))
        self._log = log
        self._events = iter_events(name, stream, log, size)
        first = next(self._events, None)
        if first is None or first.kind != EVENT_DEFINITIONS:
            raise fail(name, first.offset if first else size, "expected the counter-definition event first")
        self.definitions = read_definitions(name, first)
        _refuse_unsupported(name, self.definitions)
        self._first = self._next_sample()
        self._instances = self._first_instances()
        self.columns: tuple[CounterPath, ...] = tuple(self._columns())
        when = filetime(self._first.timestamp) if self._first else log.start_time  # no samples: any day will do
        bias, zone = log.time_zone.bias_at(when)
        self.header = BlgHeader(
            pdh_format=f"PDH binary log (ETW trace {_version(log.version)}, Windows build {log.provider_version})",
            time_zone_name=zone,
            bias_minutes=bias,
            assumed_utc=False,
            standard_zone=log.time_zone.standard_name,
            daylight_zone=log.time_zone.daylight_name,
            log_file_name=log.log_file_name,
            file_size=size,
            buffer_size=log.buffer_size,
            counters_defined=len(self.definitions),
        )
        self._iterated = False
        self._at = self._first.offset if self._first else size  # the event being read, for errors

    def __enter__(self) -> BlgReader:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        """Nothing to release; the caller's stream stays open."""

    def __iter__(self) -> Iterator[Row]:
        if self._iterated:
            raise RuntimeError("a BlgReader is iterated once")
        self._iterated = True
        try:
            yield from self._rows()
        except (ParseError, GeneratorExit):
            raise
        except Exception as exc:  # a layout check missed something: still name the file and the place
            raise fail(self.name, self._at, f"unreadable sample ({type(exc).__name__}: {exc})") from None

    def _rows(self) -> Iterator[Row]:
        if self._first is None:
            return
        previous: list[tuple[int, int] | None] = [None] * len(self.columns)
        cooks = [(COOKS[d.counter_type], d.frequency) for d in self._column_definitions]
        zone = self._log.time_zone
        event: Event | None = self._first
        while event is not None:
            self._at = event.offset
            raws = self._flatten(event)
            values: list[float | None] = []
            for index, raw in enumerate(raws):
                if raw is None or raw.status not in _VALID:
                    previous[index] = None
                    values.append(None)
                    continue
                now = (raw.first, raw.second)
                cook, frequency = cooks[index]
                values.append(cook(now, previous[index], frequency))
                previous[index] = now
            local = filetime(event.timestamp)
            bias, _ = zone.bias_at(local)
            if bias != self.header.bias_minutes and not self.warnings:
                self.warnings.append(f"the UTC offset changes from {self.header.bias_minutes} to {bias} minutes at "
                                     f"{local.replace(tzinfo=None).isoformat()} local time (daylight-saving change)")
            self.rows_read += 1
            yield local + timedelta(minutes=bias), values
            event = self._next_sample()

    # --- internals -------------------------------------------------------------------------

    def _next_sample(self) -> Event | None:
        event = next(self._events, None)
        if event is not None and event.kind == EVENT_DEFINITIONS:
            raise fail(self.name, event.offset, "a second counter-definition event: a log whose counter set "
                       "changes is not decoded (the evidence has one definition event)")
        return event

    def _first_instances(self) -> list[list[str]]:
        """Instance names of each wildcard counter, from the first sample (the columns' order)."""
        if self._first is None:
            return [[] for d in self.definitions if d.multi]
        return [self._names(value, self._first) for value in read_sample(self.name, self._first, self.definitions)
                if isinstance(value, list)]

    def _names(self, pairs: list[tuple[str, Raw]], event: Event) -> list[str]:
        names = [instance for instance, _ in pairs]
        if len(set(names)) != len(names):
            raise fail(self.name, event.offset, "a wildcard counter repeats an instance name (PDH's #n numbering "
                       "of duplicates has not been seen in the evidence, so it is not decoded)")
        return names

    def _columns(self) -> Iterator[CounterPath]:
        self._column_definitions: list[Definition] = []
        wildcard = iter(self._instances)
        for definition in self.definitions:
            instances = next(wildcard) if definition.multi else [definition.instance]
            for instance in instances:
                self._column_definitions.append(definition)
                yield CounterPath(definition.machine, definition.object, instance, definition.counter)

    def _flatten(self, event: Event) -> list[Raw | None]:
        out: list[Raw | None] = []
        wildcard = iter(self._instances)
        for definition, value in zip(self.definitions, read_sample(self.name, event, self.definitions)):
            if not isinstance(value, list):
                out.append(value)
                continue
            expected = next(wildcard)
            by_name = dict(value)
            if len(by_name) != len(value) or not set(by_name) <= set(expected):
                new = sorted(set(by_name) - set(expected))
                raise fail(self.name, event.offset, f"{definition.object}(*)\\{definition.counter}: instances "
                           f"{new or 'repeated'} are not in the first sample; a .blg whose instances grow is not "
                           "decoded")
            out.extend(by_name.get(instance) for instance in expected)  # a vanished instance is blank
        return out


def _refuse_unsupported(name: str, definitions: list[Definition]) -> None:
    bad = [d for d in definitions if d.counter_type not in COOKS]
    if bad:
        listing = "; ".join(f"{type_name(d.counter_type)} for \\\\{d.machine}\\{d.object}"
                            f"{f'({d.instance})' if d.instance else ''}\\{d.counter}" for d in bad)
        supported = ", ".join(COUNTER_TYPES[t] for t in COOKS)
        raise fail(name, bad[0].offset, f"unsupported counter type: {listing}. Not guessed: only types whose "
                   f"cooking was confirmed against an Export-Counter CSV are read ({supported})")


def _version(value: int) -> str:
    return ".".join(str(value >> shift & 0xFF) for shift in (0, 8, 16, 24))


def _file_size(stream: BinaryIO) -> int:
    try:
        return os.fstat(stream.fileno()).st_size
    except (AttributeError, OSError, io.UnsupportedOperation):
        here = stream.tell()
        size = stream.seek(0, io.SEEK_END)
        stream.seek(here)
        return size


def open_perfmon(name: str, stream: BinaryIO, *, max_bytes: int) -> BlgReader:
    """Read the header and definitions; return a reader positioned at the first sample.

    `stream` must be seekable (a file): the log is read buffer by buffer. Every error is a
    `ParseError` naming the file and the byte offset.
    """
    try:
        return BlgReader(name, stream, max_bytes)
    except (ParseError, RuntimeError):
        raise
    except Exception as exc:  # a layout check missed something: still name the file
        raise ParseError(name, f"unreadable PDH binary log ({type(exc).__name__}: {exc})") from None
