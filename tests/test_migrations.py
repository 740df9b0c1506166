"""Migrations are the only way the schema is built: round trip and no drift, on a real server."""

from __future__ import annotations

from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import create_engine, inspect

from esrpdb.db import migrate
from esrpdb.schema import Base


def _tables(url: str) -> set[str]:
    engine = create_engine(url)
    try:
        return set(inspect(engine).get_table_names())
    finally:
        engine.dispose()


def test_upgrade_downgrade_upgrade_round_trip(empty_database_url):
    url = empty_database_url
    migrate.upgrade(url)
    assert {"runs", "latencies", "source_files", "solutions", "perf_samples", "claims"} <= _tables(url)
    migrate.downgrade(url, "base")
    assert _tables(url) <= {"alembic_version"}
    migrate.upgrade(url)
    engine = create_engine(url)
    try:
        assert migrate.current_revision(engine) == migrate.head_revision(url)
    finally:
        engine.dispose()


def test_models_and_migrations_do_not_drift(fresh_database_url):
    engine = create_engine(fresh_database_url)
    try:
        with engine.connect() as conn:
            context = MigrationContext.configure(conn, opts={"compare_type": True})
            differences = compare_metadata(context, Base.metadata)
    finally:
        engine.dispose()
    assert differences == [], f"models and migrations differ: {differences}"


def test_every_revision_downgrades_one_step_at_a_time(empty_database_url):
    url = empty_database_url
    migrate.upgrade(url)
    engine = create_engine(url)
    try:
        while migrate.current_revision(engine) is not None:
            migrate.downgrade(url, "-1")
    finally:
        engine.dispose()
    assert _tables(url) <= {"alembic_version"}


def test_the_live_views_are_what_the_newest_revision_built(fresh_database_url):
    """Migrations build views from frozen copies; queries/*.sql must say the same, or a revision is missing."""
    from sqlalchemy import text

    from esrpdb.queries import canned

    engine = create_engine(fresh_database_url)
    definitions = "SELECT viewname, definition FROM pg_views WHERE schemaname = 'public' ORDER BY viewname"
    try:
        with engine.begin() as conn:
            built = conn.execute(text(definitions)).all()
            for query in canned.all_queries().values():
                conn.execute(text(query.sql))  # CREATE OR REPLACE VIEW from the live file
            live = conn.execute(text(definitions)).all()
            conn.rollback()
    finally:
        engine.dispose()
    assert live == built and len(built) == len(canned.all_queries())


def test_the_live_figure_functions_are_what_the_newest_revision_built(fresh_database_url):
    """refresh_run_figures and its helpers live in queries/run_figures.sql; migrations run frozen copies
    of it (run_figures_00NN.sql): the live file must define what the newest revision built, or a
    revision is missing. Every function of the file exists, and running it changes none of them."""
    from tests.helpers import live_and_built_functions

    names, built, live = live_and_built_functions(fresh_database_url, "run_figures.sql")
    assert sorted(names) == [name for name, _ in built]
    assert live == built


def test_a_populated_catalogue_keeps_every_row_down_to_0008_and_back(fresh_database_url):
    """Issue 24 item 8: what 0009 and 0015 drop on the way down (sightings, facts, provisional marks,
    fingerprints) is kept and put back on the way up: every table has the same rows after the round trip."""
    from sqlalchemy import text

    from esrpdb.ingest.pipeline import ingest_paths
    from tests.helpers import FIXTURES, row_counts

    engine = create_engine(fresh_database_url)
    try:
        outcomes = ingest_paths(engine, [FIXTURES / "documents" / "000_cfe3f1c33c0344dc.txt",
                                         FIXTURES / "jetstress_html" / "seed000-dell-equallogic"])
        assert all(o.status in ("loaded", "ignored") for o in outcomes), [o.message for o in outcomes]

        def state() -> dict:
            with engine.connect() as conn:
                return {
                    "sources": conn.execute(text("select run_id, source_file_id, report_index from run_sources "
                                                 "order by 1, 2, 3")).all(),
                    "facts": conn.execute(text("select solution_id, ordinal, fact from solution_facts "
                                               "order by 1, 2")).all(),
                    "provisional": conn.execute(text("select key, provisional, derived_from_source_file_id "
                                                     "from solutions order by key")).all(),
                    "fingerprints": conn.execute(text("select id, content_fingerprint from source_files "
                                                      "order by id")).all(),
                }

        before, counts = state(), row_counts(fresh_database_url)
        assert len(before["sources"]) > len({run for run, _, _ in before["sources"]})  # a report seen twice
        assert before["facts"] and any(p for _, p, _ in before["provisional"])
        engine.dispose()
        migrate.downgrade(fresh_database_url, "0008")
        migrate.upgrade(fresh_database_url)
        assert state() == before and row_counts(fresh_database_url) == counts
        assert not inspect(engine).has_table("esrpdb_downgrade_archive")
    finally:
        engine.dispose()
