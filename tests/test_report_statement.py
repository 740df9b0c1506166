"""A report's one statement: every value the parser read comes back from the catalogue as written.

The statement carries rows as JSON and lets the server convert them, so what could go wrong is a
conversion (arrays, timestamps, exact floats, text with quotes) or a child row that loses its
instance. Each report fixture is written and read back, value by value.
"""

from __future__ import annotations

import pytest
from sqlalchemy import text
from sqlalchemy.orm import Session

from esrpdb.ingest import load
from esrpdb.ingest.checks import check_report
from esrpdb.ingest.formats import jetstress_html
from esrpdb.ingest.load import report_rows
from esrpdb.ingest.load.report_statement import INSTANCE_KEY, ReportRows, write_report
from tests.conftest import FIXTURES

REPORTS = sorted((FIXTURES / "jetstress_html").rglob("*.html"))


def _parsed(path):
    return jetstress_html.parse(path.name, path.read_bytes())


@pytest.mark.parametrize("path", REPORTS, ids=lambda p: p.name)
def test_every_child_row_names_a_listed_instance(path):
    report = _parsed(path)
    rows = report_rows(1, report, check_report(report))
    names = {instance["name"] for instance in rows.instances}
    for table, table_rows in rows.children.items():
        assert {row[INSTANCE_KEY] for row in table_rows if INSTANCE_KEY in row} <= names, table


def test_a_row_naming_an_unlisted_instance_is_refused_before_any_sql():
    report = _parsed(REPORTS[0])
    rows = report_rows(1, report, [])
    latencies = [{**rows.children["latencies"][0], INSTANCE_KEY: "no such instance"}]
    broken = ReportRows(rows.identity_key, rows.run, rows.instances, {**rows.children, "latencies": latencies})
    with pytest.raises(ValueError, match="no such instance"):
        write_report(None, broken)  # refused before the connection is used


@pytest.mark.parametrize("path", REPORTS, ids=lambda p: p.name)
def test_what_the_statement_writes_reads_back_as_parsed(catalog, path):
    report = _parsed(path)
    source = load.SourceInfo("0" * 64, str(path), path.name, jetstress_html.FORMAT, "test/1", 1)
    with Session(catalog.engine) as session, session.begin():
        run_id, _ = load.load_report(session, load.claim_source_file(session, source), report)
    expected = report_rows(0, report, check_report(report))
    with catalog.engine.connect() as conn:
        run = conn.execute(text("SELECT * FROM runs WHERE id = :id"), {"id": run_id}).mappings().one()
        for column, value in expected.run.items():
            if column != "source_file_id":
                assert run[column] == value, column
        instances = conn.execute(text("SELECT name, volume_role, database_paths, log_path FROM instances "
                                      "WHERE run_id = :id ORDER BY id"), {"id": run_id}).mappings().all()
        assert [dict(row) for row in instances] == expected.instances
        events = conn.execute(text("SELECT ordinal, logged_at, message, source_line FROM log_events "
                                   "WHERE run_id = :id ORDER BY ordinal"), {"id": run_id}).mappings().all()
        assert [dict(row) for row in events] == expected.children["log_events"]
        latencies = conn.execute(text("SELECT i.name, l.* FROM latencies l JOIN instances i ON i.id = l.instance_id "
                                      "WHERE l.run_id = :id"), {"id": run_id}).mappings().all()
        written = {(row["name"], row["scope"]): row for row in latencies}
        assert len(written) == len(expected.children["latencies"])
        for row in expected.children["latencies"]:
            stored = written[(row[INSTANCE_KEY], row["scope"])]
            assert {k: stored[k] for k in row if k != INSTANCE_KEY} == {k: v for k, v in row.items() if k != INSTANCE_KEY}
