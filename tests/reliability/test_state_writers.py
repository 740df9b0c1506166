"""Issue 49, item 1: the reader cannot write the server's journal (WAL) or its shared state.

`esrpdb sql "select pg_logical_emit_message(…)"` wrote 100 MB of WAL a call as the read-only role, filled a
700 MB home in 3 s and crashed the server; temp_file_limit does not cover WAL. Each probe here is sent
straight to the server as the reader (psql with `esrpdb db url --reader`), in a catalogue and in the
server's own databases any role may connect to, and through `esrpdb sql`; each must be refused.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

import psycopg
import pytest
from sqlalchemy.engine import make_url
from typer.testing import CliRunner

from esrpdb.cli.main import app
from esrpdb.db import embedded, roles, server_process
from esrpdb.db.connection import derived_reader_url
from tests.helpers import FIXTURES, plain, with_database

runner = CliRunner()

STATE_WRITES = [
    "select pg_logical_emit_message(false, 'probe', repeat('x', 1000))",
    "select pg_logical_emit_message(true, 'probe', 'x'::bytea)",
    "select pg_logical_emit_message(false, 'probe', 'x', true)",
    "select pg_notify('probe', 'x')",
    "select pg_export_snapshot()",
    "select pg_switch_wal()",
    "select pg_create_restore_point('probe')",
    "select lo_create(0)",
    "select lo_from_bytea(0, 'x')",
    "select lowrite(0, 'x')",
    "select lo_truncate(0, 0)",
    "select lo_unlink(1)",
    "select lo_put(1, 0, 'x')",
    "select set_config('work_mem', '1GB', false)",
    "select pg_advisory_lock(1)",
    "select pg_stat_reset()",
    "select pg_create_logical_replication_slot('probe', 'pgoutput')",
    "select pg_create_physical_replication_slot('probe', true)",
    "select pg_reload_conf()",
    "select pg_rotate_logfile()",
]


def reader_dsn(url: str, database: str | None = None) -> str:
    derived = derived_reader_url(url)
    assert derived is not None
    return plain(with_database(derived, database) if database else derived)


@pytest.mark.parametrize("database", [None, "postgres", "template1"])
def test_every_state_write_is_refused_to_the_reader_by_the_server(fresh_database_url, database):
    with psycopg.connect(reader_dsn(fresh_database_url, database), autocommit=True) as conn:
        conn.execute("set default_transaction_read_only = off")  # the reader may; it must not matter
        for statement in STATE_WRITES:
            with pytest.raises(psycopg.errors.InsufficientPrivilege):
                conn.execute(statement)


# Names of the pg_catalog functions that write WAL, files or shared state when PUBLIC may call them.
WRITER_NAMES = r"^(pg_logical_emit_message|pg_notify|pg_export_snapshot|pg_switch_wal|pg_create_restore_point|" \
               r"lo_(create|creat|from_bytea|import|export|put|truncate|truncate64|unlink)|lowrite|set_config|" \
               r"pg_(try_)?advisory_(?!unlock).*|pg_stat_reset.*|pg_(create|drop|copy)_.*replication_slot|" \
               r"pg_replication_origin_.*|pg_reload_conf|pg_rotate_logfile|pg_promote|pg_backup_.*|pg_file_.*)$"


@pytest.mark.parametrize("database", [None, "postgres", "template1"])
def test_no_writer_in_pg_catalog_is_the_readers_to_call(fresh_database_url, database):
    """Enumerated from pg_proc: a function a later PostgreSQL grants to PUBLIC again shows up here."""
    with psycopg.connect(reader_dsn(fresh_database_url, database)) as conn:
        callable_writers = conn.execute(
            "select p.oid::regprocedure::text from pg_proc p where p.pronamespace = 'pg_catalog'::regnamespace "
            "and p.proname ~ %s and has_function_privilege(current_user, p.oid, 'EXECUTE') order by 1",
            (WRITER_NAMES,)).fetchall()
    assert callable_writers == []


def test_the_owner_may_still_call_what_ingest_and_migrations_use(fresh_database_url):
    with psycopg.connect(plain(fresh_database_url)) as conn:
        assert conn.execute("select pg_try_advisory_xact_lock(1)").fetchone() == (True,)
        assert conn.execute("select set_config('application_name', 'x', true)").fetchone() == ("x",)


@pytest.mark.parametrize("statement", STATE_WRITES[:5])
def test_esrpdb_sql_refuses_the_state_writes_in_one_line(fresh_database_url, statement):
    result = runner.invoke(app, ["--database-url", fresh_database_url, "sql", statement])
    assert result.exit_code == 1 and result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: ") and "is refused" in lines[0], result.stderr


def test_the_notification_queue_is_bounded_for_everyone(fresh_database_url):
    """NOTIFY is a statement, not a function: the queue a listening session holds is small on the server."""
    with psycopg.connect(reader_dsn(fresh_database_url)) as conn:
        pages = conn.execute("select setting::int from pg_settings where name = 'max_notify_queue_pages'").fetchone()
    assert pages == (server_process.NOTIFY_QUEUE_PAGES,) and pages[0] * 8192 <= 64 * 2**20


# --- the disk-filling probe, on a small home of its own ------------------------------------------------------

def _mount(point, size_mb: int) -> bool:
    return subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size_mb}m,mode=0711", "tmpfs", str(point)],
                          capture_output=True).returncode == 0


@pytest.fixture
def small_home(tmp_path):
    if os.geteuid() != 0 or shutil.which("mount") is None:
        pytest.skip("a tmpfs of its own needs root")
    point = tmp_path / "disk"
    point.mkdir()
    if not _mount(point, 200):
        pytest.skip("this machine allows no tmpfs mount")
    try:
        yield point / "home"
    finally:
        embedded.stop(point / "home")
        subprocess.run(["umount", "-l", str(point)], check=False)


def _esrpdb(home, *args):
    env = {k: v for k, v in os.environ.items() if not k.startswith("ESRPDB_")} | {"ESRPDB_HOME": str(home)}
    return subprocess.run([sys.executable, "-m", "esrpdb.cli.main", *args], env=env, capture_output=True,
                          text=True, timeout=300)


@pytest.mark.db  # starts an embedded server of its own
def test_the_reader_cannot_fill_a_small_home_with_wal(small_home):
    assert _esrpdb(small_home, "init").returncode == 0
    server = embedded.status(small_home)
    reader = plain(server.url_for(roles.READER_ROLE))
    free_before = shutil.disk_usage(small_home).free
    refused = 0
    with psycopg.connect(reader, autocommit=True) as conn:
        for _ in range(30):  # 30 × 10 MB: far more than the home's free space once it was 30 × 100 MB
            for statement in ("select pg_logical_emit_message(false, 'fill', repeat('x', 10000000))",
                              "select pg_logical_emit_message(true, 'fill', repeat('x', 10000000)::bytea)"):
                with pytest.raises(psycopg.errors.InsufficientPrivilege):
                    conn.execute(statement)
                refused += 1
    assert refused == 60
    assert free_before - shutil.disk_usage(small_home).free < 20 * 2**20  # the WAL did not grow by the probes
    assert embedded.status(small_home).running
    loaded = _esrpdb(small_home, "ingest", str(FIXTURES / "perfmon" / "typeperf-sample.csv"))
    assert loaded.returncode == 0, loaded.stderr
    assert make_url(server.url_for(roles.READER_ROLE)).username == roles.READER_ROLE
