"""Resolve the database URLs (flags, environment, or the embedded server) and open engines.

Two URLs: the owner's, which ingests and migrates, and the reader's, which everything that
reads on a user's behalf uses (`sql`, `query`, listings, the audit).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from . import embedded, roles

if TYPE_CHECKING:  # SQLAlchemy is imported by the functions that use it: see db/quick.py
    from sqlalchemy import Engine
    from sqlalchemy.engine import URL

ENV_URL = "ESRPDB_DATABASE_URL"
ENV_READER_URL = "ESRPDB_READER_URL"


class BadDatabaseUrl(ValueError):
    """The URL cannot name a PostgreSQL database."""


def normalise_url(url: str) -> str:
    """Accept plain `postgresql://` URLs and use the psycopg 3 driver for them."""
    from sqlalchemy.engine import make_url

    try:
        parsed = make_url(url)
    except Exception:  # sqlalchemy raises ArgumentError, ValueError, …
        # Not echoed: an unparseable string may still hold a password.
        raise BadDatabaseUrl("not a database URL (expected postgresql://user:password@host:port/database)") from None
    if parsed.get_backend_name() != "postgresql":
        raise BadDatabaseUrl(f"esrpdb needs PostgreSQL; got a {parsed.get_backend_name()!r} URL")
    if parsed.drivername == "postgresql":
        parsed = parsed.set(drivername="postgresql+psycopg")
    return parsed.render_as_string(hide_password=False)


def redact(url: str) -> str:
    """The URL as it may be printed: any password masked."""
    from sqlalchemy.engine import make_url

    try:
        return make_url(url).render_as_string(hide_password=True)
    except Exception:
        return "<not a URL>"


def libpq_url(url: str) -> str:
    """The URL as psql, libpq, a notebook or a BI tool take it: plain `postgresql://`, never SQLAlchemy's
    driver suffix (`postgresql+psycopg://`), which libpq refuses as an invalid connection option."""
    from sqlalchemy.engine import make_url

    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


@dataclass(frozen=True)
class DatabaseUrls:
    owner: str
    reader: str | None  # None: no read-only role is configured for this server


def derived_reader_url(owner_url: str) -> str | None:
    """The embedded server's convention: the owner over a Unix socket with peer authentication.

    Such a URL (what `esrpdb db url` prints) has a reader twin with the same socket and
    database; any other URL needs ESRPDB_READER_URL to name its read-only role.
    """
    from sqlalchemy.engine import make_url

    parsed: URL = make_url(owner_url)
    socket = parsed.query.get("host")
    if parsed.username == roles.OWNER_ROLE and parsed.password is None and parsed.host is None \
            and isinstance(socket, str) and socket.startswith("/"):
        return parsed.set(username=roles.READER_ROLE).render_as_string(hide_password=False)
    return None


def resolve_urls(database_url: str | None = None, reader_url: str | None = None, *,
                 home: Path | None = None) -> DatabaseUrls:
    """--database-url, else ESRPDB_DATABASE_URL, else the embedded server (started on demand)."""
    url = database_url or os.environ.get(ENV_URL)
    reader = reader_url or os.environ.get(ENV_READER_URL)
    if url:
        owner = normalise_url(url)
        return DatabaseUrls(owner, normalise_url(reader) if reader else derived_reader_url(owner))
    server = embedded.start(home)
    assert server.url is not None and server.reader_url is not None
    return DatabaseUrls(server.url, normalise_url(reader) if reader else server.reader_url)


def resolve_url(database_url: str | None = None, *, home: Path | None = None) -> str:
    """The owner's URL (ingest and migrations)."""
    return resolve_urls(database_url, home=home).owner


# The reader's sessions carry their limits themselves, so a reader that changed its own role defaults
# (ALTER ROLE … SET, which PostgreSQL lets a role do to itself) still reads read-only and bounded. Not
# here: the settings only a superuser sets (the reader cannot change them), and those PostgreSQL 13 lacks
# (an unknown option refuses the connection; the embedded server sets them on the role).
NOT_AT_CONNECT = (*roles.SUPERUSER_SETTINGS, "client_connection_check_interval")
READER_OPTIONS = " ".join(f"-c {setting}={value}" for setting, value in roles.READER_SESSION_DEFAULTS.items()
                          if setting not in NOT_AT_CONNECT)


def make_engine(url: str, *, reader: bool = False) -> Engine:
    """The reader's engine keeps one idle connection and opens at most the reader's connection limit:
    the role's connections are few (roles.READER_CONNECTION_LIMIT bounds its temporary files)."""
    from sqlalchemy import create_engine

    if not reader:
        return create_engine(url, pool_pre_ping=False)
    return create_engine(url, pool_pre_ping=False, connect_args={"options": READER_OPTIONS},
                         pool_size=1, max_overflow=roles.READER_CONNECTION_LIMIT - 1)
