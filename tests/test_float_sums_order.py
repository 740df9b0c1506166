"""Revision 0031: a stored float sum or mean is the same bits whatever order the plan reads its rows in.

refresh_run_figures added perfmon samples (perf_counter_means.value_sum) and latencies rows (the means of
run_scope_latencies, run_figures' log IOPS, reads and writes per second and mean latencies) in the order the
plan handed them over, which follows the rows' physical order and the plan the statistics chose: two builds
of the same fixtures stored some of them a last bit apart. Here the same catalogue's samples and latencies
are written again in reverse order and every figure recomputed under plans that read them differently (hash
or sort, index or heap): each time the stored rows, as text, are the ones first stored. At 0030, with the
unordered sums, the same rewrite changes them (so the test can tell)."""

from __future__ import annotations

import psycopg
import pytest

from esrpdb.db import migrate
from esrpdb.db.connection import make_engine
from esrpdb.ingest.pipeline import ingest_paths
from tests.helpers import FIXTURES, TEMPLATE, plain, scratch_database

STORES = ("perf_counter_means", "run_scope_latencies", "run_figures")
# Planner settings that hand an aggregate its rows in other orders (physical, hashed, sorted by the group).
PLANS = ({}, {"enable_hashagg": "off", "enable_hashjoin": "off"},
         {"enable_indexscan": "off", "enable_bitmapscan": "off", "enable_sort": "off"},
         {"enable_seqscan": "off", "enable_hashagg": "off", "enable_mergejoin": "off"})
# The rows rewritten in the reverse of their key order (a new heap order), then every figure recomputed.
REVERSED = ("CREATE TEMP TABLE l AS SELECT * FROM latencies; DELETE FROM latencies; "
            "INSERT INTO latencies SELECT * FROM l ORDER BY run_id DESC, instance_id DESC, scope DESC; "
            "CREATE TEMP TABLE s AS SELECT * FROM perf_samples; DELETE FROM perf_samples; "
            "INSERT INTO perf_samples SELECT * FROM s ORDER BY source_file_id, counter_id, sampled_at DESC")
RECOMPUTE = "DELETE FROM perf_counter_means; SELECT refresh_run_figures(NULL)"


def stored(conn: psycopg.Connection) -> dict[str, list[tuple]]:
    """The derived stores' rows as text, every column, in the order of every column."""
    out = {}
    for table in STORES:
        columns = [r[0] for r in conn.execute("SELECT column_name FROM information_schema.columns WHERE "
                                              "table_schema = 'public' AND table_name = %s ORDER BY ordinal_position",
                                              (table,))]
        order = ", ".join(str(n) for n in range(1, len(columns) + 1))
        cells = ", ".join(f'"{c}"::text' for c in columns)
        out[table] = conn.execute(f'SELECT {cells} FROM "{table}" ORDER BY {order}').fetchall()
    return out


def _rebuilt_in_other_orders(url: str) -> tuple[dict, list[dict]]:
    """The stores as first built, and as recomputed from reversed rows under each of PLANS."""
    engine = make_engine(url)
    try:
        outcomes = ingest_paths(engine, [FIXTURES / "jetstress_html", FIXTURES / "perfmon"])
    finally:
        engine.dispose()
    assert not [o.message for o in outcomes if o.status == "failed"]
    with psycopg.connect(plain(url)) as conn:
        first = stored(conn)
        conn.execute(REVERSED)
        conn.commit()
    again = []
    for settings in PLANS:
        with psycopg.connect(plain(url)) as conn:  # a session of its own: the function's plans made afresh
            for name, value in settings.items():
                conn.execute(f"SET {name} = {value}")
            conn.execute(RECOMPUTE)
            conn.commit()
            again.append(stored(conn))
    return first, again


def test_the_stored_sums_do_not_depend_on_the_order_rows_are_read(pg_server, template_url):
    with scratch_database(pg_server, "order", TEMPLATE) as url:
        first, again = _rebuilt_in_other_orders(url)
    assert len(first["perf_counter_means"]) > 20 and len(first["run_scope_latencies"]) > 10
    assert len(first["run_figures"]) > 5
    for settings, rows in zip(PLANS, again):
        assert [t for t in STORES if rows[t] != first[t]] == [], settings


@pytest.mark.parametrize("revision", ["0030"])
def test_before_0031_the_same_rewrite_changed_them(pg_server, template_url, revision):
    """The test has teeth: the unordered sums of 0030 store other bits after the same rewrite."""
    with scratch_database(pg_server, "unordered", TEMPLATE) as url:
        migrate.downgrade(url, revision)
        first, again = _rebuilt_in_other_orders(url)
    assert any(rows[t] != first[t] for rows in again for t in STORES)
