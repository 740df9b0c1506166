"""The derived stores declared once (migrations/derived_stores.py): the catalogue's triggers are exactly
the declaration's, as PostgreSQL prints them, and the declaration's helpers create and drop a store's
triggers as the revisions did by hand; every marking and refresh-at-commit function is the one
migrations/derived_sql.py generates from it, and a store added by a declaration and its rebuild works."""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import create_engine, text

from esrpdb.migrations import derived_sql, derived_stores

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


# --- the mechanism generated (migrations/derived_sql.py) ------------------------------------------------

FUNCTIONS = text("SELECT p.proname, pg_get_functiondef(p.oid) FROM pg_proc p WHERE p.pronamespace = "
                 "'public'::regnamespace AND (p.proname LIKE '%\\_mark\\_%' OR p.proname LIKE 'mark\\_%\\_stale' "
                 "OR p.proname LIKE 'refresh\\_stale\\_%') ORDER BY p.proname")
FROZEN_0029 = Path(derived_sql.__file__).with_name("derived_stores_0029.sql")


def _functions(url: str) -> dict[str, str]:
    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            return dict(conn.execute(FUNCTIONS).all())
    finally:
        engine.dispose()


def _frozen(path: Path) -> dict[str, str]:
    """A frozen script's definitions by name, as pg_get_functiondef prints them."""
    body = path.read_text(encoding="utf-8").split("\n\n", 1)[1]  # past the header comment
    definitions = [d + "\n" for d in body.split("\n;\n\n") if d.strip()]
    return {d.split("public.", 1)[1].split("(", 1)[0]: d for d in definitions}


def test_every_marking_and_refresh_function_is_the_generated_one(fresh_database_url):
    """A hand edit of any `*_mark_*`, `mark_*_stale` or `refresh_stale_*` function fails here."""
    assert _functions(fresh_database_url) == derived_sql.function_definitions()
    assert len(derived_sql.function_definitions()) == 22  # 18 marking functions, 2 x (mark, refresh) at commit


def test_0030_downgrades_to_the_hand_written_functions_exactly_and_back(fresh_database_url):
    from esrpdb.db import migrate

    migrate.downgrade(fresh_database_url, "0029")
    assert _functions(fresh_database_url) == _frozen(FROZEN_0029)
    migrate.upgrade(fresh_database_url)
    assert _functions(fresh_database_url) == derived_sql.function_definitions()


def test_stores_at_commit_that_read_one_another_share_one_lock_and_others_their_own():
    figures, designs = (next(s for s in derived_stores.STORES if s.table == t) for t in ("run_figures", "solution_designs"))
    assert derived_sql.lock_groups() == [(figures, designs)]  # designs read run_figures: two locks would deadlock
    alone = _RUN_COUNTS
    stores = (*derived_stores.STORES, alone)
    assert derived_sql.lock_key(alone, stores) != derived_sql.lock_key(figures, stores) == derived_sql.lock_key(designs)


# A derived store added by its declaration alone (and its rebuild's SQL): solutions' run counts, at commit.
_RUN_COUNTS = derived_stores.DerivedStore(
    "solution_run_counts", "run_counts", derived_stores.Rebuild("refresh_solution_run_counts", "commit", "solution_id"),
    (derived_stores.Reads.each("runs", "solution_run_counts_mark_solutions()", derived_stores.Key.column("solution_id")),))
_RUN_COUNTS_SQL = """
CREATE TABLE solution_run_counts (solution_id integer PRIMARY KEY, run_count bigint NOT NULL);
CREATE TABLE solution_run_counts_stale (solution_id integer PRIMARY KEY);
CREATE FUNCTION refresh_solution_run_counts(solution_ids integer[]) RETURNS void LANGUAGE sql AS $$
    DELETE FROM solution_run_counts WHERE solution_id = ANY(solution_ids);
    INSERT INTO solution_run_counts SELECT solution_id, count(*) FROM runs
    WHERE solution_id = ANY(solution_ids) GROUP BY solution_id;
$$;
"""


def test_a_new_store_is_one_declaration_and_its_rebuild(fresh_database_url):
    from esrpdb.ingest.pipeline import ingest_paths
    from tests.helpers import FIXTURES

    stores = (*derived_stores.STORES, _RUN_COUNTS)
    generated = derived_sql.function_definitions(stores)
    new = {name: sql for name, sql in generated.items() if name not in derived_sql.function_definitions()}
    assert sorted(new) == ["mark_solution_run_counts_stale", "refresh_stale_solution_run_counts",
                           "solution_run_counts_mark_solutions"]
    engine = create_engine(fresh_database_url)
    try:
        with engine.begin() as conn:
            conn.exec_driver_sql(_RUN_COUNTS_SQL)
            for sql in new.values():
                conn.exec_driver_sql(sql)
            derived_stores.create_triggers(_RUN_COUNTS, lambda sql: conn.execute(text(sql)))
        ingest_paths(engine, [FIXTURES / "catalog" / "hp-eva4400.toml", FIXTURES / "catalog" / "savvio-15k-24-hdd.toml"])
        with engine.connect() as conn:
            stored = conn.execute(text("SELECT solution_id, run_count FROM solution_run_counts ORDER BY 1")).all()
            counted = conn.execute(text("SELECT solution_id, count(*) FROM runs GROUP BY 1 ORDER BY 1")).all()
            left = conn.execute(text("SELECT count(*) FROM solution_run_counts_stale")).scalar()
    finally:
        engine.dispose()
    assert stored == counted and len(counted) >= 2 and left == 0
