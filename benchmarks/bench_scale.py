"""Time every canned query on a synthetic catalogue of N solutions (default 10,000).

    python benchmarks/bench_scale.py --solutions 10000 [--revision 0006] [--rebuild]

Builds (or reuses) the database `esrpdb_bench_<N>_<revision>` on the embedded server (or the
server of --database-url): migrations, the seed catalogue ingested by the pipeline, then
multiplied by set-based SQL (benchmarks/scale_catalog.py). Each canned view is then read in
full three times: server time is EXPLAIN ANALYZE's execution time, client time is fetching
every row through psycopg; the floor is a full read of `runs`, and "x rows" each view against a
plain read of as many rows of `runs` (LIMIT n). Then `canned.query` of one
solution, as `esrpdb query -p solution=…` runs it (and mailbox-class-ranks again for a solution of
its largest class, whose rank counts the most rows). `--revision 0006` measures the views as
they were before the stored figures.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

import psycopg
from sqlalchemy.engine import make_url

sys.path.insert(0, str(Path(__file__).resolve().parent))

from scale_catalog import multiply  # noqa: E402

from esrpdb.db import embedded, migrate, roles  # noqa: E402
from esrpdb.db.class_ranks import rebuild_class_ranks  # noqa: E402
from esrpdb.db.connection import make_engine  # noqa: E402
from esrpdb.queries import canned  # noqa: E402

SEED = Path(__file__).resolve().parents[1] / "fixtures" / "catalog"
SEED_SOLUTIONS = 10
REPEATS = 3  # --repeats: a shared machine may want more
MIN_TIMED_MS = 5.0  # a view this fast is noise against a plain read of its few rows: left out of "farthest"


def _plain(url: str) -> str:
    return url.replace("postgresql+psycopg://", "postgresql://")


def _database(admin_url: str, owner_url: str, name: str, solutions: int, revision: str, rebuild: bool) -> str:
    url = make_url(owner_url).set(database=name).render_as_string(hide_password=False)
    with psycopg.connect(_plain(admin_url), autocommit=True) as conn:
        exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone()
        if exists and not rebuild:
            print(f"reusing database {name} (--rebuild to build it again)")
            started = time.perf_counter()
            migrate.upgrade(url, revision)
            print(f"migrated to {revision} in {time.perf_counter() - started:.1f} s")
            return url
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        roles.create_database(conn, name)
    started = time.perf_counter()
    migrate.upgrade(url, revision)
    from esrpdb.ingest.pipeline import ingest_paths

    engine = make_engine(url)
    failed = [o.message for o in ingest_paths(engine, [SEED]) if o.status == "failed"]
    engine.dispose()
    if failed:
        raise SystemExit(f"seed catalogue failed to load: {failed}")
    print(f"seed loaded in {time.perf_counter() - started:.1f} s; multiplying to {solutions:,} solutions")
    started = time.perf_counter()
    multiply(_plain(url), max(1, solutions // SEED_SOLUTIONS))
    print(f"built in {time.perf_counter() - started:.1f} s")
    return url


def _server_ms(conn, sql: str, params=None) -> float:
    plan = conn.execute(f"EXPLAIN (ANALYZE, TIMING OFF, FORMAT JSON) {sql}", params).fetchone()[0]
    return plan[0]["Execution Time"]


def _client_ms(conn, sql: str, params=None) -> tuple[float, int]:
    started = time.perf_counter()
    rows = conn.execute(sql, params).fetchall()
    return (time.perf_counter() - started) * 1000, len(rows)


def _rows_floor_ms(conn, rows: int, runs: int, floor_ms: float, repeats: int) -> float:
    """A plain read of as many rows as a view returns ("x rows": the issue's 'a plain read of the rows it
    returns'): `SELECT * FROM runs LIMIT n`; past the table's rows, the full read scaled by the count."""
    if rows > runs:
        return floor_ms * rows / max(runs, 1)
    return max(_median([_server_ms(conn, "SELECT * FROM runs LIMIT %s", (rows,)) for _ in range(repeats)]), 0.001)


def _median(values) -> float:
    return statistics.median(values)


def _sizes(conn) -> tuple[int, int, int]:
    return tuple(conn.execute("SELECT (SELECT count(*) FROM solutions), (SELECT count(*) FROM runs), "
                              "(SELECT count(*) FROM perf_samples)").fetchone())


def _time_one_solution(engine, name: str, key: str, label: str, repeats: int, note: str = "") -> None:
    times = []
    for _ in range(repeats):
        started = time.perf_counter()
        result = canned.query(engine, name, {"solution": key})
        times.append((time.perf_counter() - started) * 1000)
    print(f"  {label:<22}{len(result.rows):>5} rows {_median(times):>9.1f} ms{note}")


def _largest_class_member(url: str) -> tuple[str, int] | None:
    """A solution of the mailbox class with the most solutions, and its size (None before the classes)."""
    with psycopg.connect(_plain(url), autocommit=True) as conn:
        if conn.execute("SELECT to_regclass('mailbox_class_ranks') IS NULL").fetchone()[0]:
            return None
        found = conn.execute("SELECT max(solution), count(*) FROM mailbox_class_ranks GROUP BY mailbox_class_order "
                             "ORDER BY count(*) DESC LIMIT 1").fetchone()
    return (found[0], found[1]) if found else None


def _rebuild_class_ranks(url: str) -> None:
    """Make the stored class ranks fresh (revision 0025) and time a rebuild with nothing changed: the
    cost a writer pays once per batch (the ranks computed and compared with the stored rows)."""
    engine = make_engine(url)
    try:
        if rebuild_class_ranks(engine) is None:
            return
        times = []
        for _ in range(REPEATS):
            with engine.begin() as conn:
                conn.exec_driver_sql("UPDATE mailbox_class_ranks_freshness SET write_count = write_count + 1")
            started = time.perf_counter()
            rebuild_class_ranks(engine)
            times.append((time.perf_counter() - started) * 1000)
        print(f"stored class ranks rebuilt (nothing changed): {_median(times):.1f} ms, median of {REPEATS}")
    finally:
        engine.dispose()


def _time_cli(url: str, key: str) -> None:
    started = time.perf_counter()
    subprocess.run([sys.executable, "-m", "esrpdb.cli.main", "--database-url", url, "query", "per-disk-iops",
                    "-p", f"solution={key}", "-f", "csv"], check=True, capture_output=True)
    print(f"  `esrpdb query per-disk-iops -p solution={key}` (whole process): "
          f"{(time.perf_counter() - started) * 1000:.0f} ms")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--solutions", type=int, default=10_000)
    parser.add_argument("--revision", default="head", help="migrate the bench database to this revision")
    parser.add_argument("--database-url",
                        help="superuser URL of a server with the esrpdb_owner role; default: the embedded server")
    parser.add_argument("--rebuild", action="store_true", help="rebuild the synthetic catalogue")
    parser.add_argument("--repeats", type=int, default=REPEATS, help="timings per query (the median is shown)")
    args = parser.parse_args(argv)
    repeats = args.repeats

    if args.database_url:
        admin_url = owner_url = args.database_url
    else:
        server = embedded.start()
        admin_url, owner_url = server.admin_url(), server.url
    name = f"esrpdb_bench_{args.solutions}_{args.revision}"
    url = _database(admin_url, owner_url, name, args.solutions, args.revision, args.rebuild)
    _rebuild_class_ranks(url)  # as a writer does after its batch (the multiplied catalogue leaves them stale)

    with psycopg.connect(_plain(url), autocommit=True) as conn:
        solutions, runs, samples = _sizes(conn)
        key = conn.execute("SELECT s.key FROM perf_counters c JOIN runs r ON r.id = c.run_id "
                           "JOIN solutions s ON s.id = r.solution_id ORDER BY s.id DESC LIMIT 1").fetchone()[0]
        conn.execute("SELECT * FROM runs").fetchall()  # warm the cache once
        floor_server = _median(_server_ms(conn, "SELECT * FROM runs") for _ in range(repeats))
        floor_client = _median(_client_ms(conn, "SELECT * FROM runs")[0] for _ in range(repeats))
        print(f"catalogue: {solutions:,} solutions, {runs:,} runs, {samples:,} perf samples")
        print(f"floor (SELECT * FROM runs, {runs:,} rows): server {floor_server:.1f} ms, client {floor_client:.1f} ms")
        print(f"{'canned query':<22}{'rows':>9}{'server ms':>11}{'x floor':>9}{'x rows':>8}{'client ms':>11}"
              f"{'x floor':>9}")
        results, per_rows = {}, {}
        for query in canned.all_queries().values():
            sql = f"SELECT * FROM {query.view}"
            conn.execute(sql).fetchall()
            server_ms = _median([_server_ms(conn, sql) for _ in range(repeats)])
            timings = [_client_ms(conn, sql) for _ in range(repeats)]
            client_ms, count = _median([t[0] for t in timings]), timings[0][1]
            results[query.view] = server_ms
            per_rows[query.view] = server_ms / _rows_floor_ms(conn, count, runs, floor_server, repeats)
            print(f"{query.view:<22}{count:>9,}{server_ms:>11.1f}{server_ms / floor_server:>9.2f}"
                  f"{per_rows[query.view]:>8.2f}{client_ms:>11.1f}{client_ms / floor_client:>9.2f}")
        if conn.execute("SELECT to_regproc('mailbox_class_ranks_computed') IS NOT NULL").fetchone()[0]:
            sql = "SELECT * FROM mailbox_class_ranks_computed()"  # what the view reads while its rows are stale
            server_ms = _median([_server_ms(conn, sql) for _ in range(repeats)])
            count = len(conn.execute(sql).fetchall())
            print(f"  (stale: computed){count:>13,}{server_ms:>11.1f}{server_ms / floor_server:>9.2f}"
                  f"{server_ms / _rows_floor_ms(conn, count, runs, floor_server, repeats):>8.2f}")

    engine = make_engine(url)
    print(f"\none solution ({key}) through canned.query, as `esrpdb query NAME -p solution=…`:")
    for query in canned.all_queries().values():
        _time_one_solution(engine, query.name, key, query.name, repeats)
    largest = _largest_class_member(url)
    if largest:  # a rank counts its class: the largest class is the most to count
        member, size = largest
        _time_one_solution(engine, "mailbox-class-ranks", member, "  its largest class", repeats,
                           f" ({member}, a class of {size:,})")
    engine.dispose()
    if args.revision != "head":  # the CLI migrates the catalogue it opens to head
        print("(`esrpdb query` whole-process timing skipped: it would migrate this database to head)")
    else:
        _time_cli(url, key)

    slowest = max(results, key=results.get)
    print(f"slowest canned query: {results[slowest]:.1f} ms ({slowest}), {results[slowest] / floor_server:.2f}x "
          f"the floor ({floor_server:.1f} ms) at {solutions} solutions, {runs} runs, {samples} perf samples")
    timed = [view for view in results if results[view] >= MIN_TIMED_MS] or list(results)
    farthest = max(timed, key=per_rows.get)
    print(f"farthest from a plain read of as many rows: {farthest}, {per_rows[farthest]:.2f}x "
          f"(queries of {MIN_TIMED_MS:g} ms or more)")


if __name__ == "__main__":
    main()
