"""A Jetstress report as a PDF's text layer gives it: table rows with one space between cells, thousands set
off by a space ("33 476.136"), a row's figures run together in one cell, a header printed wider than its
column. Each is the same document as the text the other tests read (fixtures/other_hands/oh_esrp_a2_02, SYNTHETIC),
printed another way, and must give the same per-instance figures. Pure."""

from __future__ import annotations

import re

from esrpdb.ingest.formats import document
from esrpdb.ingest.formats.document.sections import _respaced, one_cell_row
from tests.helpers import FIXTURES

SOURCE = FIXTURES / "other_hands" / "oh_esrp_a2_02.txt"


def _instances(text: str) -> list[tuple]:
    parsed = document.parse("a2_02.txt", text.encode())
    return [(r.machine_name, t.scope, row.instance, row.db_read_latency, row.db_writes_per_s, row.log_write_avg_bytes)
            for r in parsed.reports for t in r.io_tables for row in t.rows]


def test_instance_rows_with_one_space_between_cells_read_as_with_columns():
    text = SOURCE.read_text(encoding="utf-8")
    single = "\n".join(" ".join(line.split()) if re.match(r"\s*Instance\d", line) else line for line in text.split("\n"))
    assert single != text
    wide = _instances(text)
    assert wide and _instances(single) == wide


def test_a_one_cell_row_joins_a_thousands_group_only_where_that_fits_the_header():
    row = "Instance1.1 13.698 ms 5.490 ms 109.703 84.759 33 476.136 34 862.909 0.000 ms 0.673 ms 0.000 48.770 0.000 10 158.760"
    assert one_cell_row(row, 13) == ["Instance1.1", "13.698 ms", "5.490 ms", "109.703", "84.759", "33 476.136",
                                     "34 862.909", "0.000 ms", "0.673 ms", "0.000", "48.770", "0.000", "10 158.760"]
    assert one_cell_row(row, 12) is None  # no reading gives twelve cells: left as printed, never guessed
    assert one_cell_row("Instance1.1 9.780 261 715.481", 3) == ["Instance1.1", "9.780", "261 715.481"]
    assert one_cell_row("Some words of prose 12", 3) is None


def test_a_rows_first_figure_printed_with_its_name_is_its_first_column():
    cells = ["Instance8.1 10.876", "1.919 147.922", "0.000 0.516", "", ""]
    assert _respaced(cells, [7] * 5, 6)[0] == ["Instance8.1", "10.876", "1.919", "147.922", "0.000", "0.516"]


def test_a_bracketed_heading_set_under_the_stub_qualifies_the_first_column():
    text = ("Table 2. Cost and power\n\nSystem\tPrice\tPower\tPower\n(USD, as tested)\t\tunder load\tidle\n"
            "GS-1200\t$32,400\t455 W\t380 W\nAurex 20\t$58,800\t610 W\t505 W\n")
    table = document.parse("cost.txt", text.encode()).tables[0]
    assert table.columns == ("GS-1200", "Aurex 20")
    assert [row.label for row in table.rows] == ["Price (USD, as tested)", "Power under load", "Power idle"]
