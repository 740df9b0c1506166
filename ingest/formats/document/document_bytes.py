"""Document bytes -> text: the encodings a document's text may come in, and what is refused as binary.

Split from lines.py (which reads the text into lines) so that each module keeps to one job.
"""

from __future__ import annotations

import re

from ...decoding import byte_order_mark
from ...errors import ParseError

MAX_BYTES = 64 * 1024 * 1024  # a document's text; real ones are well under 1 MiB

_CONTROL = re.compile(r"[\x00-\x08\x0e-\x1f\x7f]")


def _line_of(data: bytes, offset: int) -> int:
    return data.count(b"\n", 0, offset) + 1


MAX_STRAY_NULS = 16  # a few NUL bytes in text (PDF-to-text tools leave some) are dropped; more means binary


def decode(name: str, data: bytes, warnings: list[str] | None = None) -> str:
    """UTF-8 (BOM optional) or UTF-16/32 with a BOM; anything else is refused with the place it fails."""
    if len(data) > MAX_BYTES:
        raise ParseError(name, f"file is {len(data):,} bytes; documents larger than {MAX_BYTES:,} bytes are refused")
    bom = byte_order_mark(data)
    encoding = bom.whole_codec if bom else None
    if encoding is None and b"\x00" in data:
        offset, count = data.index(0), data.count(0)
        if count > MAX_STRAY_NULS or count * 1000 > len(data):
            raise ParseError(name, f"binary data (NUL byte at offset {offset}), not document text; UTF-16 text needs "
                             "a byte-order mark", line=_line_of(data, offset))
        if warnings is not None:
            warnings.append(f"line {_line_of(data, offset)}: {count} stray NUL byte(s) removed")
        data = data.replace(b"\x00", b"")
    try:
        text = data.decode(encoding or "utf-8")
    except UnicodeDecodeError as error:
        bad, where = data[error.start : error.start + 1].hex(), error.start
        line = _line_of(data, where) if encoding in (None, "utf-8-sig") else None
        raise ParseError(name, f"not {encoding or 'UTF-8'} text: byte 0x{bad} at offset {where} cannot be decoded "
                         "(Latin-1 or Windows-1252?); save the document as UTF-8", line=line) from None
    if not text.strip():
        raise ParseError(name, "file is empty")
    sample = text[:65536]
    controls = _CONTROL.findall(sample)
    if len(controls) > max(8, len(sample) // 100):
        first = _CONTROL.search(text)
        line = text.count("\n", 0, first.start()) + 1 if first else None
        raise ParseError(name, f"binary data ({len(controls)} control characters in the first {len(sample):,}), "
                         "not document text", line=line)
    return text
