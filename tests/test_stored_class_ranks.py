"""Revision 0025 (issue 36): mailbox_class_ranks reads stored rows while they are fresh. The stored rows are
the computed ranks row for row on the seed catalogue and after every kind of write once its writer has
rebuilt them (a new document, delete, assign, class bounds, a log replay rate, ties, missing figures and
NaN); a write not followed by a rebuild leaves them stale and the view computes the same rows; a write
committed while a rebuild reads leaves them stale; the reader cannot rebuild or mark; 0025 goes down and
up with the view's rows unchanged."""

from __future__ import annotations

import threading
import time

import psycopg
from sqlalchemy import create_engine, inspect, text
from typer.testing import CliRunner

from esrpdb.cli.main import app
from esrpdb.db import migrate
from esrpdb.db.class_ranks import rebuild_class_ranks
from esrpdb.db.roles import READER_ROLE
from esrpdb.ingest.pipeline import ingest_paths
from esrpdb.workflows.delete import delete_solution, delete_source
from tests.class_rank_rows import one_solution_and_view, sorted_rows as _rows, write_ties_nulls_and_nan
from tests.helpers import FIXTURES, live_and_built_functions, plain, run_sql, sql_scalar

write, scalar = run_sql, sql_scalar
FRESH = "SELECT built_write_count = write_count FROM mailbox_class_ranks_freshness"
SEED = FIXTURES / "catalog"


def rows_on(conn) -> dict[str, list[tuple]]:
    """The stored rows, the computed ones and the view's, each in a stable order (NaN as a word)."""
    return {name: _rows(conn, f"SELECT * FROM {source}")[1]
            for name, source in (("stored", "mailbox_class_rank_rows"), ("computed", "mailbox_class_ranks_computed()"),
                                 ("view", "mailbox_class_ranks"))}


def assert_ranks(engine, *, fresh: bool) -> list[tuple]:
    """The view gives the computed rows; fresh: the stored rows are those too. Returns the rows."""
    with engine.connect() as conn:
        found = rows_on(conn)
        assert conn.execute(text(FRESH)).scalar() is fresh
        for key, (mine, view) in one_solution_and_view(conn).items():  # stored rows by key, or counted
            assert mine == view, key
    assert found["view"] == found["computed"] and found["computed"]
    if fresh:
        assert found["stored"] == found["computed"]
    return found["computed"]


def test_the_seed_catalogue_is_stored_fresh_and_read_without_ranking(catalog):
    engine = catalog.engine
    ingest_paths(engine, [SEED])
    rows = assert_ranks(engine, fresh=True)
    assert len(rows) >= 8 and {row[-1] for row in rows} == {True, False}  # like_for_like both ways
    assert rebuild_class_ranks(engine) == -1  # fresh: nothing to do
    with engine.connect() as conn:  # fresh: the computing branch is planned but never run
        plan = "\n".join(r[0] for r in conn.execute(text("EXPLAIN (ANALYZE, COSTS OFF) SELECT * FROM mailbox_class_ranks")))
    assert "Seq Scan on mailbox_class_rank_rows" in plan
    assert all("never executed" in line for line in plan.splitlines() if "WindowAgg" in line), plan


def test_every_kind_of_write_is_stored_as_computed_after_its_rebuild(catalog):
    engine = catalog.engine
    manifests = sorted(SEED.glob("*.toml"))
    ingest_paths(engine, [p for p in manifests if p.name != "hp-eva4400.toml"])
    before = assert_ranks(engine, fresh=True)
    ingest_paths(engine, [SEED / "hp-eva4400.toml"])  # a new document and its solution
    added = assert_ranks(engine, fresh=True)
    assert added != before and any(row[2] == "hp-eva4400" for row in added)

    # A raw write, no rebuild: stale, the view computes; the next writer's rebuild catches up.
    eva = scalar(engine, "SELECT id FROM solutions WHERE key = 'hp-eva4400'")
    write(engine, "UPDATE runs SET achieved_iops = 1e7 WHERE solution_id = :s", s=eva)
    assert_ranks(engine, fresh=False)
    assert rebuild_class_ranks(engine) > 0
    assert_ranks(engine, fresh=True)

    # Class bounds that overlap (a solution ranked in two classes), then an open top class.
    write(engine, "UPDATE mailbox_classes SET max_mailbox_count = 6000 WHERE class_ordinal = 2")
    assert_ranks(engine, fresh=False)
    rebuild_class_ranks(engine)
    overlapping = assert_ranks(engine, fresh=True)
    assert len(overlapping) > len(added)
    write(engine, "UPDATE mailbox_classes SET max_mailbox_count = NULL WHERE class_ordinal = 3")
    rebuild_class_ranks(engine)
    assert_ranks(engine, fresh=True)

    # A log replay rate (recovery_stats alone: it marks its run's solution, refreshed at commit).
    run = scalar(engine, "SELECT r.id FROM runs r JOIN recovery_stats c ON c.run_id = r.id LIMIT 1")
    assert run is not None
    write(engine, "UPDATE recovery_stats SET log_files_replayed = log_files_replayed * 50 + 1 WHERE run_id = :r", r=run)
    assert_ranks(engine, fresh=False)
    rebuild_class_ranks(engine)
    assert_ranks(engine, fresh=True)

    # esrpdb assign (the command rebuilds), delete of a file and of a solution (the library rebuilds).
    median = scalar(engine, "SELECT representative_run_id FROM solution_designs WHERE solution_id = :s", s=eva)
    url = engine.url.render_as_string(hide_password=False)
    result = CliRunner().invoke(app, ["--database-url", url, "assign", str(median), "--solution",
                                      "dell-powervault-md1220"])
    assert result.exit_code == 0, result.output
    moved = assert_ranks(engine, fresh=True)
    assert moved != overlapping
    source = scalar(engine, "SELECT f.file_name FROM source_files f JOIN run_sources s ON s.source_file_id = f.id "
                            "JOIN runs r ON r.id = s.run_id JOIN solutions o ON o.id = r.solution_id "
                            "WHERE o.key = 'intel-x25e-3-ssd' LIMIT 1")
    delete_source(engine, source)
    assert_ranks(engine, fresh=True)
    delete_solution(engine, "hp-eva4400")
    left = assert_ranks(engine, fresh=True)
    assert not any(row[2] == "hp-eva4400" for row in left)


def test_ties_missing_figures_and_nan_are_stored_as_computed(catalog):
    """Written straight into solution_designs and rebuilt in the same transaction (rolled back)."""
    engine = catalog.engine
    ingest_paths(engine, [SEED])
    with engine.connect() as conn:
        keys = write_ties_nulls_and_nan(conn)
        assert conn.execute(text(FRESH)).scalar() is False
        stale = rows_on(conn)
        assert conn.execute(text("SELECT rebuild_mailbox_class_rank_rows()")).scalar() > 0
        assert conn.execute(text(FRESH)).scalar() is True
        fresh = rows_on(conn)
        conn.execute(text("UPDATE solution_designs SET total_iops = 1 WHERE solution = :k"), {"k": keys[0]})
        assert conn.execute(text(FRESH)).scalar() is False  # a write after the rebuild counts again
        conn.rollback()
    assert stale["view"] == stale["computed"] == fresh["stored"] == fresh["view"] == fresh["computed"]
    assert any("NaN" in row for row in fresh["stored"])
    assert_ranks(engine, fresh=True)  # rolled back: the rows and the count as before


def test_a_write_committed_while_a_rebuild_reads_leaves_the_rows_stale(catalog, fresh_database_url):
    """The rebuild reads write_count before the rows; a write committing in between is not in the rows, so the
    count it raised must keep them stale (the rebuild's own write of the count waits for the writer)."""
    engine = catalog.engine
    ingest_paths(engine, [SEED])
    write(engine, "UPDATE mailbox_classes SET max_mailbox_count = 6000 WHERE class_ordinal = 2")  # stale
    writer = psycopg.connect(plain(fresh_database_url))
    rebuilder = psycopg.connect(plain(fresh_database_url))
    try:
        writer.execute("UPDATE mailbox_classes SET max_mailbox_count = 7000 WHERE class_ordinal = 2")  # uncommitted
        done: list = []
        thread = threading.Thread(target=lambda: done.append(
            rebuilder.execute("SELECT rebuild_mailbox_class_rank_rows()").fetchone()[0]))
        thread.start()
        time.sleep(1.0)  # the rebuild has read the count and the rows, and waits to write the count
        assert not done
        writer.commit()
        thread.join(30)
        rebuilder.commit()
        assert done and done[0] > 0
    finally:
        writer.close()
        rebuilder.close()
    assert_ranks(engine, fresh=False)  # 7000 is not in the stored rows, and they say so
    rebuild_class_ranks(engine)
    assert_ranks(engine, fresh=True)


def test_an_interrupted_batch_still_stores_the_ranks_of_what_it_committed(catalog):
    """Ctrl-C after the first file: that file's commit stands, and its writes are finished as a whole
    batch's are (the ranks stored again); the interrupt goes on up."""
    engine = catalog.engine
    manifests = sorted(SEED.glob("*.toml"))[:2]

    def interrupt(outcome):
        assert outcome.status == "loaded", outcome.message
        raise KeyboardInterrupt

    try:
        ingest_paths(engine, manifests, on_outcome=interrupt)
    except KeyboardInterrupt:
        pass
    else:
        raise AssertionError("the interrupt was swallowed")
    assert scalar(engine, "SELECT count(DISTINCT r.solution_id) FROM runs r JOIN solutions s ON s.id = r.solution_id "
                          "WHERE NOT s.provisional") == 1  # the first manifest's solution alone holds runs
    assert_ranks(engine, fresh=True)


def test_init_stores_stale_ranks_again(catalog):
    """After a write no esrpdb command followed (a person's own SQL), `esrpdb init` makes the rows fresh."""
    from esrpdb.db.catalog import init

    engine = catalog.engine
    ingest_paths(engine, [SEED])
    write(engine, "UPDATE runs SET achieved_iops = achieved_iops * 2 WHERE id = (SELECT min(id) FROM runs "
                  "WHERE origin = 'report' AND achieved_iops > 0)")
    assert_ranks(engine, fresh=False)
    again, _, rebuilt = init(catalog.url)
    try:
        assert rebuilt is not None and rebuilt > 0
        assert init(catalog.url)[2] == -1  # fresh: nothing to do
    finally:
        again.close()
    assert_ranks(engine, fresh=True)


def test_the_reader_reads_but_can_neither_rebuild_nor_mark(catalog):
    engine = catalog.engine
    ingest_paths(engine, [SEED])
    write(engine, "UPDATE mailbox_classes SET max_mailbox_count = 6000 WHERE class_ordinal = 2")
    count = scalar(engine, "SELECT write_count FROM mailbox_class_ranks_freshness")
    for probe in ("SELECT rebuild_mailbox_class_rank_rows()",
                  "UPDATE mailbox_class_ranks_freshness SET built_write_count = write_count",
                  "DELETE FROM mailbox_class_rank_rows"):
        with engine.connect() as conn:
            conn.execute(text(f"SET ROLE {READER_ROLE}"))
            assert len(conn.execute(text("SELECT * FROM mailbox_class_ranks")).all()) > 0  # stale: computed
            try:
                conn.execute(text(probe))
                raise AssertionError(f"the reader could run {probe}")
            except Exception as error:  # noqa: BLE001 - the database's refusal, whichever class it has
                assert "permission denied" in str(error), error
            conn.rollback()
    assert scalar(engine, "SELECT write_count FROM mailbox_class_ranks_freshness") == count
    assert_ranks(engine, fresh=False)


def test_revision_0025_down_and_up_keeps_the_rows(fresh_database_url):
    engine = create_engine(fresh_database_url)
    try:
        ingest_paths(engine, [SEED])
        at_head = assert_ranks(engine, fresh=True)
        migrate.downgrade(fresh_database_url, "0024")
        assert not inspect(engine).has_table("mailbox_class_rank_rows")
        assert scalar(engine, "SELECT count(*) FROM pg_proc WHERE proname LIKE '%class_rank%' "
                              "AND proname <> 'mailbox_class_ranks_of'") == 0
        with engine.connect() as conn:
            assert _rows(conn, "SELECT * FROM mailbox_class_ranks")[1] == at_head
        assert "mailbox_class_rank_rows" not in scalar(engine, "SELECT pg_get_functiondef("
                                                               "'mailbox_class_ranks_of(text)'::regprocedure)")
        migrate.upgrade(fresh_database_url)
        assert assert_ranks(engine, fresh=True) == at_head
    finally:
        engine.dispose()


def test_the_live_rank_functions_are_what_the_newest_revision_built(fresh_database_url):
    names, built, live = live_and_built_functions(fresh_database_url, "mailbox_class_rank_rows.sql")
    assert sorted(names) == [name for name, _ in built] and len(names) == 2  # the mark: derived_stores.py
    assert live == built
