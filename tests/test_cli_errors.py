"""Expected failures print one `Error:` line and exit 1; no password is ever printed."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest


def esrpdb(*args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    base = {k: v for k, v in os.environ.items() if not k.startswith("ESRPDB_")}
    return subprocess.run([sys.executable, "-m", "esrpdb.cli.main", *args], env={**base, **(env or {})},
                          capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("url,expected", [
    ("postgresql://someone:s3cret@127.0.0.1:1/x", "Error: cannot reach the database server: connection failed"),
    ("no:t a url:s3cret@", "Error: not a database URL"),
    ("mysql://someone@localhost/catalogue", "Error: esrpdb needs PostgreSQL; got a 'mysql' URL"),
    ("postgresql://someone:s3cret@/x?host=/nonexistent-socket-dir", "Error: cannot reach the database server"),
])
def test_a_bad_database_url_is_one_line(url, expected):
    done = esrpdb("--database-url", url, "runs")
    assert done.returncode == 1
    assert done.stdout == ""
    assert done.stderr.startswith(expected) and done.stderr.count("\n") == 1, done.stderr
    assert "s3cret" not in done.stderr


def test_unknown_database_and_refused_login_are_one_line(pg_server, fresh_database_url):
    socket = str(pg_server.socket_dir)
    missing = esrpdb("--database-url", f"postgresql://esrpdb_owner@/no_such_catalogue?host={socket}", "runs")
    assert missing.returncode == 1 and missing.stderr.startswith("Error: the database does not exist:")
    stranger = esrpdb("--database-url", f"postgresql://stranger:s3cret@/postgres?host={socket}", "runs")
    assert stranger.returncode == 1 and stranger.stderr.startswith("Error: the server refused the login:")
    assert "s3cret" not in stranger.stderr and stranger.stderr.count("\n") == 1


def test_an_unwritable_home_is_one_line(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("")
    done = esrpdb("runs", env={"ESRPDB_HOME": str(blocker / "home")})
    assert done.returncode == 1
    assert done.stderr.startswith(f"Error: cannot use {blocker / 'home'} as ESRPDB_HOME") and done.stderr.count("\n") == 1


def test_debug_shows_the_traceback():
    done = esrpdb("--debug", "--database-url", "mysql://someone@localhost/x", "runs")
    assert done.returncode == 1 and "Traceback" in done.stderr


def test_demo_on_a_database_that_holds_a_catalogue_is_refused(seed_catalog_url):
    from typer.testing import CliRunner

    from esrpdb.cli.main import app

    result = CliRunner().invoke(app, ["--database-url", seed_catalog_url, "demo"])
    assert result.exit_code == 1
    assert result.stderr.startswith("Error: ") and "already holds a catalogue" in result.stderr
    assert result.stderr.count("\n") == 1


def test_an_empty_report_is_said_to_be_empty_and_ignored_files_are_named_on_request(fresh_database_url, tmp_path):
    from typer.testing import CliRunner

    from esrpdb.cli.main import app

    (tmp_path / "Performance_2011_5_28_11_38_30.html").write_bytes(b"")
    (tmp_path / "notes.txt").write_text("nothing esrpdb reads\n")
    runner = CliRunner()
    done = runner.invoke(app, ["--database-url", fresh_database_url, "ingest", str(tmp_path), "--format", "json"])
    import json

    rows = {row["file"].rsplit("/", 1)[-1]: row for row in json.loads(done.stdout)}
    assert done.exit_code == 1
    assert rows["Performance_2011_5_28_11_38_30.html"]["status"] == "failed"
    assert "the file is empty (0 bytes)" in rows["Performance_2011_5_28_11_38_30.html"]["message"]
    assert "notes.txt" not in rows
    table = runner.invoke(app, ["--database-url", fresh_database_url, "ingest", str(tmp_path)])
    assert "--verbose lists the ignored files" in table.stdout and "notes.txt" not in table.stdout
    verbose = runner.invoke(app, ["--database-url", fresh_database_url, "ingest", str(tmp_path), "--verbose",
                                  "--format", "csv"])
    assert "notes.txt,ignored" in verbose.stdout
