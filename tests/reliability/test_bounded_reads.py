"""Issue 24, items 4 and 9: reads are bounded in memory, rows, time and temporary files, and the
read-only role can neither write (large objects) nor lift its own limits for esrpdb's sessions."""

from __future__ import annotations

import subprocess
import sys

import psycopg
import pytest

from esrpdb.db import roles
from esrpdb.db.connection import derived_reader_url

PROBE = ("import sys\nfrom esrpdb.cli.main import app\n"
         "try:\n    app()\nexcept SystemExit as exit:\n    code = exit.code\n"
         "hwm = [l for l in open('/proc/self/status') if l.startswith('VmHWM:')][0].split()[1]\n"
         "print('maxrss_kib', hwm, file=sys.stderr)\nsys.exit(code)\n")


def esrpdb(url: str, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", PROBE, "--database-url", url, *args],
                          capture_output=True, text=True, timeout=300)


def _plain(url: str) -> str:
    return url.replace("postgresql+psycopg://", "postgresql://")


def test_ten_million_rows_stream_and_stop_at_the_row_cap_in_bounded_memory(fresh_database_url):
    done = esrpdb(fresh_database_url, "sql", "select g, repeat('x', 100) as t from generate_series(1, 1e7) g")
    assert done.returncode == 0, done.stderr
    assert "stopped after 200,000 rows (--max-rows)" in done.stderr
    assert done.stdout.count("\n") == 200_000 + 2  # header, rule, the rows: every value whole
    peak_kib = int(done.stderr.rsplit("maxrss_kib", 1)[1].split()[0])
    assert peak_kib < 300 * 1024, f"peak RSS {peak_kib / 1024:.0f} MiB"


def test_two_statements_are_refused_in_words(fresh_database_url):
    done = esrpdb(fresh_database_url, "sql", "select 1; delete from runs")
    assert done.returncode == 1 and "exactly one statement" in done.stderr


def test_the_reader_cannot_create_large_objects_or_lift_its_temporary_file_limit(fresh_database_url):
    reader = _plain(derived_reader_url(fresh_database_url))
    with psycopg.connect(reader, autocommit=True) as conn:
        conn.execute("SET default_transaction_read_only = off")  # as psql with `db url --reader` could
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            conn.execute("SELECT lo_from_bytea(0, 'x')")
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            conn.execute("SELECT lo_create(0)")
        assert conn.execute("SHOW temp_file_limit").fetchone()[0] == roles.READER_SESSION_DEFAULTS["temp_file_limit"]
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            conn.execute("SET temp_file_limit = -1")
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            conn.execute(f'ALTER ROLE "{roles.READER_ROLE}" SET temp_file_limit = -1')


def test_the_reader_lifting_its_own_defaults_changes_nothing_for_esrpdb(fresh_database_url):
    reader = _plain(derived_reader_url(fresh_database_url))
    with psycopg.connect(reader, autocommit=True) as conn:
        conn.execute("SET default_transaction_read_only = off")
        conn.execute(f'ALTER ROLE "{roles.READER_ROLE}" SET default_transaction_read_only = off')
        conn.execute(f'ALTER ROLE "{roles.READER_ROLE}" SET statement_timeout = 0')
    try:
        done = esrpdb(fresh_database_url, "query", "run-summary", "--format", "json")
        assert done.returncode == 0, done.stderr
        from esrpdb.db.catalog import open_catalog

        catalog = open_catalog(fresh_database_url)
        try:
            with catalog.reader().connect() as session:
                from sqlalchemy import text

                assert session.execute(text("SHOW default_transaction_read_only")).scalar() == "on"
                assert session.execute(text("SHOW statement_timeout")).scalar() == "5min"
        finally:
            catalog.close()
    finally:
        with psycopg.connect(reader, autocommit=True) as conn:
            conn.execute("SET default_transaction_read_only = off")
            for setting in ("default_transaction_read_only", "statement_timeout"):
                conn.execute(f'ALTER ROLE "{roles.READER_ROLE}" RESET {setting}')


def test_copy_is_refused_in_words_not_as_a_lost_server(fresh_database_url):
    done = esrpdb(fresh_database_url, "sql", "copy runs to stdout")
    assert done.returncode == 1 and "COPY is not run by `esrpdb sql`" in done.stderr
    assert "cannot reach" not in done.stderr and "another command" not in done.stderr


def test_sql_through_the_owners_url_cannot_end_the_owners_sessions(fresh_database_url):
    """Issue 24 item 10: with no reader URL, ad-hoc SQL runs as the read-only role all the same (the
    owner may become it), so `pg_terminate_backend` of an ingest's session is refused."""
    import os

    owner = _plain(fresh_database_url)
    with psycopg.connect(owner) as ingest:  # an ingest of the same role, holding a session
        ingest.execute("select 1")
        env = {**os.environ, "ESRPDB_READER_URL": fresh_database_url}  # sql told to read as the owner
        done = subprocess.run([sys.executable, "-m", "esrpdb.cli.main", "--database-url", fresh_database_url, "sql",
                               "select pg_terminate_backend(pid) from pg_stat_activity where usename = 'esrpdb_owner' "
                               "and pid <> pg_backend_pid()"], env=env, capture_output=True, text=True, timeout=120)
        assert done.returncode == 1 and "permission denied" in done.stderr, done.stdout + done.stderr
        assert ingest.execute("select 1").fetchone() == (1,)  # still alive
        who = subprocess.run([sys.executable, "-m", "esrpdb.cli.main", "--database-url", fresh_database_url, "sql",
                              "select current_user", "--format", "csv"], env=env, capture_output=True, text=True,
                             timeout=120)
        assert who.stdout.splitlines()[-1] == "esrpdb_reader"
