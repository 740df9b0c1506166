"""The power log format's reader: a power analyser's CSV -> its `PowerLog` (see the package's docstring).

Apart from the package's `__init__`, which holds what detecting a file needs (`identify`), so that a
process that only detects files never imports the reader.
"""

from __future__ import annotations

import csv
import io
import math
import re
from datetime import datetime

from ...decoding import sniff
from ...errors import ParseError
from ...jetstress.dates import us_datetime
from .identify import TIMESTAMP_HEADERS, WATTS_HEADERS, _header_columns
from .records import PowerLog, PowerSample

MAX_LINE_CHARS = 1 << 20

_US_TIME = re.compile(r"(\d{1,2})/(\d{1,2})/(\d{4})[ T](\d{1,2}):(\d{2}):(\d{2})(?:\.(\d{1,6}))?(?:\s*([AaPp][Mm]))?")
_BLANK = frozenset(("", " "))


def _decode(name: str, data: bytes) -> str:
    """Decode strictly; an undecodable byte is reported with its line number."""
    codec, bom = sniff(data)
    try:
        return data[bom:].decode(codec)
    except UnicodeDecodeError as exc:
        line = data[bom : bom + exc.start].decode(codec, errors="replace").count("\n") + 1
        raise ParseError(
            name, f"byte {exc.start + bom} is not valid {codec} (Latin-1 text or binary data?)", line=line
        ) from None


def parse_timestamp(text: str) -> datetime | None:
    """ISO 8601 (``2008-10-21T16:05:25``) or US ``10/21/2008 4:05:25 PM`` (or 24-hour)."""
    text = text.strip()
    match = _US_TIME.fullmatch(text)
    if match is None:
        try:
            return datetime.fromisoformat(text.replace("Z", "+00:00"))
        except ValueError:
            return None
    month, day, year, hour, minute, second, fraction, half = match.groups()
    return us_datetime(month, day, year, hour, minute, second, fraction, half)


def parse(name: str, data: bytes, *, max_bytes: int) -> PowerLog:
    if len(data) > max_bytes:
        raise ParseError(name, f"file is {len(data):,} bytes; power logs larger than {max_bytes:,} bytes are refused")
    text = _decode(name, data)
    if "\x00" in text:
        nul_line = text[: text.index("\x00")].count("\n") + 1
        raise ParseError(name, "NUL character: binary data, or UTF-16 without a byte-order mark", line=nul_line)
    if not text.strip():
        raise ParseError(name, "empty file, expected a header such as timestamp,watts")
    lines = io.StringIO(text, newline="")
    for number, line in enumerate(lines, start=1):  # bound line length before csv sees it
        if len(line) > MAX_LINE_CHARS:
            raise ParseError(name, f"line longer than {MAX_LINE_CHARS:,} characters: not a power log", line=number)
    lines.seek(0)
    rows = csv.reader(lines, strict=True)
    try:
        header = next(rows)
        while not any(cell.strip() for cell in header):
            header = next(rows)
        columns = _header_columns(header)
        if columns is None:
            raise ParseError(
                name,
                f"header {header[:8]!r} has no timestamp and watts columns; accepted: "
                f"{', '.join(TIMESTAMP_HEADERS)} / {', '.join(WATTS_HEADERS)}",
                line=rows.line_num,
            )
        time_index, watts_index = columns
        samples = [_sample(name, rows.line_num, cells, header, time_index, watts_index) for cells in rows if cells]
    except csv.Error as exc:
        raise ParseError(name, f"malformed CSV: {exc}", line=rows.line_num) from None
    if not samples:
        raise ParseError(name, "no samples after the header (truncated file?)", line=rows.line_num)
    if len({sample.timestamp.tzinfo is None for sample in samples}) > 1:
        raise ParseError(name, "timestamps mix local times and times with a UTC offset; windows would be ambiguous")
    return PowerLog(name, header[time_index], header[watts_index], tuple(header), tuple(samples))


def _sample(
    name: str, line: int, cells: list[str], header: list[str], time_index: int, watts_index: int
) -> PowerSample:
    if len(cells) != len(header):
        raise ParseError(
            name, f"row has {len(cells)} cell{'s' * (len(cells) != 1)}, the header has {len(header)}", line=line
        )
    stamp = parse_timestamp(cells[time_index])
    if stamp is None:
        raise ParseError(
            name, f"bad timestamp {cells[time_index][:40]!r}; expected ISO 8601 or M/D/YYYY h:mm:ss AM", line=line
        )
    cell = cells[watts_index].strip()
    if cell in _BLANK:
        return PowerSample(stamp, None)
    try:
        watts = float(cell)
    except ValueError:
        raise ParseError(name, f"column {header[watts_index]!r}: {cell[:40]!r} is not a number", line=line) from None
    if not math.isfinite(watts):
        raise ParseError(name, f"column {header[watts_index]!r}: {cell!r} is not a finite number", line=line)
    if not 0 <= watts < 1e7:
        raise ParseError(name, f"column {header[watts_index]!r}: {cell} W is out of range", line=line)
    return PowerSample(stamp, watts)
