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
