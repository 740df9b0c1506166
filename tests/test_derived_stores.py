"""The derived stores declared once (migrations/derived_stores.py): the catalogue's triggers are exactly
the declaration's, as PostgreSQL prints them, and the declaration's helpers create and drop a store's
triggers as the revisions did by hand."""

from __future__ import annotations

from sqlalchemy import create_engine, text

from esrpdb.migrations import derived_stores

TRIGGERS = text("SELECT tgname, pg_get_triggerdef(oid) FROM pg_trigger WHERE NOT tgisinternal ORDER BY tgname")


def _triggers(conn) -> dict[str, str]:
    return dict(conn.execute(TRIGGERS).all())


def test_the_catalogue_s_triggers_are_the_declaration_s(fresh_database_url):
    engine = create_engine(fresh_database_url)
    try:
        with engine.connect() as conn:
            live = _triggers(conn)
    finally:
        engine.dispose()
    declared = derived_stores.every_trigger()
    assert {name: live.get(name) for name in declared} == declared
    assert sorted(set(live) - set(declared)) == []  # a trigger the declaration does not name


def test_a_store_s_triggers_dropped_and_created_from_its_declaration_are_the_same(fresh_database_url):
    engine = create_engine(fresh_database_url)
    try:
        with engine.begin() as conn:
            before = _triggers(conn)
            for store in derived_stores.STORES:
                derived_stores.drop_triggers(store, lambda sql: conn.execute(text(sql)))
            left = _triggers(conn)
            for store in derived_stores.STORES:
                derived_stores.create_triggers(store, lambda sql: conn.execute(text(sql)))
            after = _triggers(conn)
            conn.rollback()
    finally:
        engine.dispose()
    assert set(left) == set(derived_stores.every_trigger()) - {
        name for store in derived_stores.STORES for name in derived_stores.trigger_definitions(store)}
    assert after == before


def test_every_store_is_declared_once_and_reads_tables_once_per_infix():
    tables = [store.table for store in derived_stores.STORES]
    assert len(tables) == len(set(tables)) == 5
    names = [name for store in derived_stores.STORES for name in derived_stores.trigger_definitions(store)]
    assert len(names) == len(set(names))
