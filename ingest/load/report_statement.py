"""One report, one statement: the run and every row under it go to the server as JSON in a single
INSERT of data-modifying CTEs, so a report costs one round trip whatever its size (a report already
in the catalogue too: the statement adds this file as another source of its run).

Each table's rows are a JSON array read back with `jsonb_populate_record(NULL::<table>, …)`, so the
server converts every value to its column's type (timestamps, arrays, numbers) exactly as an INSERT
would. A child row names its instance (`"instance"`), which the statement resolves to the id the
instance got. The statement's text is built from the columns the rows carry, once per shape (a
Performance and a DatabaseBackup report differ); the server plans it on each call (0.4 ms: a
prepared statement measured no faster).
"""

from __future__ import annotations

import json
from datetime import datetime
from functools import lru_cache
from typing import Any, NamedTuple

from ..inspect import json_default

# Child tables in the order the statement writes them, and whether their rows name an instance.
CHILD_TABLES = (
    ("latencies", True),
    ("backup_stats", True),
    ("recovery_stats", True),
    ("host_counters", False),
    ("test_issues", False),
    ("log_events", False),
    ("report_fields", False),
    ("ingest_warnings", False),
)
INSTANCE_KEY = "instance"  # the name a child row gives its instance; not a column


class ReportRows(NamedTuple):
    """What one report writes: `run` holds the `runs` columns, `children` each table's rows."""

    identity_key: str | None
    run: dict[str, Any]
    instances: list[dict[str, Any]]
    children: dict[str, list[dict[str, Any]]]


class Written(NamedTuple):
    new_run_id: int | None  # None when a run with the same identity is already in the catalogue
    existing_run_id: int | None


def _column_value(value: Any) -> Any:
    """A report's times are local wall-clock times in `timestamp` columns: an offset would be lost."""
    if isinstance(value, datetime) and value.tzinfo is not None:
        raise ValueError(f"{value.isoformat()} has a time zone; a report's columns hold local times")
    return json_default(value)


def dumps(value: Any) -> str:
    # allow_nan=False: jsonb has no NaN or Infinity (sanity.check refuses them first, with the field's name).
    return json.dumps(value, default=_column_value, allow_nan=False, separators=(",", ":"))


def _columns(rows: list[dict[str, Any]]) -> tuple[str, ...]:
    """The columns a table's rows fill; () for no rows. Every row must carry the same keys: the
    statement lists the first row's, and a key only a later row had would be dropped unseen."""
    if not rows:
        return ()
    keys = rows[0].keys()
    if any(row.keys() != keys for row in rows):
        raise ValueError(f"rows of one table carry different keys: {sorted(keys)} and others")
    return tuple(key for key in keys if key != INSTANCE_KEY)


@lru_cache(maxsize=64)
def _statement(run_columns: tuple[str, ...], instance_columns: tuple[str, ...],
               child_columns: tuple[tuple[str, ...], ...]) -> str:
    """The INSERT for one shape of report. Column names come from the loader's own row builders."""
    def listed(columns: tuple[str, ...]) -> str:
        return ", ".join(columns)

    def picked(alias: str, columns: tuple[str, ...]) -> str:
        return ", ".join(f"{alias}.{column}" for column in columns)

    parts = [
        "existing AS (SELECT id FROM runs WHERE identity_key = %(identity_key)s AND origin = 'report' "
        "ORDER BY id LIMIT 1)",
        f"new_run AS (INSERT INTO runs ({listed(run_columns)}) "
        f"SELECT {picked('r', run_columns)} FROM jsonb_populate_record(NULL::runs, %(run)s::jsonb) r "
        "WHERE NOT EXISTS (SELECT FROM existing) RETURNING id, source_file_id, report_index, source_line)",
        "new_source AS (INSERT INTO run_sources (run_id, source_file_id, report_index, source_line) "
        "SELECT id, source_file_id, report_index, source_line FROM new_run)",
        # A report already in the catalogue: this file becomes another source of its run (identity.py).
        "seen_source AS (INSERT INTO run_sources (run_id, source_file_id, report_index, source_line) "
        "SELECT e.id, r.source_file_id, r.report_index, r.source_line "
        "FROM existing e, jsonb_populate_record(NULL::runs, %(run)s::jsonb) r ON CONFLICT DO NOTHING)",
    ]
    if instance_columns:
        parts.append(
            f"new_instances AS (INSERT INTO instances (run_id, {listed(instance_columns)}) "
            f"SELECT new_run.id, {picked('r', instance_columns)} "
            "FROM new_run, jsonb_populate_recordset(NULL::instances, %(instances)s::jsonb) r RETURNING id, name)")
    for (table, by_instance), columns in zip(CHILD_TABLES, child_columns, strict=True):
        if not columns:
            continue
        if by_instance:
            parts.append(
                f"new_{table} AS (INSERT INTO {table} (run_id, instance_id, {listed(columns)}) "
                f"SELECT new_run.id, i.id, {picked('r', columns)} FROM new_run, jsonb_array_elements(%({table})s::jsonb) e "
                f"CROSS JOIN LATERAL jsonb_populate_record(NULL::{table}, e) r "
                f"JOIN new_instances i ON i.name = e->>'{INSTANCE_KEY}')")
        else:
            parts.append(
                f"new_{table} AS (INSERT INTO {table} (run_id, {listed(columns)}) "
                f"SELECT new_run.id, {picked('r', columns)} "
                f"FROM new_run, jsonb_populate_recordset(NULL::{table}, %({table})s::jsonb) r)")
    return "WITH " + ",\n".join(parts) + "\nSELECT (SELECT id FROM new_run), (SELECT id FROM existing)"


LOCKS = ("SELECT pg_advisory_xact_lock(h) FROM "
         "(SELECT DISTINCT hashtextextended(k, 0) AS h FROM unnest(%s::text[]) k ORDER BY h) locks")


def identity_lock(identity_key: str) -> str:
    """The advisory lock key of a report identity (see write_report)."""
    return f"esrpdb report {identity_key}"


def lock(connection, keys: list[str]) -> None:
    """Take these advisory locks (held to the transaction's end) in one statement, in the order of their
    hashes: two ingests locking overlapping sets take them in one order, so neither waits on the other
    while holding what the other waits for."""
    if keys:
        connection.execute(LOCKS, (keys,))


def write_report(connection, rows: ReportRows, *, locked: bool = False) -> Written:
    """Run the statement on a psycopg connection, inside the caller's transaction. `locked`: the caller
    holds the report's identity lock already (a document takes all of its reports' at once)."""
    child_rows = [rows.children.get(table, []) for table, _ in CHILD_TABLES]
    named = {instance["name"] for instance in rows.instances}
    for (table, by_instance), table_rows in zip(CHILD_TABLES, child_rows, strict=True):
        unknown = {row.get(INSTANCE_KEY) for row in table_rows} - named if by_instance else set()
        if unknown:  # the statement's join would drop those rows without a word
            raise ValueError(f"{table} rows name instances the report does not list: {sorted(map(str, unknown))}")
    sql = _statement(_columns([rows.run]), _columns(rows.instances), tuple(_columns(r) for r in child_rows))
    params: dict[str, Any] = {"identity_key": rows.identity_key, "run": dumps(rows.run),
                              "instances": dumps(rows.instances)}
    params.update({table: dumps(r) for (table, _), r in zip(CHILD_TABLES, child_rows, strict=True) if r})
    if rows.identity_key is not None and not locked:
        # Two ingests printing the same report at once (its HTML file, its document): the second waits
        # for the first to commit, then its statement (a new snapshot) finds the run instead of adding one.
        lock(connection, [identity_lock(rows.identity_key)])
    new_run_id, existing_run_id = connection.execute(sql, params).fetchone()
    return Written(new_run_id, existing_run_id)
