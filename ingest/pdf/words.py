"""A PDF page's words with their boxes, from PDFium's text page: what page.py lays out.

Three calls a word (the first glyph's origin, the last glyph's box, the type size once a line), not
one a glyph; see pdfium_calls.py for why they are declared as they are.
"""

from __future__ import annotations

import ctypes
import math
import struct
from dataclasses import dataclass

from .pdfium_calls import argument, calls, handle, out_at
from .text import MAX_PAGE_CHARS

_MARKED_HYPHEN = "\ufffe"  # PDFium's text gives a hyphen it takes for a line-end break so; it prints "-"


@dataclass(slots=True)
class Word:
    """A word of a page with its box: what page.py lays out."""

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
    text = buffer.raw[: max(written - 1, 0) * 2].decode("utf-16-le", errors="replace").replace(_MARKED_HYPHEN, "-")
    values = (ctypes.c_double * 6)()  # x, y, right, bottom, top, unused: PDFium writes them; pdfium_calls.py says why so
    at = tuple(out_at(values, n) for n in range(6))  # made once a page (_by_line takes them too)
    at_x, at_y, at_right, at_bottom, at_top, at_unused = at
    pdfium, text_handle = calls(raw), argument(handle(textpage))
    char_origin, char_box, font_size = pdfium.char_origin, pdfium.char_box, pdfium.font_size
    read = _FIVE_DOUBLES.unpack_from
    words: list[Word] = []
    append = words.append
    last: Word | None = None  # words[-1], kept at hand: the loop below runs for every word of a page
    baseline, size, above, touching = None, 10.0, 0.0, 0.0
    text = text[:MAX_PAGE_CHARS]
    find, end = text.find, 0
    for word in text.split():  # three calls a word, the third once a line
        first = find(word, end)  # where the word starts: after the white space split() dropped (\S+ runs, no regex:
        end = first + len(word)  # 0.04 s of 274,000 words)
        char_origin(text_handle, first, at_x, at_y)
        char_box(text_handle, end - 1, at_unused, at_right, at_bottom, at_top)  # the last glyph's box, its left aside
        left, base, far, bottom, top = read(values)
        if base != baseline:  # the type size is read once a line: words of one baseline share it (and its bounds)
            baseline, size = base, font_size(text_handle, first) or 10.0
            above, touching = base + OFF_BASELINE * size, TOUCHING * size
        if top < base or bottom > above:  # the last glyph may stand on another line
            for piece in _by_line(pdfium, text_handle, word, first, values, at):
                _add_touching(words, piece)
            baseline, last = None, words[-1] if words else None
            continue
        far = far if far > left else left
        if last is not None and last.y == base and abs(left - last.x1) < touching:  # _add_touching, written out
            words[-1] = last = Word(last.text + word, last.x0, far if far > last.x1 else last.x1, base, last.size,
                                    last.glued)
        else:
            append(last := Word(word, left, far, base, size))
    return words


_FIVE_DOUBLES = struct.Struct("5d")  # x, y, right, bottom, top read at once
_TWO_DOUBLES = struct.Struct("2d")  # a glyph's origin (x, y)

OFF_BASELINE = 0.1  # of the type size: a glyph whose box starts this far above the word's baseline is checked
SAME_LINE = 0.35  # of the type size: baselines this close are one line (page._group lays lines out by it)
UPRIGHT = 0.01  # radians: a glyph turned less than this is upright


def _by_line(pdfium, text_handle, word: str, first: int, values, at: tuple) -> list[Word]:
    """A run of glyphs PDFium's text gives with no break between them, cut where a glyph stands on another
    line. PDFium breaks its text into lines by its guess of the page's text flow; on a page of short lines
    stacked at one left edge it can guess a vertical flow, and then the first glyph of a line, at the
    x where the line above starts, is given as the end of the line above ("4C" / "opies per database").
    Read glyph by glyph only when the run's last glyph is off its first one's baseline (or an accent,
    a dash or a superscript stands above it): a few words of a page, not all. A word set at an angle
    crosses baselines by design: it is kept whole, as PDFium gives it. (`at`: page_words' out-parameters into
    `values`, not made again for each of a page's few such words.)"""
    angle = pdfium.char_angle(text_handle, first)
    if angle >= 0 and min(angle, 2 * math.pi - angle) > UPRIGHT:
        pdfium.char_origin(text_handle, first, at[0], at[1])
        left, base = values[0], values[1]
        pdfium.char_box(text_handle, first + len(word) - 1, at[5], at[2], at[5], at[5])
        return [Word(word, left, values[2] if values[2] > left else left, base, _size(pdfium, text_handle, first))]
    origins = []
    char_origin, at_x, at_y, read = pdfium.char_origin, at[0], at[1], _TWO_DOUBLES.unpack_from
    for index in range(first, first + len(word)):
        char_origin(text_handle, index, at_x, at_y)
        origins.append(read(values))  # (x, y) at once
    pieces: list[Word] = []
    start, size = 0, _size(pdfium, text_handle, first)
    for offset in range(1, len(word) + 1):
        if offset < len(word) and abs(origins[offset][1] - origins[start][1]) <= SAME_LINE * size:
            continue
        pdfium.char_box(text_handle, first + offset - 1, at[5], at[2], at[5], at[5])  # the piece's right edge
        (left, base), far = origins[start], values[2]
        pieces.append(Word(word[start:offset], left, far if far > left else left, base, size))
        if offset < len(word):
            start, size = offset, _size(pdfium, text_handle, first + offset)
    return pieces


def _size(pdfium, text_handle, index: int) -> float:
    """The glyph's type size, 10 where PDFium knows none (as page_words takes it)."""
    return pdfium.font_size(text_handle, index) or 10.0


TOUCHING = 0.15  # of the type size: a word space is 0.19 em or more; glyphs set one by one stand closer (a "1" 0.11)


def _add_touching(words: list[Word], word: Word) -> None:
    """Add the word, or join it to the word before it when the two touch: glyphs a printer set one by one
    ("1 2 / 2 / 2 6" of a browser's page header), which PDFium's text parts with spaces, are joined back
    into the words they print; real word spaces stay."""
    last = words[-1] if words else None
    if last is not None and last.y == word.y and abs(word.x0 - last.x1) < TOUCHING * word.size:
        words[-1] = Word(last.text + word.text, last.x0, max(last.x1, word.x1), last.y, last.size, last.glued)
    else:
        words.append(word)


def _touching(words: list[Word]) -> list[Word]:
    """The words with those that touch joined (_add_touching), in one pass."""
    out: list[Word] = []
    for word in words:
        _add_touching(out, word)
    return out
