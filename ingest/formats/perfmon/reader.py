"""The PDH CSV/TSV format's reader: `open_perfmon` and the rows it streams (see the package's docstring).

Apart from the package's `__init__`, which holds what detecting a file needs (`identify`), so that a
process that only detects files never imports the reader; the writer, which streams the rows, does.
"""

from __future__ import annotations

import csv
import io
import itertools
import math
import re
from collections.abc import Iterable, Iterator
from datetime import datetime, timedelta, timezone
from typing import BinaryIO

from ...errors import ParseError
from ...jetstress.dates import us_datetime
from .identify import _sniff_encoding
from .records import CounterPath, PerfmonHeader, Row

_BANNER = re.compile(r"\((PDH-(?:CSV|TSV) [\d.]+)\)(?:\s*\((.*)\)\s*\((-?\d+)\))?")
_TIME = re.compile(r"(\d{1,2})/(\d{1,2})/(\d{4}) (\d{1,2}):(\d{2}):(\d{2})(?:\.(\d{1,6}))?")
_FIRST_SEPARATOR = re.compile(r'\s*(?:"[^"]*"|[^,\t"]*)([,\t])')
_BLANK = frozenset(("", " "))
_TRAILERS = frozenset(("Exiting, please wait...", "The command completed successfully."))


def parse_counter_path(text: str) -> CounterPath:
    r"""Split a PDH counter path; raise ValueError when it is not one.

    The counter is after the last backslash (counter names hold ``/`` and parentheses,
    never ``\``); the instance runs from the first ``(`` of the object part to its final
    ``)``, so instances may hold backslashes, commas and parentheses (``c:\db1``,
    ``Intel(R) PRO/1000``). Object names may hold spaces and ``==>`` but not ``(``.
    """
    rest, machine = text, None
    if rest.startswith("\\\\"):
        end = rest.find("\\", 2)
        if end < 0:
            raise ValueError("no object after the machine name")
        machine, rest = rest[2:end], rest[end:]
    if not rest.startswith("\\"):
        raise ValueError("a counter path starts with \\\\MACHINE\\ or \\")
    cut = rest.rfind("\\")
    obj, counter = rest[1:cut], rest[cut + 1 :]
    instance = None
    if "(" in obj:
        if not obj.endswith(")"):
            raise ValueError("instance has no closing parenthesis")
        obj, instance = obj[: obj.index("(")], obj[obj.index("(") + 1 : -1]
    if cut == 0 or not obj or not counter:
        raise ValueError("expected \\\\MACHINE\\Object(Instance)\\Counter")
    return CounterPath(machine, obj, instance, counter)


class PerfmonReader:
    """Header and columns read; iterate once for ``(utc_timestamp, values)`` rows."""

    def __init__(self, name: str, text: io.TextIOWrapper, encoding: str, max_line_chars: int):
        self.name = name
        self.line = 0  # last physical line read, for error messages
        self.rows_read = 0
        self._text = text
        self._max_line_chars = max_line_chars
        lines = self._lines()
        first = next(lines, None)
        if first is None:
            raise ParseError(name, f"empty file: no PDH header line (decoded as {encoding})", line=self.line or None)
        separator = _FIRST_SEPARATOR.match(first)
        if separator is None:
            raise self._error(f"expected a PDH header {_EXAMPLE},<counter paths>; found {first.strip()[:80]!r}")
        self._rows = csv.reader(itertools.chain([first], lines), delimiter=separator.group(1), strict=True)
        cells = self._next_cells()
        banner = _BANNER.fullmatch(cells[0].strip()) if cells else None
        if banner is None:
            raise self._error(f"expected a PDH banner like {_EXAMPLE} in the first cell, found {cells[0][:80]!r}")
        zone, bias = banner.group(2), banner.group(3)
        self.header = PerfmonHeader(
            banner=cells[0],
            pdh_format=banner.group(1),
            time_zone_name=zone,
            bias_minutes=int(bias) if bias is not None else None,
            assumed_utc=bias is None,
            separator=separator.group(1),
            encoding=encoding,
            line=self.line,
        )
        self.columns = tuple(self._column(number, cell) for number, cell in enumerate(cells[1:], start=1))
        self._utc_offset = timedelta(minutes=int(bias or 0))

    def __enter__(self) -> PerfmonReader:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        """Release the decoder; the caller's stream stays open."""
        self._text.close()

    def column_index(self, counter: str, *, object: str | None = None, instance: str | None = None) -> int:
        """Index of the one column matching by name (case-insensitive); ParseError listing what exists."""
        wanted = [(counter, "counter"), (object, "object"), (instance, "instance")]
        found = [
            index
            for index, column in enumerate(self.columns)
            if all(value is None or (getattr(column, attr) or "").lower() == value.lower() for value, attr in wanted)
        ]
        if len(found) != 1:
            asked = "\\".join(v for v, _ in reversed(wanted) if v is not None)
            listing = "; ".join(str(column) for column in self.columns)
            raise ParseError(
                self.name,
                f'{len(found)} columns match "{asked}" (need exactly 1); found: {listing}',
                line=self.header.line,
            )
        return found[0]

    def __iter__(self) -> Iterator[Row]:
        width = len(self.columns) + 1
        offset = self._utc_offset
        while (cells := self._next_cells()) is not None:
            if not cells:
                continue
            if len(cells) != width:
                raise self._error(
                    f"row has {len(cells)} cell{'s' * (len(cells) != 1)}, the header has {width} "
                    f"(decoded as {self.header.encoding})"
                )
            stamp = _parse_time(cells[0])
            if stamp is None:
                raise self._error(f"bad timestamp {cells[0][:40]!r}, expected MM/DD/YYYY HH:MM:SS.mmm")
            cells = cells[1:]
            try:
                if " " in cells or "" in cells:
                    values = [None if cell in _BLANK else float(cell) for cell in cells]
                else:  # the common row: no blanks, so let map() run the loop in C
                    values = list(map(float, cells))
            except ValueError:
                values = self._slow_values(cells)
            if not math.isfinite(sum(v for v in values if v is not None)):
                self._refuse_non_finite(values)
            self.rows_read += 1
            yield stamp + offset, values

    # --- internals -------------------------------------------------------------------------

    def _lines(self) -> Iterator[str]:
        """Physical lines, bounded in length; blank lines and typeperf trailers skipped."""
        readline, limit = self._text.readline, self._max_line_chars
        while line := readline(limit + 1):
            self.line += 1
            if len(line) > limit and not line.endswith("\n"):
                raise self._error(f"line longer than {limit:,} characters: not a perfmon export, or a damaged one")
            if "\ufffd" in line:
                raise self._error(f"bytes that are not valid {self._text.encoding} (wrong encoding or binary data)")
            if "\x00" in line:
                raise self._error("NUL character: binary data, or UTF-16 without a byte-order mark")
            if line[0] != '"' and (line.isspace() or line.strip() in _TRAILERS):
                continue
            yield line

    def _next_cells(self) -> list[str] | None:
        try:
            return next(self._rows, None)
        except csv.Error as exc:
            hint = " (truncated file?)" if "end of data" in str(exc) else ""
            raise self._error(f"malformed CSV/TSV: {exc}{hint}") from None

    def _column(self, number: int, cell: str) -> CounterPath:
        try:
            return parse_counter_path(cell)
        except ValueError as exc:
            raise self._error(f"column {number}: {cell[:80]!r} is not a counter path ({exc})") from None

    def _slow_values(self, cells: list[str]) -> list[float | None]:
        values: list[float | None] = []
        for column, cell in zip(self.columns, cells):
            try:
                values.append(None if cell.isspace() or not cell else float(cell))
            except ValueError:
                raise self._error(f'column "{column}": {cell[:40]!r} is not a number') from None
        return values

    def _refuse_non_finite(self, values: list[float | None]) -> None:
        """NaN or ±inf would poison every average computed from the samples: refuse the file."""
        for column, value in zip(self.columns, values):
            if value is not None and not math.isfinite(value):
                raise self._error(f'column "{column}": {value} is not a finite number')
        # Only the sum overflowed: every value is finite.

    def _error(self, message: str) -> ParseError:
        return ParseError(self.name, message, line=self.line or None)


_EXAMPLE = '"(PDH-CSV 4.0) (Eastern Daylight Time)(240)"'


def _parse_time(text: str) -> datetime | None:
    match = _TIME.fullmatch(text)
    if match is None:
        return None
    month, day, year, hour, minute, second, fraction = match.groups()
    return us_datetime(month, day, year, hour, minute, second, fraction, zone=timezone.utc)


class _PrefixedStream(io.RawIOBase):
    """The sniffed head bytes, then the rest of the caller's stream (never closed by us)."""

    def __init__(self, head: bytes, stream: BinaryIO):
        self._head, self._stream = head, stream

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        size = len(buffer)
        if self._head:
            data, self._head = self._head[:size], self._head[size:]
        else:
            data = self._stream.read(size)
        buffer[: len(data)] = data
        return len(data)


def open_perfmon(name: str, stream: BinaryIO, *, max_line_chars: int) -> PerfmonReader:
    """Sniff the encoding, read the header, and return a reader positioned at the first row."""
    head = stream.read(4)
    codec, label, bom = _sniff_encoding(head)
    buffered = io.BufferedReader(_PrefixedStream(head[bom:], stream), buffer_size=1 << 16)
    text = io.TextIOWrapper(buffered, encoding=codec, errors="replace", newline="")
    try:
        return PerfmonReader(name, text, label, max_line_chars)
    except BaseException:
        text.close()
        raise


def iter_samples(reader: Iterable[Row], *, include_blank: bool = False) -> Iterator[tuple[datetime, int, float | None]]:
    """Flat ``(utc_timestamp, column_index, value)`` tuples, e.g. for a COPY into perf_samples."""
    for stamp, values in reader:
        for index, value in enumerate(values):
            if value is not None or include_blank:
                yield stamp, index, value
