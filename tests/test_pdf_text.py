"""PDF documents: text read by glyph position (pdf_layout), then read exactly like document text.

The PDFs are written byte by byte (tests/helpers.make_pdf: Helvetica text placed at x/y positions), so the test
needs no fixture file and shows what layout the reader relies on: columns apart on the page.
"""

from __future__ import annotations

import io

import pypdf
import pytest

from esrpdb.ingest.errors import ParseError
from esrpdb.ingest.formats import document as document_text
from esrpdb.ingest.parallel import forked
from esrpdb.ingest.pdf import layout as pdf_layout, page as pdf_page, text as pdf_text
from tests.helpers import HEADERS, REPORT_PAGES, make_pdf


def test_a_pdf_report_reads_through_the_text_path():
    data = make_pdf(REPORT_PAGES)
    assert document_text.identify("esrp.pdf", data[:8192])
    doc = document_text.parse("esrp.pdf", data)
    (report,) = doc.reports
    assert (report.report_type, report.machine_name, report.achieved_iops) == ("Performance", "PDF-MBX01", 1573.982)
    (table,) = report.io_tables
    assert table.headers == tuple(HEADERS)
    assert [(r.instance, r.db_read_latency, r.db_reads_per_s, r.log_writes_per_s) for r in table.rows] == [
        ("Instance2836.1", 16.661, 122.475, 60.743), ("Instance2836.2", 16.385, 123.673, 60.603)]
    assert report.thresholds.db_read_avg == 20
    # Warnings point at the line of the extracted text and at the page.
    assert report.warnings and all(" (page 1): " in w for w in report.warnings if w.startswith("line 5 "))
    assert any('"Host System Performance" is missing' in w for w in report.warnings)


def test_page_numbers_of_extracted_lines():
    extracted = pdf_layout.extract_layout("esrp.pdf", make_pdf(REPORT_PAGES))
    assert extracted.page_starts[0] == 1 and len(extracted.page_starts) == 2
    lines = extracted.text.split("\n")
    second = extracted.page_starts[1]
    assert lines[second - 1].startswith("Contoso Storage - Confidential - Page 2")
    assert extracted.page_of(second) == 2 and extracted.page_of(second - 1) == 1
    assert pdf_text.with_pages(f"line {second}: x", extracted) == f"line {second} (page 2): x"


def _encrypted(user_password: str) -> bytes:
    writer = pypdf.PdfWriter(clone_from=io.BytesIO(make_pdf(REPORT_PAGES)))
    writer.encrypt(user_password=user_password, owner_password="owner", algorithm="RC4-128")
    buffer = io.BytesIO()
    writer.write(buffer)
    return buffer.getvalue()


def test_a_pdf_that_needs_a_password_is_refused():
    with pytest.raises(ParseError, match=r"^locked\.pdf: the PDF is encrypted"):
        document_text.parse("locked.pdf", _encrypted("secret"))


def test_a_pdf_encrypted_only_against_editing_reads_like_any_other():
    """An owner password alone (no password to open it, as many vendor PDFs are) restricts editing, not reading."""
    assert document_text.parse("restricted.pdf", _encrypted("")).reports[0].machine_name == "PDF-MBX01"


@pytest.mark.parametrize("data", [
    b"%PDF-1.4\n1 0 obj\n<< /Type /Catalog /Pages 9 0 R",  # cut short: no xref, no pages
    b"%PDF-1.7\n" + bytes(range(256)) * 40,  # noise after the signature
])
def test_a_pdf_pdfium_cannot_open_is_refused_with_the_file(data):
    with pytest.raises(ParseError) as error:
        document_text.parse("broken.pdf", data)
    assert error.value.file == "broken.pdf"
    assert str(error.value).startswith("broken.pdf: ")


def test_a_pdf_without_text_is_refused_saying_ocr_is_needed_and_where():
    with pytest.raises(ParseError, match=r"^scan\.pdf: no page has a text layer \(pages 1–2: scanned images\?\); "
                                         r"run OCR"):
        document_text.parse("scan.pdf", make_pdf([[None], [None]]))


def test_a_scanned_page_among_text_pages_is_named():
    extracted = pdf_layout.extract_layout("esrp.pdf", make_pdf([*REPORT_PAGES, [None]]))
    blank = len(REPORT_PAGES) + 1
    assert any(f"(page {blank}): the page has no text layer" in w and "OCR" in w for w in extracted.warnings)


def test_pages_are_capped(monkeypatch):
    monkeypatch.setattr(pdf_layout, "MAX_PAGES", 1)
    extracted = pdf_layout.extract_layout("esrp.pdf", make_pdf(REPORT_PAGES))
    assert len(extracted.page_starts) == 1
    assert any("the PDF has 2 pages; only the first 1 were read" in w for w in extracted.warnings)
    monkeypatch.setattr(pdf_layout, "MAX_PDF_BYTES", 100)
    with pytest.raises(ParseError, match=r"^big\.pdf: PDF is [\d,]+ bytes"):
        pdf_layout.extract_layout("big.pdf", make_pdf(REPORT_PAGES))


def test_a_page_of_thousands_of_tiny_glyphs_reads_or_fails_in_one_line():
    """15,600 one-letter cells on one page (a hostile or dotted page): read as text, or refused by page."""
    crowded = [[[(40 + 90 * c, "x") for c in range(60)] for _ in range(260)]]
    try:
        document = document_text.parse("crowded.pdf", make_pdf(crowded, width=5600, height=4000))
    except ParseError as error:
        assert "crowded.pdf" in str(error) and "\n" not in str(error)
    else:
        assert document.warnings is not None


def test_a_pdf_with_a_damaged_page_stream_names_the_file():
    data = make_pdf(REPORT_PAGES).replace(b"stream\n", b"stream\n\x00\xff garbage ", 1)
    try:
        document_text.parse("damaged.pdf", data)
    except ParseError as error:
        assert str(error).startswith("damaged.pdf") and "\n" not in str(error)


@pytest.mark.skipif(not forked.available(), reason="the split needs fork and two cores")
def test_a_long_pdf_read_in_two_processes_reads_as_in_one(monkeypatch):
    """A PDF of PARALLEL_PAGES or more has its second half read by a forked process: the same text,
    pages and warnings as one process reading it all, and a page the child cannot read is named."""
    data = make_pdf(REPORT_PAGES * 3)
    monkeypatch.setattr(pdf_layout, "PARALLEL_PAGES", 2)
    split = pdf_layout.extract_layout("long.pdf", data)
    monkeypatch.setattr(forked, "available", lambda: False)
    whole = pdf_layout.extract_layout("long.pdf", data)
    assert (split.text, split.page_starts, split.warnings) == (whole.text, whole.page_starts, whole.warnings)
    assert len(split.page_starts) == 6


@pytest.mark.skipif(not forked.available(), reason="the split needs fork and two cores")
def test_a_page_the_second_process_cannot_read_is_named(monkeypatch):
    crowded = [[(40 + 90 * c, "x") for c in range(60)] for _ in range(40)]
    data = make_pdf([*REPORT_PAGES, *REPORT_PAGES, crowded], width=5600, height=4000)
    monkeypatch.setattr(pdf_layout, "PARALLEL_PAGES", 2)
    monkeypatch.setattr(pdf_page, "MAX_OBJECTS", 1000)  # the forked child inherits it
    with pytest.raises(ParseError, match=r"^crowded\.pdf: page 5: the page holds 2,400 objects"):
        pdf_layout.extract_layout("crowded.pdf", data)
