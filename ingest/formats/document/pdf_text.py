"""PDF bytes -> document text, page by page, with pypdf (pure Python, no network, no external tools).

Layout-mode extraction keeps table columns apart with runs of spaces, which the document
reader splits into cells. Encrypted PDFs and PDFs pypdf cannot read are refused with a
`ParseError` naming the file; pages and bytes are capped so a hostile file cannot make the
reader run away.
"""

from __future__ import annotations

import io
import logging
import re
from dataclasses import dataclass, field

from ...errors import ParseError

MAX_PDF_BYTES = 64 * 1024 * 1024
MAX_PAGES = 2000  # ESRP submissions run to a few dozen pages, bound volumes to hundreds
MAX_PAGE_CHARS = 400_000  # text of one page; more is cut with a warning


@dataclass
class PdfText:
    text: str
    page_starts: list[int] = field(default_factory=list)  # line number of each page's first line
    warnings: list[str] = field(default_factory=list)

    def page_of(self, line: int) -> int:
        page = 0
        for number, start in enumerate(self.page_starts, start=1):
            if start <= line:
                page = number
        return page


def _open(name: str, data: bytes):
    """A pypdf reader over the bytes and its page count; ParseError for what pypdf cannot open or decrypt."""
    try:
        import pypdf  # imported here: the other formats work without it
        from pypdf.errors import PyPdfError
    except ImportError:  # pragma: no cover - a deployment without the dependency
        raise ParseError(name, "reading PDF needs the pypdf package (pip install pypdf)") from None
    try:
        reader = pypdf.PdfReader(io.BytesIO(data), strict=False)
        if reader.is_encrypted:
            raise ParseError(name, "the PDF is encrypted; decrypt it (or export its text) first")
        return reader, len(reader.pages)
    except ParseError:
        raise
    except (PyPdfError, ValueError, KeyError, TypeError, AttributeError, IndexError, RecursionError, OSError) as error:
        raise ParseError(name, f"pypdf cannot read this PDF: {error or type(error).__name__}") from None


def extract_text(name: str, data: bytes) -> PdfText:
    """The text of every page, in order; a page that yields no text only adds a warning."""
    if len(data) > MAX_PDF_BYTES:
        raise ParseError(name, f"PDF is {len(data):,} bytes; PDFs larger than {MAX_PDF_BYTES:,} bytes are refused")
    quiet = logging.getLogger("pypdf")
    level = quiet.level
    quiet.setLevel(logging.ERROR)  # pypdf logs every defect it tolerates; restored below
    try:
        return _extract(name, data)
    finally:
        quiet.setLevel(level)


def _extract(name: str, data: bytes) -> PdfText:
    reader, count = _open(name, data)
    if count == 0:
        raise ParseError(name, "the PDF has no pages")
    result = PdfText("")
    chunks: list[str] = []
    blank_pages: list[int] = []
    line = 1
    for number in range(min(count, MAX_PAGES)):
        result.page_starts.append(line)
        try:
            page_text = reader.pages[number].extract_text(extraction_mode="layout") or ""
        except Exception as error:  # noqa: BLE001 - pypdf raises many kinds on damaged content streams
            result.warnings.append(f"line {line} (page {number + 1}): page text could not be extracted: "
                                   f"{error or type(error).__name__}")
            page_text = ""
        if len(page_text) > MAX_PAGE_CHARS:
            result.warnings.append(f"line {line} (page {number + 1}): page text is {len(page_text):,} characters; "
                                   f"only the first {MAX_PAGE_CHARS:,} were read")
            page_text = page_text[:MAX_PAGE_CHARS]
        page_text = "\n".join(row.rstrip() for row in page_text.replace("\r\n", "\n").split("\n")).strip("\n")
        if not page_text.strip():
            blank_pages.append(number + 1)
        chunks.append(page_text)
        line += page_text.count("\n") + 2  # each page is followed by one blank line
    if count > MAX_PAGES:
        result.warnings.append(f"line {line} (page {MAX_PAGES + 1}): the PDF has {count} pages; only the first "
                               f"{MAX_PAGES} were read")
    result.text = "\n\n".join(chunks)
    if not result.text.strip():
        raise ParseError(name, f"no page has a text layer ({_pages(blank_pages)}: scanned images?); run OCR on "
                               "the PDF first (for example ocrmypdf), then ingest the result")
    for page in blank_pages:
        result.warnings.append(f"line {result.page_starts[page - 1]} (page {page}): the page has no text layer "
                               "(a scanned page?); its content needs OCR to be read")
    return result


def _pages(numbers: list[int]) -> str:
    return f"page {numbers[0]}" if len(numbers) == 1 else f"pages {numbers[0]}–{numbers[-1]}"


_LINE_REF = re.compile(r"\bline (\d+)\b(?! \(page)")


def with_pages(warning: str, pdf: PdfText) -> str:
    """"line 40: …" -> "line 40 (page 2): …", so a PDF reader knows where to look."""
    return _LINE_REF.sub(lambda m: f"{m[0]} (page {pdf.page_of(int(m[1]))})", warning, count=1)
