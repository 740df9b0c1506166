"""psycopg connections without SQLAlchemy: the reader's for commands that only read, the owner's for ingest.

SQLAlchemy's import is most of what `esrpdb sql "select 1"` costs beyond Python itself, and ~0.2 s of
`esrpdb ingest FILE` (issue 46). The reader connects with psycopg alone when no URL is configured (the
embedded server) and the server is already up; the owner whenever the catalogue answers. Both make the
schema check every command makes (one query of `alembic_version` against the newest revision file).
Anything else (a URL for the reader, a stopped server, a catalogue behind head) returns None, and the
command takes the usual path, which starts, migrates or says what is wrong as it always did.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Callable

from . import embedded, roles
from .connection import ENV_READER_URL, ENV_URL, READER_OPTIONS
from .migrate import shipped_head

if TYPE_CHECKING:
    import psycopg
    from sqlalchemy import Engine

    from .sessions import PsycopgEngine

# The schemes a URL reaches libpq with as it is (the embedded server's, normalise_url's, a user's plain one);
# any other goes the usual path, which normalises it or says why it cannot.
_LIBPQ_SCHEMES = ("postgresql+psycopg://", "postgresql://")


def owner_engine(owner_url: str, sqlalchemy_engine: Callable[[], Engine]) -> PsycopgEngine | None:
    """The owner's writing engine on psycopg alone (db/sessions.py), or None for the usual path.
    `sqlalchemy_engine`: the catalogue's own, made only if a file needs it."""
    import psycopg

    from .sessions import PsycopgEngine

    scheme = next((s for s in _LIBPQ_SCHEMES if owner_url.startswith(s)), None)
    if scheme is None:
        return None
    try:
        conn = psycopg.connect("postgresql://" + owner_url[len(scheme):])
    except psycopg.Error:
        return None  # the usual path says why, in its words
    return PsycopgEngine(conn, sqlalchemy_engine) if _at_head(conn) else None


def _at_head(conn: psycopg.Connection) -> bool:
    """Whether the catalogue is at the package's newest revision; the connection is closed when not."""
    import psycopg

    try:
        revisions = [row[0] for row in conn.execute("SELECT version_num FROM alembic_version")]
        conn.rollback()
    except psycopg.Error:
        conn.close()
        return False
    if revisions != [shipped_head()]:
        conn.close()
        return False
    return True


def reader_connection(database_url: str | None, reader_url: str | None):
    """An open psycopg connection as the reader, or None when the usual path is needed."""
    if database_url or reader_url or os.environ.get(ENV_URL) or os.environ.get(ENV_READER_URL):
        return None
    socket_dir = embedded.ready_socket_dir()
    if socket_dir is None:
        return None
    import psycopg

    try:
        conn = psycopg.connect(user=roles.READER_ROLE, dbname=embedded.DATABASE_NAME, host=str(socket_dir),
                               options=READER_OPTIONS)
    except psycopg.OperationalError:
        return None  # a server that died without removing its pid file: the usual path restarts it
    return conn if _at_head(conn) else None
