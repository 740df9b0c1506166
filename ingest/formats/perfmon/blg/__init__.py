"""PDH binary logs (`.blg`, as perfmon and Jetstress write them), streamed like the CSV exports.

`open_perfmon` reads the file header, the counter definitions and the first sample eagerly
(so a wrong file fails at once, and a wildcard counter's instances are known), then yields
``(utc_timestamp, values)`` rows, the same `Row`s and `CounterPath` columns as
`perfmon_csv`, so loading into perf_samples and linking to runs are shared. Values are
cooked from raw counter values the way PDH does, for the counter types confirmed against
an `Export-Counter` CSV twin; any other type is refused by its winperf.h name.

Layout and what is known vs assumed: docs/blg-format.md. Why no library: no maintained
pure-Python BLG reader exists (PyPI has none; the Windows-only PDH API is `relog`'s own).

The reader is in reader.py, imported by `open_perfmon`: detecting a file (every ingest process does)
needs only `identify`, not the binary layout and the cooks.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, BinaryIO

from ... import perfmon as perfmon_csv
from ...reader_names import reader_name

if TYPE_CHECKING:
    from .reader import BlgReader

FORMAT = "perfmon_blg"
MAX_FILE_BYTES = 8 << 30  # 8 GiB: far above a week of Jetstress counters; memory stays one buffer anyway
MAX_BYTES = None  # streamed: the pipeline reads no whole file; MAX_FILE_BYTES bounds it here


def identify(name: str, head: bytes) -> bool:
    """A file named ``*.blg`` that is not a text export renamed; the header is checked when read."""
    return name.lower().endswith(".blg") and not perfmon_csv.identify(name, head)


def open_perfmon(name: str, stream: BinaryIO, *, max_bytes: int = MAX_FILE_BYTES) -> BlgReader:
    """Read the header and definitions; return a reader positioned at the first sample (reader.py,
    imported when a log is opened; `stream` must be seekable, every error a `ParseError`)."""
    from .reader import open_perfmon as open_log

    return open_log(name, stream, max_bytes=max_bytes)


def __getattr__(name: str) -> Any:
    """The reader's other names (`BlgReader`, `BlgHeader`, ...), as the package always gave them, loaded
    when first asked for."""
    return reader_name(__name__, name)
