"""One PDF page -> its lines and ruled rows in reading order (the geometry of layout.py).

Words come with their boxes from PDFium's text page (pdf_words.py); the page's thin rectangles
are its ruling lines; a word inside a ruled cell joins that cell however many lines it wraps over;
the other words are laid out by baseline and column as `pdftotext -layout` does, two columns of
prose read column by column (pdf_columns.py). Pure over the PDFium handles it is given (no file,
no document state).
"""

from __future__ import annotations

import bisect
import ctypes
import struct
from collections import Counter
from dataclasses import dataclass, field, replace
from itertools import chain, repeat
from operator import attrgetter

from .columns import crosses, gutter_at, prose_band, sides
from .pdfium_calls import argument, calls, handle, out_at
from .words import SAME_LINE, Word, page_words

RULE_THICKNESS = 1.6  # points: thicker is a filled box (shading), not a rule
MIN_RULE = 3.0
SNAP = 1.5  # rules this close are one edge
HEADING_SCALE = 1.15  # a line set this much larger than the page's body text is a heading
PARAGRAPH_GAP = 1.8  # a gap between lines this many times the type size is a paragraph break
_X0, _X1, _Y, _SIZE = attrgetter("x0"), attrgetter("x1"), attrgetter("y"), attrgetter("size")  # sort keys
MAX_OBJECTS = 100_000  # page objects read on one page (a seed page holds under 6,000); more is a hostile page, refused


@dataclass
class Row:
    """One band of a ruled table: its top and bottom and the x of each cell edge."""

    top: float
    bottom: float
    edges: list[float]
    cells: list[list[Word]] = field(default_factory=list)


def _snap(values: list[float]) -> list[float]:
    merged: list[float] = []
    for value in sorted(values):
        if merged and value - merged[-1] <= SNAP:
            continue
        merged.append(value)
    return merged


def _rules(raw, page) -> tuple[list[tuple[float, float, float]], list[tuple[float, float, float]]]:
    """(horizontal rules as (y, x0, x1), vertical rules as (x, y0, y1)) of one page."""
    pdfium, page_handle = calls(raw), argument(handle(page))  # as get_object takes it (pdfium_calls.py)
    count = pdfium.count_objects(page_handle)
    if count > MAX_OBJECTS:
        raise ValueError(f"the page holds {count:,} objects, more than {MAX_OBJECTS:,} (the objects-per-page limit, "
                         "MAX_OBJECTS); refused")
    get_object, bounds = pdfium.get_object, (ctypes.c_float * 4)()  # left, bottom, right, top: PDFium writes them
    left_at, bottom_at, right_at, top_at = (out_at(bounds, n) for n in range(4))
    object_bounds, read = pdfium.object_bounds, _FOUR_FLOATS.unpack_from
    as_argument = ctypes.c_void_p.from_param  # what argument() returns, without its call (92 paths a page: 0.03 s)
    horizontal: list[tuple[float, float, float]] = []
    vertical: list[tuple[float, float, float]] = []
    for index in _paths(pdfium, page_handle, count):
        if not object_bounds(as_argument(get_object(page_handle, index)), left_at, bottom_at, right_at, top_at):
            continue
        left, bottom, right, top = read(bounds)
        width, height = right - left, top - bottom
        if height <= RULE_THICKNESS and width >= MIN_RULE:
            horizontal.append(((top + bottom) / 2, left, right))
        elif width <= RULE_THICKNESS and height >= MIN_RULE:
            vertical.append(((left + right) / 2, bottom, top))
    return horizontal, vertical


_FOUR_FLOATS = struct.Struct("4f")  # read at once, as the doubles c_float.value gives


def _paths(pdfium, page_handle, count: int) -> list[int]:
    """The indexes of the page's path objects. A printed page holds some 2,000 objects, a few dozen of them
    paths (the rest glyphs): each object's type is read into one byte string (map: no loop of our own per
    object; PDFium's types are 0-5) and the paths are found in it by memchr; a path's handle is asked for
    again, which costs a few dozen calls instead of keeping 2,000 handles."""
    kinds = bytes(map(pdfium.object_type, map(pdfium.get_object, repeat(page_handle, count), range(count))))
    path = bytes([pdfium.path_type])
    found, index = [], kinds.find(path)
    while index >= 0:
        found.append(index)
        index = kinds.find(path, index + 1)
    return found


def _grid(horizontal, vertical) -> list[Row]:
    """Row bands between consecutive horizontal rules, each with the vertical rules crossing it. A rule
    crosses band i when y0 <= bottom_i + SNAP and y1 >= top_i - SNAP; both bounds fall as i grows, so the
    bands a rule crosses are consecutive, found by bisection (the same comparisons, negated), not asked of
    every rule for every band (a ruled page: hundreds of rules, a hundred bands)."""
    rows: list[Row] = []
    levels = sorted(_snap([y for y, _, _ in horizontal]), reverse=True)
    bands = list(zip(levels, levels[1:]))
    lows, highs = [-(bottom + SNAP) for _, bottom in bands], [-(top - SNAP) for top, _ in bands]  # ascending
    crossing: list[list[float]] = [[] for _ in bands]
    for x, y0, y1 in vertical:
        for index in range(bisect.bisect_left(highs, -y1), bisect.bisect_right(lows, -y0)):
            crossing[index].append(x)
    for (top, bottom), xs in zip(bands, crossing):
        if top - bottom < 2 * SNAP:
            continue
        edges = _snap(xs)
        if len(edges) >= 2:  # (every level is some rule's own y: a rule always bounds the band from above)
            rows.append(Row(top, bottom, edges, [[] for _ in edges[1:]]))
    return rows


def _place(words: list[Word], rows: list[Row]) -> list[Word]:
    """Put each word inside a ruled cell into it; return the words outside every table."""
    if not rows:
        return words
    bands = sorted(rows, key=lambda r: r.bottom)
    bottoms = [r.bottom for r in bands]  # each band's measures in lists of their own: read for every word
    tops, lefts, rights = [r.top for r in bands], [r.edges[0] for r in bands], [r.edges[-1] for r in bands]
    tallest = max(r.top - r.bottom for r in bands)
    outside: list[Word] = []
    after = bisect.bisect_right
    for word in words:
        centre = (word.x0 + word.x1) / 2
        middle = word.y + word.size * 0.3
        lowest = middle - tallest
        index = after(bottoms, middle) - 1  # the bands starting below the word, nearest first
        while index >= 0 and bottoms[index] >= lowest:
            if middle <= tops[index] and lefts[index] <= centre <= rights[index]:
                row = bands[index]
                # the last cell edge at or left of the centre (the edges ascend; the band's first is left of it)
                row.cells[after(row.edges, centre, 0, len(row.edges) - 1) - 1].append(word)
                break
            index -= 1
        else:
            outside.append(word)
    return outside


def _cell_text(words: list[Word]) -> str:
    """A cell's words in reading order, its wrapped lines joined with spaces (a line-end hyphen joins)."""
    if len(words) == 1:  # most cells hold one word (18,000 of 33,000): nothing to order or join (0.053 -> 0.043 s)
        word = words[0]
        round(word.y / (word.size * 0.5))  # the key sorting computes, kept: it raises for an infinite baseline
        return word.text
    ordered = sorted(words, key=lambda w: (-round(w.y / (w.size * 0.5)), w.x0))
    text = ""
    for word in ordered:
        if text.endswith("-") and word.text[:1].islower() and len(text) > 1 and text[-2].isalpha():
            text = text[:-1] + word.text
        else:
            text = f"{text} {word.text}" if text else word.text
    return text


@dataclass
class Style:
    """A page's measures for laying out its lines: a character's width, the left margin, the body size."""

    char: float
    margin: float
    body: float
    headings: bool = True  # a word is set as large as a heading: else _render measures no line's type (0.022 s)


def _style(words: list[Word]) -> Style:
    widths, sizes = sorted([(w.x1 - w.x0) / (len(w.text) or 1) for w in words if w.x1 > w.x0]), sorted(map(_SIZE, words))
    return Style(widths[len(widths) // 2] if widths else 5.0, min(map(_X0, words)), body := sizes[len(sizes) // 2],
                 sizes[-1] >= HEADING_SCALE * body or sum(sizes) != sum(sizes))  # (a NaN size: the last may not be largest)


def _group(words: list[Word]) -> list[list[Word]]:
    """Words in lines by baseline, top to bottom, each line left to right. (Sorted by x, then by baseline
    descending: both sorts keep the order of equals, so this is the order of the key (-y, x0), without a
    key tuple made for every word.)"""
    lines: list[list[Word]] = []
    line: list[Word] = []
    line_y = 0.0
    ordered = sorted(words, key=_X0)
    ordered.sort(key=_Y, reverse=True)
    for word in ordered:
        if line and abs(line_y - word.y) <= word.size * SAME_LINE:
            line.append(word)
        else:
            line, line_y = [word], word.y
            lines.append(line)
    for line in lines:  # (each list is this function's own: sorted in place, not copied; with the sort above, 0.005 s)
        line.sort(key=_X0)
    return lines


def _render(line: list[Word], style: Style, margin: float) -> str:
    """One line as `pdftotext -layout` sets it: phrases single-spaced, columns at their places on the page."""
    text = "## " if style.headings and max(map(_SIZE, line)) >= HEADING_SCALE * style.body else ""  # a heading's type
    previous: Word | None = None
    for word in line:
        if previous is not None and word.glued:
            text += word.text  # an overlong word's rest, from the next printed line
        elif previous is not None and word.x0 - previous.x1 < style.char * 1.5:
            text += " " + word.text  # the next word of the same phrase
        else:  # the line's first word, or a new column: at its place on the page (three spaces at least)
            gap = 3 if previous is not None else 0
            indent = round((word.x0 - margin) / style.char) if previous is not None or not text else 0
            text += " " * max(indent - len(text), gap) + word.text
        previous = word
    return text


def _ordered(lines: list[list[Word]], rows: list[Row], style: Style, width: float,
             document_leading: float | None) -> tuple[list[Item], Leading]:
    """Lines and ruled rows in reading order: a run of two-column prose is read column by column, and
    lines a word processor wrapped are joined back into the one line the text had."""
    gutter = gutter_at(lines, width)
    items: list[tuple[float, object]] = [(line[0].y, line) for line in lines]
    items += [(row.top, row) for row in rows if any(row.cells)]
    items.sort(key=lambda item: -item[0])
    out: list[Item] = []
    band: list[list[Word]] = []
    crossing = {id(line) for line in lines if crosses(line, gutter)} if gutter is not None else set()
    if gutter is not None:  # a page set in two columns has one run of prose that shows it; then all runs are
        runs, run = [], []
        for _, item in items:
            if isinstance(item, list) and id(item) not in crossing:
                run.append(item)
            else:
                runs.append(run)
                run = []
        runs.append(run)
        gutter = gutter if any(prose_band(r, gutter, style.margin) for r in runs) else None

    text_right = width - style.margin  # the text block's right edge, margins taken as equal

    own = _leading(list(sides(lines, gutter)) if gutter is not None else [lines])
    leading = page_leading(own, document_leading)

    joins = 0

    def rendered(column: list[list[Word]], margin: float, right: float) -> list[Item]:
        nonlocal joins
        joined = _joined(column, style, right, leading)
        joins += len(column) - len(joined)
        return [(line[0].y, line[-1].y, _render(line, style, margin)) for line in joined]

    def flush() -> None:
        if band and gutter is not None:
            left, right = sides(band, gutter)
            out.extend(rendered(left, style.margin, gutter - 4))
            out.extend(rendered(right, gutter, text_right))
        else:
            out.extend(rendered(band, style.margin, text_right))
        band.clear()

    margins = _margin_lines(lines, style)
    for _, item in items:
        if isinstance(item, Row):
            flush()
            out.append(_row_item(item))
        elif id(item) not in margins and (gutter is None or id(item) not in crossing):
            band.append(item)  # type: ignore[arg-type]
        else:
            flush()
            out.extend(rendered([item], style.margin, text_right))  # type: ignore[list-item]
    flush()
    return out, replace(own, joined=joins > 0)


MARGIN_GAP = 1.5  # a line this many line steps from the text block, at the page's edge: a running header/footer


def _margin_lines(lines: list[list[Word]], style: Style) -> set[int]:
    """The top and bottom lines that stand apart from the text block (set in smaller type, or in the
    margin beyond the usual line step): a running header or footer, read whole and never split into
    two columns, so that it stays at the page's edge where the document's furniture is recognised."""
    found: set[int] = set()
    if len(lines) < 3:
        return found
    steps = sorted(a[0].y - b[0].y for a, b in zip(lines, lines[1:]))
    usual = steps[len(steps) // 2]
    for edge, neighbour in ((lines[0], lines[1]), (lines[-1], lines[-2])):
        smaller = max(w.size for w in edge) < style.body - 0.5
        if smaller or abs(edge[0].y - neighbour[0].y) >= MARGIN_GAP * usual:
            found.add(id(edge))
    return found


Item = tuple[float, float, str]  # (first baseline, last baseline, text)
STEP_TOLERANCE = 0.12  # a baseline step within this share of the leading: the same paragraph


def _one_phrase(words: list[Word], style: Style) -> bool:
    phrase = style.char * 1.5
    for previous, word in zip(words, words[1:]):  # (a loop, not all() over a generator: 40% less a call, 0.01 s)
        if not word.x0 - previous.x1 < phrase:
            return False
    return True


@dataclass(frozen=True)
class Leading:
    """A page's leading as its own lines show it: the smallest baseline step that recurs within a
    column (None when none recurs), and whether a wider step recurs too (paragraph spacing on top of
    it), which shows the smallest is the step within a paragraph, not the step between paragraphs."""

    step: float | None
    shown: bool
    joined: bool = False  # the page's reading joined lines at this step (else reading it again changes nothing)


def _leading(columns: list[list[list[Word]]]) -> Leading:
    steps = Counter(round((a[0].y - b[0].y) * 2) / 2 for lines in columns for a, b in zip(lines, lines[1:]))
    recurring = sorted(step for step, times in steps.items() if step > 0 and times >= 2)
    return Leading(recurring[0] if recurring else None, len(recurring) >= 2)


def page_leading(own: Leading, document: float | None) -> float | None:
    """The leading to join this page's wrapped lines by. A page whose paragraphs are all one line long
    shows only the step between them; when that is wider than the document's leading (what the pages
    that show both steps agree on), it is no leading, and the document's is taken. A narrower one is
    the page's own (smaller type)."""
    if own.step is None or document is None or own.step <= document * (1 + STEP_TOLERANCE):
        return own.step
    return document


def _joined(lines: list[list[Word]], style: Style, column_right: float, leading: float | None) -> list[list[Word]]:
    """Wrapped lines of one column joined back: the next line follows at the paragraph's leading (no
    paragraph spacing) and its first word would not have fitted after the line's last word, which is
    why a word processor broke the line there. Table-like lines (column gaps) and headings stay."""
    if len(lines) < 2 or leading is None:
        return lines
    ink_right = max(map(_X1, chain.from_iterable(lines)))  # how far this column's own text reaches
    right = max(column_right, ink_right)
    left = min(line[0].x0 for line in lines)
    out = [lines[0]]
    tail = lines[0]  # the last printed line of out[-1]
    for line in lines[1:]:
        last, first = tail[-1], line[0]
        follows = abs(last.y - first.y - leading) <= STEP_TOLERANCE * leading
        same_type = abs(first.size - last.size) < 0.5 and first.size < HEADING_SCALE * style.body
        broken_for_room = last.x1 + style.char + (first.x1 - first.x0) > right - style.char
        if follows and same_type and broken_for_room and _one_phrase(tail, style) and _one_phrase(line, style):
            if len(tail) == 1 and _fills(last, left, ink_right, style):
                line = [replace(first, glued=True), *line[1:]]
            out[-1] = out[-1] + line
        else:
            out.append(line)
        tail = line
    return out


def _fills(word: Word, left: float, right: float, style: Style) -> bool:
    """A word alone on its line and as wide as the column's text (from its left edge to as far as any of
    its lines reach): a word longer than a line (a path), which a word processor breaks where the line
    ends; its rest starts the next line. A word that fits is never broken, and a line of one word is not
    stretched by justification, so no other word fills a column. (The page's margins are not the
    column's: a running footer may reach further than the text block.)"""
    return word.x0 <= left + style.char and word.x1 >= right - 1.5 * style.char


def _row_item(row: Row) -> Item:
    """A ruled row as one tab-separated line, each cell's wrapped lines joined."""
    return row.top, row.bottom, "\t".join(map(_cell_text, row.cells))


@dataclass(frozen=True)
class PageContent:
    """What PDFium gives of a page (its words, its ruling lines, its width): all its layout needs, kept
    so that a page laid out again at another leading (layout.py) is not read from the PDF again."""

    words: list[Word]
    horizontal: list[tuple[float, float, float]]
    vertical: list[tuple[float, float, float]]
    width: float


def page_content(raw, page, textpage) -> PageContent:
    horizontal, vertical = _rules(raw, page)
    return PageContent(page_words(raw, textpage), horizontal, vertical, raw.FPDF_GetPageWidthF(page))


def page_lines(content: PageContent, document_leading: float | None = None) -> tuple[list[tuple[float, str]], Leading]:
    """(baseline, text) of every line and ruled row of one page, in reading order, and the page's own
    leading (layout.py lays a page out again with the document's when its own is a step between
    paragraphs). Pure: the content's words are not changed."""
    rows = _grid(content.horizontal, content.vertical)
    outside = _place(content.words, rows)
    style = _style(outside) if outside else None
    items, own = _ordered(_group(outside), rows, style, content.width, document_leading) \
        if style else ([_row_item(row) for row in rows if any(row.cells)], Leading(None, False))
    spaced: list[tuple[float, str]] = []
    size, bottom = style.body if style else 10.0, None
    for top, last, text in items:  # a paragraph break is a blank line, as a text extraction prints it
        if bottom is not None and bottom - top > PARAGRAPH_GAP * min(size, 14.0) and "\t" not in text:
            spaced.append((top, ""))
        spaced.append((top, text))
        bottom = last
    return spaced, own
