"""An average outside its own minimum and maximum in a document's own table (audit/findings/table_ranges.py),
read through a header of groups over sub-columns (ingest/formats/document/tables.py, `_grouped_header`).

The table is an array manager's latency table in a bench document by other hands
(fixtures/other_hands/oh_vendor-ra_a3_02, SYNTHETIC; planted by its author: EXCH-MB03's read average
9.8 ms above its maximum 8.1 ms, line 97); the array's own columns are never judged against the hosts'
Jetstress reports (an extreme, or the array's measurement, is not the report's average).
"""

from __future__ import annotations

import pytest

from esrpdb.audit import audit
from esrpdb.ingest.formats import document
from esrpdb.ingest.pipeline import ingest_paths
from tests.helpers import FIXTURES, TEMPLATE, scratch_database

A3_02 = FIXTURES / "other_hands" / "oh_vendor-ra_a3_02.txt"

GROUPED = """Table 1. Array latency (ms)

             Array read latency           Jetstress
Volume set      Avg   Min    Max       DB read avg
HOST-A          8.3   2.5   23.3              10.1
HOST-B          9.8   2.5    8.1              11.2
"""


def test_a_header_of_groups_names_each_column_by_group_and_sub_column():
    parsed = document.parse("grouped.txt", GROUPED.encode())
    table = next(t for t in parsed.tables if t.title.startswith("Table 1"))
    assert table.columns == ("Array read latency Avg", "Array read latency Min", "Array read latency Max",
                             "Jetstress DB read avg")
    assert [row.label for row in table.rows] == ["HOST-A", "HOST-B"]


@pytest.fixture(scope="module")
def a3_02(pg_server, template_url):
    from esrpdb.db.catalog import open_catalog

    with scratch_database(pg_server, "ranges", TEMPLATE) as url:
        catalog = open_catalog(url)
        try:
            ingest_paths(catalog.engine, [A3_02])
            return audit(catalog.engine).findings
        finally:
            catalog.close()


def test_an_average_above_its_maximum_in_a_document_table_is_a_mismatch(a3_02):
    found = [f for f in a3_02 if f.kind == "average_outside_range" and f.metric == "table_average"]
    assert [(f.line, f.printed, f.verdict) for f in found] == [(97, "9.8", "mismatch")]
    assert found[0].inputs["maximum"] == 8.1 and "EXCH-MB03" in found[0].explanation


def test_the_arrays_own_columns_are_not_judged_against_the_hosts_reports(a3_02):
    assert not [f for f in a3_02 if f.verdict == "mismatch" and f.line in (95, 96, 98) and f.kind != "average_outside_range"]


def test_a_grids_header_of_groups_names_each_column_by_group_and_sub_column():
    """A PDF's ruled table gives its rows cell for cell, with no positions: each group heading stands in the
    first column it spans (SYNTHETIC, the shape of oh_vendor-ra_a3_02's Table 6 as a PDF prints it)."""
    from esrpdb.ingest.formats.document.lines import Line
    from esrpdb.ingest.formats.document.tables import _grouped_header

    rows = [Line(1, ("", "Array read latency", "", "", "Array write latency", "", "Jetstress"), True),
            Line(2, ("Volume set", "Avg", "Min", "Max", "Avg", "Max", "DB read avg"), True),
            Line(3, ("HOST-A", "8.3", "2.5", "23.3", "2.7", "9.6", "10.1"), True)]
    header, data = _grouped_header(rows)
    assert header.cells == ("Volume set", "Array read latency Avg", "Array read latency Min", "Array read latency Max",
                            "Array write latency Avg", "Array write latency Max", "Jetstress DB read avg")
    assert data is rows[2]
