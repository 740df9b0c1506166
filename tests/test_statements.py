"""db/statements.py: one statement text, the same statement on SQLAlchemy and on psycopg alone."""

from __future__ import annotations

import importlib
import pkgutil

import pytest
from sqlalchemy import text

import esrpdb
from esrpdb.db.catalog import open_catalog
from esrpdb.db.quick import owner_engine
from esrpdb.db.sessions import as_writer, reading, transaction
from esrpdb.db.statements import Sql


def _every_fixed_statement() -> dict[str, Sql]:
    """Every module-level Sql of the package's writing and catalogue modules, by where it is."""
    found = {}
    for package in ("esrpdb.db", "esrpdb.ingest.load"):
        for module_info in pkgutil.iter_modules(importlib.import_module(package).__path__):
            module = importlib.import_module(f"{package}.{module_info.name}")
            found.update({f"{module.__name__}.{name}": value for name, value in vars(module).items()
                          if isinstance(value, Sql)})
    found.update({f"esrpdb.ingest.pipeline.{name}": value
                  for name, value in vars(importlib.import_module("esrpdb.ingest.pipeline")).items()
                  if isinstance(value, Sql)})
    return found


def test_psycopg_s_form_has_sqlalchemy_s_parameters_for_every_statement_of_the_writers():
    statements = _every_fixed_statement()
    assert len(statements) >= 20 and esrpdb  # the writers' statements are found (a module renamed would hide them)
    for where, statement in statements.items():
        sqlalchemy_names = set(text(statement.source).compile().params)
        assert set(statement.parameter_names()) == sqlalchemy_names, where
        psycopg_form = statement.for_psycopg(True)
        assert all(f"%({name})s" in psycopg_form for name in sqlalchemy_names), where


def test_casts_percent_signs_and_escaped_colons():
    statement = Sql(r"SELECT CAST(:a AS integer[]), NULL::runs, 'x%' LIKE :pattern, '\:literal'")
    assert statement.for_psycopg(True) == r"SELECT CAST(%(a)s AS integer[]), NULL::runs, 'x%%' LIKE %(pattern)s, ':literal'"
    assert Sql("SELECT '50%', now()::date").for_psycopg(False) == "SELECT '50%', now()::date"  # sent as written
    assert statement.parameter_names() == ["a", "pattern"]


@pytest.mark.db
def test_both_sessions_read_the_same_rows(fresh_database_url):
    """The results as the writers read them (scalar, scalars, one, first, all, rows by attribute), on both."""
    catalog = open_catalog(fresh_database_url)
    engine = owner_engine(fresh_database_url, lambda: catalog.engine)
    statement = Sql("SELECT n AS number, n * 2 AS twice, '50%' AS percent FROM generate_series(1, CAST(:last AS integer)) "
                    "AS n ORDER BY n")
    try:
        seen = []
        for either in (engine, catalog.engine):
            with reading(either) as session:
                rows = session.execute(statement, {"last": 3}).all()
                seen.append((
                    [tuple(row) for row in rows], [row.twice for row in rows],
                    session.execute(statement, {"last": 3}).scalars().all(),
                    session.execute(statement, {"last": 1}).one().percent,
                    session.execute(statement, {"last": 0}).first(),
                    session.execute(statement, {"last": 0}).scalar(),
                    session.execute(statement, {"last": 1}).scalar_one_or_none(),
                    sorted(session.scalars(statement, {"last": 2})),
                ))
            with transaction(either) as session:
                assert as_writer(session) is session
                updated = session.execute(Sql("UPDATE solutions SET notes = notes WHERE key = CAST(:key AS varchar)"),
                                          {"key": "none such"})
                assert updated.rowcount == 0
        assert seen[0] == seen[1]
        assert seen[0][0] == [(1, 2, "50%"), (2, 4, "50%"), (3, 6, "50%")]
        with reading(engine) as session, pytest.raises(LookupError):
            session.execute(statement, {"last": 2}).one()
    finally:
        engine.dispose()
        catalog.close()
