"""Issue 35: a listing of a catalogue with nothing ingested says so and what to run, in one line on
standard error, and exits 0: no empty table, no "unknown solution" for a key nothing could name yet."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from esrpdb.cli.empty_hint import hint
from esrpdb.cli.main import app
from esrpdb.db.catalog import open_catalog
from esrpdb.queries.emptiness import catalogue_state

runner = CliRunner()
LISTINGS = (["solutions"], ["runs"], ["runs", "--solution", "nosuch"], ["query", "per-disk-iops"],
            ["query", "run-summary", "--param", "solution=nosuch"], ["compare", "nosuch", "other"], ["audit"],
            ["audit", "--solution", "nosuch"])


def invoke(url: str, *args: str):
    return runner.invoke(app, ["--database-url", url, *args])


@pytest.mark.parametrize("args", LISTINGS, ids=" ".join)
def test_a_listing_of_an_empty_catalogue_prints_the_hint_and_no_table(fresh_database_url, args):
    done = invoke(fresh_database_url, *args)
    assert done.exit_code == 0, done.output
    assert done.stdout == ""
    assert done.stderr.count("\n") == 1
    assert "is empty" in done.stderr and "esrpdb ingest FILES…" in done.stderr and "esrpdb demo" in done.stderr


@pytest.mark.parametrize("args", [a for a in LISTINGS if a[0] != "audit"], ids=" ".join)
def test_json_of_an_empty_catalogue_is_still_json(fresh_database_url, args):
    done = invoke(fresh_database_url, *args, "--format", "json")
    assert done.exit_code == 0, done.output
    assert json.loads(done.stdout) == [] and "is empty" in done.stderr


def test_a_catalogue_with_anything_in_it_gives_no_hint(seed_catalog_url, fresh_database_url):
    for args in (["solutions"], ["query", "per-disk-iops"], ["audit", "--format", "json"]):
        done = invoke(seed_catalog_url, *args)
        assert done.exit_code == 0 and "is empty" not in done.stderr, (args, done.stderr)
    refused = invoke(seed_catalog_url, "runs", "--solution", "nosuch")  # a typo is still an error
    assert refused.exit_code == 1 and refused.stderr.startswith("Error: unknown solution 'nosuch'")
    from tests.helpers import FIXTURES

    sample = FIXTURES / "perfmon" / "typeperf-sample.csv"  # one file, no solution: not empty any more
    assert invoke(fresh_database_url, "ingest", str(sample)).exit_code == 0
    assert "is empty" not in invoke(fresh_database_url, "solutions").stderr


def test_the_state_query_sees_files_and_another_database(fresh_database_url):
    from sqlalchemy.engine import make_url

    catalog = open_catalog(fresh_database_url)
    try:
        this = make_url(fresh_database_url).database
        state = catalogue_state(catalog.reader(), this)
        assert state.empty and state.other_exists
        assert not catalogue_state(catalog.reader(), "no_such_database_delta").other_exists
    finally:
        catalog.close()


def test_the_hint_names_the_demo_where_it_exists():
    assert "esrpdb --catalogue demo solutions" in hint(None, demo_exists=True)
    assert "--catalogue demo" not in hint(None, demo_exists=False) and "esrpdb demo" in hint(None, demo_exists=False)
    named = hint("lab", demo_exists=True)
    assert named.startswith("Catalogue 'lab' is empty") and "esrpdb --catalogue lab ingest FILES…" in named
    assert "`esrpdb demo` rebuilds it" in hint("demo", demo_exists=False)
    assert all("\n" not in hint(c, demo_exists=d) for c in (None, "lab", "demo") for d in (True, False))
