"""Hostile PDFs written byte by byte for the reader's limits (issue 34, item 2): small files that
inflate to gigabytes, or pages that share one content stream of very many objects.

Compression is streamed, so writing a 1 GiB bomb never holds 1 GiB here.
"""

from __future__ import annotations

import zlib
from pathlib import Path

SLICE = 1 << 20


def _flate(filler: bytes, total_bytes: int) -> bytes:
    """`filler` repeated to `total_bytes`, deflated a slice at a time (spaces compress about 1,000 to 1)."""
    deflater = zlib.compressobj(9)
    block = filler * max(1, SLICE // len(filler))  # whole fillers: a slice never cuts one in two
    parts = []
    left = total_bytes
    while left > 0:
        parts.append(deflater.compress(block[:min(left, len(block))]))
        left -= len(block)
    parts.append(deflater.flush())
    return b"".join(parts)


def _document(objects: list[bytes]) -> bytes:
    """Objects numbered from 1; the last is the catalogue."""
    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d /Root %d 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, len(objects), xref)
    return bytes(out)


def _stream(data: bytes, extra: bytes = b"") -> bytes:
    return b"<< /Length %d /Filter /FlateDecode%s >>\nstream\n" % (len(data), extra) + data + b"\nendstream"


def _pages(content: int, count: int, first_page: int) -> list[bytes]:
    """`count` page objects numbered from `first_page`, all drawing content object `content`, then their parent."""
    parent = first_page + count
    pages = [b"<< /Type /Page /Parent %d 0 R /MediaBox [0 0 612 792] /Contents %d 0 R >>" % (parent, content)
             for _ in range(count)]
    kids = b" ".join(b"%d 0 R" % (first_page + n) for n in range(count))
    return [*pages, b"<< /Type /Pages /Kids [%s] /Count %d >>" % (kids, count)]


def inflating_pdf(decompressed_bytes: int, *, marked_as_image: bool = False) -> bytes:
    """One page whose content stream is `decompressed_bytes` of spaces, deflated (1 GiB: a file of about 1 MB).
    `marked_as_image`: its dictionary says /Subtype /Image, which PDFium ignores for a page's content."""
    extra = b" /Subtype /Image" if marked_as_image else b""
    objects = [_stream(_flate(b" ", decompressed_bytes), extra), *_pages(1, 1, 2)]
    return _document([*objects, b"<< /Type /Catalog /Pages %d 0 R >>" % len(objects)])


def crowded_pdf(pages: int, objects_per_page: int) -> bytes:
    """`pages` pages sharing one content stream of `objects_per_page` filled squares."""
    squares = b"0 0 1 1 re f\n"
    objects = [_stream(_flate(squares, len(squares) * objects_per_page)), *_pages(1, pages, 2)]
    return _document([*objects, b"<< /Type /Catalog /Pages %d 0 R >>" % len(objects)])


def write(path: Path, data: bytes) -> Path:
    path.write_bytes(data)
    return path
