"""Ad-hoc SQL for analysts: one read-only statement, as the reader, bounded in time, memory and size.

The statement is read by PostgreSQL's parser first (statement_check); it then runs with the reader's
limits set for its transaction, and a plain query's values are measured on the server (value_bounds).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import psycopg

from ..db.roles import READER_SESSION_DEFAULTS, SUPERUSER_SETTINGS
from . import statement_check, value_bounds
from .statement_check import COPY_REFUSED, WHAT_RUNS

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

# One round trip before the statement: who are we, could that role leave the catalogue, and may it
# become the read-only role?
_PRIVILEGE_PROBE = """
SELECT r.rolname, r.rolsuper,
       ARRAY(SELECT d.rolname FROM pg_roles d
             WHERE d.rolname = ANY(%s) AND pg_has_role(current_user, d.oid, 'MEMBER') ORDER BY 1),
       EXISTS (SELECT 1 FROM pg_roles m WHERE m.rolname = %s) AND pg_has_role(current_user, %s, 'MEMBER')
FROM pg_roles r WHERE r.rolname = current_user
"""


class SqlRefused(Exception):
    """The statement was refused or failed; the message is PostgreSQL's first line."""


DEFAULT_MAX_ROWS = 200_000  # a few hundred thousand rows print in well under 300 MB

@dataclass
class QueryResult:
    columns: list[str]
    rows: list[tuple[Any, ...]]
    stopped_at: int | None = None  # the row cap, when the statement had more rows than it
    stopped_bytes: int | None = None  # the size cap, when the rows' values reached it first

    def stopped_line(self) -> str | None:
        if self.stopped_bytes is not None:
            return (f"stopped after {len(self.rows):,} rows: their values reach {value_bounds.mb(self.stopped_bytes)}, "
                    "as much as `esrpdb sql` prints at once; add a LIMIT, or select fewer or narrower columns")
        if self.stopped_at is None:
            return None
        return (f"stopped after {self.stopped_at:,} rows (--max-rows); the statement has more: add a LIMIT or "
                "an aggregate, or raise --max-rows")


def sql(engine: Engine, statement: str, *, timeout_s: float = DEFAULT_TIMEOUT_S,
        max_rows: int = DEFAULT_MAX_ROWS, reader_role: str | None = None) -> QueryResult:
    """Run one statement in a READ ONLY transaction with a statement timeout.

    The statement is sent as a prepared statement, so `select 1; commit; delete ...`
    cannot smuggle a second command past the read-only transaction. A role that could reach
    the server's files, programs or other sessions is refused before the statement is sent:
    read-only transactions do not stop `COPY … TO PROGRAM` or `pg_read_file`.

    Rows are streamed (never the whole result in memory) and the reading stops at `max_rows`; the
    timeout covers sending the rows as well as computing them (it is the whole transaction's).
    """
    raw = engine.raw_connection()
    try:
        return run_statement(raw.driver_connection, statement, timeout_s=timeout_s,  # type: ignore[arg-type]
                             max_rows=max_rows, reader_role=reader_role)
    finally:
        raw.close()


def run_statement(conn: psycopg.Connection, statement: str, *, timeout_s: float = DEFAULT_TIMEOUT_S,
                  max_rows: int = DEFAULT_MAX_ROWS, reader_role: str | None = None) -> QueryResult:
    """`sql` on a psycopg connection of its own (the CLI's fast path, without SQLAlchemy).

    `reader_role`: the catalogue's read-only role; a connection as another role that may become it
    runs the statement as it (`SET LOCAL ROLE`), so it cannot signal that role's own sessions.
    """

    if not (MIN_TIMEOUT_S <= timeout_s <= MAX_TIMEOUT_S):  # also refuses NaN
        raise SqlRefused(f"--timeout must be between {MIN_TIMEOUT_S:g} and {MAX_TIMEOUT_S:g} seconds, got {timeout_s:g}")
    if max_rows < 1:
        raise SqlRefused(f"--max-rows must be at least 1, got {max_rows}")
    try:
        checked = statement_check.check(statement)
    except statement_check.Refused as error:
        raise SqlRefused(str(error)) from None
    conn.rollback()
    role, is_superuser, dangerous, may_become_reader = conn.execute(
        _PRIVILEGE_PROBE, (list(DANGEROUS_ROLES), reader_role or "", reader_role or "")).fetchone()
    if is_superuser or dangerous:
        conn.rollback()
        what = "a superuser" if is_superuser else "a member of " + ", ".join(dangerous)
        raise SqlRefused(f"refusing to run ad-hoc SQL as role {role!r}, {what}; configure a read-only role "
                         "with ESRPDB_READER_URL (see README: Least privilege)")
    _load_infinite_dates_as_text(conn)
    become_reader = bool(reader_role and role != reader_role and may_become_reader)
    result = QueryResult(columns=[], rows=[])
    try:
        conn.execute("SET TRANSACTION READ ONLY")
        if become_reader:  # another role's URL: the statement runs as the read-only role all the same
            _cap_temporary_files(conn)
            conn.execute(psycopg.sql.SQL("SET LOCAL ROLE {}").format(psycopg.sql.Identifier(reader_role)))
        _set_limits(conn, timeout_s)
        _read(conn, checked, max_rows, result)
    except value_bounds.ValueTooWide as error:
        raise SqlRefused(str(error)) from None
    except psycopg.Error as error:
        raise SqlRefused(_first_line(error)) from error
    finally:
        if result.stopped_at is not None or result.stopped_bytes is not None:
            conn.cancel_safe()  # the server stops sending the rest
        try:
            conn.rollback()
        except psycopg.Error:
            pass
    return result


# The reader's limits that a session may change (SET): set again for the statement, whatever the login.
STATEMENT_LIMITS = ("work_mem", "max_parallel_workers_per_gather", "client_connection_check_interval")


def _set_limits(conn: psycopg.Connection, timeout_s: float) -> None:
    """The statement's timeouts, and the reader's limits, for this transaction only (`SET LOCAL`)."""
    limits = {name: READER_SESSION_DEFAULTS[name] for name in STATEMENT_LIMITS}
    limits["statement_timeout"] = f"{int(timeout_s * 1000)}ms"
    version = conn.info.server_version
    if version >= 170000:  # the whole transaction, rows sent included (a second later, so that a slow
        limits["transaction_timeout"] = f"{int(timeout_s * 1000) + 1000}ms"  # statement reads as the timeout it is)
    if version < 140000:
        del limits["client_connection_check_interval"]
    for name, value in limits.items():
        conn.execute(psycopg.sql.SQL("SET LOCAL {} = {}").format(psycopg.sql.Identifier(name),
                                                                 psycopg.sql.Literal(value)))


def _cap_temporary_files(conn: psycopg.Connection) -> None:
    """The reader's temp_file_limit, taken before becoming the reader (the owner is granted SET on it;
    a role that is not, on a server esrpdb does not administer, keeps its own)."""
    conn.execute("SAVEPOINT esrpdb_limits")
    try:
        for name in SUPERUSER_SETTINGS:
            conn.execute(psycopg.sql.SQL("SET LOCAL {} = {}").format(
                psycopg.sql.Identifier(name), psycopg.sql.Literal(READER_SESSION_DEFAULTS[name])))
    except psycopg.errors.InsufficientPrivilege:
        conn.execute("ROLLBACK TO SAVEPOINT esrpdb_limits")
    else:
        conn.execute("RELEASE SAVEPOINT esrpdb_limits")


def _read(conn: psycopg.Connection, checked: statement_check.Statement, max_rows: int, result: QueryResult) -> None:
    """Stream the rows into `result` (never the whole result in memory), within the row and size caps."""
    cursor = conn.cursor()
    if checked.measurable:
        cursor.execute(value_bounds.column_probe(checked.text))
        result.columns = [d.name for d in cursor.description or []]
    measured = bool(result.columns)
    if not measured:
        value_bounds.capped_text_loaders(cursor)
    total_bytes = 0
    # stream(): the extended protocol (one statement only) in single-row mode: bounded memory
    for row in cursor.stream(value_bounds.measured(checked.text, result.columns) if measured else checked.text):
        if not result.columns and cursor.description:
            result.columns = [d.name for d in cursor.description]
        if len(result.rows) == max_rows:
            result.stopped_at = max_rows
            return
        if measured:
            size = value_bounds.row_bytes(row, result.columns, len(result.rows) + 1)
            if total_bytes + size > value_bounds.MAX_RESULT_BYTES:
                result.stopped_bytes = value_bounds.MAX_RESULT_BYTES
                return
            total_bytes += size
            row = row[:-1]
        result.rows.append(row)
    if not result.columns and cursor.description:
        result.columns = [d.name for d in cursor.description]


def _first_line(error: psycopg.Error) -> str:
    text = str(error).strip()
    first = text.splitlines()[0] if text else type(error).__name__
    if "cannot insert multiple commands into a prepared statement" in first:
        return "exactly one statement, please: the text holds more than one (separated by ';')"
    if "COPY cannot be used with this method" in first:
        return COPY_REFUSED
    if "due to transaction timeout" in first:
        return "reading the rows took longer than --timeout; add a LIMIT or raise --timeout"
    if "didn't produce" in first:  # the driver's words for a statement with no result set
        return f"the statement returns no rows: {WHAT_RUNS}"
    return first


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
