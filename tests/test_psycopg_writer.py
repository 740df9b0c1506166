"""Issue 46: `esrpdb ingest` writes on psycopg alone (db/sessions.py), and the catalogue is the one SQLAlchemy writes.

The command's engine is `PsycopgEngine` (db/quick.py's owner_engine); the library's and the tests' is
SQLAlchemy's. Every kind of file a batch meets is ingested both ways into clones of one template, and every
table's rows must be equal: documents (written by fixed statements alone), Jetstress reports, a report seen
twice (its sighting is a built statement: the file is written again on SQLAlchemy's engine), evidence files
(SQLAlchemy's from the start).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

import psycopg
import pytest
from sqlalchemy import text

from esrpdb.db.catalog import open_catalog
from esrpdb.db.migrate import shipped_head
from esrpdb.db.quick import owner_engine
from esrpdb.db.sessions import NeedsSqlAlchemy, PsycopgEngine, PsycopgSession, reading, transaction
from esrpdb.db.statements import Sql
from esrpdb.ingest import pipeline
from esrpdb.ingest.parallel import forked
from tests.catalogue_rows import IDS, catalogue_rows
from tests.helpers import FIXTURES, TEMPLATE, plain, scratch_database

DOCUMENTS = [*sorted((FIXTURES / "documents").glob("0*.txt")), *sorted((FIXTURES / "synthetic_documents").glob("*.txt")),
             *sorted((FIXTURES / "other_hands").glob("oh_*_01.txt"))]
EVIDENCE = [FIXTURES / "config" / "JetstressConfig-HM.xml", FIXTURES / "perfmon" / "seed000-hp-eva4400.csv",
            FIXTURES / "power" / "seed002-savvio-hdd.csv"]


STAMPS = [name for name in IDS if name != "id"]  # when a row was written: never the same twice


def _folder(tmp_path, files) -> list:
    """The files copied into one folder, in order (their names keep them apart)."""
    copies = []
    for n, source in enumerate(files):
        copy = tmp_path / f"{n:02d}-{source.name}"
        shutil.copyfile(source, copy)
        copies.append(copy)
    return copies


def _writes(monkeypatch) -> dict[str, list[str]]:
    """Per file, the engines its transactions ran on, in order (psycopg's, then SQLAlchemy's on a fallback)."""
    engines: dict[str, list[str]] = {}
    original = pipeline._write_once

    def recording(engine, module, path, *args, **kwargs):
        engines.setdefault(path.name, []).append("psycopg" if isinstance(engine, PsycopgEngine) else "sqlalchemy")
        return original(engine, module, path, *args, **kwargs)

    monkeypatch.setattr(pipeline, "_write_once", recording)
    return engines


def _ingest_both_ways(pg_server, files, monkeypatch, *, keep_ids: bool):
    """(rows written on psycopg's engine, rows written on SQLAlchemy's, the engines each file was written on)."""
    monkeypatch.setattr(forked, "available", lambda: False)  # one file after another: the writers are compared
    with scratch_database(pg_server, "pw", TEMPLATE) as psycopg_url, scratch_database(pg_server, "sw", TEMPLATE) as sa_url:
        by_psycopg, by_sqlalchemy = open_catalog(psycopg_url), open_catalog(sa_url)
        engine = owner_engine(psycopg_url, lambda: by_psycopg.engine)
        assert isinstance(engine, PsycopgEngine)
        try:
            engines = _writes(monkeypatch)
            fast = pipeline.ingest_paths(engine, files)
            monkeypatch.undo()
            slow = pipeline.ingest_paths(by_sqlalchemy.engine, files)
            assert [(o.status, o.runs, o.warnings) for o in fast] == [(o.status, o.runs, o.warnings) for o in slow]
            assert all(o.status == "loaded" for o in fast), [o.message for o in fast if o.status != "loaded"]
            rows = (_rows(by_psycopg.engine, keep_ids), _rows(by_sqlalchemy.engine, keep_ids))
        finally:
            engine.dispose()
            by_psycopg.close()
            by_sqlalchemy.close()
    return (*rows, engines)


def _rows(engine, keep_ids: bool) -> dict[str, list]:
    if not keep_ids:
        return catalogue_rows(engine)
    from esrpdb.schema import Base

    out = {}
    with engine.connect() as conn:  # every column but the stamps, ids included, in the columns' order
        for table in Base.metadata.sorted_tables:
            columns = [c.name for c in table.columns if c.name not in STAMPS]
            order = ", ".join(str(n + 1) for n in range(len(columns)))
            out[table.name] = [tuple(row) for row in conn.execute(text(
                f'SELECT {", ".join(columns)} FROM "{table.name}" ORDER BY {order}'))]
    return out


@pytest.mark.db
def test_documents_are_written_on_psycopg_alone_with_the_very_rows_and_ids(pg_server, template_url, tmp_path,
                                                                           monkeypatch):
    files = _folder(tmp_path, DOCUMENTS)
    by_psycopg, by_sqlalchemy, engines = _ingest_both_ways(pg_server, files, monkeypatch, keep_ids=True)
    assert engines == {f.name: ["psycopg"] for f in files}  # no document needed SQLAlchemy
    assert by_psycopg["runs"] and by_psycopg["solutions"] and by_psycopg["claims"] and by_psycopg["document_cells"]
    for table, rows in by_sqlalchemy.items():
        assert by_psycopg[table] == rows, table


@pytest.mark.db
def test_every_kind_of_file_gives_the_catalogue_sqlalchemy_writes(pg_server, template_url, tmp_path, monkeypatch):
    """Reports, reports seen twice (the HTML reports the seeds print too: their sightings), documents on
    psycopg alone; evidence files on SQLAlchemy's engine from the start."""
    reports = sorted((FIXTURES / "jetstress_html").rglob("*.html"))
    files = _folder(tmp_path, [*DOCUMENTS[:4], *reports, *EVIDENCE])
    by_psycopg, by_sqlalchemy, engines = _ingest_both_ways(pg_server, files, monkeypatch, keep_ids=False)
    assert all(engines[f.name] == ["psycopg"] for f in files[:-len(EVIDENCE)]), engines
    assert all(engines[f.name] == ["sqlalchemy"] for f in files[-len(EVIDENCE):])
    warnings = [row for row in by_psycopg["ingest_warnings"] if "also printed in" in str(row)]
    assert warnings  # reports seen twice were recorded as such
    assert by_psycopg["perf_files"] and by_psycopg["power_files"] and by_psycopg["test_configs"]
    for table, rows in by_sqlalchemy.items():
        assert by_psycopg[table] == rows, table


@pytest.mark.db
def test_a_file_whose_write_needs_sqlalchemy_is_written_again_whole_on_its_engine(pg_server, template_url, tmp_path,
                                                                                  monkeypatch):
    """A built statement met on psycopg's session (a writer not yet on fixed statements) rolls the file's
    transaction back and writes the file again on SQLAlchemy's engine: the same catalogue, ids aside (a
    sequence does not roll back)."""
    from esrpdb.ingest.load import provisional

    original = provisional.document_systems

    def with_a_built_statement(session, *args, **kwargs):
        session.execute(text("SELECT 1"))  # SQLAlchemy's text(): psycopg's session cannot run it
        return original(session, *args, **kwargs)

    monkeypatch.setattr(provisional, "document_systems", with_a_built_statement)
    files = _folder(tmp_path, DOCUMENTS[:3])
    by_psycopg, by_sqlalchemy, engines = _ingest_both_ways(pg_server, files, monkeypatch, keep_ids=False)
    assert engines == {f.name: ["psycopg", "sqlalchemy"] for f in files}
    for table, rows in by_sqlalchemy.items():
        assert by_psycopg[table] == rows, table


@pytest.fixture
def psycopg_engine(fresh_database_url):
    """psycopg's engine on a fresh catalogue, as the command opens it (SQLAlchemy's made if asked)."""
    catalog = open_catalog(fresh_database_url)
    engine = owner_engine(fresh_database_url, lambda: catalog.engine)
    assert isinstance(engine, PsycopgEngine)
    try:
        yield engine
    finally:
        engine.dispose()
        catalog.close()


@pytest.mark.db
def test_a_built_statement_on_psycopg_s_session_leaves_nothing_behind(psycopg_engine):
    engine = psycopg_engine
    with pytest.raises(NeedsSqlAlchemy):
        with transaction(engine) as session:
            assert isinstance(session, PsycopgSession)
            session.execute(Sql("INSERT INTO solutions (key) VALUES (:key)"), {"key": "half-written"})
            session.execute(text("SELECT 1"))
    with engine.connect() as session:
        assert session.execute(Sql("SELECT count(*) FROM solutions WHERE key = 'half-written'")).scalar() == 0
    assert engine.driver_connection.info.transaction_status == psycopg.pq.TransactionStatus.IDLE


@pytest.mark.db
def test_the_warm_up_writes_nothing_and_ends_its_transaction(psycopg_engine):
    engine = psycopg_engine
    engine.warm_up()
    assert engine.driver_connection.info.transaction_status == psycopg.pq.TransactionStatus.IDLE
    with engine.connect() as session:
        assert session.execute(Sql("SELECT (SELECT count(*) FROM run_figures) + (SELECT count(*) FROM "
                                   "solution_designs)")).scalar() == 0


@pytest.mark.db
def test_no_psycopg_engine_for_a_catalogue_behind_head_or_a_server_that_does_not_answer(pg_server, fresh_database_url):
    with psycopg.connect(plain(fresh_database_url), autocommit=True) as conn:
        conn.execute("UPDATE alembic_version SET version_num = '0001'")
    assert shipped_head() != "0001"
    assert owner_engine(fresh_database_url, lambda: pytest.fail("not asked")) is None  # the usual path migrates
    nowhere = "postgresql+psycopg://nobody@/nothing?host=/nonexistent-socket-folder"
    assert owner_engine(nowhere, lambda: pytest.fail("not asked")) is None  # the usual path says why


@pytest.mark.db
def test_the_command_writes_a_document_without_importing_sqlalchemy(pg_server, fresh_database_url, tmp_path):
    """The point of the psycopg writer: `esrpdb ingest FILE` as typed, and SQLAlchemy never imported."""
    document = _folder(tmp_path, DOCUMENTS[:1])[0]
    probe = ("import atexit, sys\n"
             "atexit.register(lambda: print('sqlalchemy imported:', 'sqlalchemy' in sys.modules))\n"
             "from esrpdb.cli.console import entry\n"
             "sys.argv = ['esrpdb', *sys.argv[1:]]\n"
             "entry()\n")
    env = {k: v for k, v in os.environ.items() if not k.startswith("ESRPDB_")}
    env["XDG_CACHE_HOME"] = str(tmp_path / "cache")
    done = subprocess.run([sys.executable, "-c", probe, "--database-url", fresh_database_url, "ingest", "--format", "csv",
                           str(document)], capture_output=True, text=True, env=env)
    assert done.returncode == 0 and ",loaded," in done.stdout, done.stdout + done.stderr
    assert "sqlalchemy imported: False" in done.stdout


@pytest.mark.db
def test_a_nested_transaction_on_psycopg_s_one_connection_is_refused_not_ended(psycopg_engine):
    """SQLAlchemy's engine gives a nested block a second connection; psycopg's has one, whose open write a
    nested block's rollback would undo: it is refused, and the warm-up skipped."""
    engine = psycopg_engine
    with transaction(engine) as session:
        session.execute(Sql("INSERT INTO solutions (key) VALUES (:key)"), {"key": "kept"})
        with pytest.raises(RuntimeError):
            with engine.connect():
                pass
        engine.warm_up()
    with engine.connect() as session:
        assert session.execute(Sql("SELECT count(*) FROM solutions WHERE key = 'kept'")).scalar() == 1


@pytest.mark.db
def test_a_read_block_keeps_the_statements_psycopg_prepared_and_one_that_raised_is_rolled_back(psycopg_engine):
    """A folder's files each begin with a read (reading(): is it already loaded?). A read block ended by ROLLBACK
    made psycopg forget its prepared statements, so no write statement was ever prepared: the server planned each
    anew for every file. A read that ended well is committed (the same, for reads); one that raised still rolls back."""
    engine = psycopg_engine
    statement = Sql("SELECT count(*) FROM solutions WHERE key = :key")
    prepared = Sql("SELECT count(*) FROM pg_prepared_statements WHERE statement LIKE 'SELECT count(*) FROM solutions%'")
    for _ in range(engine.driver_connection.prepare_threshold + 1):
        with reading(engine) as session:
            session.execute(statement, {"key": "any"}).scalar()
    with reading(engine) as session:
        assert session.execute(prepared).scalar() == 1
    with pytest.raises(ZeroDivisionError):
        with reading(engine) as session:
            session.execute(Sql("INSERT INTO solutions (key) VALUES (:key)"), {"key": "read block that raised"})
            raise ZeroDivisionError
    assert engine.driver_connection.info.transaction_status == psycopg.pq.TransactionStatus.IDLE
    with reading(engine) as session:
        assert session.execute(Sql("SELECT count(*) FROM solutions WHERE key = 'read block that raised'")).scalar() == 0
