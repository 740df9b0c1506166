"""A throw-away catalogue for `esrpdb demo`: recreated from scratch on every run."""

from __future__ import annotations

from pathlib import Path

import psycopg
from sqlalchemy.engine import make_url

from esrpdb.db.catalog import Catalog, open_catalog
from esrpdb.db.connection import resolve_url

DEMO_DATABASE = "esrpdb_demo"


def bundled_fixtures() -> Path:
    """The fixtures shipped inside the package (the repository's fixtures/ folder)."""
    import esrpdb.fixtures

    return Path(esrpdb.fixtures.__file__).resolve().parent


def demo_catalog(database_url: str | None = None) -> Catalog:
    """Drop and recreate the `esrpdb_demo` database on the chosen server, migrated to head."""
    base = make_url(resolve_url(database_url))
    admin = base.set(drivername="postgresql", database="postgres").render_as_string(hide_password=False)
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{DEMO_DATABASE}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{DEMO_DATABASE}"')
    return open_catalog(base.set(database=DEMO_DATABASE).render_as_string(hide_password=False))
