"""One page of an open document and its text page, loaded by PDFium's own calls and closed when read.

pypdfium2's `PdfPage` and `PdfTextPage` wrap each handle in an object with a weakref finalizer, tracked
by its parent, so that a page left open is closed at garbage collection; a reader that closes both as
soon as it has read them pays that bookkeeping for nothing (0.1 M instructions a page; PDFium's own
loading of a page and its text takes 38 M: small, but nothing is lost for it). The calls are the
same (FPDF_LoadPage, FPDFText_LoadPage, and their Close), and so are the errors: pypdfium2's
`PdfiumError` with its own words when PDFium gives no page or no text page.
"""

from __future__ import annotations

import contextlib
from typing import Any, Iterator

from .pdfium_library import PdfiumError


@contextlib.contextmanager
def loaded_page(raw: Any, document: Any, index: int) -> Iterator[tuple[Any, Any]]:
    """(page, text page) handles of page `index` (0-based) of a pypdfium2 `PdfDocument`, closed on exit."""
    page = raw.FPDF_LoadPage(document.raw, index)
    if not page:
        raise PdfiumError("Failed to load page.")
    try:
        textpage = raw.FPDFText_LoadPage(page)
        if not textpage:
            raise PdfiumError("Failed to load text page.")
        try:
            yield page, textpage
        finally:
            raw.FPDFText_ClosePage(textpage)
    finally:
        raw.FPDF_ClosePage(page)
