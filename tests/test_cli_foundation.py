"""The CLI skeleton against a real server: sql is read-only, JSON is typed, servers are shared."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time

import pytest
from sqlalchemy import text
from typer.testing import CliRunner

from esrpdb.cli.main import app
from esrpdb.db import embedded

runner = CliRunner()


def invoke(url: str, *args: str):
    return runner.invoke(app, ["--database-url", url, *args])


def test_sql_reports_postgresql_18_as_json(fresh_database_url):
    result = invoke(fresh_database_url, "sql", "select version() as version, 2.5::numeric as n, 3 as i", "--format", "json")
    assert result.exit_code == 0, result.output
    rows = json.loads(result.stdout)
    assert rows[0]["version"].startswith("PostgreSQL 18")
    assert rows[0]["n"] == 2.5 and rows[0]["i"] == 3  # numbers stay numbers


def test_sql_refuses_writes_and_changes_nothing(fresh_database_url, catalog):
    with catalog.engine.begin() as conn:
        conn.execute(text(
            "INSERT INTO source_files (sha256, path, file_name, format, parser_version, size_bytes) "
            "VALUES (repeat('c', 64), 'x', 'x', 'jetstress_html', '1', 1)"))
    result = invoke(fresh_database_url, "sql", "delete from source_files")
    assert result.exit_code == 1
    assert result.stderr.strip() == "Error: cannot execute DELETE in a read-only transaction"
    smuggled = invoke(fresh_database_url, "sql", "select 1; commit; delete from source_files")
    assert smuggled.exit_code == 1
    assert "exactly one statement" in smuggled.stderr
    with catalog.engine.connect() as conn:
        assert conn.execute(text("select count(*) from source_files")).scalar_one() == 1


def test_sql_reads_a_statement_from_stdin_or_after_a_double_dash(fresh_database_url):
    """A statement that starts with a comment (pasted from a file): piped in with "-", or after "--"."""
    statement = "-- the catalogue's name\nselect current_database() is not null as named"
    piped = runner.invoke(app, ["--database-url", fresh_database_url, "sql", "-", "--format", "json"], input=statement)
    assert piped.exit_code == 0, piped.output
    assert json.loads(piped.stdout) == [{"named": True}]
    after = invoke(fresh_database_url, "sql", "--format", "json", "--", statement)
    assert after.exit_code == 0 and json.loads(after.stdout) == [{"named": True}], after.output
    empty = runner.invoke(app, ["--database-url", fresh_database_url, "sql", "-"], input=" \n")
    assert empty.exit_code == 1 and "standard input is empty" in empty.stderr


def test_sql_statement_timeout(fresh_database_url):
    result = invoke(fresh_database_url, "sql", "select pg_sleep(2)", "--timeout", "0.2")
    assert result.exit_code == 1
    assert result.stderr.strip() == "Error: canceling statement due to statement timeout"


def test_listings_render_in_every_format(fresh_database_url):
    for command in ("runs", "solutions"):
        for fmt in ("table", "csv", "json"):
            result = invoke(fresh_database_url, command, "--format", fmt)
            assert result.exit_code == 0, result.output
        assert json.loads(invoke(fresh_database_url, command, "--format", "json").stdout) == []
        header = invoke(fresh_database_url, command, "--format", "csv").stdout.splitlines()[0]
        assert header.startswith("run_id,solution" if command == "runs" else "key,vendor")


def test_init_is_idempotent(fresh_database_url):
    first = invoke(fresh_database_url, "init")
    second = invoke(fresh_database_url, "init")
    assert first.exit_code == second.exit_code == 0
    assert first.stdout == second.stdout
    assert "PostgreSQL 18" in first.stdout


def test_database_url_points_at_another_server_and_starts_no_embedded_one(fresh_database_url, tmp_path):
    env = {**os.environ, "ESRPDB_HOME": str(tmp_path / "unused-home"), "ESRPDB_DATABASE_URL": fresh_database_url}
    done = subprocess.run(
        [sys.executable, "-m", "esrpdb.cli.main", "sql", "select current_database() as db", "--format", "json"],
        env=env, capture_output=True, text=True, timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)[0]["db"] == fresh_database_url.rsplit("/", 1)[1].split("?")[0]
    assert not (tmp_path / "unused-home").exists()


@pytest.mark.db  # starts an embedded server of its own
def test_two_commands_started_together_share_one_embedded_server(tmp_path):
    """No --database-url: both processes start (or find) one server in the same ESRPDB_HOME."""
    home = tmp_path / "home"
    env = {k: v for k, v in os.environ.items() if k != "ESRPDB_DATABASE_URL"}
    env["ESRPDB_HOME"] = str(home)
    command = [sys.executable, "-m", "esrpdb.cli.main", "sql", "select pg_sleep(1), pg_postmaster_start_time()::text as started", "--format", "json"]
    try:
        started = time.monotonic()
        procs = [subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for _ in range(2)]
        outputs = [p.communicate(timeout=180) for p in procs]
        for proc, (out, err) in zip(procs, outputs):
            assert proc.returncode == 0, err
        starts = {json.loads(out)[0]["started"] for out, _ in outputs}
        assert len(starts) == 1, "each process started its own server"
        assert time.monotonic() - started < 120
        assert embedded.status(home).running
    finally:
        embedded.stop(home)
    assert not embedded.status(home).running
