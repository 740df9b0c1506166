"""A synthetic catalogue of N solutions, multiplied from the seed catalogue by set-based SQL.

The seed (fixtures/catalog: 10 solutions, 29 runs since a report seen twice is one run; 37
before) is ingested by the project's own pipeline; every further copy is one `INSERT … SELECT`
per table over `generate_series`, with each id and foreign key shifted by a per-table stride, so
every constraint still holds. Each copy of a solution gets three replicas of its runs (the seed's
2.9 runs per solution become 8.7; 11 before), with
achieved IOPS nudged by 1 % per replica so medians are not all ties, and each replica keeps one
perf sample in six (~1,000 samples per solution).
"""

from __future__ import annotations

import time

import psycopg

REPLICAS = 3  # run replicas per solution copy
SAMPLE_KEEP_ONE_IN = 6

# Copied once per solution copy (index k) or once per run replica (index u = k * REPLICAS + r).
SOLUTION_TABLES = ("solutions", "disks", "claims")
UNIT_TABLES = ("source_files", "trials", "runs", "instances", "latencies", "document_tables",
               "run_published_values", "perf_files", "perf_counters", "run_power")
ORDER = ("solutions", "disks", "source_files", "trials", "runs", "instances", "latencies", "document_tables",
         "run_published_values", "perf_files", "perf_counters", "run_power", "claims")

# Columns that need more than an id shift (expressions over the copy indexes k, r and u).
OVERRIDES = {
    "solutions": {"key": "key || '-c' || k"},
    "source_files": {"sha256": "encode(sha256(convert_to(sha256 || ':' || u, 'UTF8')), 'hex')",
                     "path": "'synthetic/' || u || '/' || path"},
    "trials": {"label": "CASE WHEN r = 0 THEN label ELSE label || ' #' || r END"},
    "runs": {"achieved_iops": "achieved_iops * (1 + 0.01 * r)"},
}


def _columns(conn, table: str) -> list[str]:
    return [row[0] for row in conn.execute(
        "SELECT column_name FROM information_schema.columns WHERE table_schema = 'public' AND table_name = %s "
        "ORDER BY ordinal_position", (table,))]


def _references(conn, table: str) -> dict[str, str]:
    """column -> table whose `id` it holds (single-column keys and the (run_id, instance_id) pairs)."""
    refs: dict[str, str] = {}
    for column, target, target_column in conn.execute("""
        SELECT a.attname, t.relname, ta.attname
        FROM pg_constraint c
        JOIN LATERAL unnest(c.conkey, c.confkey) AS k(col, fcol) ON TRUE
        JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.col
        JOIN pg_class t ON t.oid = c.confrelid
        JOIN pg_attribute ta ON ta.attrelid = c.confrelid AND ta.attnum = k.fcol
        WHERE c.contype = 'f' AND c.conrelid = %s::regclass""", (table,)):
        if target_column == "id":
            refs[column] = target
    return refs


def _has_id(conn, table: str) -> bool:
    return "id" in _columns(conn, table)


def _offset(target: str, row_is_unit: bool) -> str:
    """How far a reference into `target` moves for the row's copy."""
    if target in UNIT_TABLES:
        return f"(u * stride_{target})" if row_is_unit else f"(k * {REPLICAS} * stride_{target})"
    return f"(u / {REPLICAS} * stride_{target})" if row_is_unit else f"(k * stride_{target})"


def _copy_sql(conn, table: str, copies: int) -> str:
    is_unit = table in UNIT_TABLES
    refs = _references(conn, table)
    if table == "runs":
        refs.setdefault("trial_id", "trials")
    exprs = []
    columns = _columns(conn, table)
    for column in columns:
        if column in OVERRIDES.get(table, {}):
            exprs.append(OVERRIDES[table][column])
        elif column == "id":
            exprs.append(f"id + {_offset(table, is_unit)}")
        elif column in refs:
            exprs.append(f"{column} + {_offset(refs[column], is_unit)}")
        else:
            exprs.append(column)
    if is_unit:
        series = (f"generate_series(1, {copies * REPLICAS - 1}) AS u, "
                  f"LATERAL (SELECT u / {REPLICAS} AS k, u % {REPLICAS} AS r) AS ix")
    else:
        series = f"generate_series(1, {copies - 1}) AS k, LATERAL (SELECT 0 AS r, k * {REPLICAS} AS u) AS ix"
    return (f"INSERT INTO {table} ({', '.join(columns)}) SELECT {', '.join(exprs)} "
            f"FROM {table}_seed, strides, {series}")


def _sample_sql(copies: int) -> str:
    return f"""
INSERT INTO perf_samples (source_file_id, counter_id, sampled_at, value)
SELECT s.source_file_id + u * stride_source_files, s.counter_id + u * stride_perf_counters, s.sampled_at, s.value
FROM perf_samples_seed s, strides, generate_series(1, {copies * REPLICAS - 1}) AS u
WHERE s.ordinal % {SAMPLE_KEEP_ONE_IN} = u % {REPLICAS}"""


def _has_stored_figures(conn) -> bool:
    return conn.execute("SELECT to_regproc('refresh_run_figures') IS NOT NULL").fetchone()[0]


def multiply(admin_url: str, copies: int, log=print) -> None:
    """Grow a database holding exactly the seed catalogue to `copies` copies of it.

    A bulk load computes stored figures once at the end, as a bulk loader should: the
    per-statement triggers are off while copying (their commit-time refresh would be planned
    with the seed's statistics), then ANALYZE and one full `refresh_run_figures(NULL)`.
    """
    with psycopg.connect(admin_url) as conn:
        tables = ORDER
        stored = _has_stored_figures(conn)
        if stored:
            for table in tables:
                conn.execute(f"ALTER TABLE {table} DISABLE TRIGGER USER")
        strides = ", ".join(f"(SELECT COALESCE(max(id), 0) + 1 FROM {t}) AS stride_{t}"
                            for t in tables if _has_id(conn, t))
        conn.execute(f"CREATE TEMP TABLE strides AS SELECT {strides}")
        for table in tables:
            conn.execute(f"CREATE TEMP TABLE {table}_seed AS SELECT * FROM {table}")
        conn.execute("""CREATE TEMP TABLE perf_samples_seed AS
            SELECT *, row_number() OVER (PARTITION BY source_file_id, counter_id ORDER BY sampled_at) AS ordinal
            FROM perf_samples""")
        for table in tables:
            started = time.perf_counter()
            count = conn.execute(_copy_sql(conn, table, copies)).rowcount
            log(f"  {table}: +{count:,} rows in {time.perf_counter() - started:.1f} s")
        started = time.perf_counter()
        count = conn.execute(_sample_sql(copies)).rowcount
        log(f"  perf_samples: +{count:,} rows in {time.perf_counter() - started:.1f} s")
        for table in tables:
            if _has_id(conn, table):
                conn.execute(f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), (SELECT max(id) FROM {table}))")
        if stored:
            for table in tables:
                conn.execute(f"ALTER TABLE {table} ENABLE TRIGGER USER")
        conn.commit()
    with psycopg.connect(admin_url, autocommit=True) as conn:
        conn.execute("VACUUM ANALYZE")
        if stored:
            started = time.perf_counter()
            conn.execute("SELECT refresh_solution_disk_counts(NULL)")
            conn.execute("SELECT refresh_run_figures(NULL)")
            if conn.execute("SELECT to_regproc('refresh_solution_designs') IS NOT NULL").fetchone()[0]:
                conn.execute("SELECT refresh_solution_designs(NULL)")  # revision 0022: every solution's design
            log(f"  full refresh of the stored figures: {time.perf_counter() - started:.1f} s")
            conn.execute("VACUUM ANALYZE")
