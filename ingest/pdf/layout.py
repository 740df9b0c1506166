"""PDF -> document text by glyph position (PDFium through pypdfium2): ruled table cells come back whole.

Word processors print tables as ruled cells whose long labels and headers wrap over several lines;
a text extractor that reads line by line gives "Overall Test" on one line and "Result" on the
next, and the report is lost. Here each page's words are placed by their boxes, the page's ruling
lines (thin filled or stroked rectangles) are read as a grid, and every word inside a cell joins
that cell, however many lines it wraps over. A ruled row becomes one tab-separated line, which the
document reader reads as it reads a tab-separated text table; text outside tables becomes lines
laid out like `pdftotext -layout` (columns kept apart by runs of spaces). A table continued on the
next page is one table (a repeated header row is dropped); running headers and footers (lines at
a page's top or bottom edge that repeat on most pages, digits aside) are left out.

Why PDFium: it is the fastest text engine with glyph boxes that pip installs everywhere
(docs/pdf.md has the measurements). The Python side makes three calls per word, not per glyph.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from typing import Callable

from ..errors import ParseError
from ..parallel import forked
from .budget import read_within_budget
from .page import Leading, PageContent, page_content, page_leading, page_lines
from .pdfium_library import Document, PdfiumError, library
from .pdfium_pages import loaded_page
from .text import MAX_PAGES, MAX_PDF_BYTES, PdfText

# A PDF this long has its second half read by a forked process. Shorter ones are read in one: in a batch
# both cores are busy with other PDFs anyway, and the split's fork, second opening and piped lines cost
# more than they return (24 PDFs of 18-27 pages: 2.9x pdftotext split from 8 pages, 2.5x from 64; the
# 299-page benchmark, whose long PDF sets its pace, alike).
PARALLEL_PAGES = 64
# ...unless the PDF is all the command reads (`esrpdb ingest FILE`): its second core then only waits for
# this reading once the command's imports are done. Measured on a 19-page PDF: extracted 23 ms sooner
# (0.280 -> 0.257 s from the command's first line, 7 runs each), the catalogue the same.
ALONE_PARALLEL_PAGES = 8


_meanwhile: Callable[[], None] | None = None  # reading_alone's: run once, while a forked process reads the rest


def reading_alone(meanwhile: Callable[[], None] | None = None) -> None:
    """This process reads the only file of its command: split its PDF from ALONE_PARALLEL_PAGES pages.
    `meanwhile` runs once, after this process has read its half and while the forked one still reads the
    other (which also forks and opens the PDF anew, so it ends later): what this process would do next
    anyway, done where it would wait idle (reading.py: the drafting rules imported)."""
    global PARALLEL_PAGES, _meanwhile
    PARALLEL_PAGES = ALONE_PARALLEL_PAGES
    _meanwhile = meanwhile


def _while_the_rest_is_read() -> None:
    global _meanwhile
    work, _meanwhile = _meanwhile, None
    if work is not None:
        work()


_DIGITS = re.compile(r"\d+")


def _shape(text: str) -> str:
    """A line with its digits and spacing set aside: page 3's footer has page 4's shape."""
    return " ".join(_DIGITS.sub("#", text).split())


EDGE = 2  # lines at a page's top, and at its bottom, where a running header or footer stands
_LETTER = re.compile(r"[^\W\d_]")


def _edges(lines: list[str]) -> set[int]:
    """Where on a page its running header and footer stand: its first and last EDGE printed lines, a line
    with no letter (a page number) only as the outermost one: a table printed one cell a line sets its
    figures on lines of their own, next to the header or footer as anywhere."""
    printed = [n for n, text in enumerate(lines) if text.strip()]
    outer = set(printed[:1] + printed[-1:])
    return {n for n in printed[:EDGE] + printed[-EDGE:] if n in outer or _LETTER.search(lines[n])}


def _furniture(pages: list[list[str]]) -> set[str]:
    """Lines at a page's top or bottom edge that repeat (digits, spacing aside) on at least half the pages."""
    if len(pages) < 3:
        return set()
    edges: Counter[str] = Counter()
    for lines in pages:
        edges.update({_shape(lines[n]) for n in _edges(lines)})
    return {shape for shape, count in edges.items() if count * 2 >= len(pages)}


def _body(lines: list[str], furniture: set[str]) -> list[str]:
    """A page's lines without its running header and footer (furniture at its edges: a line of the same
    shape elsewhere on the page is the page's own), and without blank lines at its top or bottom: a page
    break is no paragraph break, and such a blank line stood for the gap to the header or footer left out
    (a table printed one cell a line, run over a page break, stays one block: label_lines.py ends a
    block at a blank line)."""
    edges = _edges(lines)
    lines = [text for n, text in enumerate(lines) if n not in edges or _shape(text) not in furniture]
    first = next((n for n, text in enumerate(lines) if text.strip()), len(lines))
    last = next((n for n in range(len(lines), first, -1) if lines[n - 1].strip()), first)
    return lines[first:last]


def _continues(previous: list[str], current: list[str]) -> int:
    """1 when a page opens with the header row of the table the page before ends with (repeated), else 0."""
    if not previous or not current or "\t" not in previous[-1] or "\t" not in current[0]:
        return 0
    start = len(previous) - 1
    while start > 0 and "\t" in previous[start - 1]:
        start -= 1
    return 1 if current[0] == previous[start] and start < len(previous) - 1 else 0


def extract_layout(name: str, data: bytes) -> PdfText:
    """Every page's lines and ruled rows, in order; ParseError (file, page) for what cannot be read, or
    for a document past one of the reader's limits (budget.py: it is read in a child that has them)."""
    if len(data) > MAX_PDF_BYTES:
        raise ParseError(name, f"PDF is {len(data):,} bytes; PDFs larger than {MAX_PDF_BYTES:,} bytes are refused")
    library()  # loaded here, before the reading child forks, so no child loads it anew
    # (issue 36: 50 ms a PDF, a tenth of reading a 20-page one, in a folder read by one child per PDF)
    return read_within_budget(_extract, name, data)


def _extract(name: str, data: bytes) -> PdfText:
    raw = library()
    try:
        document = Document(raw, data)
    except PdfiumError as error:
        reason = str(error)
        if "password" in reason.casefold():
            raise ParseError(name, "the PDF is encrypted; decrypt it (or export its text) first") from None
        raise ParseError(name, f"PDFium cannot read this PDF: {reason}") from None
    try:
        return _read(name, raw, document, data)
    finally:
        document.close()


Page = tuple[list[str], Leading]  # a page's lines, and its leading as its own lines show it
Kept = dict[int, PageContent]  # by page index: the content of pages that may be laid out again (_read_again)


class _Unreadable(Exception):
    def __init__(self, number: int, reason: str) -> None:
        super().__init__(reason)
        self.number, self.reason = number, reason


@dataclass(frozen=True)
class _Failed:
    """A page range's reading stopped at page `number` (1-based) for `reason` (it may come from a child)."""

    number: int
    reason: str


def _page_range(raw, document, first: int, stop: int) -> tuple[list[Page], Kept] | _Failed:
    """The lines of pages [first, stop) and the content of those that joined lines, or where and why
    a page could not be read."""
    kept: Kept = {}
    try:
        return [_page(raw, document, number, kept) for number in range(first, stop)], kept
    except _Unreadable as error:
        return _Failed(error.number, error.reason)


def _page(raw, document, number: int, kept: Kept) -> Page:
    with loaded_page(raw, document, number) as (page, textpage):
        try:
            content = page_content(raw, page, textpage)
        except ValueError as error:
            raise _Unreadable(number + 1, str(error)) from None
    lines, leading = _laid_out(number, content)
    if leading.joined:  # it may be laid out again at the document's leading: its content is kept for that
        kept[number] = content
    return lines, leading


def _laid_out(number: int, content: PageContent, document_leading: float | None = None) -> Page:
    try:
        items, leading = page_lines(content, document_leading)
    except ValueError as error:
        raise _Unreadable(number + 1, str(error)) from None
    return [text for _, text in items], leading


def _document_leading(pages: list[Page]) -> float | None:
    """The leading most pages that show one (a wider step recurring beside it) agree on."""
    shown = Counter(leading.step for _, leading in pages if leading.shown and leading.step is not None)
    return min(shown, key=lambda step: (-shown[step], step)) if shown else None


def _read_again(pages: list[Page], kept: Kept) -> None:
    """Pages that joined lines at a leading that was a step between paragraphs, laid out again with the
    document's from their kept content (a page that joined none reads the same: only lines at that
    narrower step, which do not recur on it, could join)."""
    leading = _document_leading(pages)
    for index, (_, own) in enumerate(pages):
        if own.joined and page_leading(own, leading) != own.step:
            pages[index] = _laid_out(index, kept[index], leading)


def _pages_of(data: bytes, first: int, stop: int) -> tuple[list[Page], Kept] | _Failed:
    """Pages [first, stop) of the PDF in `data`, opened anew (in a forked process)."""
    raw = library()
    return _page_range(raw, Document(raw, data), first, stop)


def _read(name: str, raw, document, data: bytes) -> PdfText:
    count = len(document)
    if count == 0:
        raise ParseError(name, "the PDF has no pages")
    result = PdfText("")
    read = min(count, MAX_PAGES)
    half = read // 2 if read >= PARALLEL_PAGES and forked.available() else read
    child = forked.start(_pages_of, data, half, read) if half < read else None
    try:
        first_part = _page_range(raw, document, 0, half)
        if child is not None:
            _while_the_rest_is_read()
    except BaseException:
        if child is not None:
            forked.abandon(child)
        raise
    try:
        rest = forked.result(child) if child is not None else ([], {})
    except forked.ForkFailed as error:
        rest = _Failed(half + 1, str(error))
    read_pages: list[Page] = []
    contents: Kept = {}
    for part in (first_part, rest):
        if isinstance(part, _Failed):
            raise ParseError(name, f"page {part.number}: {part.reason}")
        read_pages += part[0]
        contents.update(part[1])
    _read_again(read_pages, contents)
    pages = [lines for lines, _ in read_pages]
    blank = [number for number, lines in enumerate(pages, 1) if not lines]
    furniture = _furniture(pages)
    chunks: list[str] = []
    line = 1
    previous: list[str] = []
    for lines in pages:
        kept = _body(lines, furniture)
        if _continues(previous, kept):
            kept = kept[1:]  # the header row the table repeats on its new page
        previous = kept or previous
        result.page_starts.append(line)
        chunks.append("\n".join(kept))
        line += len(kept)
    result.text = "\n".join(chunks)
    if count > MAX_PAGES:
        result.warnings.append(f"line {line} (page {MAX_PAGES + 1}): the PDF has {count} pages; only the first "
                               f"{MAX_PAGES} were read")
    if not result.text.strip():
        raise ParseError(name, f"no page has a text layer (pages 1–{len(pages)}: scanned images?); run OCR on the "
                               "PDF first (for example ocrmypdf), then ingest the result")
    for page_number in blank:
        result.warnings.append(f"line {result.page_starts[page_number - 1]} (page {page_number}): the page has no "
                               "text layer (a scanned page?); its content needs OCR to be read")
    return result
