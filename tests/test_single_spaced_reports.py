"""A Jetstress report as a PDF's text layer gives it: table rows with one space between cells, thousands set
off by a space ("33 476.136"), a row's figures run together in one cell, a header printed wider than its
column. Each is the same document as the text the other tests read (fixtures/other_hands/oh_esrp_a2_02, SYNTHETIC),
printed another way, and must give the same per-instance figures. Pure."""

from __future__ import annotations

import re

from esrpdb.ingest.formats import document
from esrpdb.ingest.formats.document.spaced_rows import one_cell_row, respaced as _respaced
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


def test_glyphs_set_one_by_one_are_joined_back_into_their_words():
    from esrpdb.ingest.pdf.words import Word, _touching

    size = 10.0
    letters = [Word(ch, x, x + 5.0, 700.0, size) for ch, x in zip("Read", (0.0, 5.3, 10.5, 15.9))]
    spaced = [Word("Operations", 23.0, 70.0, 700.0, size)]  # a word space: 2 points, 0.2 em
    assert [w.text for w in _touching(letters + spaced)] == ["Read", "Operations"]
    narrow_one = [Word("7", 0.0, 5.0, 10.0, size), Word("1", 6.1, 8.0, 10.0, size), Word("7", 8.4, 13.0, 10.0, size)]
    assert [w.text for w in _touching(narrow_one)] == ["717"]


def test_a_line_at_the_top_of_many_pages_is_the_running_header_however_short():
    from esrpdb.ingest.formats.document.lines import split_lines

    page = ["12/2/26, 2:02 AM vendor_ra", "Instance1.1 9.025 261504.927", "Some prose about the test.",
            "file:///tmp/vendor_ra.html {n}/4"]
    text = "\n".join(line.format(n=n) for n in range(1, 5) for line in page)
    lines = split_lines(text, [], [1, 5, 9, 13])
    furniture = {line.text for line in lines if line.furniture}
    assert "12/2/26, 2:02 AM vendor_ra" in furniture and "file:///tmp/vendor_ra.html 3/4" in furniture
    assert not furniture & {"Instance1.1 9.025 261504.927", "Some prose about the test."}
    assert not {line.text for line in split_lines(text, []) if line.furniture} & {"12/2/26, 2:02 AM vendor_ra"}


def test_a_recovery_reports_own_statistics_stay_in_that_report():
    """"SoftRecovery Statistics - All" under "SoftRecovery Test Result Report": the report's own table, not a
    report of its own without a machine (fixtures/other_hands/oh_esrp_a1_01, SYNTHETIC)."""
    parsed = document.parse("a1_01.txt", (FIXTURES / "other_hands" / "oh_esrp_a1_01.txt").read_bytes())
    kinds = [(r.report_type, r.machine_name, len(r.backup_rows), len(r.recovery_rows)) for r in parsed.reports
             if r.report_type in ("DatabaseBackup", "SoftRecovery")]
    assert kinds == [("DatabaseBackup", "VLX-MBX1", 5, 0), ("DatabaseBackup", "VLX-MBX2", 5, 0),
                     ("SoftRecovery", "VLX-MBX1", 0, 5), ("SoftRecovery", "VLX-MBX2", 0, 5)]


def test_a_header_printed_as_one_run_of_names_is_split_into_the_names_other_tables_use():
    from esrpdb.ingest.formats.document.named_header import names_in

    known = ["Altamira AX-520 StorStack 3100i", "Altamira AX-520", "StorStack 3100i", "Marlow DS-1600"]
    assert names_in("Altamira AX-520 StorStack 3100i Marlow DS-1600", known, 3) == \
        ["Altamira AX-520", "StorStack 3100i", "Marlow DS-1600"]
    assert names_in("Altamira AX-520 and friends", known, 2) is None
    text = ("Table 1. Configurations tested\n\nItem\tAltamira AX-520\tStorStack 3100i\tMarlow DS-1600\n"
            "Disks\t40\t48\t24\nRAID level\tRAID 10\tRAID 10\tRAID 10\n\nEach system ran three times.\n\n"
            "Table 2. Three runs per system\n\nAltamira AX-520 StorStack 3100i Marlow DS-1600\n"
            "Achieved I/O per second (database)\nRun 1\t3,232\t2,078\t1,365\nRun 2\t2,993\t1,975\t1,413\n"
            "\nThe median run of each system is the one we report.\n")
    table = next(t for t in document.parse("runs.txt", text.encode()).tables if t.title.startswith("Table 2"))
    assert table.columns == ("Altamira AX-520", "StorStack 3100i", "Marlow DS-1600")
    assert [row.label for row in table.rows][:2] == ["Achieved I/O per second (database) – Run 1",
                                                      "Achieved I/O per second (database) – Run 2"]


def test_two_header_words_set_in_one_cell_beside_an_empty_one_are_two_columns():
    from esrpdb.ingest.formats.document.sections import _parted

    assert _parted(["Instances", "Reads/sec", "Writes/sec Reads", "", "Writes"], [True] * 5) == \
        ["Instances", "Reads/sec", "Writes/sec", "Reads", "Writes"]
    assert _parted(["Instances", "Average Latency", ""], [True, True, False]) == ["Instances", "Average Latency", ""]


def test_a_document_tables_figures_set_off_by_a_column_are_one_a_column():
    text = ("Table 4  Path failover\n\nVM\tAchieved IOPS\tDatabase Read latency (ms)\tDatabase Write latency (ms)\t"
            "Log Write latency (ms)\nEXC-VM01\t2,303.1\t\t1.14\t0.68 0.52\nEXC-VM02\t2,387.3\t1.02\t0.66\t0.56\n"
            "Run 1\t2,001.0\t\t1.10\t0.70\n")
    rows = {row.label: row.values for row in document.parse("failover.txt", text.encode()).tables[0].rows}
    assert rows["EXC-VM01"] == ("2,303.1", "1.14", "0.68", "0.52")
    assert rows["EXC-VM02"] == ("2,387.3", "1.02", "0.66", "0.56")
    assert rows["Run 1"] == ("2,001.0", "", "1.10", "0.70")  # a value not printed stays empty; "1" is the label's
