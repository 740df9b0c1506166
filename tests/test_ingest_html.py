"""`esrpdb ingest` on the HTML fixtures rebuilt from the seeds, against a real server.

Golden numbers are the seeds' printed values; the code computes them from parsed data.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from sqlalchemy import text
from typer.testing import CliRunner

from esrpdb.cli.main import app
from tests.helpers import FIXTURES

HTML_FIXTURES = FIXTURES / "jetstress_html"
runner = CliRunner()

ALL_TABLES = (
    "source_files", "solutions", "runs", "instances", "latencies", "host_counters", "test_issues",
    "log_events", "report_fields", "ingest_warnings", "backup_stats", "recovery_stats",
)


def invoke(url: str, *args: str):
    return runner.invoke(app, ["--database-url", url, *args])


def row_counts(engine) -> dict[str, int]:
    with engine.connect() as conn:
        return {t: conn.execute(text(f"select count(*) from {t}")).scalar_one() for t in ALL_TABLES}


def html_fixture_files() -> list[Path]:
    files = sorted(HTML_FIXTURES.rglob("*.html"))
    assert files, f"no HTML fixtures under {HTML_FIXTURES}"
    return files


@pytest.fixture
def ingested(fresh_database_url, catalog):
    result = invoke(fresh_database_url, "ingest", str(HTML_FIXTURES), "--format", "json")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def runs_by_file(url: str) -> dict[str, dict]:
    result = invoke(url, "runs", "--format", "json")
    assert result.exit_code == 0, result.output
    return {row["source_file"]: row for row in json.loads(result.stdout)}


def test_every_fixture_loads_as_one_run(fresh_database_url, ingested):
    loaded = {Path(o["file"]).name for o in ingested if o["status"] == "loaded"}
    assert loaded == {p.name for p in html_fixture_files()}
    runs = runs_by_file(fresh_database_url)
    assert set(runs) == loaded
    dell = runs["Performance_2008_9_18_12_48_31.html"]
    assert (dell["verdict"], dell["achieved_iops"], dell["jetstress_release"]) == ("Pass", 6667.51, 2007)
    assert (dell["database_volume_count"], dell["log_volume_count"]) == (13, 13)  # 2007: LogicalDisk volumes
    seed001 = runs["Performance_2011_5_28_11_38_30.html"]
    assert (seed001["achieved_iops"], seed001["instance_count"], seed001["verdict"]) == (1573.982, 8, "Pass")
    assert runs["Performance_2008_10_5_21_32_32.html"]["achieved_iops"] == 10650.201
    assert runs["Performance_2015_5_28_11_38_30.html"]["verdict"] == "Fail"


def test_dell_2007_run_has_13_database_and_13_log_volumes(fresh_database_url, ingested, catalog):
    with catalog.engine.connect() as conn:
        roles = dict(conn.execute(text(
            "select i.volume_role, count(*) from instances i join runs r on r.id = i.run_id "
            "join source_files f on f.id = r.source_file_id "
            "where f.file_name = 'Performance_2008_9_18_12_48_31.html' group by 1")).all())
        db1 = conn.execute(text(
            "select l.db_read_latency_ms, l.source_latency_unit from latencies l join instances i on i.id = l.instance_id "
            "join runs r on r.id = l.run_id join source_files f on f.id = r.source_file_id "
            "where f.file_name = 'Performance_2008_9_18_12_48_31.html' and i.name = 'c:\\db1'")).one()
    assert roles == {"database": 13, "log": 13}
    assert db1.db_read_latency_ms == pytest.approx(19.0) and db1.source_latency_unit == "s"


def test_per_instance_values_survive_exactly(ingested, catalog):
    with catalog.engine.connect() as conn:
        row = conn.execute(text(
            "select l.db_read_latency_ms, l.db_reads_per_s from latencies l join instances i on i.id = l.instance_id "
            "join runs r on r.id = l.run_id join source_files f on f.id = r.source_file_id "
            "where f.file_name = 'Performance_2011_5_28_11_38_30.html' and i.name = 'Instance2836.1' "
            "and l.scope = 'transactional'")).one()
        scopes = {s for (s,) in conn.execute(text(
            "select distinct l.scope from latencies l join runs r on r.id = l.run_id "
            "join source_files f on f.id = r.source_file_id where f.file_name = 'Performance_2011_5_28_11_38_30.html'"))}
    assert (row.db_read_latency_ms, row.db_reads_per_s) == (16.661, 122.475)
    assert scopes == {"transactional", "background_maintenance", "log_replication", "total"}


def test_backup_and_recovery_figures(ingested, catalog):
    with catalog.engine.connect() as conn:
        backup = conn.execute(text(
            "select count(*) as n, avg(transfer_mb_per_s) as mean_mb_per_s, sum(transfer_mb_per_s) as total from backup_stats")).one()
        replayed = conn.execute(text("select count(*), sum(log_files_replayed) from recovery_stats")).one()
    assert backup.n == 8
    assert round(backup.mean_mb_per_s, 2) == 60.05  # seed 001: "MB read/sec per database" 60.05
    assert round(backup.total, 2) == 480.41  # seed 001: per server 480.41
    assert replayed == (8, 4079)


def test_ingesting_twice_changes_nothing(fresh_database_url, ingested, catalog):
    before = row_counts(catalog.engine)
    again = invoke(fresh_database_url, "ingest", str(HTML_FIXTURES), "--format", "json")
    assert again.exit_code == 0, again.output
    assert {o["status"] for o in json.loads(again.stdout)} == {"skipped"}
    assert row_counts(catalog.engine) == before


def test_a_bad_file_fails_alone_and_writes_nothing(fresh_database_url, catalog, tmp_path):
    good = HTML_FIXTURES / "seed001-md1220" / "Performance_2011_5_28_11_38_30.html"
    shutil.copy(good, tmp_path / good.name)
    data = good.read_bytes()
    (tmp_path / "Performance_2011_1_1_0_0_0.html").write_bytes(data[: len(data) // 10])  # truncated in the summary
    result = invoke(fresh_database_url, "ingest", str(tmp_path), "--format", "json")
    assert result.exit_code == 1
    outcomes = {Path(o["file"]).name: o for o in json.loads(result.stdout)}
    assert outcomes[good.name]["status"] == "loaded"
    failed = outcomes["Performance_2011_1_1_0_0_0.html"]
    assert failed["status"] == "failed" and "Performance_2011_1_1_0_0_0.html" in failed["message"]
    counts = row_counts(catalog.engine)
    assert counts["source_files"] == 1 and counts["runs"] == 1


def test_explicit_unknown_file_fails_with_its_name(fresh_database_url, tmp_path):
    stray = tmp_path / "notes.html"
    stray.write_text("<html><body><p>Quarterly storage notes</p></body></html>")
    empty = tmp_path / "Performance_empty.html"
    empty.write_bytes(b"")
    result = invoke(fresh_database_url, "ingest", str(stray), str(empty), "--format", "json")
    assert result.exit_code == 1
    messages = {Path(o["file"]).name: o["message"] for o in json.loads(result.stdout)}
    assert "not a recognised format" in messages["notes.html"] and "notes.html" in messages["notes.html"]
    assert "Performance_empty.html" in messages["Performance_empty.html"]


def test_solution_option_attaches_runs(fresh_database_url, catalog):
    path = HTML_FIXTURES / "seed002-x25e-ssd"
    result = invoke(fresh_database_url, "ingest", str(path), "--solution", "x25e-ssd", "--new-solution")
    assert result.exit_code == 0, result.output
    runs = json.loads(invoke(fresh_database_url, "runs", "--solution", "x25e-ssd", "--format", "json").stdout)
    assert [r["achieved_iops"] for r in runs] == [10650.201]


def test_checks_store_warnings_for_the_synthetic_2013_report(ingested, catalog):
    with catalog.engine.connect() as conn:
        checks = {(f, c) for f, c in conn.execute(text(
            "select f.file_name, w.check_name from ingest_warnings w join source_files f on f.id = w.source_file_id"))}
    # Every seed report's verdict agrees with its own latencies under its version's thresholds.
    assert not any(check == "verdict_vs_thresholds" for _, check in checks), checks


def test_a_negative_latency_fails_the_file_and_writes_nothing(fresh_database_url, catalog, tmp_path):
    good = HTML_FIXTURES / "seed001-md1220" / "Performance_2011_5_28_11_38_30.html"
    bad = tmp_path / good.name
    bad.write_text(good.read_text(encoding="utf-8").replace("<td>16.661</td>", "<td>-16.661</td>", 1), encoding="utf-8")
    result = invoke(fresh_database_url, "ingest", str(bad), "--format", "json")
    assert result.exit_code == 1
    (outcome,) = json.loads(result.stdout)
    assert outcome["status"] == "failed"
    # Caught at the parse/load boundary, before any SQL (the schema's CHECK would refuse it too).
    assert "sanity check" in outcome["message"] and "db_read_latency: -16.661 is negative" in outcome["message"]
    assert row_counts(catalog.engine)["source_files"] == 0


@pytest.mark.parametrize("path", sorted(HTML_FIXTURES.rglob("*.html")), ids=lambda p: p.name)
def test_every_value_the_loader_writes_has_a_column(path):
    """Each row the report statement writes names only real columns of its table (and its instance)."""
    from esrpdb.ingest.formats import jetstress_html
    from esrpdb.ingest.jetstress.rules import check_report
    from esrpdb.ingest.load import report_rows
    from esrpdb.ingest.load.report_statement import INSTANCE_KEY
    from esrpdb.schema import Base

    report = jetstress_html.parse(path.name, path.read_bytes())
    rows = report_rows(1, report, check_report(report))
    tables = Base.metadata.tables
    assert set(rows.run) <= set(tables["runs"].c.keys())
    assert all(set(row) <= set(tables["instances"].c.keys()) for row in rows.instances)
    assert rows.children["latencies"] or report.report_type != "Performance"
    for table, table_rows in rows.children.items():
        for row in table_rows:
            assert set(row) - {INSTANCE_KEY} <= set(tables[table].c.keys()), table


def test_a_row_the_server_refuses_leaves_nothing_and_the_batch_goes_on(fresh_database_url, catalog, tmp_path,
                                                                        monkeypatch):
    """The report's one statement fails as a whole: with the boundary check switched off, the schema's
    CHECK refuses a negative latency deep in the statement, and no run, instance or log row is left."""
    from esrpdb.ingest import sanity
    from esrpdb.ingest.pipeline import ingest_paths

    good = HTML_FIXTURES / "seed001-md1220" / "Performance_2011_5_28_11_38_30.html"
    bad = tmp_path / "bad" / good.name
    bad.parent.mkdir()
    bad.write_text(good.read_text(encoding="utf-8").replace("<td>16.661</td>", "<td>-16.661</td>", 1), encoding="utf-8")
    other = HTML_FIXTURES / "seed002-savvio-hdd" / "Performance_2008_10_21_16_24_35.html"
    monkeypatch.setattr(sanity, "check", lambda name, record: None)
    outcomes = ingest_paths(catalog.engine, [bad, other])
    assert [o.status for o in outcomes] == ["failed", "loaded"]
    assert "database refused the data" in outcomes[0].message and "db_read_latency_ms_non_negative" in outcomes[0].message
    counts = row_counts(catalog.engine)
    assert counts["source_files"] == 1 and counts["runs"] == 1
    with catalog.engine.connect() as conn:
        assert conn.execute(text("SELECT count(*) FROM log_events e JOIN runs r ON r.id = e.run_id "
                                 "JOIN source_files f ON f.id = r.source_file_id WHERE f.file_name = :n"),
                            {"n": good.name}).scalar() == 0
