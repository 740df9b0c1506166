"""Power-analyser CSV: timestamped watts, one sample a second.

Why: performance per watt (seed 002) needs the idle power before a run and the active power
during it. The analyser writes a small CSV (``timestamp,watts``); timestamps are the
analyser PC's local time, kept naive, because the Jetstress test log that defines the run
window is local time too. The averages are taken in SQL when the log is linked to its run
(ingest/load/link.py, `run_power`): windows are half-open, ``start <= t < end``, so the idle window
(the `idle_window_s` before the run) and the active window (the run) never share a sample.

The reader is in reader.py, imported by `parse`: detecting a file (every ingest process does) needs
only `identify` (identify.py).
"""

from __future__ import annotations

from typing import Any

from ..reader_names import reader_name
from .identify import identify as identify
from .records import PowerLog as PowerLog, PowerSample as PowerSample  # what `parse` returns (records only)

FORMAT = "power_log"
MAX_BYTES = 64 * 1024 * 1024  # a day at one sample a second is about 3 MB


def parse(name: str, data: bytes) -> PowerLog:
    """The log's samples as printed (reader.py, imported when a power log is read)."""
    from .reader import parse as read_power

    return read_power(name, data, max_bytes=MAX_BYTES)


def __getattr__(name: str) -> Any:
    """The reader's other names (`parse_timestamp`, ...), as the package always gave them, loaded when
    first asked for."""
    return reader_name(__name__, name)
