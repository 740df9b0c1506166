"""Whether a catalogue holds anything yet, so a listing of an empty one can say what to run instead of
printing an empty table (issue 35): one query, on an Engine or the CLI's psycopg connection."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from sqlalchemy import Engine

# Nothing ingested: no file and no solution. pg_database is readable by every role, the reader too.
STATE_SQL = """
SELECT NOT EXISTS (SELECT 1 FROM source_files) AND NOT EXISTS (SELECT 1 FROM solutions),
       EXISTS (SELECT 1 FROM pg_database WHERE datname = %(other)s)
"""


@dataclass(frozen=True)
class CatalogueState:
    empty: bool  # nothing ingested: no source file, no solution
    other_exists: bool  # the other database asked about (the demo's) exists on the same server


def catalogue_state(source: Engine | Any, other_database: str = "") -> CatalogueState:
    """`source` is an Engine or an open psycopg connection (left rolled back)."""
    if hasattr(source, "raw_connection"):
        raw = source.raw_connection()
        try:
            return catalogue_state(raw.driver_connection, other_database)
        finally:
            raw.close()
    conn: Any = source  # a psycopg connection
    try:
        empty, other = conn.execute(STATE_SQL, {"other": other_database}).fetchone()
        return CatalogueState(bool(empty), bool(other))
    finally:
        conn.rollback()
