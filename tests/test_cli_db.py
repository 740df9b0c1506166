"""`esrpdb db start|status|url|stop` on an embedded server of the test's own."""

from __future__ import annotations

from typer.testing import CliRunner

from esrpdb.cli.main import app

runner = CliRunner()


def test_db_lifecycle(tmp_path, monkeypatch):
    home = tmp_path / "home"
    monkeypatch.setenv("ESRPDB_HOME", str(home))
    monkeypatch.delenv("ESRPDB_DATABASE_URL", raising=False)
    assert runner.invoke(app, ["db", "status"]).stdout.strip() == f"not running; data in {home}"
    try:
        started = runner.invoke(app, ["db", "start"])
        assert started.exit_code == 0 and started.stdout.startswith("running (pid ")
        again = runner.invoke(app, ["db", "start"])
        assert again.stdout == started.stdout  # the same server, not a second one
        url = runner.invoke(app, ["db", "url"]).stdout.strip()
        assert url.startswith("postgresql+psycopg://esrpdb_owner@/esrpdb?host=") and str(home) in url.replace("%2F", "/")
        reader = runner.invoke(app, ["db", "url", "--reader"]).stdout.strip()
        assert reader == url.replace("esrpdb_owner@", "esrpdb_reader@")
        assert runner.invoke(app, ["db", "status"]).stdout.startswith("running (pid ")
    finally:
        stopped = runner.invoke(app, ["db", "stop"])
    assert stopped.stdout.strip() == "stopped"
    assert runner.invoke(app, ["db", "stop"]).stdout.strip() == "not running"
