"""A reader's psycopg connection without SQLAlchemy, for commands that only read.

SQLAlchemy's import is most of what `esrpdb sql "select 1"` costs beyond Python itself. When
no URL is configured (the embedded server) and the server is already up, the reader connects
with psycopg alone and makes the same schema check (one query of `alembic_version` against
the newest revision file). Anything else (a URL, a stopped server, a catalogue behind head)
returns None, and the command takes the usual path, which starts or migrates as needed.
"""

from __future__ import annotations

import os

from . import embedded, roles
from .connection import ENV_READER_URL, ENV_URL, READER_OPTIONS
from .migrate import shipped_head


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
    try:
        revisions = [row[0] for row in conn.execute("SELECT version_num FROM alembic_version")]
        conn.rollback()
    except psycopg.Error:
        conn.close()
        return None
    if revisions != [shipped_head()]:
        conn.close()
        return None
    return conn
