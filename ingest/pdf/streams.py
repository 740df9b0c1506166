"""How many bytes a PDF's compressed streams expand to, counted without holding them.

A 1 MB PDF can hold a FlateDecode stream of 1 GiB of spaces; PDFium inflates a page's content
whole, so memory follows the decompressed size. Each stream after a `stream` keyword is inflated
here in slices that are counted and dropped, and the count stops at the limit. Image streams are
not counted: reading text never decodes them. Pure: bytes in, a number out.
"""

from __future__ import annotations

import re
import zlib

_STREAM = re.compile(rb"stream\r?\n")
_IMAGE = re.compile(rb"/Subtype\s*/Image\b")
DICT_LOOKBACK = 4096  # bytes before `stream` searched for the object's dictionary
_SLICE = 1 << 20  # decompressed bytes produced (and dropped) per step
_INPUT = 64 * 1024  # compressed bytes fed per step (zlib copies what a step leaves unread)


def _is_image(data: bytes, start: int) -> bool:
    head = data[max(0, start - DICT_LOOKBACK):start]
    opened = head.rfind(b" obj")
    return bool(_IMAGE.search(head[opened:] if opened >= 0 else head))


def _inflated_bytes(data: bytes, start: int, budget: int) -> int:
    """What the zlib stream at `start` inflates to, counted up to just past `budget`; 0 when none starts there."""
    inflater = zlib.decompressobj()
    view = memoryview(data)
    counted, position = 0, start
    pending: bytes | memoryview = b""
    try:
        while not inflater.eof and counted <= budget:
            if not pending:
                if position >= len(data):
                    break
                pending, position = view[position:position + _INPUT], position + _INPUT
            out = inflater.decompress(pending, _SLICE)
            counted += len(out)
            pending = inflater.unconsumed_tail
    except zlib.error:
        pass  # not Flate, or damaged: PDFium reads it (or not) as it is
    return counted


def decompressed_bytes(data: bytes, limit: int) -> int:
    """The total the PDF's non-image streams inflate to, counted up to just past `limit`."""
    total = 0
    for match in _STREAM.finditer(data):
        if _is_image(data, match.start()):
            continue
        total += _inflated_bytes(data, match.end(), limit - total)
        if total > limit:
            break
    return total
