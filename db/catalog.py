"""Open the catalogue: resolve the server, bring the schema to head, hand out an engine."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from sqlalchemy import Engine, text

from . import migrate
from .connection import make_engine, resolve_urls

if TYPE_CHECKING:
    from sqlalchemy.orm import Session


@dataclass
class Catalog:
    url: str
    engine: Engine  # the owner's: ingest and migrations
    reader_url: str | None = None  # the read-only role's, when the server has one for us
    _reader_engine: Engine | None = field(default=None, repr=False)

    def reader(self) -> Engine:
        """The engine for reading on a user's behalf: the read-only role where one is configured."""
        if self.reader_url is None:
            return self.engine
        if self._reader_engine is None:
            self._reader_engine = make_engine(self.reader_url, reader=True)
        return self._reader_engine

    def session(self) -> Session:
        from sqlalchemy.orm import sessionmaker  # the ORM is for ingest; reading commands skip it

        return sessionmaker(self.engine, expire_on_commit=False)()

    def server_version(self) -> str:
        with self.engine.connect() as conn:
            return conn.execute(text("SHOW server_version")).scalar_one()

    def close(self) -> None:
        self.engine.dispose()
        if self._reader_engine is not None:
            self._reader_engine.dispose()


def open_catalog(database_url: str | None = None, *, reader_url: str | None = None,
                 upgrade: bool = True) -> Catalog:
    """Connect, and migrate to head unless told not to (migrations are idempotent and locked)."""
    urls = resolve_urls(database_url, reader_url)
    engine = make_engine(urls.owner)
    if upgrade:
        migrate.ensure_current(engine, urls.owner)
    return Catalog(url=urls.owner, engine=engine, reader_url=urls.reader)


def init(database_url: str | None = None) -> tuple[Catalog, str | None, int | None]:
    """Create or upgrade the schema, and make its stored class ranks fresh (stale after a write no writer
    of ours followed: an interrupted command, a person's own SQL); returns the catalogue, the revision
    it is at and the rank rows the rebuild wrote (class_ranks.rebuild_class_ranks)."""
    from .class_ranks import rebuild_class_ranks

    catalog = open_catalog(database_url, upgrade=True)
    return catalog, migrate.current_revision(catalog.engine), rebuild_class_ranks(catalog.engine)
