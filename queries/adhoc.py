"""Ad-hoc SQL for analysts: read-only, one statement, bounded in time."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import psycopg
from sqlalchemy import Engine

DEFAULT_TIMEOUT_S = 30.0


class SqlRefused(Exception):
    """The statement was refused or failed; the message is PostgreSQL's first line."""


@dataclass
class QueryResult:
    columns: list[str]
    rows: list[tuple[Any, ...]]


def sql(engine: Engine, statement: str, *, timeout_s: float = DEFAULT_TIMEOUT_S) -> QueryResult:
    """Run one statement in a READ ONLY transaction with a statement timeout.

    The statement is sent as a prepared statement, so `select 1; commit; delete ...`
    cannot smuggle a second command past the read-only transaction.
    """
    raw = engine.raw_connection()
    try:
        conn: psycopg.Connection = raw.driver_connection  # type: ignore[assignment]
        conn.rollback()
        try:
            conn.execute("SET TRANSACTION READ ONLY")
            conn.execute("SELECT set_config('statement_timeout', %s, true)", (f"{int(timeout_s * 1000)}ms",))
            cursor = conn.execute(statement, prepare=True)
            columns = [d.name for d in cursor.description] if cursor.description else []
            rows = cursor.fetchall() if cursor.description else []
        except psycopg.Error as error:
            first_line = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
            raise SqlRefused(first_line) from error
        finally:
            conn.rollback()
    finally:
        raw.close()
    return QueryResult(columns=columns, rows=rows)
