"""Jetstress text logs (`*.log`): timestamped events and the thresholds they announce.

The same lines as an HTML report's "Test Log" section, so the line grammar lives in
`ingest.jetstress.log_events`; this module only decides whether a file is such a log and decodes it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ...decoding import head_text, sniff
from ...errors import ParseError
from ...jetstress.dates import US_STAMP
from ...jetstress.log_events import parse_test_log
from ...jetstress.records import LogEvent, Thresholds

FORMAT = "jetstress_log"
MAX_BYTES = 64 * 1024 * 1024  # a 24-hour test log is a few megabytes
MAX_LINE_CHARS = 1 << 20

_FIRST_EVENT = re.compile(rf"^\s*{US_STAMP}\s+(--\s)?")


@dataclass
class JetstressLog:
    source_name: str
    events: list[LogEvent]
    thresholds: Thresholds | None


def _decode(name: str, data: bytes) -> str:
    codec, offset = sniff(data)
    try:
        return data[offset:].decode(codec)
    except UnicodeDecodeError as error:
        line = data[offset : offset + error.start].count(b"\n") + 1
        raise ParseError(name, f"byte {error.start + offset} is not valid {codec}", line=line) from None


def identify(name: str, head: bytes) -> bool:
    """A text file whose first non-blank line is a Jetstress event mentioning Jetstress nearby."""
    text = head_text(head)
    first = next((line for line in text.splitlines() if line.strip()), "")
    return bool(_FIRST_EVENT.match(first)) and ("jetstress" in text.lower() or name.lower().endswith(".log"))


def parse(name: str, data: bytes) -> JetstressLog:
    if not data.strip():
        raise ParseError(name, "the file is empty")
    if len(data) > MAX_BYTES:
        raise ParseError(name, f"the file is larger than {MAX_BYTES // 2**20} MiB")
    if b"\x00" in data[:4096] and sniff(data)[0] not in ("utf-16-le", "utf-16-be"):
        raise ParseError(name, "binary data, not a text log", line=1)
    text = _decode(name, data)
    for number, line in enumerate(text.splitlines(), 1):
        if len(line) > MAX_LINE_CHARS:
            raise ParseError(name, f"line is longer than {MAX_LINE_CHARS} characters", line=number)
    events, thresholds = parse_test_log(text)
    if not events or events[0].logged_at is None:
        raise ParseError(name, "no timestamped Jetstress events (expected 'M/D/YYYY h:mm:ss AM -- …')", line=1)
    return JetstressLog(name, events, thresholds)
