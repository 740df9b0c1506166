"""Whether a file is a PDH CSV/TSV export, from its banner (what detection needs; the reader decodes
with the same encoding sniff)."""

from __future__ import annotations

from ...decoding import byte_order_mark


def _sniff_encoding(head: bytes) -> tuple[str, str, int]:
    """(codec, label, BOM length). BOM-less UTF-16 is recognised by its first characters."""
    bom = byte_order_mark(head, utf32=False)
    if bom:
        return bom.codec, "utf-8-sig" if bom.codec == "utf-8" else bom.codec, bom.length
    if head[:2] in (b'"\x00', b"(\x00", b"\r\x00"):
        return "utf-16-le", "utf-16-le", 0
    if head[:2] in (b'\x00"', b"\x00(", b"\x00\r"):
        return "utf-16-be", "utf-16-be", 0
    return "utf-8", "utf-8", 0


def identify(name: str, head: bytes) -> bool:
    """A PDH banner ``(PDH-CSV`` / ``(PDH-TSV`` first (after typeperf's blank line)."""
    codec, _, bom = _sniff_encoding(head)
    text = head[bom:].decode(codec, errors="ignore").lstrip().lstrip('"')
    return text.startswith(("(PDH-CSV", "(PDH-TSV"))
