"""Commands start at once: nothing heavy at import, the schema check without Alembic."""

from __future__ import annotations

import os
import subprocess
import sys

from sqlalchemy import create_engine

from esrpdb.db import migrate

HEAVY = ("sqlalchemy", "psycopg", "alembic", "rich", "lxml", "pypdf", "bs4")


def _modules_after(code: str, env: dict | None = None) -> str:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                          env=env).stdout


def test_the_cli_imports_no_heavy_library_until_a_command_runs():
    out = _modules_after("import sys, esrpdb.cli.main; "
                         f"print(sorted({{m.split('.')[0] for m in sys.modules}} & set({HEAVY!r})))")
    assert out.strip() == "[]"


def test_the_shipped_head_read_from_file_names_is_alembics_head(empty_database_url):
    assert migrate.shipped_head() == migrate.head_revision(empty_database_url)
    engine = create_engine(empty_database_url)
    try:
        assert migrate.stored_revision(engine) is None  # no alembic_version table yet
        migrate.upgrade(empty_database_url)
        assert migrate.stored_revision(engine) == migrate.shipped_head()
        assert migrate.ensure_current(engine, empty_database_url) is False
    finally:
        engine.dispose()


def test_sql_default_timeout_matches_the_library():
    from esrpdb.cli.sql_command import DEFAULT_TIMEOUT_S
    from esrpdb.queries import adhoc

    assert DEFAULT_TIMEOUT_S == adhoc.DEFAULT_TIMEOUT_S


def test_sql_and_query_on_a_running_embedded_server_need_no_sqlalchemy(pg_server, pg_home):
    migrate.upgrade(pg_server.url)  # the server's own catalogue database, which the fast path reads
    env = {k: v for k, v in os.environ.items() if k not in ("ESRPDB_DATABASE_URL", "ESRPDB_READER_URL")}
    env["ESRPDB_HOME"] = str(pg_home)
    out = _modules_after(
        "import sys\nfrom esrpdb.cli.main import app\n"
        "try:\n    app(['sql', 'select 41 + 1 as answer', '-f', 'csv'])\nexcept SystemExit:\n    pass\n"
        "print('sqlalchemy' in sys.modules, 'alembic' in sys.modules, 'pydantic' in sys.modules)", env)
    assert out.splitlines() == ["answer", "42", "False False False"]  # typer 0.29+ would bring pydantic
    out = _modules_after(
        "import sys\nfrom esrpdb.cli.main import app\n"
        "try:\n    app(['query', 'median-runs', '-p', 'is_median_run=yes', '-f', 'csv'])\nexcept SystemExit:\n    pass\n"
        "print('sqlalchemy' in sys.modules)", env)
    assert out.splitlines()[0].startswith("solution,trial,run_id") and out.splitlines()[-1] == "False"


def test_the_writer_of_an_ingest_imports_no_drafting_rule():
    """`esrpdb ingest FILE` writes what its reading worker drafted: the writer's side (the pipeline, the
    writers, a drafted document's records) compiles none of the rules' patterns (ingest/draft/__init__.py)."""
    out = _modules_after("import sys, esrpdb.ingest.pipeline, esrpdb.ingest.load.provisional; "
                         "from esrpdb.ingest.draft import DraftedDocument; "
                         "from esrpdb.ingest.draft.drafts import DraftClaim, DraftSolution; "
                         "print(*sorted(m for m in sys.modules if m.startswith('esrpdb.ingest.draft.')))")
    assert out.split() == ["esrpdb.ingest.draft.deferred", "esrpdb.ingest.draft.disk_roles", "esrpdb.ingest.draft.drafts",
                         "esrpdb.ingest.draft.fact", "esrpdb.ingest.draft.manifests"]  # deferred: compiles nothing itself


def test_finding_a_running_server_needs_no_psutil_on_linux(pg_server, pg_home):
    if not sys.platform.startswith("linux"):
        return  # elsewhere psutil tells, as it always did
    out = _modules_after("import sys\nfrom pathlib import Path\nfrom esrpdb.db import embedded\n"
                         f"print(embedded.start(Path({str(pg_home)!r})).pid, 'psutil' in sys.modules)")
    assert out.split() == [str(pg_server.pid), "False"]
