"""Issue 49: a reader's open transaction holds a lock on a table a migration alters; the migration
(`esrpdb init`, or any command that finds the catalogue behind the newest revision) used to queue behind
it, and every later reader behind the migration. Now it waits MIGRATION_LOCK_TIMEOUT, then stops with one
line naming the session in its way, changes nothing, and goes through once that session has ended."""

from __future__ import annotations

import psycopg
import pytest
from sqlalchemy import create_engine
from typer.testing import CliRunner

from esrpdb.cli.main import app
from esrpdb.cli.unexpected import one_line
from esrpdb.db import migrate
from esrpdb.db.connection import derived_reader_url
from tests.helpers import plain

runner = CliRunner()
# Tables the newest revisions alter (0028 `documents`, 0029 `claims`): a reader's open transaction that has
# read them all holds a lock the newest migration waits for, whichever of them it alters.
ALTERED = ("documents", "claims")
# The revision below the newest that alters a table: 0030 and 0031 replace functions (CREATE OR REPLACE takes no
# lock a reader holds; 0031's rewrite of the stored figures' rows takes none either), so the tests go down to
# below 0029, whose `claims` column the reader's lock blocks.
BELOW_ALTERING = "0028"


def _read_every(reader) -> None:
    for table in ALTERED:
        reader.execute(f"SELECT count(*) FROM {table}")


@pytest.mark.db
def test_a_readers_lock_stops_the_migration_with_one_line_and_changes_nothing(fresh_database_url, monkeypatch):
    monkeypatch.setattr(migrate, "MIGRATION_LOCK_TIMEOUT", "200ms")
    head = migrate.shipped_head()
    migrate.downgrade(fresh_database_url, BELOW_ALTERING)  # the next revision up alters one of ALTERED
    reader_url = derived_reader_url(fresh_database_url)
    assert reader_url is not None
    with psycopg.connect(plain(reader_url)) as reader:  # a transaction left open, as psql or a BI tool does
        _read_every(reader)
        reader_pid = reader.info.backend_pid
        blocked = runner.invoke(app, ["--database-url", fresh_database_url, "init"])
        assert blocked.exit_code == 1, blocked.output
        (line,) = blocked.stderr.splitlines()
        assert line.startswith("Error: ") and "lock" in line
        assert f"pid {reader_pid}" in line and "esrpdb_reader" in line and any(t in line for t in ALTERED)
        engine = create_engine(fresh_database_url)
        try:
            assert migrate.current_revision(engine) != head  # rolled back whole
        finally:
            engine.dispose()
    done = runner.invoke(app, ["--database-url", fresh_database_url, "init"])
    assert done.exit_code == 0, done.output
    assert f"revision {head}" in done.stdout


@pytest.mark.db
def test_any_command_that_migrates_says_the_same(fresh_database_url, monkeypatch):
    """A reading command opens the catalogue and migrates first: the same line, not 'cannot reach the server'."""
    monkeypatch.setattr(migrate, "MIGRATION_LOCK_TIMEOUT", "200ms")
    migrate.downgrade(fresh_database_url, BELOW_ALTERING)
    with psycopg.connect(plain(derived_reader_url(fresh_database_url) or "")) as reader:
        _read_every(reader)
        reader_pid = reader.info.backend_pid
        listed = runner.invoke(app, ["--database-url", fresh_database_url, "solutions"])
    assert listed.exit_code == 1 and listed.exception is not None
    line = one_line(listed.exception)  # what the console script's net prints (cli/unexpected.py)
    assert "\n" not in line and "lock" in line and f"pid {reader_pid}" in line and "cannot reach" not in line
