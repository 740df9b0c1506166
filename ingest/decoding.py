"""How every format recognises an encoding: one table of byte-order marks, one test for BOM-less UTF-16.

Each format keeps its own policy (strict or lenient, what counts as binary, what its errors
say); only the recognising is shared, so a fix to it reaches every format at once. The marks
are the standard library's (`codecs.BOM_*`); Python's "utf-8-sig", "utf-16" and "utf-32"
codecs strip them.
"""

from __future__ import annotations

import codecs
from typing import NamedTuple


class Bom(NamedTuple):
    codec: str  # decodes the bytes after the mark, e.g. "utf-16-le"
    whole_codec: str  # decodes the bytes including the mark, which it strips, e.g. "utf-16"
    length: int


# UTF-32 LE's mark begins with UTF-16 LE's, so the four-byte marks are tried first.
_MARKS = (
    Bom("utf-32-le", "utf-32", len(codecs.BOM_UTF32_LE)),
    Bom("utf-32-be", "utf-32", len(codecs.BOM_UTF32_BE)),
    Bom("utf-8", "utf-8-sig", len(codecs.BOM_UTF8)),
    Bom("utf-16-le", "utf-16", len(codecs.BOM_UTF16_LE)),
    Bom("utf-16-be", "utf-16", len(codecs.BOM_UTF16_BE)),
)
_BYTES = (codecs.BOM_UTF32_LE, codecs.BOM_UTF32_BE, codecs.BOM_UTF8, codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)


def byte_order_mark(data: bytes, *, utf32: bool = True) -> Bom | None:
    """The encoding the data's byte-order mark names, if any.

    `utf32=False` for the formats that read UTF-8 and UTF-16 only: there a UTF-32 LE mark
    reads as a UTF-16 LE one, as it always has.
    """
    for mark, bom in zip(_BYTES, _MARKS):
        if (utf32 or bom.length != 4) and data.startswith(mark):
            return bom
    return None


def sniff(data: bytes, *, default: str = "utf-8") -> tuple[str, int]:
    """(codec, BOM length) for a UTF-8/UTF-16 text format; `default` when there is no mark."""
    bom = byte_order_mark(data, utf32=False)
    return (bom.codec, bom.length) if bom else (default, 0)


def head_text(head: bytes, *, default: str = "utf-8", errors: str = "ignore") -> str:
    """A file's head as text for `identify`, which must never raise: by its mark, else `default`.

    Bytes after a mark that do not decode are dropped; without a mark, `errors` says what
    becomes of them.
    """
    bom = byte_order_mark(head, utf32=False)
    if bom:
        return head[bom.length :].decode(bom.codec, errors="ignore")
    return head.decode(default, errors=errors)


def utf16_by_nuls(data: bytes) -> str | None:
    """BOM-less UTF-16 shows itself by NUL bytes in every other position of mostly-ASCII text."""
    sample = data[:4096]
    half = len(sample) // 2
    if half < 2:
        return None
    even_nuls, odd_nuls = sample[0::2].count(0), sample[1::2].count(0)
    if odd_nuls > 0.7 * half and even_nuls < 0.05 * half:
        return "utf-16-le"
    if even_nuls > 0.7 * half and odd_nuls < 0.05 * half:
        return "utf-16-be"
    return None


def wide_encoding(data: bytes) -> str | None:
    """UTF-16/32 by its mark (a codec that strips the mark), or BOM-less UTF-16 by its NUL bytes."""
    bom = byte_order_mark(data)
    if bom and bom.codec != "utf-8":
        return bom.whole_codec
    return utf16_by_nuls(data)
