"""PDFium's process-wide state made once in the process that forks the readers, not once a reader.

PDFium sets up its font manager, FreeType and character maps the first time a process reads a page's
text. Every PDF of a batch is read in a forked child (budget.py, parallel/read_ahead.py), and the
batch's own process never reads one, so each child paid that setup anew: measured, a sixth of the
children's CPU on 40 PDFs of 24 pages (5.34 s against 4.52 s once the parent had read one page).
Reading one line of a built-in one-page PDF here, before the first fork, leaves that state in memory
the children share.
"""

from __future__ import annotations

_prepared = False


def _one_line_pdf() -> bytes:
    """A one-page PDF printing one line in a standard font (no file on disk to find or trust)."""
    stream = b"BT /F1 9 Tf 40 40 Td (Jetstress) Tj ET"
    objects = [b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
               b"<< /Length %d >>\nstream\n%s\nendstream" % (len(stream), stream),
               b"<< /Type /Page /Parent 4 0 R /MediaBox [0 0 200 100] /Resources << /Font << /F1 1 0 R >> >> "
               b"/Contents 2 0 R >>",
               b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
               b"<< /Type /Catalog /Pages 4 0 R >>"]
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n%s\nendobj\n" % (number, body)
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d /Root 5 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)
    return bytes(out)


def prepare_pdf_reader() -> None:
    """Import PDFium and read one page's text in this process, once (see the module docstring)."""
    global _prepared
    if _prepared:
        return
    _prepared = True
    import pypdfium2 as pdfium

    document = pdfium.PdfDocument(_one_line_pdf())
    try:
        page = document[0]
        textpage = page.get_textpage()
        textpage.get_text_range()
        textpage.close()
        page.close()
    finally:
        document.close()
