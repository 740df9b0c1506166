"""The Jetstress log format's reader: a log's bytes -> its `JetstressLog` (see the package's docstring).

Apart from the package's `__init__`, which holds what detecting a file needs (`identify`), so that a
process that only detects files never imports the event grammar.
"""

from __future__ import annotations

from ...decoding import sniff
from ...errors import ParseError
from ...jetstress.log_events import parse_test_log
from .records import JetstressLog

MAX_LINE_CHARS = 1 << 20


def _decode(name: str, data: bytes) -> str:
    codec, offset = sniff(data)
    try:
        return data[offset:].decode(codec)
    except UnicodeDecodeError as error:
        line = data[offset : offset + error.start].count(b"\n") + 1
        raise ParseError(name, f"byte {error.start + offset} is not valid {codec}", line=line) from None


def parse(name: str, data: bytes, *, max_bytes: int) -> JetstressLog:
    if not data.strip():
        raise ParseError(name, "the file is empty")
    if len(data) > max_bytes:
        raise ParseError(name, f"the file is larger than {max_bytes // 2**20} MiB")
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
