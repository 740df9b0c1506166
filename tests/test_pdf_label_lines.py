"""A table printed one cell a line (label, then its value on the next line) read from a PDF as from its text.

Chromium prints such a page as short lines stacked at one left edge; PDFium's text page then guesses a
vertical text flow and gives the first glyph of each label at the end of the value above ("2C" /
"opies per database"). A page break sets no blank line, and a PDF prints none between the table's last
row and the heading after it: the table is one block all the same.
"""

from __future__ import annotations

import re

import pypdfium2 as pdfium
import pytest

from esrpdb.ingest.formats import document as document_text
from esrpdb.ingest.formats.document.label_lines import paired_lines
from esrpdb.ingest.formats.document.lines import split_lines
from esrpdb.ingest.formats.document.tables import CAPTION
from esrpdb.ingest.pdf import layout as pdf_layout
from tests.pdf_renderings import print_pdf, seed_html

LABELS = ["Databases per host", "Copies per database", "Mailboxes per database", "Number of storage ports",
          "HBA QueueDepth Setting", "Multi-Pathing", "Storage cache", "Number of storage controllers",
          "Host OS", "Log LUN size"]
AFTER = ["Best Practices", "Exchange server is a disk-intensive application. Based on the testing run using the",
         "framework, we would recommend the following to improve the storage performance."]


def _table_text(pairs: int, after: list[str] = AFTER) -> str:
    """A caption, `pairs` label/value lines, a blank line, then a heading and its prose."""
    cells = [line for n in range(pairs) for line in (LABELS[n % len(LABELS)], str(n + 2))]
    return "\n".join(["Table 1 – Storage Configuration", *cells, "", *after])


def _rows(path_or_name, data: bytes) -> list[tuple[str, tuple[str, ...]]]:
    doc = document_text.parse(path_or_name, data)
    return [(row.label, row.values) for table in doc.tables for row in table.rows]


@pytest.mark.browser(driver=False)
def test_a_label_under_a_figure_keeps_its_first_letter(tmp_path):
    pdf = tmp_path / "labels.pdf"
    print_pdf(seed_html(_table_text(20, after=[]), title="labels", plain_tables=True), pdf)
    document = pdfium.PdfDocument(str(pdf))
    try:  # the quirk this reads past: PDFium's own text runs a figure into the next label's first letter
        assert re.search(r"\d[A-Z]\r\n", document[0].get_textpage().get_text_range())
    finally:
        document.close()
    lines = [line.strip() for line in pdf_layout.extract_layout(pdf.name, pdf.read_bytes()).text.splitlines()]
    expected = [line for line in _table_text(20, after=[]).splitlines() if line]
    start = lines.index(expected[0])  # (under Chromium's running header, over its footer)
    assert lines[start:start + len(expected)] == expected


@pytest.mark.browser(driver=False)
def test_a_table_one_cell_a_line_over_page_breaks_reads_as_its_text(tmp_path):
    """Three pages (their running header and footer left out), no blank line at a page break or before the
    heading after the table: the PDF's table has the text's rows, every one."""
    text = _table_text(70)
    pdf = tmp_path / "pages.pdf"
    print_pdf(seed_html(text, title="pages", plain_tables=True), pdf)
    assert len(pdf_layout.extract_layout(pdf.name, pdf.read_bytes()).page_starts) >= 3
    from_text = _rows("pages.txt", text.encode())
    assert len(from_text) == 70
    assert _rows(pdf.name, pdf.read_bytes()) == from_text


def test_a_table_with_no_blank_line_after_it_ends_at_its_last_figure():
    """The heading and prose right under the table (no blank line between) are not read as a row."""
    text = _table_text(4).replace("\n\n", "\n")
    lines = paired_lines(split_lines(text, []), set(), CAPTION)
    rows = [line.cells for line in lines if line.separated]
    assert rows == [(LABELS[n], str(n + 2)) for n in range(4)]
    assert [line.text for line in lines[-len(AFTER):]] == AFTER  # left as the prose they are


def test_a_page_starts_and_ends_with_no_blank_line():
    assert pdf_layout._body(["", "Number of hosts", "", "2", ""], set()) == ["Number of hosts", "", "2"]
    assert pdf_layout._body(["", ""], set()) == []


def test_a_figure_next_to_the_running_header_is_no_page_number():
    """A page number stands outermost; a table's figure on the line under the header stays, and a line
    shaped like the furniture stays anywhere but at the page's edges."""
    pages = [["Acme ESRP", "2", "Copies per database", "3", "1"], ["Acme ESRP", "4", "Host OS", "5", "2"],
             ["Acme ESRP", "6", "Storage cache", "7", "Acme ESRP", "Mailboxes", "3"]]
    furniture = pdf_layout._furniture(pages)
    assert furniture == {"Acme ESRP", "#"}
    assert pdf_layout._body(pages[1], furniture) == ["4", "Host OS", "5"]
    assert pdf_layout._body(pages[2], furniture) == ["6", "Storage cache", "7", "Acme ESRP", "Mailboxes"]


@pytest.mark.browser(driver=False)
def test_words_set_at_an_angle_stay_whole(tmp_path):
    """A word whose glyphs climb from baseline to baseline because it is set at an angle (a chart's slanted
    label) is no run of two lines: it is not cut."""
    pdf = tmp_path / "slanted.pdf"
    print_pdf("<html><body style='font-size: 10pt'><p>Achieved IOPS by run</p><div style='margin: 60pt'>"
              "<span style='display: inline-block; transform: rotate(30deg)'>Slanted words here</span></div>"
              "</body></html>", pdf)
    words = pdf_layout.extract_layout(pdf.name, pdf.read_bytes()).text.split()
    assert {"Slanted", "words"} <= set(words), words
