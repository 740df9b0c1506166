"""Issue 35: `esrpdb schema [NAME]` shows the tables and views, their columns, types, keys and the
catalogue's own comments, as the read-only role; an unknown name is one line naming the closest."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from typer.testing import CliRunner

from esrpdb.cli.main import app
from esrpdb.queries import canned, describe

runner = CliRunner()


def invoke(url: str, *args: str):
    return runner.invoke(app, ["--database-url", url, *args])


def test_schema_lists_every_table_and_view_with_its_comment(fresh_database_url):
    done = invoke(fresh_database_url, "schema", "--format", "json")
    assert done.exit_code == 0, done.output
    listed = {row["name"]: row for row in json.loads(done.stdout)}
    views = {q.view for q in canned.all_queries().values()}
    assert views <= set(listed) and {"runs", "solutions", "latencies"} <= set(listed)
    assert {listed[v]["kind"] for v in views} == {"view"} and listed["runs"]["kind"] == "table"
    assert [name for name, row in listed.items() if not row["comment"]] == []
    assert "disk bases" in listed["per_disk_iops"]["comment"]


def test_schema_of_a_table_gives_types_keys_and_units(fresh_database_url):
    columns = {row["column"]: row for row in json.loads(invoke(fresh_database_url, "schema", "runs", "-f", "json").stdout)}
    assert columns["id"]["key"] == "primary key"
    assert columns["solution_id"]["key"] == "→ solutions.id" and "solutions.id" in columns["solution_id"]["comment"]
    assert columns["achieved_iops"]["type"] == "double precision"
    assert "ms" in columns["threshold_db_read_avg_ms"]["comment"]
    assert all(row["comment"] for row in columns.values())


def test_schema_takes_a_canned_query_name_and_prints_the_relation_first(fresh_database_url):
    shown = invoke(fresh_database_url, "schema", "per-disk-iops")
    assert shown.exit_code == 0, shown.output
    first = shown.stdout.splitlines()[0]
    assert first.startswith("view per_disk_iops: ") and "disk_basis" in shown.stdout


def test_an_unknown_name_is_one_line_naming_the_closest(fresh_database_url):
    refused = invoke(fresh_database_url, "schema", "rnus")
    assert refused.exit_code == 1 and refused.stdout == ""
    assert refused.stderr.count("\n") == 1
    assert refused.stderr.startswith("Error: unknown table or view 'rnus' (did you mean 'runs'?)")


def test_the_schema_is_read_as_the_reader(fresh_database_url):
    """The library function lists what the role may select: a table the reader may not read is not there."""
    from sqlalchemy import create_engine, text

    from esrpdb.db.catalog import open_catalog

    owner = create_engine(fresh_database_url)
    try:
        with owner.begin() as conn:
            conn.execute(text("CREATE TABLE owner_only (x int)"))
            conn.execute(text("REVOKE ALL ON owner_only FROM PUBLIC"))
            conn.execute(text("REVOKE ALL ON owner_only FROM esrpdb_reader"))
        assert "owner_only" in {r.name for r in describe.schema(owner)}
    finally:
        owner.dispose()
    catalog = open_catalog(fresh_database_url)
    try:
        names = {r.name for r in describe.schema(catalog.reader())}
    finally:
        catalog.close()
    assert "runs" in names and "owner_only" not in names


def test_piped_schema_keeps_every_comment_whole(fresh_database_url):
    env = {k: v for k, v in os.environ.items() if k != "ESRPDB_READER_URL"} | {"COLUMNS": "60"}
    done = subprocess.run([sys.executable, "-m", "esrpdb.cli.main", "--database-url", fresh_database_url,
                           "schema", "runs"], env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    records = json.loads(invoke(fresh_database_url, "schema", "runs", "-f", "json").stdout)
    flat = " ".join(done.stdout.split())
    assert [r["comment"] for r in records if " ".join(r["comment"].split()) not in flat] == []


def test_schema_on_a_named_catalogue(pg_home, pg_server, monkeypatch):
    monkeypatch.setenv("ESRPDB_HOME", str(pg_home))
    for name in ("ESRPDB_DATABASE_URL", "ESRPDB_READER_URL", "ESRPDB_CATALOGUE"):
        monkeypatch.delenv(name, raising=False)
    assert runner.invoke(app, ["--catalogue", "schemadelta", "init"]).exit_code == 0  # only init and ingest make one
    shown = runner.invoke(app, ["--catalogue", "schemadelta", "schema", "claims", "--format", "json"])
    assert shown.exit_code == 0, shown.output
    columns = {row["column"]: row for row in json.loads(shown.stdout)}
    assert columns["other_solution_id"]["key"] == "→ solutions.id" and columns["metric"]["comment"]
