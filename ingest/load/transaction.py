"""One file's transaction as the writers see it, on a Core connection: the ORM never imported.

The writers (load/) call two things of a Session, `execute` and `connection()`, and every statement of
`esrpdb ingest` is Core (schema/tables.py), so the batch hands them this instead of a Session: importing
SQLAlchemy's ORM was a fifth of the writer's import of SQLAlchemy (issue 46). A caller's own Session (the
tests, `esrpdb assign`) works as before: it has both.
"""

from __future__ import annotations

import contextlib
from typing import TYPE_CHECKING, Any, Iterator, cast

if TYPE_CHECKING:
    from sqlalchemy import Connection, Engine
    from sqlalchemy.orm import Session


class CoreSession:
    """A Session's `execute`, `scalars` and `connection()` on one Connection inside its transaction."""

    __slots__ = ("_connection",)

    def __init__(self, connection: Connection) -> None:
        self._connection = connection

    def execute(self, statement: Any, parameters: Any = None) -> Any:
        return self._connection.execute(statement, parameters)

    def scalars(self, statement: Any, parameters: Any = None) -> Any:
        return self._connection.scalars(statement, parameters)

    def connection(self) -> Connection:
        return self._connection


@contextlib.contextmanager
def transaction(engine: Engine) -> Iterator[Session]:
    """Committed when the block ends, rolled back when it raises (as `Session(engine).begin()`)."""
    with engine.begin() as connection:
        yield cast("Session", CoreSession(connection))
