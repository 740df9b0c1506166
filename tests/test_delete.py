"""`esrpdb delete`: a file or a solution goes in one transaction, with everything read from it."""

from __future__ import annotations

import pytest
from sqlalchemy import text
from typer.testing import CliRunner

from esrpdb.cli.main import app
from esrpdb.db.delete import NothingToDelete, delete_solution, delete_source
from esrpdb.ingest.pipeline import ingest_paths
from tests.conftest import FIXTURES
from tests.test_view_equivalence import _stored, assert_same

runner = CliRunner()


def _count(engine, sql: str, **params) -> int:
    with engine.connect() as conn:
        return conn.execute(text(sql), params).scalar()


@pytest.fixture
def loaded(catalog):
    ingest_paths(catalog.engine, [FIXTURES / "catalog"])
    return catalog


def test_dry_run_lists_and_keeps_then_delete_removes(loaded):
    engine = loaded.engine
    sha, runs = engine.connect().execute(text(
        "SELECT f.sha256, (SELECT count(*) FROM runs r WHERE r.source_file_id = f.id) FROM source_files f "
        "WHERE EXISTS (SELECT 1 FROM runs r JOIN latencies l ON l.run_id = r.id WHERE r.source_file_id = f.id) "
        "ORDER BY f.sha256 LIMIT 1")).one()
    dry = delete_source(engine, sha[:10], dry_run=True)
    assert not dry.committed and dry.rows_by_table["source_files"] == 1 and dry.rows_by_table["runs"] == runs
    assert dry.rows_by_table["latencies"] > 0
    assert _count(engine, "SELECT count(*) FROM source_files WHERE sha256 = :s", s=sha) == 1
    done = delete_source(engine, sha)
    assert done.committed and done.rows_by_table == dry.rows_by_table
    assert _count(engine, "SELECT count(*) FROM source_files WHERE sha256 = :s", s=sha) == 0
    kept = _stored(engine)
    with engine.begin() as conn:
        conn.execute(text("TRUNCATE run_figures, run_scope_latencies, perf_counter_means, solution_disk_counts, "
                          "run_disk_figures"))
        conn.execute(text("SELECT refresh_solution_disk_counts(NULL)"))
        conn.execute(text("SELECT refresh_run_figures(NULL)"))
    assert_same(kept, _stored(engine))  # the figures left behind were kept current


def test_deleting_a_solution_takes_its_runs_files_and_claims(loaded):
    engine = loaded.engine
    key = "dell-eql-2x-ps5000xv"
    runs_before = _count(engine, "SELECT count(*) FROM runs")
    its_runs = _count(engine, "SELECT count(*) FROM runs r JOIN solutions s ON s.id = r.solution_id WHERE s.key = :k",
                      k=key)
    report = delete_solution(engine, key)
    assert report.committed and report.source_files and report.rows_by_table["runs"] >= its_runs > 0
    assert _count(engine, "SELECT count(*) FROM runs") == runs_before - report.rows_by_table["runs"]
    assert _count(engine, "SELECT count(*) FROM solutions WHERE key = :k", k=key) == 0
    assert _count(engine, "SELECT count(*) FROM per_disk_iops WHERE solution = :k", k=key) == 0
    assert _count(engine, "SELECT count(*) FROM solutions") == 9  # the others stay


def test_unknown_targets_are_refused(loaded):
    with pytest.raises(NothingToDelete):
        delete_source(loaded.engine, "no-such-file.html")
    with pytest.raises(NothingToDelete):
        delete_solution(loaded.engine, "no-such-solution")


def test_cli_delete(loaded, fresh_database_url):
    result = runner.invoke(app, ["--database-url", fresh_database_url, "delete", "--solution", "hp-eva4400",
                                 "--dry-run", "-f", "json"])
    assert result.exit_code == 0, result.output
    assert _count(loaded.engine, "SELECT count(*) FROM solutions WHERE key = 'hp-eva4400'") == 1
    result = runner.invoke(app, ["--database-url", fresh_database_url, "delete", "--solution", "hp-eva4400"])
    assert result.exit_code == 0 and "deleted" in result.output
    assert _count(loaded.engine, "SELECT count(*) FROM solutions WHERE key = 'hp-eva4400'") == 0
    assert runner.invoke(app, ["--database-url", fresh_database_url, "delete"]).exit_code == 1
