"""Revision 0024 (issue 36): canned views near a plain read of the rows they return, one solution's class ranks
counted. mb_per_dollar gives the rows of its definition before 0024 (built in a schema of its own over the same
tables), mailbox_class_ranks_of(solution) the view's rows of that solution, for every solution, on the seed
catalogue and after every kind of write that moves a class or a rank; the covering indexes can answer their
views alone; the revision goes down and up with the rows unchanged."""

from __future__ import annotations

import json

from sqlalchemy import create_engine, inspect, text
from typer.testing import CliRunner

from esrpdb.cli.main import app
from esrpdb.db import migrate
from esrpdb.ingest.pipeline import ingest_paths
from esrpdb.queries import canned
from tests.class_rank_rows import one_solution_and_view, sorted_rows as _rows, write_ties_nulls_and_nan
from tests.helpers import FIXTURES, REPO_ROOT, live_and_built_functions, run_sql, sql_scalar

MIGRATIONS = REPO_ROOT / "migrations"
write, scalar = run_sql, sql_scalar


def mb_per_dollar_now_and_before(conn) -> tuple[tuple, tuple]:
    """mb_per_dollar as it reads now, and as views_0008 (the definition before 0024) computes it."""
    now = _rows(conn, "SELECT * FROM mb_per_dollar")
    conn.execute(text("CREATE SCHEMA frozen_0023"))
    conn.execute(text("SET LOCAL search_path TO frozen_0023, public"))
    conn.execute(text((MIGRATIONS / "views_0008" / "mb_per_dollar.sql").read_text(encoding="utf-8")))
    before = _rows(conn, "SELECT * FROM frozen_0023.mb_per_dollar")
    conn.execute(text("SET LOCAL search_path TO public"))
    conn.execute(text("DROP SCHEMA frozen_0023 CASCADE"))
    return now, before


def assert_mb_per_dollar_as_before(engine) -> list[tuple]:
    with engine.connect() as conn:
        now, before = mb_per_dollar_now_and_before(conn)
        conn.rollback()
    assert now == before
    return now[1]


def assert_one_solution_as_the_view_on(conn) -> list[dict]:
    """Each solution's function rows are the view's rows of that solution; returns the view's rows."""
    for key, (mine, view) in one_solution_and_view(conn).items():
        assert mine == view, key
    columns, everything = _rows(conn, "SELECT * FROM mailbox_class_ranks")
    return [dict(zip(columns, row)) for row in everything]


def assert_one_solution_as_the_view(engine) -> list[dict]:
    with engine.connect() as conn:
        return assert_one_solution_as_the_view_on(conn)


def ranks_of(rows: list[dict], key: str) -> list[tuple]:
    return [(r["mailbox_class_order"], r["total_iops_rank"], r["db_read_latency_rank"], r["log_replay_rank"])
            for r in rows if r["solution"] == key]


def test_the_seed_catalogue_gives_the_rows_of_the_view_and_of_before(seed_catalog):
    engine = seed_catalog.engine
    assert len(assert_mb_per_dollar_as_before(engine)) >= 3
    rows = assert_one_solution_as_the_view(engine)
    assert len({r["solution"] for r in rows}) >= 8 and {r["total_iops_rank"] for r in rows} >= {1, 2, 3}
    assert any(r["log_replay_rank"] == 1 for r in rows) and {r["like_for_like"] for r in rows} == {True, False}
    unclassed = scalar(engine, "SELECT min(solution) FROM solution_designs WHERE mailbox_count IS NULL")
    with engine.connect() as conn:  # a solution in no class, and a key that names nothing: no row either way
        for key in (unclassed, "no-such-solution"):
            assert conn.execute(text("SELECT count(*) FROM mailbox_class_ranks_of(:k)"), {"k": key}).scalar() == 0


def test_usable_mb_is_the_double_of_the_numeric_quotient_at_every_size(seed_catalog):
    """Capacities at the edges of the float arithmetic (2^53 and beyond, where the view falls back to the
    numeric quotient: there the two differ for about one in 25, as 2^63 - 472 does) and at random over every
    magnitude: the same rows as the definition before 0024."""
    edges = ["0", "1", "1048575", "1048576", "1048577", "9007199254740991", "9007199254740992",
             "9007199254740993", "4611686018427387904", "9223372036854775336", "9223372036854775807"]
    with seed_catalog.engine.connect() as conn:
        conn.execute(text(
            "INSERT INTO solutions (key, usable_capacity_bytes, list_price_amount, list_price_currency) "
            "SELECT 'capacity-' || n, b, 0.01 * (1 + n % 99999999), 'USD' FROM ("
            f"  SELECT row_number() OVER () AS n, b FROM (SELECT unnest(ARRAY[{', '.join(edges)}]::bigint[]) AS b"
            "   UNION ALL SELECT (random() * 10 ^ (3 + g % 16))::bigint FROM generate_series(1, 20000) g"
            "   UNION ALL SELECT (9007199254740992 * (1 + random() * 1000))::bigint + 1 + g % 1000"  # not a double
            "     FROM generate_series(1, 2000) g"
            "  ) v) w"))
        now, before = mb_per_dollar_now_and_before(conn)
        conn.rollback()
    assert len(now[1]) > 22000 and now == before


def test_writes_that_move_a_class_or_a_rank_keep_one_solution_as_the_view(catalog):
    engine = catalog.engine
    ingest_paths(engine, [FIXTURES / "catalog"])
    rows = assert_one_solution_as_the_view(engine)
    eva = scalar(engine, "SELECT id FROM solutions WHERE key = 'hp-eva4400'")
    file_id = scalar(engine, "SELECT min(source_file_id) FROM claims WHERE solution_id = :s AND metric = 'mailboxes'",
                     s=eva)

    # A claim moves a solution to another class (line 0 of its document: it wins), then goes.
    write(engine, "INSERT INTO claims (source_file_id, solution_id, subject, metric, value_printed, line) "
                  "VALUES (:f, :s, 'solution', 'mailboxes', '5,100', 0)", f=file_id, s=eva)
    assert [c for c, *_ in ranks_of(assert_one_solution_as_the_view(engine), "hp-eva4400")] == [3]
    write(engine, "DELETE FROM claims WHERE value_printed = '5,100'")
    assert ranks_of(assert_one_solution_as_the_view(engine), "hp-eva4400") == ranks_of(rows, "hp-eva4400")

    # Its runs' IOPS changed, as reports and document tables print them: the first of its class goes last.
    assert ranks_of(rows, "hp-eva4400")[0][1] == 1
    for value in (0.001, 1e7):
        write(engine, "UPDATE runs SET achieved_iops = :v WHERE solution_id = :s", v=value, s=eva)
        write(engine, "UPDATE run_published_values SET value = :v WHERE metric IN ('achieved_iops', 'total_iops') "
                      "AND run_id IN (SELECT id FROM runs WHERE solution_id = :s)", v=value, s=eva)
        assert ranks_of(assert_one_solution_as_the_view(engine), "hp-eva4400")[0][1] == (2 if value < 1 else 1)
    median = scalar(engine, "SELECT representative_run_id FROM solution_designs WHERE solution_id = :s", s=eva)

    # A soft-recovery run for a second solution of the replaying solution's class: both ranked by replay.
    replaying = [r for r in assert_one_solution_as_the_view(engine) if r["log_replay_rank"] is not None]
    (lone,) = replaying
    other = scalar(engine, "SELECT min(solution) FROM solution_designs d WHERE solution <> :k AND mailbox_count "
                           "BETWEEN (SELECT min_mailbox_count FROM mailbox_classes WHERE class_ordinal = :c) AND "
                           "(SELECT coalesce(max_mailbox_count, 2147483647) FROM mailbox_classes WHERE class_ordinal = :c)",
                   k=lone["solution"], c=lone["mailbox_class_order"])
    with engine.begin() as conn:
        run = conn.execute(text(
            "INSERT INTO runs (source_file_id, report_index, report_type, solution_id) SELECT source_file_id, 900, "
            "'SoftRecovery', (SELECT id FROM solutions WHERE key = :k) FROM runs WHERE id = :r RETURNING id"),
            {"k": other, "r": median}).scalar()
        for n, (logs, seconds) in enumerate([(400, 20.0), (300, 10.0)]):
            conn.execute(text("WITH i AS (INSERT INTO instances (run_id, name) VALUES (:r, :n) RETURNING id) "
                              "INSERT INTO recovery_stats (run_id, instance_id, log_files_replayed, elapsed_s) "
                              "SELECT :r, id, :l, :s FROM i"), {"r": run, "n": f"Instance{n}", "l": logs, "s": seconds})
    both = assert_one_solution_as_the_view(engine)
    assert ranks_of(both, other)[0][3] == 1 and ranks_of(both, lone["solution"])[0][3] == 2  # 50 logs/s is more
    write(engine, "UPDATE recovery_stats SET log_files_replayed = 1 WHERE run_id = :r", r=run)
    assert ranks_of(assert_one_solution_as_the_view(engine), other)[0][3] == 2

    # The owner's bounds: classes that overlap (a solution in two), a class emptied, an open top class.
    write(engine, "UPDATE mailbox_classes SET max_mailbox_count = 6000 WHERE class_ordinal = 2")
    overlapping = assert_one_solution_as_the_view(engine)
    assert any(len(ranks_of(overlapping, key)) == 2 for key in {r["solution"] for r in overlapping})
    write(engine, "UPDATE mailbox_classes SET min_mailbox_count = 900000, max_mailbox_count = NULL "
                  "WHERE class_ordinal = 4")
    write(engine, "UPDATE mailbox_classes SET max_mailbox_count = NULL WHERE class_ordinal = 3")
    assert 4 not in {r["mailbox_class_order"] for r in assert_one_solution_as_the_view(engine)}


def test_ties_missing_figures_and_nan_rank_as_the_view(catalog):
    """Equal figures share a rank, a solution without a figure has none and is no one's better, NaN is the
    highest: written straight into solution_designs (what both read) in a transaction rolled back."""
    engine = catalog.engine
    ingest_paths(engine, [FIXTURES / "catalog"])
    with engine.connect() as conn:
        keys = write_ties_nulls_and_nan(conn)
        pairs = one_solution_and_view(conn)
        rows = assert_one_solution_as_the_view_on(conn)
        conn.rollback()
    for key, (mine, view) in pairs.items():
        assert mine == view, key
    ranks = {key: ranks_of(rows, key)[0] for key in keys}
    assert ranks[keys[3]][1] == 1 and ranks[keys[0]][1] == ranks[keys[1]][1] == 2  # NaN first, then the tie
    assert ranks[keys[0]][2] == ranks[keys[1]][2] < ranks[keys[2]][2]  # a NaN latency after every number
    assert ranks[keys[2]][1] is None and ranks[keys[3]][2] is None
    assert {r["like_for_like"] for r in rows if r["mailbox_class_order"] == 3} == {True}  # a type missing is no other


def test_the_cli_reads_one_solution_through_the_function_as_the_reader(seed_catalog_url, seed_catalog):
    rows = assert_one_solution_as_the_view(seed_catalog.engine)
    key = next(r["solution"] for r in rows if r["log_replay_rank"] is not None)
    runner = CliRunner()
    result = runner.invoke(app, ["--database-url", seed_catalog_url, "query", "mailbox-class-ranks",
                                 "-p", f"solution={key}", "-f", "json"])
    assert result.exit_code == 0, result.output
    shown = json.loads(result.output)
    expected = [r for r in rows if r["solution"] == key]
    assert [(r["solution"], r["total_iops_rank"], r["log_replay_rank"]) for r in shown] == \
        [(r["solution"], r["total_iops_rank"], r["log_replay_rank"]) for r in expected]
    other = canned.query(seed_catalog.engine, "mailbox-class-ranks",
                         {"solution": key, "mailbox_class": expected[0]["mailbox_class"]})
    assert [dict(zip(other.columns, row)) for row in other.rows] == expected
    sql, _ = canned._filtered(canned.get("mailbox-class-ranks"), [(c, 0) for c in other.columns], {"solution": key})
    assert sql.startswith("SELECT * FROM mailbox_class_ranks_of(%(p0)s) WHERE solution = %(p0)s")


def test_the_covering_indexes_answer_their_views_alone(catalog):
    """With the table scans priced out, each view (and the function's class count) reads its index only:
    a column the index lacks would make an index-only scan impossible. (VACUUM first: an index-only scan
    is priced by the pages the visibility map says need no visit, as in a settled catalogue.)"""
    ingest_paths(catalog.engine, [FIXTURES / "catalog"])
    with catalog.engine.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
        conn.execute(text("VACUUM ANALYZE"))
    expected = {"SELECT * FROM disk_counts": "ix_solutions_id_key",
                "SELECT * FROM mb_per_dollar": "ix_solutions_priced_capacity",
                "SELECT * FROM run_throughput": "ix_run_figures_throughput",
                "SELECT * FROM throughput_per_disk": "ix_run_figures_throughput",
                "SELECT * FROM mailbox_class_ranks_of('hp-eva4400')": "ix_solution_designs_mailbox_count"}
    with catalog.engine.connect() as conn:
        for setting in ("enable_seqscan", "enable_bitmapscan"):
            conn.execute(text(f"SET LOCAL {setting} = off"))
        for sql, index in expected.items():
            plan = "\n".join(row[0] for row in conn.execute(text(f"EXPLAIN {sql}")))
            assert f"Index Only Scan using {index}" in plan, plan
        conn.rollback()


def _snapshot(engine) -> dict:
    with engine.connect() as conn:
        return {view: _rows(conn, f"SELECT * FROM {view}")
                for view in ("mb_per_dollar", "mailbox_class_ranks", "run_throughput", "disk_counts")}


def test_revision_0024_down_and_up_keeps_the_rows(fresh_database_url):
    engine = create_engine(fresh_database_url)
    try:
        ingest_paths(engine, [FIXTURES / "catalog"])
        at_head = _snapshot(engine)
        assert all(rows for _, rows in at_head.values())
        migrate.downgrade(fresh_database_url, "0023")
        names = {i["name"] for table in ("solutions", "solution_designs") for i in inspect(engine).get_indexes(table)}
        assert not names & {"ix_solutions_id_key", "ix_solutions_priced_capacity", "ix_solution_designs_mailbox_count"}
        (throughput,) = [i for i in inspect(engine).get_indexes("run_figures") if i["name"] == "ix_run_figures_throughput"]
        assert "perfmon_sample_window" not in throughput["dialect_options"]["postgresql_include"]
        assert scalar(engine, "SELECT count(*) FROM pg_proc WHERE proname = 'mailbox_class_ranks_of'") == 0
        assert _snapshot(engine) == at_head
        migrate.upgrade(fresh_database_url)
        assert _snapshot(engine) == at_head
        assert_one_solution_as_the_view(engine)
    finally:
        engine.dispose()


def test_the_live_function_is_what_the_newest_revision_built(fresh_database_url):
    """queries/mailbox_class_ranks_of.sql is the live definition; revision 0024 ran a frozen copy of it."""
    names, built, live = live_and_built_functions(fresh_database_url, "mailbox_class_ranks_of.sql")
    assert names == ["mailbox_class_ranks_of"] and len(built) == 1
    assert live == built
