"""Issue 49, item 4: the audit finds a claim's cells by place and value (an index), not by a pass over every
cell of every table (a table of 10^6 rows kept `audit` busy past 8 minutes). The findings must be the same
as the passes gave: the audit is run with the index and with the passes it replaced, and compared.
(The time is measured by benchmarks/bench_audit_rows.py, not here.)
"""

from __future__ import annotations

from dataclasses import asdict

from esrpdb.audit import audit
from esrpdb.audit.gather import AuditData, Cell, DocTable


def _scanned_on(self, line):
    return [c for c in self.cells if c.line == line]


def _scanned_labelled(self, row_label, printed):
    return [c for c in self.cells if c.row_label == row_label and c.printed == printed]


def _scanned_table(self, source_file_id, line):
    return next((t for t in self.tables.values()
                 if t.source_file_id == source_file_id and any(c.line == line for c in t.cells)), None)


def test_the_audit_with_the_index_finds_what_the_passes_found(seed_catalog, monkeypatch):
    indexed = [asdict(f) for f in audit(seed_catalog.engine).findings]
    monkeypatch.setattr(DocTable, "cells_on", _scanned_on)
    monkeypatch.setattr(DocTable, "cells_labelled", _scanned_labelled)
    monkeypatch.setattr(AuditData, "table_printing", _scanned_table)
    scanned = [asdict(f) for f in audit(seed_catalog.engine).findings]
    assert indexed and indexed == scanned


def test_the_index_answers_as_a_pass_would():
    cells = [Cell(row, column, f"row {row % 3}", f"col {column}", f"{(row * column) % 4}", float(row), line)
             for row in range(12) for column in range(3) for line in [None if row == 5 else 100 + row // 2]]
    table = DocTable(1, 7, "table", "Table 1", ["a", "b", "c"], None, 1, cells)
    for line in [None, 99, 100, 101, 105, 106]:
        assert table.cells_on(line) == _scanned_on(table, line)
    for label in ["row 0", "row 1", "row 2", "row 9", None]:
        for printed in ["0", "1", "2", "3", "x"]:
            assert table.cells_labelled(label, printed) == _scanned_labelled(table, label, printed)
    data = AuditData({}, {}, [], {}, {1: table, 2: DocTable(2, 7, "table", "Table 2", [], None, 50, cells[:6])}, [])
    for source, line in [(7, 100), (7, None), (8, 100), (7, 999)]:
        assert data.table_printing(source, line) is _scanned_table(data, source, line)


def test_a_trials_figures_found_by_value_are_the_ones_a_pass_found(seed_catalog, monkeypatch):
    """The trial's other runs offered as a claim's alternatives: those within reach of the printed value (an index
    by value, candidates/trial_figures.py) judge as every run of the trial did (reach without end)."""
    from esrpdb.audit.candidates import trial_figures

    indexed = [asdict(f) for f in audit(seed_catalog.engine).findings]
    monkeypatch.setattr(trial_figures, "reach", lambda printed, qualifier, slack: float("inf"))
    everyone = [asdict(f) for f in audit(seed_catalog.engine).findings]
    assert indexed == everyone and any("(same trial)" in f["explanation"] for f in indexed)


def test_within_reach_keeps_the_nearest_past_a_bound():
    from esrpdb.audit.candidates.trial_figures import trial_figures, within_reach
    from esrpdb.audit.gather import RunInfo
    from esrpdb.audit.terms import Candidate, parse_printed

    runs = [RunInfo(n, 1, 9, f"Run {n}", "report", "Performance", 2010, None, None, None, 1, None, {})
            for n in range(1, 8)]
    values = {1: 100.0, 2: 250.0, 3: 250.0, 4: 99.96, 5: 40.0, 6: 300.0, 7: 100.04}
    figures = trial_figures({}, runs, "k", lambda r: [Candidate(values[r.id], r.name)])
    names = lambda found: [r.name for r, _ in found]  # noqa: E731
    assert names(within_reach(figures, parse_printed("100.0"), None, 1)) == ["Run 4", "Run 7"]
    assert names(within_reach(figures, parse_printed("100.0"), "over", 1)) == ["Run 2", "Run 3", "Run 4", "Run 7"]
    assert names(within_reach(figures, parse_printed("100.0"), "under", 4)) == ["Run 1", "Run 5", "Run 7"]
    assert names(within_reach(figures, parse_printed("100"), "nearly", 7)) == ["Run 1", "Run 4"]
