"""PDH CSV/TSV written by relog or typeperf, streamed row by row in constant memory.

Why streaming: a 2 h Jetstress run is ~500 rows, but a week of 1 s perfmon on a busy host
is millions of rows by thousands of counters. `open_perfmon` reads the header eagerly (so
a wrong file fails at once) and then yields one ``(utc_timestamp, values)`` row at a time
from an incremental decoder; memory does not grow with the file.

The layout (docs/jetstress-formats.md §4.3): first cell ``"(PDH-CSV 4.0) (Eastern Daylight
Time)(240)"`` (bias minutes, UTC = local + bias), then quoted counter paths
``\\\\HOST\\Object(parent/instance#index)\\Counter``; rows start with a local
``"MM/DD/YYYY HH:MM:SS.mmm"``; a missing sample is ``" "``. Typeperf output has a
leading blank line, a banner without a time zone (timestamps are then taken as UTC and
`PerfmonHeader.assumed_utc` says so) and a trailing ``Exiting, please wait...``.

The reader is in reader.py, imported by `open_perfmon`: detecting a file (every ingest process does)
needs only `identify` (identify.py); the records are in records.py.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, BinaryIO

from ..reader_names import reader_name
from .identify import identify as identify
from .records import CounterPath as CounterPath, PerfmonHeader as PerfmonHeader, Row as Row

if TYPE_CHECKING:
    from .reader import PerfmonReader

FORMAT = "perfmon_csv"
MAX_BYTES = None  # streamed into COPY: memory stays flat whatever the size
MAX_LINE_CHARS = 1 << 20  # 1 Mi characters: far above any real header (thousands of counters)


def open_perfmon(name: str, stream: BinaryIO, *, max_line_chars: int = MAX_LINE_CHARS) -> PerfmonReader:
    """Sniff the encoding, read the header, and return a reader positioned at the first row (reader.py,
    imported when an export is opened)."""
    from .reader import open_perfmon as open_export

    return open_export(name, stream, max_line_chars=max_line_chars)


def __getattr__(name: str) -> Any:
    """The reader's other names (`PerfmonReader`, `parse_counter_path`, `iter_samples`, ...), as the
    package always gave them, loaded when first asked for."""
    return reader_name(__name__, name)
