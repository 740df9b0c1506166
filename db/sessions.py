"""Where the catalogue's writers run their statements: a SQLAlchemy connection, or psycopg alone.

The writers (ingest/load/) call a small part of a Session: `execute` and `scalars` with `Sql`
statements (db/statements.py), and the psycopg connection underneath for COPY and the report
statement. `CoreSession` gives that on a SQLAlchemy connection (the library, the tests, every
command but `ingest`). `PsycopgSession` gives it on a psycopg connection, so `esrpdb ingest FILE`
never imports SQLAlchemy (issue 46). A statement only SQLAlchemy can run (a built one: the evidence
files' and the manifests', which the pipeline sends to SQLAlchemy's engine from the start) raises
`NeedsSqlAlchemy` there, and the pipeline writes that file again, whole, on SQLAlchemy's engine: its
transaction was rolled back, so nothing is half-written.
"""

from __future__ import annotations

import contextlib
from collections import namedtuple
from functools import cache, lru_cache
from typing import TYPE_CHECKING, Any, Callable, Iterator, Union

from .statements import Sql

if TYPE_CHECKING:
    import psycopg
    from sqlalchemy import Connection, Engine

    AnyEngine = Union[Engine, "PsycopgEngine"]


# What the writers take: a CoreSession, a PsycopgSession, or a caller's SQLAlchemy Session (as_writer wraps it).
WriterSession = Any


class NeedsSqlAlchemy(Exception):
    """A statement only SQLAlchemy can run reached psycopg's session (see the module docstring)."""


class WrongRowCount(LookupError):
    """`one()` or `scalar_one()` found no row or more than one (as SQLAlchemy's NoResultFound/MultipleResultsFound)."""


class CoreSession:
    """A Session's `execute` and `scalars` on one SQLAlchemy Connection inside its transaction."""

    __slots__ = ("_connection",)

    def __init__(self, connection: Connection) -> None:
        self._connection = connection

    def execute(self, statement: Any, parameters: Any = None) -> Any:
        if isinstance(statement, Sql):
            statement = statement.for_sqlalchemy()
        return self._connection.execute(statement, parameters)

    def scalars(self, statement: Any, parameters: Any = None) -> Any:
        return self.execute(statement, parameters).scalars()

    def driver_connection(self) -> psycopg.Connection:
        return self._connection.connection.driver_connection  # type: ignore[return-value]


class _Scalars(list):
    """The first column of every row, as SQLAlchemy's ScalarResult is read here."""

    def all(self) -> list:
        return list(self)

    def first(self) -> Any:
        return self[0] if self else None


class PlainResult:
    """SQLAlchemy's Result as the writers read it, on a psycopg cursor."""

    __slots__ = ("_cursor",)

    def __init__(self, cursor: psycopg.Cursor) -> None:
        self._cursor = cursor

    @property
    def rowcount(self) -> int:
        return self._cursor.rowcount

    def __iter__(self) -> Iterator[Any]:
        return iter(self._cursor.fetchall() if _has_rows(self._cursor) else ())

    def all(self) -> list:
        return list(self)

    def first(self) -> Any:
        return self._cursor.fetchone() if _has_rows(self._cursor) else None

    def one(self) -> Any:
        rows = self.all()
        if len(rows) != 1:
            raise WrongRowCount(f"expected one row, got {len(rows)}")
        return rows[0]

    def scalar(self) -> Any:
        row = self.first()
        return None if row is None else row[0]

    def scalar_one(self) -> Any:
        return self.one()[0]

    def scalar_one_or_none(self) -> Any:
        rows = self.all()
        if len(rows) > 1:
            raise WrongRowCount(f"expected one row at most, got {len(rows)}")
        return rows[0][0] if rows else None

    def scalars(self) -> _Scalars:
        return _Scalars(row[0] for row in self)


@lru_cache(maxsize=256)
def _row_class(names: tuple[str, ...]) -> Any:
    """Rows read by attribute as SQLAlchemy's are (`run.id`); a name no attribute can have is positional."""
    row: Any = namedtuple("Row", names, rename=True)  # type: ignore[misc]  # its fields: the statement's columns
    return row._make


def _has_rows(cursor: Any) -> bool:
    """Whether the statement gave rows, as `cursor.description is not None` says, without the description:
    psycopg builds a Column a column each time it is asked (its type looked up), ~12,000 for a folder."""
    result = cursor.pgresult
    return bool(result) and (result.nfields > 0 or result.status in _gave_rows())


@cache
def _gave_rows() -> frozenset[int]:
    """The statuses of a result with rows (those `description` names)."""
    from psycopg.pq import ExecStatus

    return frozenset({ExecStatus.TUPLES_OK, ExecStatus.SINGLE_TUPLE, ExecStatus.TUPLES_CHUNK})


def _row_maker(cursor: Any) -> Callable[[Any], Any]:
    if not _has_rows(cursor):
        return tuple
    result = cursor.pgresult
    return _row_class(tuple((result.fname(index) or b"").decode() or f"column_{index + 1}"
                            for index in range(result.nfields)))


class PsycopgSession:
    """The writers' session on one psycopg connection inside its transaction (`Sql` statements only)."""

    __slots__ = ("_connection",)

    def __init__(self, connection: psycopg.Connection) -> None:
        self._connection = connection

    def execute(self, statement: Any, parameters: Any = None) -> PlainResult:
        if not isinstance(statement, Sql):
            raise NeedsSqlAlchemy(f"a built statement ({type(statement).__name__}) needs SQLAlchemy")
        cursor = self._connection.cursor(row_factory=_row_maker)
        if isinstance(parameters, list):
            cursor.executemany(statement.for_psycopg(True), parameters)
        else:
            cursor.execute(statement.for_psycopg(parameters is not None), parameters)
        return PlainResult(cursor)

    def scalars(self, statement: Any, parameters: Any = None) -> _Scalars:
        return self.execute(statement, parameters).scalars()

    def driver_connection(self) -> psycopg.Connection:
        return self._connection


# Each refresh with no key: every statement it runs is planned and cached by the session, nothing is
# written (and the transaction is rolled back). A lock another writer holds is not waited for.
_WARM_UP = ("SET LOCAL lock_timeout = '50ms'; SELECT refresh_run_figures(ARRAY[]::integer[]), "
            "refresh_solution_designs(ARRAY[]::integer[])")


class PsycopgEngine:
    """The owner's one psycopg connection, with SQLAlchemy's engine made only when a file needs it."""

    def __init__(self, connection: psycopg.Connection, sqlalchemy_engine: Callable[[], Engine]) -> None:
        self._connection = connection
        self._make_sqlalchemy_engine = sqlalchemy_engine
        self._sqlalchemy_engine: Engine | None = None

    @property
    def driver_connection(self) -> psycopg.Connection:
        return self._connection

    def _in_transaction(self) -> bool:
        import psycopg

        return self._connection.info.transaction_status != psycopg.pq.TransactionStatus.IDLE

    def _idle(self) -> None:
        """One connection, one transaction at a time: SQLAlchemy's engine would hand a nested block another
        connection, this one would end the open transaction with the nested block's."""
        if self._in_transaction():
            raise RuntimeError("psycopg's engine was asked for a transaction while one is open")

    @contextlib.contextmanager
    def begin(self) -> Iterator[PsycopgSession]:
        """Committed when the block ends, rolled back when it raises."""
        self._idle()
        try:
            yield PsycopgSession(self._connection)
        except BaseException:
            with contextlib.suppress(Exception):  # never in place of the error that ended the block
                self._connection.rollback()
            raise
        self._connection.commit()

    @contextlib.contextmanager
    def connect(self) -> Iterator[PsycopgSession]:
        """For reads: the transaction they opened ends with the block. A block that ended well is
        committed, which for reads is the same as a rollback, but psycopg forgets every statement it has
        prepared at a ROLLBACK: a folder's files each began with a read, so no statement of a file's write
        reached the five runs after which psycopg prepares it, and the server parsed and planned each
        anew for every file. A block that raised is rolled back, as SQLAlchemy's connection is when it
        returns to its pool."""
        import psycopg

        self._idle()
        try:
            yield PsycopgSession(self._connection)
        except BaseException:
            with contextlib.suppress(Exception):
                self._connection.rollback()
            raise
        with contextlib.suppress(Exception):
            if self._connection.info.transaction_status == psycopg.pq.TransactionStatus.INTRANS:
                self._connection.commit()
            else:
                self._connection.rollback()

    def warm_up(self) -> None:
        """Plan the refreshes a write's COMMIT runs (the derived stores' deferred triggers, revisions 0008
        and 0022) in a transaction rolled back: a new connection plans them at its first COMMIT, ~30 ms of a
        document's write, and `esrpdb ingest FILE` is a new connection each time. Called while the command
        waits for its reading worker (ReadAhead.meanwhile); a failure only leaves them unplanned."""
        import psycopg

        if self._in_transaction():
            return  # never inside a write: its rollback would undo it
        try:
            self._connection.execute(_WARM_UP)
        except psycopg.Error:
            pass
        finally:
            with contextlib.suppress(psycopg.Error):
                self._connection.rollback()

    def sqlalchemy(self) -> Engine:
        """SQLAlchemy's engine on the same catalogue, for what only it can write."""
        if self._sqlalchemy_engine is None:
            self._sqlalchemy_engine = self._make_sqlalchemy_engine()
        return self._sqlalchemy_engine

    def dispose(self) -> None:
        with contextlib.suppress(Exception):
            self._connection.close()
        if self._sqlalchemy_engine is not None:
            self._sqlalchemy_engine.dispose()


def sqlalchemy_engine(engine: AnyEngine) -> Engine:
    """SQLAlchemy's engine of either kind (psycopg's makes one on the same catalogue)."""
    return engine.sqlalchemy() if isinstance(engine, PsycopgEngine) else engine


def transaction(engine: AnyEngine) -> contextlib.AbstractContextManager[Any]:
    """A writers' session, committed when the block ends and rolled back when it raises (as
    `Session(engine).begin()`): psycopg's on a PsycopgEngine, else a CoreSession."""
    return _opened(engine, "begin")


def reading(engine: AnyEngine) -> contextlib.AbstractContextManager[Any]:
    """A session for reads outside any write's transaction."""
    return _opened(engine, "connect")


@contextlib.contextmanager
def _opened(engine: AnyEngine, how: str) -> Iterator[Any]:
    """Either engine's `begin()` or `connect()` (the same names on both), as a writers' session."""
    with getattr(engine, how)() as opened:
        yield opened if isinstance(engine, PsycopgEngine) else CoreSession(opened)


def as_writer(session: Any) -> Any:
    """The session as the writers use it: ours as it is, a caller's SQLAlchemy Session (the tests,
    `esrpdb assign`) on the connection of its transaction."""
    if isinstance(session, (CoreSession, PsycopgSession)):
        return session
    return CoreSession(session.connection())


def driver_connection(session: Any) -> psycopg.Connection:
    """The psycopg connection under a writers' session (COPY, the report statement, advisory locks)."""
    return as_writer(session).driver_connection()
