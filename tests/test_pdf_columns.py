"""Two columns of prose or a table's label and value columns, decided from the words' positions
(ingest/pdf/columns.py); pure, no PDF needed."""

from __future__ import annotations

from esrpdb.ingest.pdf.columns import gutter_at, prose_band
from esrpdb.ingest.pdf.words import Word

GUTTER, MARGIN = 300.0, 50.0


def _line(y: float, left: list[str], right: list[str]) -> list[Word]:
    words, x = [], MARGIN
    for text in left:
        words.append(Word(text, x, x + 6 * len(text), y, 10.0))
        x += 6 * len(text) + 4
    x = GUTTER + 10
    for text in right:
        words.append(Word(text, x, x + 6 * len(text), y, 10.0))
        x += 6 * len(text) + 4
    return words


def test_a_two_line_band_of_words_on_both_sides_is_two_columns_of_prose():
    """A report's short band between two full-width tables, set in two columns: 'Database Configuration /
    Instance1.1 Log path: …' beside 'Database: … / Transactional I/O Performance'."""
    band = [_line(700, ["Database", "Configuration"], ["Database:", "E:\\DB1\\x.edb"]),
            _line(688, ["Instance1.1", "Log", "path:"], ["Transactional", "I/O", "Performance"])]
    assert prose_band(band, GUTTER, MARGIN)


def test_a_two_row_label_and_value_table_is_not():
    band = [_line(700, ["Mailboxes"], ["6,000"]), _line(688, ["Copies"], ["2"])]
    assert not prose_band(band, GUTTER, MARGIN)


def test_one_line_is_never_a_band():
    assert not prose_band([_line(700, ["Database", "Configuration"], ["Database:", "E:\\x.edb"])], GUTTER, MARGIN)


def test_a_page_of_few_prose_words_finds_its_gutter():
    """A page of a report set in two columns holds mostly ruled rows: its gutter shows in a few lines."""
    lines = [_line(700, ["Database", "Configuration"], ["Database:", "E:\\DB1\\x.edb", "(main)"]),
             _line(688, ["Instance1.1", "Log", "path:"], ["Transactional", "I/O", "Performance"]),
             _line(676, ["Background", "maintenance"], ["Log", "replication", "I/O"])]
    gutter = gutter_at(lines, 2 * GUTTER)
    assert gutter is not None and lines[0][1].x1 < gutter < lines[0][2].x0
