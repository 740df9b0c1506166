"""Ad-hoc SQL for analysts: read-only, one statement, bounded in time."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import psycopg

if TYPE_CHECKING:
    from sqlalchemy import Engine

DEFAULT_TIMEOUT_S = 30.0
# Server roles that would let an ad-hoc statement leave the catalogue (files, programs, other sessions).
DANGEROUS_ROLES = (
    "pg_execute_server_program",
    "pg_read_server_files",
    "pg_write_server_files",
    "pg_signal_backend",
)
MIN_TIMEOUT_S = 0.001  # below one millisecond PostgreSQL reads 0: no timeout at all
MAX_TIMEOUT_S = 3600.0

# One round trip before the statement: who are we, and could that role leave the catalogue?
_PRIVILEGE_PROBE = """
SELECT r.rolname, r.rolsuper,
       ARRAY(SELECT d.rolname FROM pg_roles d
             WHERE d.rolname = ANY(%s) AND pg_has_role(current_user, d.oid, 'MEMBER') ORDER BY 1)
FROM pg_roles r WHERE r.rolname = current_user
"""


class SqlRefused(Exception):
    """The statement was refused or failed; the message is PostgreSQL's first line."""


@dataclass
class QueryResult:
    columns: list[str]
    rows: list[tuple[Any, ...]]


def sql(engine: Engine, statement: str, *, timeout_s: float = DEFAULT_TIMEOUT_S) -> QueryResult:
    """Run one statement in a READ ONLY transaction with a statement timeout.

    The statement is sent as a prepared statement, so `select 1; commit; delete ...`
    cannot smuggle a second command past the read-only transaction. A role that could reach
    the server's files, programs or other sessions is refused before the statement is sent:
    read-only transactions do not stop `COPY … TO PROGRAM` or `pg_read_file`.
    """
    raw = engine.raw_connection()
    try:
        return run_statement(raw.driver_connection, statement, timeout_s=timeout_s)  # type: ignore[arg-type]
    finally:
        raw.close()


def run_statement(conn: psycopg.Connection, statement: str, *, timeout_s: float = DEFAULT_TIMEOUT_S) -> QueryResult:
    """`sql` on a psycopg connection of its own (the CLI's fast path, without SQLAlchemy)."""

    if not (MIN_TIMEOUT_S <= timeout_s <= MAX_TIMEOUT_S):  # also refuses NaN
        raise SqlRefused(f"--timeout must be between {MIN_TIMEOUT_S:g} and {MAX_TIMEOUT_S:g} seconds, got {timeout_s:g}")
    conn.rollback()
    role, is_superuser, dangerous = conn.execute(_PRIVILEGE_PROBE, (list(DANGEROUS_ROLES),)).fetchone()
    if is_superuser or dangerous:
        conn.rollback()
        what = "a superuser" if is_superuser else "a member of " + ", ".join(dangerous)
        raise SqlRefused(f"refusing to run ad-hoc SQL as role {role!r}, {what}; configure a read-only role "
                         "with ESRPDB_READER_URL (see README: Least privilege)")
    _load_infinite_dates_as_text(conn)
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
    return QueryResult(columns=columns, rows=rows)


def _load_infinite_dates_as_text(conn: psycopg.Connection) -> None:
    """`'infinity'::timestamp` has no Python datetime: keep PostgreSQL's text instead of failing."""
    from psycopg.types import datetime as pg_datetime

    for type_name, base in (("date", pg_datetime.DateLoader), ("timestamp", pg_datetime.TimestampLoader),
                            ("timestamptz", pg_datetime.TimestamptzLoader)):
        conn.adapters.register_loader(type_name, _lenient(base))


def _lenient(base: type) -> type:
    class Lenient(base):  # type: ignore[misc, valid-type]
        def load(self, data):  # noqa: ANN001 - psycopg's Buffer
            try:
                return super().load(data)
            except psycopg.DataError:
                return bytes(data).decode()

    return Lenient
