"""A benchmark's own embedded PostgreSQL with a migrated template, and a fresh catalogue cloned from it.

The benchmarks that ingest into a fresh catalogue per document or per repetition (bench_other_hands.py,
bench_renamed.py, bench_html_ingest.py) start the same private server in a temporary folder, migrate one
template database once, and clone it for each catalogue: cloning is a file copy, migrating is seconds.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path
from typing import Iterator

import psycopg

from esrpdb.db import embedded, migrate, roles
from esrpdb.db.catalog import open_catalog


@contextlib.contextmanager
def migrated_template(template: str, prefix: str = "esrpdb-bench-") -> Iterator[tuple[object, str]]:
    """(server, admin URL) of a private embedded server holding the migrated database `template`; stopped
    and its folder removed on exit."""
    with tempfile.TemporaryDirectory(prefix=prefix) as home:
        os.chmod(home, 0o711)  # as root the server's own user must enter it; esrpdb opens no folder itself
        server = embedded.start(Path(home))
        admin = server.admin_url().replace("+psycopg", "")
        try:
            with psycopg.connect(admin, autocommit=True) as conn:
                roles.create_database(conn, template)
            migrate.upgrade(server.url_for(database=template))
            yield server, admin
        finally:
            embedded.stop(Path(home))


@contextlib.contextmanager
def fresh_catalogue(server, admin: str, name: str, template: str) -> Iterator[object]:
    """The catalogue `name`, cloned from `template`, open; dropped on exit."""
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        roles.create_database(conn, name, template=template)
    catalog = open_catalog(server.url_for(database=name))
    try:
        yield catalog
    finally:
        catalog.close()
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
