"""Writing rows: COPY for many, and the solution a key names. Shared by every writer of `load`."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...db.sessions import as_writer, driver_connection
from ...db.statements import Sql

if TYPE_CHECKING:
    from ...db.sessions import WriterSession

_ADD_SOLUTION = Sql("INSERT INTO solutions (key) VALUES (CAST(:key AS varchar)) ON CONFLICT (key) DO NOTHING")
_SOLUTION_ID = Sql("SELECT solutions.id FROM solutions WHERE solutions.key = CAST(:key AS varchar)")


def solution_id_for(session: WriterSession, key: str) -> int:
    """The solution with this key, created bare when no manifest has described it yet."""
    session = as_writer(session)
    session.execute(_ADD_SOLUTION, {"key": key})
    return session.execute(_SOLUTION_ID, {"key": key}).scalar_one()


def copy_rows(session: WriterSession, table: str, columns, rows, *, binary_types: list[str] | None = None) -> None:
    """COPY rows (tuples in `columns` order) into `table` inside the session's transaction.

    `binary_types` (PostgreSQL type names, one per column) sends binary COPY: for long runs of
    timestamps and floats, which then need no text formatting.
    """
    raw = driver_connection(session)
    binary = " (FORMAT BINARY)" if binary_types else ""
    with raw.cursor() as cursor:
        with cursor.copy(f"COPY {table} ({', '.join(columns)}) FROM STDIN{binary}") as copy:
            if binary_types:
                copy.set_types(binary_types)
            for row in rows:
                copy.write_row(row)


def copy_dicts(session: WriterSession, table: str, rows: list[dict]) -> None:
    """COPY the rows into the table named: one round trip per table, no per-row statement or SQL compilation."""
    if rows:
        columns = list(rows[0])
        copy_rows(session, table, columns, ([row[c] for c in columns] for row in rows))
