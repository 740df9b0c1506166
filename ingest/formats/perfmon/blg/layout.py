"""Byte layout of a PDH binary log (`.blg`, Windows Vista and later): an ETW trace file.

Only what `docs/blg-format.md` lists as known is read; every other field is skipped, and
every structural check that fails raises `ParseError` naming the file and the byte offset.
The file is read one ETW buffer at a time (64 KiB in the evidence), so memory does not grow
with the file. Pure `struct`; no Windows API.
"""

from __future__ import annotations

import struct
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from typing import BinaryIO

from ....errors import ParseError

WMI_BUFFER_HEADER = 0x48  # every buffer starts with this header; events follow it
LOGFILE_HEADER_AT = 0x68  # TRACE_LOGFILE_HEADER in buffer 0, after a 0x20-byte system trace header
EVENT_HEADER = 0x30  # EVENT_TRACE_HEADER
MIN_BUFFER, MAX_BUFFER = 1 << 10, 1 << 26
PDH_PROVIDER = "933f3bb3-943e-490d-9ced-3cbb14c14479"  # the GUID of every PDH event in the evidence
EVENT_DEFINITIONS, EVENT_SAMPLE = 0x20, 0x22  # EVENT_TRACE_HEADER Class.Type
MAGIC_CONTAINER, MAGIC_SINGLE, MAGIC_MULTI = b"BL\x03\x00", b"BL\x03\x01", b"BL\x03\x02"
DEFINITION_FIXED = 0x34  # fixed part of a counter-definition record; strings follow
ABSENT = 0xFFFFFFFF  # a string offset of -1: no instance / no parent
_FILETIME_EPOCH = datetime(1601, 1, 1, tzinfo=timezone.utc)
MAX_FILETIME = 2650467743999999999  # 9999-12-31 23:59:59.9999999, the end of Python's datetime


def where(offset: int) -> str:
    return f"byte offset {offset} (0x{offset:x})"


def fail(name: str, offset: int, message: str) -> ParseError:
    return ParseError(name, f"{where(offset)}: {message}")


def filetime(value: int) -> datetime:
    """A FILETIME (100 ns ticks since 1601-01-01) as an aware datetime; tz applied by the caller."""
    return _FILETIME_EPOCH + timedelta(microseconds=value // 10)


def guid(data: bytes, at: int) -> str:
    a, b, c = struct.unpack_from("<IHH", data, at)
    tail = data[at + 8 : at + 16].hex()
    return f"{a:08x}-{b:04x}-{c:04x}-{tail[:4]}-{tail[4:]}"


def utf16z(data: bytes, at: int, end: int) -> tuple[str, int]:
    """A NUL-terminated UTF-16LE string at `at` (before `end`); returns it and the offset after its NUL."""
    pos, end = at, min(end, len(data))
    while pos + 1 < end:
        if data[pos] == 0 and data[pos + 1] == 0:
            return data[at:pos].decode("utf-16-le", errors="strict"), pos + 2
        pos += 2
    raise ValueError("string has no terminating NUL")


# --- file header (buffer 0) ----------------------------------------------------------------


@dataclass(frozen=True)
class SystemTime:
    """SYSTEMTIME as used in TIME_ZONE_INFORMATION: year 0 means "weekday `day_of_week`, week `day` of month"."""

    year: int
    month: int
    day_of_week: int
    day: int
    hour: int
    minute: int
    second: int
    millisecond: int


@dataclass(frozen=True)
class TimeZoneInfo:
    bias: int  # minutes, UTC = local + bias (+ standard/daylight bias)
    standard_name: str  # as stored, e.g. "@tzres.dll,-212" (a Windows resource reference)
    standard_date: SystemTime
    standard_bias: int
    daylight_name: str
    daylight_date: SystemTime
    daylight_bias: int

    def bias_at(self, local: datetime) -> tuple[int, str]:
        """(bias minutes, zone name) in force at a local wall-clock time, by the zone's own rules."""
        if self.daylight_date.month == 0 or self.standard_date.month == 0:
            return self.bias + self.standard_bias, self.standard_name
        dst_start = _transition(local.year, self.daylight_date)
        std_start = _transition(local.year, self.standard_date)
        naive = local.replace(tzinfo=None)
        if dst_start < std_start:
            daylight = dst_start <= naive < std_start
        else:  # southern hemisphere: daylight time spans the new year
            daylight = not (std_start <= naive < dst_start)
        if daylight:
            return self.bias + self.daylight_bias, self.daylight_name
        return self.bias + self.standard_bias, self.standard_name


def _transition(year: int, rule: SystemTime) -> datetime:
    if rule.year:  # absolute date
        return datetime(rule.year, rule.month, rule.day, rule.hour, rule.minute, rule.second)
    first = datetime(year, rule.month, 1, rule.hour, rule.minute, rule.second)
    # Python: Monday=0; Windows: Sunday=0
    day = first + timedelta(days=(rule.day_of_week - (first.weekday() + 1) % 7) % 7)
    day += timedelta(weeks=rule.day - 1)
    while day.month != rule.month:  # week 5 means "the last one"
        day -= timedelta(weeks=1)
    return day


@dataclass(frozen=True)
class LogfileHeader:
    buffer_size: int
    version: int  # TRACE_LOGFILE_HEADER.Version (0x0501000a in the evidence)
    provider_version: int  # the Windows build that wrote the file (14393 in the evidence)
    buffers_written: int
    pointer_size: int
    perf_freq: int  # QueryPerformanceFrequency of the writing machine
    start_time: datetime  # UTC
    end_time: datetime  # UTC
    time_zone: TimeZoneInfo
    logger_name: str
    log_file_name: str


_TZ_NAME = 64  # WCHAR[32]


def _systemtime(data: bytes, at: int) -> SystemTime:
    return SystemTime(*struct.unpack_from("<8H", data, at))


def _zone_name(data: bytes, at: int) -> str:
    return data[at : at + _TZ_NAME].decode("utf-16-le", errors="replace").split("\x00", 1)[0]


def read_logfile_header(name: str, buffer0: bytes) -> LogfileHeader:
    """Buffer 0: WMI buffer header, a system trace header, then TRACE_LOGFILE_HEADER."""
    if len(buffer0) < 0x210:
        raise fail(name, len(buffer0), f"file ends after {len(buffer0)} bytes: too short for a PDH binary log header")
    buffer_size = struct.unpack_from("<I", buffer0, 0)[0]
    header_type, flags, size = struct.unpack_from("<BBH", buffer0, WMI_BUFFER_HEADER + 2)
    if header_type != 0x02 or flags != 0xC0 or struct.unpack_from("<I", buffer0, LOGFILE_HEADER_AT)[0] != buffer_size:
        raise fail(name, 0, "not a PDH binary log: no ETW trace-file header (expected the buffer size at offsets 0 "
                   f"and 0x{LOGFILE_HEADER_AT:x} and a 0x02 0xc0 system trace header at 0x{WMI_BUFFER_HEADER + 2:x}); "
                   "Windows XP/2003 .blg files and renamed files are not read")
    if not MIN_BUFFER <= buffer_size <= MAX_BUFFER:
        raise fail(name, 0, f"buffer size {buffer_size} is outside {MIN_BUFFER}..{MAX_BUFFER}: damaged header")
    at = LOGFILE_HEADER_AT
    version, provider, _cpus, end, _res, _max, _mode, written, _start_buffers, pointer = struct.unpack_from(
        "<IIIQIIIIII", buffer0, at + 4)
    if pointer != 8:
        raise fail(name, at + 0x2C, f"pointer size {pointer}: only 64-bit writers (8) have been seen and decoded")
    tz = at + 0x48  # after two 8-byte name pointers
    bias, = struct.unpack_from("<i", buffer0, tz)
    zone = TimeZoneInfo(
        bias=bias,
        standard_name=_zone_name(buffer0, tz + 4),
        standard_date=_systemtime(buffer0, tz + 68),
        standard_bias=struct.unpack_from("<i", buffer0, tz + 84)[0],
        daylight_name=_zone_name(buffer0, tz + 88),
        daylight_date=_systemtime(buffer0, tz + 152),
        daylight_bias=struct.unpack_from("<i", buffer0, tz + 168)[0],
    )
    for rule, rule_at in ((zone.standard_date, tz + 68), (zone.daylight_date, tz + 152)):
        try:
            if rule.month:
                _transition(rule.year or 2000, rule)
        except ValueError as exc:
            raise fail(name, rule_at, f"time-zone change date unreadable ({exc}): damaged header") from None
    after = tz + 172 + 4  # TIME_ZONE_INFORMATION is 172 bytes, then 8-byte alignment
    _boot, perf_freq, start, _flags, _lost = struct.unpack_from("<QQQII", buffer0, after)
    for value, value_at in ((end, at + 0x10), (start, after + 16)):
        if not 0 <= value <= MAX_FILETIME:
            raise fail(name, value_at, f"time {value} is not a FILETIME: damaged header")
    if perf_freq <= 0:
        raise fail(name, after + 8, f"performance-counter frequency {perf_freq}: damaged header")
    names_end = WMI_BUFFER_HEADER + size
    try:
        logger, pos = utf16z(buffer0, after + 32, names_end)
        log_file, _ = utf16z(buffer0, pos, names_end)
    except (ValueError, UnicodeDecodeError) as exc:
        raise fail(name, after + 32, f"logger and file names unreadable ({exc})") from None
    return LogfileHeader(buffer_size, version, provider, written, pointer, perf_freq, filetime(start),
                         filetime(end), zone, logger, log_file)


# --- buffers and events --------------------------------------------------------------------


@dataclass(frozen=True)
class Event:
    offset: int  # of the event header in the file
    kind: int  # EVENT_DEFINITIONS | EVENT_SAMPLE
    timestamp: int  # FILETIME, local time of the recording machine
    data: bytes  # the whole event, header included (offsets below are relative to it)


def iter_events(name: str, stream: BinaryIO, header: LogfileHeader, file_size: int) -> Iterator[Event]:
    """Every PDH event of buffers 1.., in file order; one buffer in memory at a time."""
    size = header.buffer_size
    buffers = file_size // size
    if file_size % size:
        raise fail(name, file_size, f"truncated: the file ends inside the {size}-byte buffer that starts at "
                   f"{where(buffers * size)}")
    if buffers < header.buffers_written:
        raise fail(name, file_size, f"truncated: the header says {header.buffers_written} buffers were written, "
                   f"the file holds {buffers}")
    for index in range(1, buffers):
        base = index * size
        stream.seek(base)
        buffer = stream.read(size)
        if len(buffer) != size:
            raise fail(name, base + len(buffer), "truncated while reading a buffer")
        yield from _buffer_events(name, buffer, base)


def _buffer_events(name: str, buffer: bytes, base: int) -> Iterator[Event]:
    declared, filled = struct.unpack_from("<I", buffer, 0)[0], struct.unpack_from("<I", buffer, 0x30)[0]
    if declared != len(buffer):
        raise fail(name, base, f"buffer header gives size {declared}, the file header {len(buffer)}: damaged buffer")
    if not WMI_BUFFER_HEADER <= filled <= len(buffer):
        raise fail(name, base + 0x30, f"buffer fill {filled} is outside {WMI_BUFFER_HEADER}..{len(buffer)}")
    pos = WMI_BUFFER_HEADER
    while pos < filled:
        at = base + pos
        if pos + EVENT_HEADER > filled:
            raise fail(name, at, "event header runs past the end of the buffer's data")
        size, header_type, marker, kind = struct.unpack_from("<HBBB", buffer, pos)
        if header_type != 0x14 or marker != 0xC0:
            raise fail(name, at, f"unknown event header type 0x{header_type:02x}/0x{marker:02x} "
                       "(only 0x14/0xc0 full headers are decoded)")
        if size < EVENT_HEADER + 0x18 or pos + size > filled:
            raise fail(name, at, f"event size {size} does not fit the buffer")
        provider = guid(buffer, pos + 0x18)
        if provider != PDH_PROVIDER:
            raise fail(name, at + 0x18, f"event from provider {{{provider}}}, not PDH {{{PDH_PROVIDER}}}")
        if kind not in (EVENT_DEFINITIONS, EVENT_SAMPLE):
            raise fail(name, at + 4, f"unknown PDH event type 0x{kind:02x} (known: 0x20 definitions, 0x22 sample)")
        stamp = struct.unpack_from("<Q", buffer, pos + 0x10)[0]
        if stamp > MAX_FILETIME:
            raise fail(name, at + 0x10, f"event time {stamp} is not a FILETIME")
        yield Event(at, kind, stamp, buffer[pos : pos + size])
        pos += (size + 7) & ~7  # ETW keeps events 8-byte aligned


# --- PDH records inside the events ---------------------------------------------------------


@dataclass(frozen=True)
class Definition:
    offset: int  # in the file
    counter_type: int  # winperf.h PERF_* value
    frequency: int  # time base the counter's second value counts in
    multi: bool  # a wildcard instance: its samples come as a multi-instance record
    machine: str
    object: str
    instance: str | None
    counter: str


def read_definitions(name: str, event: Event) -> list[Definition]:
    data, found = event.data, []
    pos = EVENT_HEADER + 0x20  # provider session GUID, two 1s, then 8 bytes not decoded
    while pos < len(data):
        at = event.offset + pos
        if pos + DEFINITION_FIXED > len(data):
            raise fail(name, at, "counter definition cut short by the end of its event")
        size, flags, _, ctype, freq = struct.unpack_from("<IIIIq", data, pos)
        obj, inst, parent, index, ctr = struct.unpack_from("<IIIII", data, pos + 0x20)
        if size < DEFINITION_FIXED + 2 or size % 8 or pos + size > len(data):
            raise fail(name, at, f"counter definition size {size} does not fit its event")
        if parent != ABSENT or index != 0:
            raise fail(name, at, "counter has a parent instance or an instance index: not seen in the evidence, "
                       "not decoded")
        strings, end = pos + DEFINITION_FIXED, pos + size
        try:
            texts: list[str] = []
            cursor, starts = strings, []
            while cursor < end and len(texts) < (4 if inst != ABSENT else 3):
                starts.append(cursor - strings)  # offsets count from the machine name
                text, cursor = utf16z(data, cursor, end)
                texts.append(text)
        except (ValueError, UnicodeDecodeError) as exc:
            raise fail(name, event.offset + strings, f"counter path unreadable ({exc})") from None
        expected = [obj, inst, ctr] if inst != ABSENT else [obj, ctr]
        if len(texts) != len(expected) + 1 or starts[1:] != expected or not texts[0].startswith("\\\\"):
            raise fail(name, at, "counter path strings do not match their offsets: damaged definition")
        machine, object_, *rest = texts
        found.append(Definition(at, ctype, freq, bool(flags & 1), machine[2:], object_,
                                rest[0] if inst != ABSENT else None, rest[-1]))
        pos += size
    if not found:
        raise fail(name, event.offset, "counter-definition event holds no counters")
    return found


@dataclass(frozen=True)
class Raw:
    """One PDH_RAW_COUNTER: status, local FILETIME, the two raw values and the multi count."""

    status: int
    first: int
    second: int
    multi_count: int


def read_sample(name: str, event: Event, definitions: list[Definition]) -> list[Raw | list[tuple[str, Raw]]]:
    """Per definition, in definition order: a `Raw`, or (instance, Raw) pairs for a wildcard counter."""
    data = event.data
    pos = EVENT_HEADER + 0x18
    magic, size = struct.unpack_from("<4sI", data, pos)
    if magic != MAGIC_CONTAINER or pos + size != len(data):
        raise fail(name, event.offset + pos, f"expected a sample record 'BL\\x03\\x00' filling its event, found "
                   f"{magic!r} of {size} bytes")
    pos += 8
    values: list[Raw | list[tuple[str, Raw]]] = []
    for definition in definitions:
        at = event.offset + pos
        if pos + 8 > len(data):
            raise fail(name, at, f"sample has fewer records than the {len(definitions)} counters defined")
        magic, size = struct.unpack_from("<4sI", data, pos)
        if size < 0x30 or pos + size > len(data):
            raise fail(name, at, f"record size {size} does not fit its sample")
        wanted = MAGIC_MULTI if definition.multi else MAGIC_SINGLE
        if magic != wanted:
            raise fail(name, at, f"expected {wanted!r} for {definition.object}\\{definition.counter}, found {magic!r}")
        if definition.multi:
            values.append(_multi(name, data, pos, size, event.offset, event.timestamp))
        else:
            status, stamp, first, second, count = struct.unpack_from("<IQ4xqqI", data, pos + 8)
            if stamp != event.timestamp:
                raise fail(name, at + 12, "record time differs from its event's time: not seen, not decoded")
            values.append(Raw(status, first, second, count))
        pos += size
    if pos != len(data):
        raise fail(name, event.offset + pos, f"sample has more records than the {len(definitions)} counters defined")
    return values


def _multi(name: str, data: bytes, pos: int, size: int, base: int, stamp: int) -> list[tuple[str, Raw]]:
    rest, count, _, when = struct.unpack_from("<II8sQ", data, pos + 8)
    names_at, end = pos + 8, pos + size
    if rest != size - 8 or pos + 0x20 + 24 * count > end:
        raise fail(name, base + pos, f"multi-instance record of {size} bytes cannot hold {count} instances")
    if when != stamp:
        raise fail(name, base + pos + 0x18, "record time differs from its event's time: not seen, not decoded")
    out = []
    for i in range(count):
        entry = pos + 0x20 + 24 * i
        name_offset, multi_count, first, second = struct.unpack_from("<IIqq", data, entry)
        try:
            instance, _ = utf16z(data, names_at + name_offset, end)
        except (ValueError, UnicodeDecodeError) as exc:
            raise fail(name, base + entry, f"instance name unreadable ({exc})") from None
        out.append((instance, Raw(0, first, second, multi_count)))
    return out
