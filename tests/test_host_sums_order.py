"""Revision 0026: a test over hosts adds its host reports in their id order, whatever order they were written in.

A host report is UPDATEd when a manifest takes it, and an unordered float sum ran in the rows' physical
order (the order they were last written). Here the host reports of a stored test are touched one by one
in different orders; the test's stored figures stay bit-identical, and equal Python's left-to-right sums
of its hosts' own stored figures in id order (read from the rows, never typed in).
"""

from __future__ import annotations

from sqlalchemy import create_engine

from esrpdb.db import migrate
from tests.helpers import run_sql, sql_rows as rows
from tests.host_tests_manifest import HEAD, TESTS, load, one

SUMMED = ("achieved_iops", "log_iops", "total_iops", "db_reads_per_s", "db_writes_per_s",
          "db_read_latency_ms", "db_write_latency_ms", "log_write_latency_ms")
HOSTS = ("SELECT r.id, r.achieved_iops, f.log_iops, f.db_reads_per_s, f.db_writes_per_s, f.db_read_latency_ms, "
         "f.db_write_latency_ms, f.log_write_latency_ms FROM runs r JOIN run_figures f ON f.run_id = r.id "
         "WHERE r.test_run_id = :test ORDER BY r.id")


def stored(engine, test_id: int) -> tuple:
    return one(engine, f"SELECT {', '.join(SUMMED)} FROM run_figures WHERE run_id = :test", test=test_id)


def left_to_right(engine, test_id: int) -> tuple:
    """The test's figures from its hosts' stored rows, added left to right in id order (as float8 adds)."""
    hosts = rows(engine, HOSTS, test=test_id)
    achieved, log = sum(h[1] for h in hosts), sum(h[2] for h in hosts)
    return (achieved, log, achieved + log, sum(h[3] for h in hosts), sum(h[4] for h in hosts),
            sum(h[5] * h[1] for h in hosts) / achieved, sum(h[6] * h[1] for h in hosts) / achieved,
            sum(h[7] * h[2] for h in hosts) / log)


def physical_order(engine, test_id: int) -> list[int]:
    return [i for (i,) in rows(engine, "SELECT id FROM runs WHERE test_run_id = :test ORDER BY ctid", test=test_id)]


def test_a_tests_sums_do_not_depend_on_the_order_its_hosts_were_written(tmp_path, catalog):
    engine = catalog.engine
    assert load(engine, tmp_path, HEAD + TESTS).status == "loaded"
    test_id = one(engine, "SELECT id FROM runs WHERE origin = 'hosts' AND run_label = 'Baseline'")
    host_ids = [h[0] for h in rows(engine, HOSTS, test=test_id)]
    assert len(host_ids) == 3
    first = stored(engine, test_id)
    assert first == left_to_right(engine, test_id)
    orders_seen = {tuple(physical_order(engine, test_id))}
    for order in (host_ids[::-1], host_ids, host_ids[1:] + host_ids[:1], host_ids[::-1]):
        for host_id in order:  # one transaction each: the test is refreshed after every write
            run_sql(engine, "UPDATE runs SET run_label = run_label WHERE id = :id", id=host_id)
        orders_seen.add(tuple(physical_order(engine, test_id)))
        assert stored(engine, test_id) == first, order
        assert left_to_right(engine, test_id) == first
    assert len(orders_seen) > 1  # the rows did move: the sums were taken over differently ordered rows


def test_0026_down_and_up_refreshes_the_tests_over_hosts(tmp_path, fresh_database_url):
    engine = create_engine(fresh_database_url)
    try:
        assert load(engine, tmp_path, HEAD + TESTS).status == "loaded"
        tests = rows(engine, "SELECT id FROM runs WHERE origin = 'hosts' ORDER BY id")
        before = [stored(engine, t) for (t,) in tests]
        run_sql(engine, "UPDATE run_figures SET achieved_iops = NULL WHERE run_id IN "
                        "(SELECT id FROM runs WHERE origin = 'hosts')")  # refreshed by each step
        engine.dispose()
        migrate.downgrade(fresh_database_url, "0025")
        assert "ORDER BY h.id" not in one(engine, "SELECT prosrc FROM pg_proc WHERE proname = 'refresh_run_figures'")
        assert one(engine, "SELECT count(*) FROM run_figures f JOIN runs r ON r.id = f.run_id "
                           "WHERE r.origin = 'hosts' AND f.achieved_iops IS NULL") == 0
        run_sql(engine, "UPDATE run_figures SET achieved_iops = NULL WHERE run_id IN "
                        "(SELECT id FROM runs WHERE origin = 'hosts')")
        engine.dispose()
        migrate.upgrade(fresh_database_url)
        assert "ORDER BY h.id" in one(engine, "SELECT prosrc FROM pg_proc WHERE proname = 'refresh_run_figures'")
        assert [stored(engine, t) for (t,) in tests] == before
    finally:
        engine.dispose()
