"""The PDF layout engine: a vendor's PDF -> the text a document reader reads, by glyph position.

PDFium gives each page's glyphs and rules (pdfium_calls.py, words.py); page.py makes lines of
them, ruled table cells whole and wrapped labels joined, columns.py tells a two-column page's
sides apart, and layout.py reads a document's pages (a long one split across two processes) into
one text with its page numbers (text.py). Part of the *read* stage: the document format
(`esrpdb.ingest.formats.document`) reads that text as it reads a text file.
"""

PDF_MAGIC = b"%PDF-"  # how every PDF begins (here, light to import: the read-ahead checks it before any reader loads)
