"""Writing rows: COPY for many, and the solution a key names. Shared by every writer of `load`."""

from __future__ import annotations

from typing import TYPE_CHECKING

from sqlalchemy import bindparam, select
from sqlalchemy.dialects.postgresql import insert as pg_insert

from ...schema.tables import Solution, table_of

if TYPE_CHECKING:
    from sqlalchemy.orm import Session

_SOLUTIONS = table_of(Solution)
_ADD_SOLUTION = pg_insert(_SOLUTIONS).on_conflict_do_nothing(index_elements=["key"])
_SOLUTION_ID = select(_SOLUTIONS.c.id).where(_SOLUTIONS.c.key == bindparam("key"))


def solution_id_for(session: Session, key: str) -> int:
    """The solution with this key, created bare when no manifest has described it yet."""
    session.execute(_ADD_SOLUTION, {"key": key})
    return session.execute(_SOLUTION_ID, {"key": key}).scalar_one()


def copy_rows(session: Session, table: str, columns, rows, *, binary_types: list[str] | None = None) -> None:
    """COPY rows (tuples in `columns` order) into `table` inside the session's transaction.

    `binary_types` (PostgreSQL type names, one per column) sends binary COPY: for long runs of
    timestamps and floats, which then need no text formatting.
    """
    raw = session.connection().connection.driver_connection
    binary = " (FORMAT BINARY)" if binary_types else ""
    with raw.cursor() as cursor:
        with cursor.copy(f"COPY {table} ({', '.join(columns)}) FROM STDIN{binary}") as copy:
            if binary_types:
                copy.set_types(binary_types)
            for row in rows:
                copy.write_row(row)


def copy_dicts(session: Session, model, rows: list[dict]) -> None:
    """COPY the rows in: one round trip per table, no per-row statement or SQL compilation."""
    if rows:
        columns = list(rows[0])
        copy_rows(session, model.__tablename__, columns, ([row[c] for c in columns] for row in rows))
