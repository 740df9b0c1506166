"""Issue 46: the writer of an ingest on the catalogue's Core tables, unpickled from the user's cache
(schema/tables.py), without declaring the ORM models; the tables and the catalogue are the models' own."""

from __future__ import annotations

import inspect
import os
import subprocess
import sys

import pytest

from esrpdb.db.catalog import open_catalog
from esrpdb.ingest.pipeline import ingest_paths
from esrpdb.schema import Base, tables
from tests.catalogue_rows import catalogue_rows
from tests.helpers import FIXTURES

DOCUMENTS = [FIXTURES / "documents" / "001_4559286d3491bdeb.txt",
             FIXTURES / "synthetic_documents" / "synth_esrp_train_001.txt"]


def _ddl(metadata) -> list[str]:
    """Every table's CREATE TABLE and CREATE INDEX, as PostgreSQL is told them."""
    from sqlalchemy.dialects import postgresql
    from sqlalchemy.schema import CreateIndex, CreateTable

    dialect = postgresql.dialect()
    return [str(CreateTable(table).compile(dialect=dialect)) + "".join(
        str(CreateIndex(index).compile(dialect=dialect)) for index in sorted(table.indexes, key=lambda i: i.name or ""))
        for table in metadata.sorted_tables]


DDL = inspect.getsource(_ddl)  # the same function in the processes below, which must not import this module's models


def _run(code: str, cache: os.PathLike) -> str:
    env = {k: v for k, v in os.environ.items() if not k.startswith("ESRPDB_")}
    env["XDG_CACHE_HOME"] = str(cache)
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env).stdout


PRINT_DDL = (DDL + "import sys\nfrom esrpdb.schema import tables\n"
             "loaded = tables.loaded()\nprint(repr((_ddl(loaded.metadata), sorted(loaded.table_of_model.items()), "
             "'esrpdb.schema.runs' in sys.modules)))")


def test_the_cached_tables_are_the_models_tables(tmp_path):
    from ast import literal_eval

    models = sorted((m.class_.__name__, m.local_table.name) for m in Base.registry.mappers)
    built = literal_eval(_run(PRINT_DDL, tmp_path))  # no cache yet: the models declared, then pickled
    assert list(tmp_path.rglob("tables-*.pickle"))
    cached = literal_eval(_run(PRINT_DDL, tmp_path))  # the pickle alone
    assert cached[2] is False and built[2] is True
    assert cached[:2] == built[:2] == (_ddl(Base.metadata), models)


def test_a_cache_someone_else_may_write_is_not_read(tmp_path):
    if not hasattr(os, "getuid"):
        pytest.skip("POSIX owners and modes")
    _run("from esrpdb.schema import tables; tables.loaded()", tmp_path)
    (cached,) = tmp_path.rglob("tables-*.pickle")
    cached.chmod(0o666)
    assert _run(PRINT_DDL, tmp_path).rstrip().endswith("True)")  # declared the models again


def test_the_writer_declares_no_model_and_names_every_table(tmp_path):
    _run("from esrpdb.schema import tables; tables.loaded()", tmp_path)  # the cache, as a first command leaves it
    out = _run("import sys, esrpdb.ingest.pipeline, esrpdb.ingest.load.provisional, esrpdb.ingest.load.writers\n"
               "print(sorted(m for m in sys.modules if m.startswith('esrpdb.schema.')))", tmp_path)
    assert "esrpdb.schema.runs" not in out and "esrpdb.schema.base" not in out
    runs = tables.loaded().metadata.tables["runs"]  # one copy a process, whichever came first
    assert tables.Run.__clause_element__() is runs and tables.table_of(tables.Run) is runs
    assert tables.Run.solution_id is runs.c.solution_id
    assert [c.name for c in runs.columns] == [c.name for c in Base.metadata.tables["runs"].columns]
    with pytest.raises(AttributeError):
        tables.Run.no_such_column  # noqa: B018


@pytest.mark.db
def test_the_command_on_the_cached_tables_writes_the_modelscatalogue_rows(catalog, empty_database_url, tmp_path):
    """`esrpdb ingest` in a process that never declares a model nor imports the ORM (db/sessions.py),
    against this process's ingest on the models' tables: every table's rows equal, ids aside."""
    _run("from esrpdb.schema import tables; tables.loaded()", tmp_path)
    out = _run("import sys\nfrom esrpdb.cli.main import app\ntry:\n"
               f"    app(['--database-url', {catalog.url!r}, 'ingest', *{[str(d) for d in DOCUMENTS]!r}, '-f', 'csv'])\n"
               "except SystemExit as stop:\n    assert not stop.code, stop.code\n"
               "print('esrpdb.schema.runs' in sys.modules, 'sqlalchemy.orm' in sys.modules)", tmp_path)
    assert out.splitlines()[-1] == "False False" and out.count(",loaded,") == len(DOCUMENTS), out
    inline = open_catalog(empty_database_url)
    try:
        outcomes = ingest_paths(inline.engine, DOCUMENTS)
        assert [o.status for o in outcomes] == ["loaded"] * len(DOCUMENTS)
        command_rows, model_rows = catalogue_rows(catalog.engine), catalogue_rows(inline.engine)
    finally:
        inline.close()
    assert command_rows["runs"] and command_rows["solutions"] and command_rows["document_tables"]
    for table, rows in command_rows.items():
        assert model_rows[table] == rows, table


def test_the_cache_folder_is_platformdirs_own():
    from platformdirs import user_cache_dir

    assert tables.cache_folder() == tables.Path(user_cache_dir("esrpdb"))
