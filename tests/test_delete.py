"""`esrpdb delete`: a file or a solution goes in one transaction, with everything read from it."""

from __future__ import annotations

import pytest
from sqlalchemy import text
from typer.testing import CliRunner

from esrpdb.cli.main import app
from esrpdb.ingest.pipeline import ingest_paths
from esrpdb.workflows.delete import NothingToDelete, delete_solution, delete_source
from tests.helpers import FIXTURES, assert_same, stored_figures

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
    sha, runs, sightings = engine.connect().execute(text(
        "SELECT f.sha256, (SELECT count(*) FROM runs r WHERE r.source_file_id = f.id), "
        "       (SELECT count(*) FROM run_sources rs WHERE rs.source_file_id = f.id) FROM source_files f "
        "WHERE EXISTS (SELECT 1 FROM runs r JOIN latencies l ON l.run_id = r.id WHERE r.source_file_id = f.id) "
        "ORDER BY f.sha256 LIMIT 1")).one()
    dry = delete_source(engine, sha[:10], dry_run=True)
    assert not dry.committed and dry.rows_by_table["source_files"] == 1
    # Its runs go, except those another file prints too (kept); every sighting in it goes.
    assert dry.rows_by_table.get("runs", 0) + dry.kept_runs == runs and dry.rows_by_table["run_sources"] == sightings
    assert _count(engine, "SELECT count(*) FROM source_files WHERE sha256 = :s", s=sha) == 1
    done = delete_source(engine, sha)
    assert done.committed and done.rows_by_table == dry.rows_by_table
    assert _count(engine, "SELECT count(*) FROM source_files WHERE sha256 = :s", s=sha) == 0
    kept = stored_figures(engine)
    with engine.begin() as conn:
        conn.execute(text("TRUNCATE run_figures, run_scope_latencies, perf_counter_means, solution_disk_counts, "
                          "run_disk_figures"))
        conn.execute(text("SELECT refresh_solution_disk_counts(NULL)"))
        conn.execute(text("SELECT refresh_run_figures(NULL)"))
    assert_same(kept, stored_figures(engine))  # the figures left behind were kept current


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


def test_deleting_a_document_keeps_the_runs_an_html_file_also_prints(catalog):
    """The MD1220 document prints four reports (one of them also its own HTML file) and two runs of a
    results table only (its degraded and rebuilding RAID 5 states)."""
    document = next((FIXTURES / "documents").glob("001_*.txt"))
    html = FIXTURES / "jetstress_html" / "seed001-md1220" / "Performance_2011_5_28_11_38_30.html"
    assert [o.status for o in ingest_paths(catalog.engine, [html, document])] == ["loaded", "loaded"]
    engine = catalog.engine
    shared = _count(engine, "SELECT run_id FROM run_sources GROUP BY run_id HAVING count(*) = 2")
    doc_runs = _count(engine, "SELECT count(*) FROM runs r JOIN source_files f ON f.id = r.source_file_id "
                              "WHERE f.file_name = :n", n=document.name)
    assert doc_runs == 6 and shared is not None  # the publication is the shared run's first source

    dry = delete_source(engine, document.name, dry_run=True)
    assert (dry.kept_runs, dry.rows_by_table["runs"]) == (1, doc_runs - 1)
    done = delete_source(engine, document.name)
    assert done.committed and (done.kept_runs, done.rows_by_table) == (dry.kept_runs, dry.rows_by_table)
    with engine.connect() as conn:
        (run_id, source), = conn.execute(text(
            "SELECT r.id, f.file_name FROM runs r JOIN source_files f ON f.id = r.source_file_id")).all()
        sightings = conn.execute(text("SELECT count(*) FROM run_sources")).scalar()
        achieved = conn.execute(text("SELECT achieved_iops FROM run_iops WHERE run_id = :r"), {"r": run_id}).scalar()
    assert (run_id, source, sightings) == (shared, html.name, 1)
    assert achieved is not None  # its stored figures were recomputed, not lost
    result = runner.invoke(app, ["--database-url", catalog.url, "ingest", str(html)])
    assert "already ingested" in result.output  # the HTML file is still the catalogue's, with its run


def test_a_power_log_takes_its_samples_with_it(catalog):
    """power_samples has no foreign key (revision 0014): the trigger on power_files removes them."""
    logs = sorted((FIXTURES / "power").glob("*.csv"))
    assert [o.status for o in ingest_paths(catalog.engine, logs)] == ["loaded", "loaded"]
    engine = catalog.engine
    first, second = (_count(engine, "SELECT count(*) FROM power_samples s JOIN source_files f "
                                    "ON f.id = s.source_file_id WHERE f.file_name = :n", n=log.name) for log in logs)
    assert first > 1000 and second > 1000
    dry = delete_source(engine, logs[0].name, dry_run=True)
    assert dry.rows_by_table["power_samples"] == first and dry.rows_by_table["power_files"] == 1
    delete_source(engine, logs[0].name)
    assert _count(engine, "SELECT count(*) FROM power_samples") == second  # the other log keeps its own
    with engine.begin() as conn:
        conn.execute(text("DELETE FROM power_files"))  # directly, not through source_files
    assert _count(engine, "SELECT count(*) FROM power_samples") == 0


def test_a_kept_run_is_sourced_from_another_document_before_an_html_file(catalog, tmp_path):
    """HTML first, then the document and a reflowed copy of it: deleting the document keeps the copy as source."""
    from tests.document_variants import crlf, pages

    document = next((FIXTURES / "documents").glob("001_*.txt"))
    html = FIXTURES / "jetstress_html" / "seed001-md1220" / "Performance_2011_5_28_11_38_30.html"
    copy = tmp_path / f"reflowed-{document.name}"
    copy.write_text(crlf(pages(document.read_text(encoding="utf-8"))), encoding="utf-8", newline="")
    outcomes = ingest_paths(catalog.engine, [html, document, copy])
    assert [o.status for o in outcomes] == ["loaded", "loaded", "loaded"], [o.message for o in outcomes]
    engine = catalog.engine
    shared = _count(engine, "SELECT run_id FROM run_sources GROUP BY run_id HAVING count(*) = 3")
    assert shared is not None
    done = delete_source(engine, document.name)
    assert done.kept_runs == 4  # the document's four reports: the copy prints them all
    with engine.connect() as conn:
        source = conn.execute(text("SELECT f.file_name FROM runs r JOIN source_files f ON f.id = r.source_file_id "
                                   "WHERE r.id = :r"), {"r": shared}).scalar()
    assert source == copy.name
