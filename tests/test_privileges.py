"""Least privilege: every read path runs as a role that can only read the catalogue.

Each probe is something an analyst could paste into `esrpdb sql`; each must fail with a
one-line error and leave nothing behind.
"""

from __future__ import annotations

import json
import threading

import psycopg
import pytest
from typer.testing import CliRunner

from esrpdb.cli.main import app
from esrpdb.db import roles
from esrpdb.queries.adhoc import DANGEROUS_ROLES

runner = CliRunner()


def sql(url: str, statement: str, *args: str):
    return runner.invoke(app, ["--database-url", url, "sql", statement, *args])


PROBES = [
    ("program", "copy (select 1) to program 'id > {tmp}/program'"),
    ("server file write", "copy (select 1) to '{tmp}/copied'"),
    ("server file read", "select pg_read_file('/etc/passwd')"),
    ("directory listing", "select pg_ls_dir('/')"),
    ("binary file read", "select pg_read_binary_file('/etc/hostname')"),
    ("large object import", "select lo_import('/etc/passwd')"),
    ("large object create", "select lo_create(0)"),
    ("checkpoint", "checkpoint"),
    ("reload config", "select pg_reload_conf()"),
    ("lock", "lock table runs"),
    ("load library", "load 'auto_explain'"),
    ("create table", "create table probe (i int)"),
    ("create temp table", "create temp table probe (i int)"),
    ("create function", "create function probe() returns int language sql as 'select 1'"),
    ("extension", "create extension if not exists dblink"),
    ("set role", "set role esrpdb_owner"),
    ("set role by function", "select set_config('role', 'esrpdb_owner', false)"),
    ("delete", "delete from runs"),
    ("truncate", "truncate solutions cascade"),
    ("alter system", "alter system set log_statement = 'all'"),
    ("drop", "drop view run_iops"),
    ("grant", "grant select on runs to public"),
    ("two statements", "select 1; delete from runs"),
]


@pytest.mark.parametrize("name,statement", PROBES, ids=[p[0] for p in PROBES])
def test_privilege_probe_fails_with_one_line_and_leaves_nothing(fresh_database_url, tmp_path, name, statement):
    result = sql(fresh_database_url, statement.format(tmp=tmp_path))
    assert result.exit_code == 1, (name, result.output)
    assert result.stdout == ""
    error_lines = result.stderr.strip().splitlines()
    assert len(error_lines) == 1 and error_lines[0].startswith("Error: "), result.stderr
    assert list(tmp_path.iterdir()) == []


def test_sql_runs_as_the_reader_role_which_is_no_superuser(fresh_database_url):
    result = sql(fresh_database_url, "select current_user as role, rolsuper from pg_roles where rolname = current_user",
                 "--format", "json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout) == [{"role": roles.READER_ROLE, "rolsuper": False}]


def test_reader_and_owner_hold_no_dangerous_role_and_no_create(pg_server, fresh_database_url):
    with psycopg.connect(pg_server.admin_url(fresh_database_url.rsplit("/", 1)[1].split("?")[0])
                         .replace("+psycopg", "")) as conn:
        for role in (roles.READER_ROLE, roles.OWNER_ROLE):
            superuser, create_role = conn.execute(
                "select rolsuper, rolcreaterole from pg_roles where rolname = %s", (role,)).fetchone()
            assert not superuser and not create_role
            held = conn.execute(
                "select d.rolname from pg_roles d where d.rolname = any(%s) and pg_has_role(%s, d.oid, 'MEMBER')",
                (list(DANGEROUS_ROLES), role)).fetchall()
            assert held == []
        reader_can = conn.execute(
            "select has_database_privilege(%(r)s, current_database(), 'CREATE'),"
            " has_database_privilege(%(r)s, current_database(), 'TEMPORARY'),"
            " has_schema_privilege(%(r)s, 'public', 'CREATE'),"
            " pg_has_role(%(r)s, %(o)s, 'MEMBER')",
            {"r": roles.READER_ROLE, "o": roles.OWNER_ROLE}).fetchone()
        assert reader_can == (False, False, False, False)


def test_reader_cannot_end_a_running_ingest(catalog, fresh_database_url):
    """pg_terminate_backend on the owner's session is refused; the session lives on."""
    with catalog.engine.connect() as owner:
        from sqlalchemy import text

        pid = owner.execute(text("select pg_backend_pid()")).scalar_one()
        result = sql(fresh_database_url, f"select pg_terminate_backend({pid})")
        assert result.exit_code == 1
        assert "permission denied" in result.stderr.lower()
        assert owner.execute(text("select 1")).scalar_one() == 1


def test_reader_sees_tables_added_by_later_migrations(catalog, fresh_database_url):
    """Default privileges: a table the owner creates later is readable without a new grant."""
    from sqlalchemy import text

    with catalog.engine.begin() as conn:
        conn.execute(text("create table later_table (i int)"))
        conn.execute(text("insert into later_table values (7)"))
    result = sql(fresh_database_url, "select i from later_table", "--format", "json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout) == [{"i": 7}]


def test_sql_refuses_a_superuser_url(pg_server, fresh_database_url):
    """No read-only role configured and a superuser URL: refused before the statement is sent."""
    admin = pg_server.admin_url(fresh_database_url.rsplit("/", 1)[1].split("?")[0])
    for args in (["--database-url", admin], ["--database-url", fresh_database_url, "--reader-url", admin]):
        result = runner.invoke(app, [*args, "sql", "select 1"])
        assert result.exit_code == 1
        assert result.stderr.strip() == (
            "Error: refusing to run ad-hoc SQL as role 'postgres', a superuser; configure a read-only role "
            "with ESRPDB_READER_URL (see README: Least privilege)")


@pytest.mark.parametrize("timeout", ["0", "0.0000001", "-1", "nan", "86400"])
def test_sql_timeout_cannot_be_turned_off(fresh_database_url, timeout):
    result = sql(fresh_database_url, "select 1", "--timeout", timeout)
    assert result.exit_code == 1
    assert result.stderr.startswith("Error: --timeout must be between 0.001 and 3600 seconds")


def test_query_listings_and_audit_read_as_the_reader(seed_catalog_url):
    """The canned paths connect as the reader too: a write through them is impossible by role."""
    seen: list[str] = []
    lock = threading.Lock()
    from sqlalchemy import event
    from sqlalchemy.engine import Engine

    def remember(conn, cursor, statement, params, context, executemany):
        if "alembic_version" not in statement and "pg_catalog" not in statement:
            with lock:
                seen.append(conn.engine.url.username)

    event.listen(Engine, "before_cursor_execute", remember)
    try:
        for args in (["runs"], ["solutions"], ["query", "per-disk-iops"], ["audit", "--format", "json"]):
            result = runner.invoke(app, ["--database-url", seed_catalog_url, *args])
            assert result.exit_code == 0, result.output
    finally:
        event.remove(Engine, "before_cursor_execute", remember)
    # Only the migration check (alembic_version, catalogue look-ups) runs as the owner.
    assert seen and set(seen) == {roles.READER_ROLE}


def test_reader_url_is_derived_only_for_the_embedded_convention():
    from sqlalchemy.engine import make_url

    from esrpdb.db.connection import derived_reader_url

    derived = make_url(derived_reader_url("postgresql+psycopg://esrpdb_owner@/cat?host=/var/lib/esrpdb/pgdata"))
    assert (derived.username, derived.database, derived.query["host"]) == ("esrpdb_reader", "cat", "/var/lib/esrpdb/pgdata")
    assert derived_reader_url("postgresql+psycopg://esrpdb_owner:pw@db.example/cat") is None
    assert derived_reader_url("postgresql+psycopg://alice@/cat?host=/run/postgresql") is None
