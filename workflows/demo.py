"""`demo`: a throw-away catalogue built from the bundled manifests, and the headline metrics.

Built from scratch on every run in its own database (`esrpdb_demo`), so the demo never touches
the user's own catalogue: the previous demo's tables are emptied when its schema is current,
else the database is recreated and migrated.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

import psycopg
from sqlalchemy import text

from ..audit import AuditReport, audit
from ..db import embedded, roles
from ..db.catalog import Catalog, open_catalog
from ..db.connection import ENV_URL, redact
from ..queries import canned, listings
from ..queries.adhoc import QueryResult

DEMO_DATABASE = roles.catalogue_database(roles.DEMO_CATALOGUE)

# (title, canned query, columns shown, why a cell can be blank): the median run of each trial,
# on each disk basis; a solution the metric cannot cover gets an empty row.
DEMO_METRICS = (
    ("Per-disk IOPS (median runs)", "per-disk-iops",
     ("solution", "run_label", "disk_basis", "disk_count", "achieved_iops_per_disk", "log_iops_per_disk",
      "total_iops_per_disk", "iops_source"),
     "the run's table gives total IOPS only, or the manifest lists no disks"),
    ("IOPS per dollar (median runs)", "iops-per-dollar",
     ("solution", "run_label", "total_iops", "list_price_amount", "list_price_currency",
      "total_iops_per_price_unit", "price_per_kiops_amount"),
     "the solution's manifest gives no list price"),
    ("Usable MB per dollar", "mb-per-dollar",
     ("solution", "usable_mb", "list_price_amount", "list_price_currency", "usable_mb_per_price_unit"),
     "the manifest gives no list price or no usable capacity"),
    ("Performance per watt (median runs)", "perf-per-watt",
     ("solution", "run_label", "total_iops", "active_power_w", "power_boundary", "total_iops_per_w", "power_source"),
     "no power log is linked to the run and the manifest gives no measured power"),
)


def bundled_fixtures() -> Path:
    """The fixtures shipped inside the package (the repository's fixtures/ folder)."""
    from .. import fixtures

    return Path(fixtures.__file__).resolve().parent


@dataclass
class DemoResult:
    url: str
    catalog_dir: Path
    loaded_files: int
    failed_files: int
    failures: list[str] = field(default_factory=list)
    tables: list[QueryResult] = field(default_factory=list)
    audit: AuditReport | None = None  # every claim recomputed from the data (esrpdb audit)


class DemoRefused(RuntimeError):
    """The demo would have to overwrite data that is not its own."""


def demo_catalog(database_url: str | None = None) -> Catalog:
    """A catalogue to fill: a fresh `esrpdb_demo` on the embedded server, else the given database if empty.

    On a server esrpdb does not own, the demo works inside the database it is given and never
    creates or drops one; a database that already holds a catalogue is refused, not mixed.
    """
    if database_url or os.environ.get(ENV_URL):
        catalog = open_catalog(database_url)
        with catalog.engine.connect() as conn:
            files = conn.execute(text("SELECT count(*) FROM source_files")).scalar_one()
        if files:
            catalog.close()
            raise DemoRefused(f"{redact(catalog.url)} already holds a catalogue ({files} files); the demo loads "
                              "the bundled seed catalogue only into an empty database (or run it without "
                              "--database-url, on the embedded server)")
        return catalog
    server = embedded.start()
    if not _emptied_at_head(server.url_for(database=DEMO_DATABASE)):
        with psycopg.connect(server.admin_url().replace("+psycopg", ""), autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{DEMO_DATABASE}" WITH (FORCE)')
            roles.create_database(conn, DEMO_DATABASE)
            # A throw-away catalogue: a commit need not wait for the disk (a crash loses the demo, not data).
            conn.execute(f'ALTER DATABASE "{DEMO_DATABASE}" SET synchronous_commit = off')
    return open_catalog(server.url_for(database=DEMO_DATABASE))


def _emptied_at_head(url: str) -> bool:
    """Empty the previous demo's tables when its schema is current: a tenth of recreating and migrating it."""
    from ..db.migrate import shipped_head

    try:
        conn = psycopg.connect(url.replace("+psycopg", ""), autocommit=True)
    except psycopg.OperationalError:
        return False  # no demo database yet
    with conn:
        try:
            revisions = [row[0] for row in conn.execute("SELECT version_num FROM alembic_version")]
        except psycopg.Error:
            return False
        if revisions != [shipped_head()]:
            return False
        tables = [row[0] for row in conn.execute(
            "SELECT quote_ident(tablename) FROM pg_tables WHERE schemaname = 'public' AND tablename <> 'alembic_version'")]
        conn.execute(f"TRUNCATE {', '.join(tables)} RESTART IDENTITY")
    return True


def _project(result: QueryResult, columns: tuple[str, ...], median_only: bool, solutions: list[str]) -> QueryResult:
    """The chosen columns of the median runs, plus an empty row for each solution the metric misses."""
    index = {c: i for i, c in enumerate(result.columns)}
    rows = [tuple(r[index[c]] for c in columns) for r in result.rows if not median_only or r[index["is_median_run"]]]
    present = {row[0] for row in rows}
    rows += [(key, *([None] * (len(columns) - 1))) for key in solutions if key not in present]
    return QueryResult(list(columns), sorted(rows, key=lambda row: row[0]))


def demo(database_url: str | None = None) -> DemoResult:
    from ..ingest.pipeline import ingest_paths

    catalog = demo_catalog(database_url)
    catalog_dir = bundled_fixtures() / "catalog"
    outcomes = ingest_paths(catalog.engine, [catalog_dir])
    result = DemoResult(
        url=catalog.url, catalog_dir=catalog_dir,
        loaded_files=sum(o.status == "loaded" for o in outcomes),
        failed_files=sum(o.status == "failed" for o in outcomes),
        failures=[o.message for o in outcomes if o.status == "failed"],
    )
    reader = catalog.reader()  # what a user reads goes through the read-only role
    solutions = [row[0] for row in listings.solutions(reader).rows]
    for _, name, columns, _ in DEMO_METRICS:
        rows = canned.query(reader, name)
        result.tables.append(_project(rows, columns, "is_median_run" in rows.columns, solutions))
    result.audit = audit(reader)
    catalog.close()
    return result
