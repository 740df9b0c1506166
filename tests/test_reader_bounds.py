"""A reader that stays a reader and stays bounded (issue 34): each probe is something an analyst could
paste into `esrpdb sql`, or run over the reader's own URL in psql, and each must leave the statement's
role, the reader's limits and the server as they were.

Two layers are tested apart: the check `esrpdb sql` makes with PostgreSQL's parser (a one-line refusal
in words), and the server's own grants (the same statements sent straight to the server as the reader).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import psycopg
import pytest
from sqlalchemy.engine import make_url
from typer.testing import CliRunner

from esrpdb.cli.main import app
from esrpdb.db import embedded, roles
from esrpdb.db.connection import derived_reader_url
from esrpdb.queries import value_bounds
from tests.helpers import admin_url, plain, with_database

runner = CliRunner()
MIGRATION_LOCK_KEY = 0x65737270  # migrations/env.py
READER_WORK_MEM = roles.READER_SESSION_DEFAULTS["work_mem"]


def sql(url: str, statement: str, *args: str, reader_url: str | None = None):
    given = ["--reader-url", reader_url] if reader_url else []
    return runner.invoke(app, ["--database-url", url, *given, "sql", *args, "--", statement])


def owner_url(url: str) -> str:
    """The owner's URL in a form esrpdb derives no reader URL from: `sql` logs in as the owner and
    becomes the reader for the statement (`SET LOCAL ROLE`), as with another server's owner URL."""
    return make_url(url).update_query_dict({"user": roles.OWNER_ROLE}).render_as_string(hide_password=False)


def reader_dsn(url: str) -> str:
    derived = derived_reader_url(url)
    assert derived is not None
    return plain(derived)


def one_line_error(result) -> str:
    assert result.exit_code == 1, result.output
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: "), result.stderr
    return lines[0]


def shown(url: str, statement: str, **kwargs) -> list[dict]:
    result = sql(url, statement, "--format", "json", **kwargs)
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


# --- 1. the statement's role cannot be changed from inside it -----------------------------------------

def test_the_owner_url_runs_the_statement_as_the_reader(fresh_database_url):
    assert shown(owner_url(fresh_database_url), "select session_user as login, current_user as role") == [
        {"login": roles.OWNER_ROLE, "role": roles.READER_ROLE}]


ROLE_CHANGES = [
    "select set_config('role', 'none', true) as r, current_user as now_as",
    "select current_user as now_as from (select set_config('role', 'none', true)) as s",
    "select set_config('session_authorization', 'esrpdb_owner', true), current_user as now_as",
    "select pg_catalog.set_config('role', 'none', false), current_user as now_as",
    "select query_to_xml('select set_config(''role'', ''none'', true), current_user', true, true, '') as now_as",
    "set role none",
    "reset role",
    "set session authorization esrpdb_owner",
    "update pg_settings set setting = 'none' where name = 'role'",
]


@pytest.mark.parametrize("statement", ROLE_CHANGES)
def test_the_statement_cannot_leave_the_reader_role(fresh_database_url, statement):
    result = sql(owner_url(fresh_database_url), statement)
    one_line_error(result)
    assert roles.OWNER_ROLE not in result.stdout


def test_the_server_refuses_the_role_change_without_the_check(fresh_database_url):
    """Sent straight to the server as the owner become the reader: set_config is not the reader's."""
    with psycopg.connect(plain(owner_url(fresh_database_url))) as conn:
        conn.execute(f"SET LOCAL ROLE {roles.READER_ROLE}")
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            conn.execute("select set_config('role', 'none', true)")
        conn.rollback()
        assert conn.execute("select set_config('application_name', 'owner', true)").fetchone() == ("owner",)


# --- 2. the reader cannot raise its own limits ------------------------------------------------------------

LIMIT_RAISES = [
    "select set_config('work_mem', '64GB', true)",
    "select current_setting('work_mem') from (select set_config('work_mem', '64GB', true)) as s",
    "do $$ begin set local work_mem = '64GB'; perform 1; end $$",
    "set work_mem = '64GB'",
    "set local work_mem = '64GB'",
    "reset work_mem",
    "select set_config('temp_file_limit', '-1', true)",
    "select set_config('statement_timeout', '0', true)",
    "select set_config('max_parallel_workers_per_gather', '8', true)",
    "update pg_settings set setting = '64GB' where name = 'work_mem'",
]


@pytest.mark.parametrize("statement", LIMIT_RAISES)
@pytest.mark.parametrize("login", ["reader", "owner"])
def test_the_reader_cannot_raise_its_limits(fresh_database_url, statement, login):
    url = fresh_database_url if login == "reader" else owner_url(fresh_database_url)
    one_line_error(sql(url, statement))
    assert shown(url, "select current_setting('work_mem') as work_mem") == [{"work_mem": READER_WORK_MEM}]


def test_the_server_refuses_the_reader_set_config_and_do(fresh_database_url):
    with psycopg.connect(reader_dsn(fresh_database_url)) as conn:
        for statement in ("select set_config('work_mem', '64GB', true)",
                          "do $$ begin set local work_mem = '64GB'; end $$",
                          "select query_to_xml('select set_config(''work_mem'', ''64GB'', true)', true, true, '')"):
            with pytest.raises(psycopg.errors.InsufficientPrivilege):
                conn.execute(statement)
            conn.rollback()
            assert conn.execute("show work_mem").fetchone() == (READER_WORK_MEM,)


def test_defaults_the_reader_gave_itself_do_not_reach_esrpdbs_sessions(pg_server, fresh_database_url):
    """PostgreSQL lets a role `ALTER ROLE … SET` its own defaults (psql with the reader's URL)."""
    with psycopg.connect(reader_dsn(fresh_database_url), autocommit=True) as conn:
        conn.execute("set default_transaction_read_only = off")
        conn.execute(f"alter role {roles.READER_ROLE} set work_mem = '1GB'")
        conn.execute(f"alter role {roles.READER_ROLE} set max_parallel_workers_per_gather = 8")
    try:
        for url in (fresh_database_url, owner_url(fresh_database_url)):
            assert shown(url, "select current_setting('work_mem') as w, "
                              "current_setting('max_parallel_workers_per_gather') as p") == [
                {"w": READER_WORK_MEM, "p": "0"}]
    finally:
        with psycopg.connect(admin_url(pg_server), autocommit=True) as admin:
            roles.bootstrap_roles(admin)
    with psycopg.connect(admin_url(pg_server)) as admin:
        config = admin.execute("select rolconfig from pg_roles where rolname = %s", (roles.READER_ROLE,)).fetchone()[0]
    assert sorted(config) == sorted(f"{k}={v}" for k, v in roles.READER_SESSION_DEFAULTS.items())


# --- 3. a shared budget for temporary files ---------------------------------------------------------------

# Some 430 MB to sort: more than the reader's limit, far less than the 2 GB it had.
SPILLING_SORT = ("select count(*) as n from (select g, (repeat('x', 200) || g) collate \"C\" as h "
                 "from generate_series(1, 2000000) as g order by h) as sorted")


@pytest.mark.parametrize("login", ["reader", "owner"])
def test_a_sort_stops_at_the_readers_temporary_file_limit(fresh_database_url, login):
    url = fresh_database_url if login == "reader" else owner_url(fresh_database_url)
    line = one_line_error(sql(url, SPILLING_SORT, "--timeout", "120"))
    assert "temp_file_limit" in line


def test_the_readers_temporary_files_are_bounded_in_total(pg_server, fresh_database_url):
    """temp_file_limit is per session: the sessions are capped, and none has parallel workers."""
    with psycopg.connect(admin_url(pg_server)) as admin:
        limit, config = admin.execute("select rolconnlimit, rolconfig from pg_roles where rolname = %s",
                                      (roles.READER_ROLE,)).fetchone()
        per_session = admin.execute("select pg_size_bytes(%s)",
                                    (roles.READER_SESSION_DEFAULTS["temp_file_limit"],)).fetchone()[0]
    assert 0 < limit == roles.READER_CONNECTION_LIMIT
    assert limit * per_session <= 2**30  # the bound the README states: 1 GB for all reading at once
    assert "max_parallel_workers_per_gather=0" in config
    opened = []
    try:
        with pytest.raises(psycopg.OperationalError, match="too many connections for role"):
            for _ in range(limit + 1):
                opened.append(psycopg.connect(reader_dsn(fresh_database_url)))
        refused = subprocess.run([sys.executable, "-m", "esrpdb.cli.main", "--database-url", fresh_database_url,
                                  "sql", "select 1"], capture_output=True, text=True, timeout=120)
        assert refused.returncode == 1 and refused.stdout == ""
        assert "too many connections" in refused.stderr and len(refused.stderr.strip().splitlines()) == 1
    finally:
        for conn in opened:
            conn.close()


def test_a_command_leaves_no_reader_connection_open(pg_server, seed_catalog_url):
    """Each command closes its catalogue when it ends: a process running many (the tests, a script
    using the CLI) holds none of the reader's few connections after them, garbage collector or not."""
    import gc

    database = make_url(seed_catalog_url).database
    count = "select count(*) from pg_stat_activity where usename = %s and datname = %s"
    with psycopg.connect(admin_url(pg_server), autocommit=True) as admin:
        before = admin.execute(count, (roles.READER_ROLE, database)).fetchone()  # other tests' fixtures
        gc.disable()
        try:
            for args in (["runs"], ["solutions"], ["query", "per-disk-iops"], ["audit"], ["sql", "select 1"]) * 3:
                assert runner.invoke(app, ["--database-url", seed_catalog_url, *args]).exit_code == 0
            # a closed connection's backend leaves pg_stat_activity a moment after the client let go
            deadline = time.monotonic() + 5
            while admin.execute(count, (roles.READER_ROLE, database)).fetchone() != before and time.monotonic() < deadline:
                time.sleep(0.05)
            assert admin.execute(count, (roles.READER_ROLE, database)).fetchone() == before
        finally:
            gc.enable()


# --- 4. one value's size is bounded as the rows are -------------------------------------------------------

@pytest.mark.parametrize("max_rows", [None, "1000000000"])
def test_a_value_over_the_limit_is_refused_naming_its_column(fresh_database_url, max_rows):
    extra = ["--max-rows", max_rows] if max_rows else []
    size = value_bounds.MAX_VALUE_BYTES + 1
    line = one_line_error(sql(fresh_database_url, f"select 1 as id, repeat('x', {size}) as wide", *extra))
    assert "column 'wide'" in line and value_bounds.mb(value_bounds.MAX_VALUE_BYTES) in line and "row 1" in line


def test_a_value_over_the_limit_is_never_sent(fresh_database_url):
    """Peak memory of the whole `esrpdb sql` process for a 200 MB value: nothing near its size."""
    probe = ("import resource, subprocess, sys\n"
             "subprocess.run(sys.argv[1:], capture_output=True)\n"
             "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)")
    command = [sys.executable, "-m", "esrpdb.cli.main", "--database-url", fresh_database_url, "sql",
               "select repeat('x', 200000000) as wide", "--format", "csv", "--max-rows", "1000000000"]
    peak_kb = int(subprocess.run([sys.executable, "-c", probe, *command], capture_output=True, text=True,
                                 check=True, timeout=300).stdout)
    assert peak_kb < 150_000, peak_kb


def test_the_rows_stop_at_the_size_budget_whatever_max_rows_says(fresh_database_url):
    result = sql(fresh_database_url, "select g, repeat('y', 1000000) as v from generate_series(1, 100) as g",
                 "--format", "csv", "--max-rows", "1000000000")
    assert result.exit_code == 0, result.output
    rows = result.stdout.splitlines()[1:]
    assert 0 < len(rows) * 1_000_000 <= value_bounds.MAX_RESULT_BYTES < (len(rows) + 1) * 1_000_001
    assert result.stderr.strip() == (
        f"stopped after {len(rows)} rows: their values reach {value_bounds.mb(value_bounds.MAX_RESULT_BYTES)}, "
        "as much as `esrpdb sql` prints at once; add a LIMIT, or select fewer or narrower columns")


def test_a_wide_constant_in_a_plan_is_refused_too(fresh_database_url):
    size = value_bounds.MAX_VALUE_BYTES + 1
    assert "prints values up to" in one_line_error(sql(fresh_database_url, f"explain verbose select repeat('x', {size})"))


def test_measured_rows_keep_their_order_types_and_names(fresh_database_url):
    rows = shown(fresh_database_url, "select g, g::text as t, 'infinity'::timestamp as forever, "
                                     "array[g, g] as pair, 1 as g from generate_series(3, 1, -1) as g order by t")
    assert rows == [{"g": 1, "t": "1", "forever": "infinity", "pair": [1, 1]},
                    {"g": 1, "t": "2", "forever": "infinity", "pair": [2, 2]},
                    {"g": 1, "t": "3", "forever": "infinity", "pair": [3, 3]}]
    assert shown(fresh_database_url, "values (1, null), (2, 'b') -- trailing comment") == [
        {"column1": 1, "column2": None}, {"column1": 2, "column2": "b"}]


# --- 5. a dead client's statement is cancelled within seconds ---------------------------------------------

def _running(admin: psycopg.Connection, marker: str) -> int:
    return admin.execute("select count(*) from pg_stat_activity where query like %s and pid <> pg_backend_pid()",
                         (f"%{marker}%",)).fetchone()[0]


@pytest.mark.parametrize("login", ["reader", "owner"])
def test_a_killed_clients_statement_is_cancelled(pg_server, fresh_database_url, login):
    url = fresh_database_url if login == "reader" else owner_url(fresh_database_url)
    marker = f"killed_client_{login}_{os.getpid()}"
    client = subprocess.Popen([sys.executable, "-m", "esrpdb.cli.main", "--database-url", url, "sql",
                               f"select pg_sleep(60) as {marker}", "--timeout", "120"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    with psycopg.connect(admin_url(pg_server), autocommit=True) as admin:
        try:
            deadline = time.monotonic() + 30
            while not _running(admin, marker):
                assert time.monotonic() < deadline and client.poll() is None, "the statement never started"
                time.sleep(0.1)
        finally:
            client.send_signal(signal.SIGKILL)
            client.wait()
        killed = time.monotonic()
        while _running(admin, marker) and time.monotonic() - killed < 10:
            time.sleep(0.2)
        assert _running(admin, marker) == 0


# --- 6. no result set, COPY behind a comment, the migration lock, a 5,000-digit run id ---------------------

@pytest.mark.parametrize("statement, word", [("set work_mem = '1MB'", "SET"), ("analyze", "ANALYZE"),
                                             ("do $$ begin perform 1; end $$", "DO"), ("vacuum runs", "VACUUM"),
                                             ("begin", "BEGIN"), ("prepare p as select 1", "PREPARE"),
                                             ("listen channel", "LISTEN"), ("discard all", "DISCARD")])
def test_a_statement_with_no_rows_is_answered_in_words(fresh_database_url, statement, word):
    line = one_line_error(sql(fresh_database_url, statement))
    assert line.startswith(f"Error: {word} is refused: ") and "didn't produce" not in line


@pytest.mark.parametrize("statement", ["/* a comment */ copy (select 1) to stdout",
                                       "-- a comment\ncopy runs to stdout",
                                       "/* one */ -- two\n  COPY (select 1) TO STDOUT;",
                                       "-- a comment\ncopy runs from stdin"])
def test_copy_behind_a_comment_is_refused(fresh_database_url, statement):
    assert one_line_error(sql(fresh_database_url, statement, "--timeout", "5")).startswith(
        "Error: COPY is not run by `esrpdb sql`")


LOCKS = ["pg_advisory_lock", "pg_advisory_lock_shared", "pg_try_advisory_lock", "pg_advisory_xact_lock",
         "pg_try_advisory_xact_lock_shared"]


@pytest.mark.parametrize("function", LOCKS)
def test_the_reader_cannot_take_the_migration_lock(fresh_database_url, function):
    for url in (fresh_database_url, owner_url(fresh_database_url)):
        assert f"{function} is refused" in one_line_error(sql(url, f"select {function}({MIGRATION_LOCK_KEY})"))
    with psycopg.connect(reader_dsn(fresh_database_url)) as conn:
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            conn.execute(f"select {function}({MIGRATION_LOCK_KEY})")


def test_the_owner_still_takes_the_migration_lock(fresh_database_url):
    with psycopg.connect(plain(fresh_database_url)) as conn:
        assert conn.execute("select pg_try_advisory_lock(%s)", (MIGRATION_LOCK_KEY,)).fetchone() == (True,)


def test_a_run_id_of_5000_digits_is_one_clear_line(seed_catalog_url):
    result = runner.invoke(app, ["--database-url", seed_catalog_url, "query", "median-runs", "-p",
                                 "run_id=" + "9" * 5000])
    line = one_line_error(result)
    assert "run_id is an integer from" in line and "(5,000 characters)" in line and len(line) < 200


# --- an upgrade: a catalogue made before these limits gets them from `esrpdb init` ---------------------------

def test_init_locks_down_a_catalogue_made_by_an_older_esrpdb(pg_server, pg_home, fresh_database_url, monkeypatch):
    database = make_url(fresh_database_url).database
    with psycopg.connect(plain(with_database(pg_server.admin_url(), database)), autocommit=True) as admin:
        admin.execute("grant execute on function set_config(text, text, boolean) to public")
        admin.execute("grant execute on function pg_advisory_lock(bigint) to public")
        admin.execute("grant usage on language plpgsql to public")
        admin.execute(f"alter role {roles.READER_ROLE} connection limit 32")
        admin.execute(f"alter role {roles.READER_ROLE} set temp_file_limit = '2GB'")
    with psycopg.connect(reader_dsn(fresh_database_url)) as conn:
        assert conn.execute("select set_config('work_mem', '64MB', true)").fetchone() == ("64MB",)
    monkeypatch.setenv("ESRPDB_HOME", str(pg_home))
    for name in ("ESRPDB_DATABASE_URL", "ESRPDB_READER_URL", "ESRPDB_CATALOGUE"):
        monkeypatch.delenv(name, raising=False)
    assert embedded.status(pg_home).running
    try:
        done = runner.invoke(app, ["init"])
        assert done.exit_code == 0, done.output
        with psycopg.connect(reader_dsn(fresh_database_url)) as conn:
            for statement in ("select set_config('work_mem', '64MB', true)", "select pg_advisory_lock(1)",
                              "do $$ begin end $$"):
                with pytest.raises(psycopg.errors.InsufficientPrivilege):
                    conn.execute(statement)
                conn.rollback()
            assert conn.execute("show temp_file_limit").fetchone() == (
                roles.READER_SESSION_DEFAULTS["temp_file_limit"],)
        with psycopg.connect(admin_url(pg_server)) as admin:
            assert admin.execute("select rolconnlimit from pg_roles where rolname = %s",
                                 (roles.READER_ROLE,)).fetchone() == (roles.READER_CONNECTION_LIMIT,)
    finally:  # the session's server is shared by every test
        with psycopg.connect(admin_url(pg_server), autocommit=True) as admin:
            roles.bootstrap_roles(admin)
