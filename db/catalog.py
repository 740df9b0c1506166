"""Open the catalogue: resolve the server, bring the schema to head, hand out an engine."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import Engine, text
from sqlalchemy.orm import Session, sessionmaker

from . import migrate
from .connection import make_engine, resolve_url


@dataclass
class Catalog:
    url: str
    engine: Engine

    def session(self) -> Session:
        return sessionmaker(self.engine, expire_on_commit=False)()

    def server_version(self) -> str:
        with self.engine.connect() as conn:
            return conn.execute(text("SHOW server_version")).scalar_one()

    def close(self) -> None:
        self.engine.dispose()


def open_catalog(database_url: str | None = None, *, upgrade: bool = True) -> Catalog:
    """Connect, and migrate to head unless told not to (migrations are idempotent and locked)."""
    url = resolve_url(database_url)
    engine = make_engine(url)
    if upgrade:
        migrate.ensure_current(engine, url)
    return Catalog(url=url, engine=engine)


def init(database_url: str | None = None) -> tuple[Catalog, str | None]:
    """Create or upgrade the schema; returns the catalogue and the revision it is at."""
    catalog = open_catalog(database_url, upgrade=True)
    return catalog, migrate.current_revision(catalog.engine)
