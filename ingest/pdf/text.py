"""What a PDF's text is read into (`PdfText`: the text, where each page starts, warnings) and the
caps that keep a hostile file from running the reader away. The reading itself is
`layout.py` (by glyph position, PDFium); `with_pages` names the page in a warning's line.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

MAX_PDF_BYTES = 64 * 1024 * 1024
MAX_PAGES = 2000  # ESRP submissions run to a few dozen pages, bound volumes to hundreds
MAX_PAGE_CHARS = 400_000  # text read from one page; a page holding more is read that far (MAX_OBJECTS refuses hostile ones)


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


_LINE_REF = re.compile(r"\bline (\d+)\b(?! \(page)")


def with_pages(warning: str, pdf: PdfText) -> str:
    """"line 40: …" -> "line 40 (page 2): …", so a PDF reader knows where to look."""
    return _LINE_REF.sub(lambda m: f"{m[0]} (page {pdf.page_of(int(m[1]))})", warning, count=1)
