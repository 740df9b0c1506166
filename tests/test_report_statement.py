"""A report's one statement: every value the parser read comes back from the catalogue as written.

The statement carries rows as JSON and lets the server convert them, so what could go wrong is a
conversion (arrays, timestamps, exact floats, text with quotes) or a child row that loses its
instance. Each report fixture is written and read back, value by value.
"""

from __future__ import annotations

from datetime import timedelta, timezone

import pytest
from sqlalchemy import text
from sqlalchemy.orm import Session

from esrpdb.ingest import load
from esrpdb.ingest.formats import jetstress_html
from esrpdb.ingest.jetstress.rules import check_report
from esrpdb.ingest.load import report_rows
from esrpdb.ingest.load.report_statement import INSTANCE_KEY, ReportRows, write_report
from tests.helpers import FIXTURES

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


def _with_latencies(rows: ReportRows, latencies: list[dict]) -> ReportRows:
    return ReportRows(rows.identity_key, rows.run, rows.instances, {**rows.children, "latencies": latencies})


def test_a_child_row_without_its_instance_is_refused():
    rows = report_rows(1, _parsed(REPORTS[0]), [])
    first, *others = rows.children["latencies"]
    orphan = {key: value for key, value in first.items() if key != INSTANCE_KEY}
    with pytest.raises(ValueError, match="latencies rows name instances the report does not list: \\['None'\\]"):
        write_report(None, _with_latencies(rows, [orphan, *others]))


def test_rows_of_one_table_with_different_keys_are_refused():
    rows = report_rows(1, _parsed(REPORTS[0]), [])
    first, *others = rows.children["latencies"]
    with pytest.raises(ValueError, match="different keys"):
        write_report(None, _with_latencies(rows, [first, *[{**row, "extra": 1} for row in others]]))


def test_a_time_with_a_zone_is_refused_not_shifted():
    """A report's times are local wall-clock times; JSON into a `timestamp` column would drop an offset."""
    rows = report_rows(1, _parsed(REPORTS[0]), [])
    start = rows.run["test_start"].replace(tzinfo=timezone(timedelta(hours=5)))
    with pytest.raises(ValueError, match="has a time zone"):
        write_report(None, ReportRows(rows.identity_key, {**rows.run, "test_start": start}, rows.instances,
                                      rows.children))


@pytest.mark.parametrize("path", REPORTS, ids=lambda p: p.name)
def test_what_the_statement_writes_reads_back_as_parsed(catalog, path):
    report = _parsed(path)
    source = load.SourceInfo("0" * 64, str(path), path.name, jetstress_html.FORMAT, "test/1", 1)
    with Session(catalog.engine) as session, session.begin():
        source_file_id = load.claim_source_file(session, source)
        run_id, _ = load.load_report(session, source_file_id, report)
    expected = report_rows(source_file_id, report, check_report(report))
    with catalog.engine.connect() as conn:
        run = conn.execute(text("SELECT * FROM runs WHERE id = :id"), {"id": run_id}).mappings().one()
        for column, value in expected.run.items():
            assert run[column] == value, column
        instances = conn.execute(text("SELECT name, volume_role, database_paths, log_path FROM instances "
                                      "WHERE run_id = :id ORDER BY id"), {"id": run_id}).mappings().all()
        assert [dict(row) for row in instances] == expected.instances
        events = conn.execute(text("SELECT ordinal, logged_at, message, source_line FROM log_events "
                                   "WHERE run_id = :id ORDER BY ordinal"), {"id": run_id}).mappings().all()
        assert [dict(row) for row in events] == expected.children["log_events"]
        for table, table_rows in expected.children.items():
            assert sorted(map(repr, _stored(conn, table, run_id, table_rows))) == sorted(map(repr, table_rows)), table


def _stored(conn, table: str, run_id: int, expected: list[dict]) -> list[dict]:
    """The table's rows of this run, with the columns (and instance name) the expected rows have."""
    if not expected:
        return [dict(row) for row in conn.execute(text(f"SELECT * FROM {table} WHERE run_id = :id"), {"id": run_id})
                .mappings()]
    columns = [key for key in expected[0] if key != INSTANCE_KEY]
    picked = ", ".join(f"t.{column}" for column in columns)
    if INSTANCE_KEY in expected[0]:
        sql = f"SELECT i.name AS {INSTANCE_KEY}, {picked} FROM {table} t JOIN instances i ON i.id = t.instance_id"
    else:
        sql = f"SELECT {picked} FROM {table} t"
    rows = conn.execute(text(f"{sql} WHERE t.run_id = :id"), {"id": run_id}).mappings()
    return [{key: row[key] for key in expected[0]} for row in rows]
