"""Run the Alembic migrations shipped inside the package, against any URL.

Alembic (and its Mako templates) costs more to import than most commands take to run, so
the check every command makes is done without it: one query of `alembic_version` against
the newest revision file's name (`0008_….py` is revision "0008"). Alembic is imported only
when that check says a migration is due.
"""

from __future__ import annotations

import contextlib
import re
from pathlib import Path
from typing import TYPE_CHECKING, Iterator

if TYPE_CHECKING:
    from alembic.config import Config
    from sqlalchemy import Engine

# How long a migration waits for a table lock before it stops. A reader's open transaction (psql, a BI
# tool) holds a lock on every table it has read; a migration that altered one of them used to wait for
# it without end, and, queued for its exclusive lock, held every later reader of that table behind it.
# It waits this long, then stops with one line naming the sessions in its way, having changed nothing
# (the revisions run in one transaction). Readers are never ended on its behalf: their sessions are the
# user's, and the reader's own idle_in_transaction_session_timeout (db/roles.py) ends a forgotten one.
MIGRATION_LOCK_TIMEOUT = "10s"
LOCK_NOT_AVAILABLE = "55P03"  # PostgreSQL's SQLSTATE for a lock_timeout that ran out


class MigrationBlocked(RuntimeError):
    """A migration stopped waiting for a table lock another session holds; nothing was changed."""


# Revision files are named "<revision id>_<slug>.py" with four-digit ids in order.
REVISION_FILE = re.compile(r"^(\d{4})_\w+\.py$")


def _versions_dir() -> Path:
    from .. import migrations

    return Path(migrations.__file__).parent / "versions"


def shipped_head() -> str | None:
    """The newest revision this package ships, from the file names alone."""
    ids = [m.group(1) for m in map(REVISION_FILE.match, (p.name for p in _versions_dir().iterdir())) if m]
    return max(ids, default=None)


def stored_revision(engine: Engine) -> str | None:
    """The database's revision from one query; None without an `alembic_version` table."""
    from sqlalchemy import text
    from sqlalchemy.exc import ProgrammingError

    try:
        with engine.connect() as conn:
            rows = conn.execute(text("SELECT version_num FROM alembic_version")).scalars().all()
    except ProgrammingError:  # no such table: an empty database
        return None
    return rows[0] if len(rows) == 1 else None



def alembic_config(url: str) -> Config:
    from alembic.config import Config

    from .. import migrations

    config = Config()
    config.set_main_option("script_location", str(Path(migrations.__file__).parent))
    config.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    config.set_main_option("esrpdb.lock_timeout", MIGRATION_LOCK_TIMEOUT)  # env.py sets it once it runs alone
    return config


def head_revision(url: str) -> str | None:
    from alembic.script import ScriptDirectory

    return ScriptDirectory.from_config(alembic_config(url)).get_current_head()


def current_revision(engine: Engine) -> str | None:
    from alembic.runtime.migration import MigrationContext

    with engine.connect() as conn:
        return MigrationContext.configure(conn).get_current_revision()


def upgrade(url: str, revision: str = "head") -> None:
    from alembic import command

    with _blockers_named(url, f"upgrading the catalogue to revision {shipped_head() if revision == 'head' else revision}"):
        command.upgrade(alembic_config(url), revision)


def downgrade(url: str, revision: str) -> None:
    from alembic import command

    with _blockers_named(url, f"downgrading the catalogue to revision {revision}"):
        command.downgrade(alembic_config(url), revision)


@contextlib.contextmanager
def _blockers_named(url: str, doing: str) -> Iterator[None]:
    """A lock wait that ran out becomes MigrationBlocked, naming who holds the catalogue's tables."""
    from sqlalchemy.exc import OperationalError

    try:
        yield
    except OperationalError as error:
        if getattr(error.orig, "sqlstate", None) != LOCK_NOT_AVAILABLE:
            raise
        raise MigrationBlocked(f"{doing} waited {MIGRATION_LOCK_TIMEOUT} for a table lock and stopped, changing "
                               f"nothing: {_lock_holders(url)}") from None


_HOLDERS = """
SELECT l.pid, a.usename, string_agg(DISTINCT c.relname, ', ' ORDER BY c.relname)
FROM pg_locks l JOIN pg_class c ON c.oid = l.relation LEFT JOIN pg_stat_activity a ON a.pid = l.pid
WHERE l.granted AND l.locktype = 'relation' AND l.pid <> pg_backend_pid() AND c.relkind IN ('r', 'p', 'v', 'm')
  AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
GROUP BY l.pid, a.usename ORDER BY l.pid LIMIT 5"""


def _lock_holders(url: str) -> str:
    """The sessions holding the catalogue's tables now, in words a user can act on."""
    from sqlalchemy import create_engine, pool, text

    engine = create_engine(url, poolclass=pool.NullPool)
    try:
        with engine.connect() as conn:
            holders = conn.execute(text(_HOLDERS)).all()
    except Exception:  # noqa: BLE001 - the message must never hide the stop it explains
        holders = []
    finally:
        engine.dispose()
    if not holders:
        return "the session that held it has ended since; run the command again"
    named = "; ".join(f"pid {pid} ({user or 'another role'}) holds {tables}" for pid, user, tables in holders)
    return (f"{named}; end those sessions (a psql or BI tool's open transaction: commit or close it) or let them "
            "finish, then run the command again")


def ensure_current(engine: Engine, url: str) -> bool:
    """Upgrade to head when behind; returns True when it migrated."""
    if stored_revision(engine) == shipped_head():
        return False
    upgrade(url)
    return True
