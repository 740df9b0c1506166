"""Jetstress text logs (`*.log`): timestamped events and the thresholds they announce.

The same lines as an HTML report's "Test Log" section, so the line grammar lives in
`ingest.jetstress.log_events`; this module only decides whether a file is such a log and decodes it.

The reader is in reader.py, imported by `parse`: detecting a file (every ingest process does) needs
only `identify`, not the event grammar.
"""

from __future__ import annotations

import re
from typing import Any

from ...decoding import head_text
from ...jetstress.dates import US_STAMP
from ..reader_names import reader_name
from .records import JetstressLog as JetstressLog  # what `parse` returns (light: records only)

FORMAT = "jetstress_log"
MAX_BYTES = 64 * 1024 * 1024  # a 24-hour test log is a few megabytes

_FIRST_EVENT = re.compile(rf"^\s*{US_STAMP}\s+(--\s)?")


def identify(name: str, head: bytes) -> bool:
    """A text file whose first non-blank line is a Jetstress event mentioning Jetstress nearby."""
    text = head_text(head)
    first = next((line for line in text.splitlines() if line.strip()), "")
    return bool(_FIRST_EVENT.match(first)) and ("jetstress" in text.lower() or name.lower().endswith(".log"))


def parse(name: str, data: bytes) -> JetstressLog:
    """The log's events and thresholds (reader.py, imported when a log is read)."""
    from .reader import parse as read_log

    return read_log(name, data, max_bytes=MAX_BYTES)


def __getattr__(name: str) -> Any:
    """The reader's other names, as the package always gave them, loaded when first asked for."""
    return reader_name(__name__, name)
