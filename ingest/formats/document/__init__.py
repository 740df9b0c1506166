"""ESRP submissions and vendor whitepapers (plain text, Markdown, or PDF) -> `ReportDocument`.

Analysts rarely have Jetstress HTML files; they have the documents that print the reports in
their appendices, and tables of results around them. This format reads both: every embedded
report becomes the `JetstressReport` the HTML parser would make of the same report, every other
table a `DocumentTable`. Tolerance is the point: what cannot be read is skipped with a warning
naming its line, and a document fails only when it is empty, binary, undecodable or holds no
report and no table.

Modules: `identify` (head or whole text; all this package loads itself), `reader` (`parse`), `lines`
(decoding, cleaning, cells), `furniture` (running headers and footers, page numbers), `reports` (finding
reports and sections), `sections` and `log` (sections -> records), `tables` (tables outside the reports). A
PDF's text comes from the layout engine (`esrpdb.ingest.pdf`: text by glyph position, ruled cells whole). This
is the *read* stage: what the document prints, as records; which systems it tests is the *draft* stage's
question (`esrpdb.ingest.draft`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .document_bytes import MAX_BYTES as DOCUMENT_MAX_BYTES
from .identify import EXTENSIONS as EXTENSIONS, PDF_MAGIC as PDF_MAGIC, identify as identify, identify_rest as identify_rest
from .records import ReportDocument  # what `parse` returns (light: records only)

if TYPE_CHECKING:
    from ...pdf.text import PdfText
    from .lines import Line

FORMAT = "document_text"
MAX_BYTES = DOCUMENT_MAX_BYTES  # checked from stat before the file is read


def parse(name: str, data: bytes) -> ReportDocument:
    """Every report and table the document prints (reader.py, imported when a document is read)."""
    from .reader import parse as read_document

    return read_document(name, data)


def read_lines(name: str, data: bytes, warnings: list[str] | None = None) -> tuple[list[Line], PdfText | None]:
    """reader.py's `read_lines`: the lines `parse` reads, for a caller that wants them alone."""
    from .reader import read_lines as lines_of

    return lines_of(name, data, warnings)
