"""A PDF page's words with their boxes, from PDFium's text page: what page.py lays out.

Three calls a word (the first glyph's origin, the last glyph's box, the type size once a line), not
one a glyph; see pdfium_calls.py for why they are declared as they are.
"""

from __future__ import annotations

import ctypes
import re
from dataclasses import dataclass

from .pdfium_calls import calls, handle
from .text import MAX_PAGE_CHARS

_WORD = re.compile(r"\S+")


@dataclass(slots=True)
class Word:
    text: str
    x0: float
    x1: float
    y: float  # baseline, points from the page's bottom
    size: float
    glued: bool = False  # the rest of the word before it, broken for room (see page._joined): printed with no space


def page_words(raw, textpage) -> list[Word]:
    """Every word of the page (text split at white space) with its box and type size."""
    count = raw.FPDFText_CountChars(textpage)
    if count <= 0:
        return []
    buffer = ctypes.create_string_buffer((count + 1) * 2)
    written = raw.FPDFText_GetText(textpage, 0, count, ctypes.cast(buffer, ctypes.POINTER(ctypes.c_ushort)))
    text = buffer.raw[: max(written - 1, 0) * 2].decode("utf-16-le", errors="replace")
    values = (ctypes.c_double * 4)()  # x, y, right, unused: PDFium writes them; pdfium_calls.py says why so
    at_x, at_y, at_right, at_unused = (ctypes.c_void_p(ctypes.addressof(values) + 8 * n) for n in range(4))
    pdfium, text_handle = calls(raw), ctypes.c_void_p(handle(textpage))
    char_origin, char_box, font_size = pdfium.char_origin, pdfium.char_box, pdfium.font_size
    words: list[Word] = []
    add = words.append
    baseline, size = None, 10.0
    for match in _WORD.finditer(text[:MAX_PAGE_CHARS]):  # three calls a word, the third once a line
        first, end = match.span()
        char_origin(text_handle, first, at_x, at_y)
        char_box(text_handle, end - 1, at_unused, at_right, at_unused, at_unused)  # its right edge only
        left, base, far = values[0], values[1], values[2]
        if base != baseline:  # the type size is read once a line: words of one baseline share it
            baseline, size = base, font_size(text_handle, first) or 10.0
        add(Word(match[0], left, far if far > left else left, base, size))
    return _touching(words)


TOUCHING = 0.15  # of the type size: a word space is 0.19 em or more; glyphs set one by one stand closer (a "1" 0.11)


def _touching(words: list[Word]) -> list[Word]:
    """Glyphs a printer set one by one ("1 2 / 2 / 2 6" of a browser's page header), which PDFium's text
    parts with spaces, joined back into the words they print; real word spaces stay."""
    out: list[Word] = []
    for word in words:
        last = out[-1] if out else None
        if last is not None and last.y == word.y and abs(word.x0 - last.x1) < TOUCHING * word.size:
            out[-1] = Word(last.text + word.text, last.x0, max(last.x1, word.x1), last.y, last.size, last.glued)
        else:
            out.append(word)
    return out
