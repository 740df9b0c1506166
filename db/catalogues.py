"""The named catalogues on the embedded server (`--catalogue NAME`, database `esrpdb_NAME`).

Only `init`, `ingest` and `demo` make one: a mistyped name on a reading command is an error naming
the closest catalogues, never a new empty one that answers "nothing ingested".
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from ..schema.keys import unknown_message
from . import roles

MAIN_DATABASE = "esrpdb"  # embedded.DATABASE_NAME: the catalogue used without --catalogue
PREFIX = "esrpdb_"


class UnknownCatalogue(LookupError):
    """A --catalogue name no database on the server holds; the message names the closest ones."""


@dataclass(frozen=True)
class CatalogueSummary:
    name: str  # "main" for the catalogue used without --catalogue
    database: str
    size_bytes: int
    files: int | None  # None: the schema is not there yet (made, never initialised)
    last_ingest_at: datetime | None


def _names(admin) -> dict[str, str]:
    """Catalogue name → database, for every catalogue database on the server (`admin`: a superuser's)."""
    found = {}
    for database in roles.catalogue_databases(admin):
        if database == MAIN_DATABASE:
            found["main"] = database
        elif database.startswith(PREFIX):
            found[database[len(PREFIX):]] = database
    return found


def open_named(admin, name: str, *, create: bool) -> str:
    """The database of catalogue `name`, made when `create` (init, ingest, demo), else UnknownCatalogue."""
    database = roles.catalogue_database(name)
    if admin.execute("SELECT 1 FROM pg_database WHERE datname = %s", (database,)).fetchone():
        return database
    if not create:
        known = [n for n in _names(admin) if n != "main"]
        raise UnknownCatalogue(unknown_message("catalogue", name, known).replace(
            "the catalogue has none yet", "there is no named catalogue yet")
            + f"; `esrpdb --catalogue {name} init` makes it")
    roles.create_database(admin, database)
    return database


def summaries(admin) -> list[CatalogueSummary]:
    """Every catalogue with its size on disk, files ingested and last ingest (main first)."""
    return [summary(admin, name, database)
            for name, database in sorted(_names(admin).items(), key=lambda item: (item[0] != "main", item[0]))]


def summary(conn, name: str, database: str) -> CatalogueSummary:
    """One catalogue's summary; `conn` is a role that may connect to `database` (its owner, a superuser)."""
    import psycopg

    size = conn.execute("SELECT pg_database_size(%s)", (database,)).fetchone()[0]
    files = last = None
    with psycopg.connect(conn.info.dsn, dbname=database, autocommit=True) as there:
        if there.execute("SELECT to_regclass('public.source_files')").fetchone()[0] is not None:
            files, last = there.execute("SELECT count(*), max(ingested_at) FROM source_files").fetchone()
    return CatalogueSummary(name, database, size, files, last)


def on_server(server) -> list[CatalogueSummary]:
    """summaries() on a running embedded server (`server`: embedded.ServerStatus)."""
    import psycopg

    with psycopg.connect(server.admin_url().replace("postgresql+psycopg://", "postgresql://"), autocommit=True) as admin:
        return summaries(admin)


def at_url(owner_url: str) -> list[CatalogueSummary]:
    """The one catalogue a --database-url names (another server's catalogues are not ours to list)."""
    import psycopg

    from .connection import libpq_url

    with psycopg.connect(libpq_url(owner_url), autocommit=True) as conn:
        database = conn.info.dbname
        return [summary(conn, database, database)]


def names_on_server(server) -> list[str]:
    """The named catalogues (as --catalogue takes them) on a running embedded server."""
    import psycopg

    with psycopg.connect(server.admin_url().replace("postgresql+psycopg://", "postgresql://"), autocommit=True) as admin:
        return sorted(name for name in _names(admin) if name != "main")
