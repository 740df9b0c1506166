"""Resolve the database URL (flag, environment, or the embedded server) and open engines."""

from __future__ import annotations

import os
from pathlib import Path

from sqlalchemy import Engine, create_engine
from sqlalchemy.engine import make_url

from . import embedded

ENV_URL = "ESRPDB_DATABASE_URL"


def normalise_url(url: str) -> str:
    """Accept plain `postgresql://` URLs and use the psycopg 3 driver for them."""
    parsed = make_url(url)
    if parsed.get_backend_name() != "postgresql":
        raise ValueError(f"esrpdb needs PostgreSQL; got a {parsed.get_backend_name()!r} URL")
    if parsed.drivername == "postgresql":
        parsed = parsed.set(drivername="postgresql+psycopg")
    return parsed.render_as_string(hide_password=False)


def resolve_url(database_url: str | None = None, *, home: Path | None = None) -> str:
    """--database-url, else ESRPDB_DATABASE_URL, else the embedded server (started on demand)."""
    url = database_url or os.environ.get(ENV_URL)
    if url:
        return normalise_url(url)
    server = embedded.start(home)
    assert server.url is not None
    return server.url


def make_engine(url: str) -> Engine:
    return create_engine(url, pool_pre_ping=False, future=True)
