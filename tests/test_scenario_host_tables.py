"""A test under an abnormal state printed only as a table of its hosts' columns, beside the baseline's reports
("Table 5. Scenario 2, controller failover: results per VM", no report of the failover): each column is that
host's run under the state, and the columns added up the test over the hosts.

The document is fixtures/other_hands/oh_vendor-ra_a3_02.txt (SYNTHETIC, written by another hand for the bench,
fixtures/README.md); the variants below rename its hosts and reword its title. Every expected figure is
computed here from the table's cells as the document reader reads them, never typed in.
"""

from __future__ import annotations

import pytest
from sqlalchemy import text

from esrpdb.ingest.draft import draft_document
from esrpdb.ingest.formats import document as document_format
from esrpdb.ingest.pipeline import ingest_paths
from tests.helpers import REPO_ROOT

SOURCE = (REPO_ROOT / "fixtures" / "other_hands" / "oh_vendor-ra_a3_02.txt").read_text(encoding="utf-8")
FAILOVER = "Table 5. Scenario 2, controller failover: results per VM"
RENAMED = {f"EXCH-MB0{n}": f"LUND-VM{n}{n}" for n in range(1, 5)}


def _renamed(source: str) -> str:
    for old, new in RENAMED.items():
        source = source.replace(old, new)
    return source


def _drafted(source: str):
    parsed = document_format.parse("paper.txt", source.encode())
    (table,) = [t for t in parsed.tables if "results per VM" in t.title and "Scenario 2" in t.title]
    achieved = next(row for row in table.rows if row.label.startswith("Achieved"))
    cells = {column.strip(): float(value.split()[0].replace(",", "")) for column, value in zip(table.columns, achieved.values)}
    (solution,) = draft_document(parsed).systems
    return solution, table, cells


@pytest.mark.parametrize("source", [SOURCE, _renamed(SOURCE), SOURCE.replace("\n", "\r\n")], ids=["as-printed", "renamed", "crlf"])
def test_each_host_column_of_a_state_no_report_gives_is_that_hosts_run_under_it(source):
    solution, table, cells = _drafted(source)
    under_state = [run for run in solution.runs if run.scenario and run.table is table]
    by_host = {run.column.strip(): run for run in under_state if run.column}
    assert set(by_host) == set(cells)
    assert all("achieved_iops" in run.rows for run in by_host.values())
    (over_hosts,) = [run for run in under_state if run.columns]
    assert set(over_hosts.columns) == set(table.columns)
    # the table's claims are judged on their own host's run, never on the baseline's reports
    placed = {claim.run for claim, _, _ in solution.claims if claim.line and table.line and claim.line > table.line
              and claim.run in {r.label for r in under_state}}
    assert placed and placed <= set(r.label for r in by_host.values())


def test_a_title_naming_no_abnormal_state_adds_no_run():
    solution, table, _ = _drafted(SOURCE.replace(FAILOVER, "Table 5. Scenario 2: results per VM"))
    assert not [run for run in solution.runs if run.table is table]


@pytest.mark.db
def test_the_catalogue_holds_each_hosts_run_and_their_sum_under_the_state(catalog, tmp_path):
    _, _, cells = _drafted(SOURCE)
    (tmp_path / "paper.txt").write_text(SOURCE, encoding="utf-8")
    outcomes = ingest_paths(catalog.engine, [tmp_path / "paper.txt"])
    assert [o.status for o in outcomes] == ["loaded"], [o.message for o in outcomes]
    with catalog.engine.connect() as conn:
        held = conn.execute(text("SELECT r.scenario, f.achieved_iops FROM runs r JOIN run_figures f ON f.run_id = r.id "
                                 "WHERE r.scenario ILIKE '%failover%'")).all()
    achieved = sorted(float(a) for _, a in held)
    assert achieved == pytest.approx(sorted([*cells.values(), sum(cells.values())]))
