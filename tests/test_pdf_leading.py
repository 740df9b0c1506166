"""Issue 23: wrapped lines are joined at the paragraph's leading. A page whose paragraphs are all one
line long shows only the step between paragraphs; taken for the leading, it joined separate
one-line paragraphs (each "Database: <path>" onto the next "Instance… Log path: <path>") in a
two-column print. The document's leading (what the pages that show both steps agree on) is taken
there instead. Pure: no PDF needed."""

from __future__ import annotations

from esrpdb.ingest.pdf.layout import _document_leading
from esrpdb.ingest.pdf.page import Leading, _leading, page_leading
from esrpdb.ingest.pdf.words import Word


def _column(baselines: list[float]) -> list[list[Word]]:
    return [[Word("word", 10.0, 40.0, y, 10.0)] for y in baselines]


def test_a_page_of_wrapped_paragraphs_shows_its_leading():
    # two paragraphs of three lines at 9 pt, 11 pt between them, twice
    page = _leading([_column([500, 491, 482, 471, 462, 453, 442, 433, 424, 413, 404])])
    assert page == Leading(9.0, True)


def test_a_page_of_one_line_paragraphs_shows_only_the_step_between_them():
    page = _leading([_column([500 - 11 * n for n in range(12)])])
    assert page == Leading(11.0, False)


def test_the_document_leading_comes_from_pages_that_show_both_steps():
    pages = [([], Leading(11.0, False))] * 5 + [([], Leading(9.0, True))] * 2 + [([], Leading(7.5, True))]
    assert _document_leading(pages) == 9.0
    assert _document_leading([([], Leading(11.0, False))]) is None  # nothing shows it: pages keep their own


def test_a_wider_step_gives_way_to_the_documents_leading_and_a_narrower_one_stays():
    assert page_leading(Leading(11.0, False), 9.0) == 9.0  # the step between one-line paragraphs
    assert page_leading(Leading(9.5, False), 9.0) == 9.5  # within the tolerance: the same leading
    assert page_leading(Leading(7.5, True), 9.0) == 7.5  # smaller type on this page: its own
    assert page_leading(Leading(None, False), 9.0) is None  # no step recurs: nothing is joined
    assert page_leading(Leading(11.0, False), None) == 11.0
