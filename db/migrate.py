"""Run the Alembic migrations shipped inside the package, against any URL.

Alembic (and its Mako templates) costs more to import than most commands take to run, so
the check every command makes is done without it: one query of `alembic_version` against
the newest revision file's name (`0008_….py` is revision "0008"). Alembic is imported only
when that check says a migration is due.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from alembic.config import Config
    from sqlalchemy import Engine

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

    command.upgrade(alembic_config(url), revision)


def downgrade(url: str, revision: str) -> None:
    from alembic import command

    command.downgrade(alembic_config(url), revision)


def ensure_current(engine: Engine, url: str) -> bool:
    """Upgrade to head when behind; returns True when it migrated."""
    if stored_revision(engine) == shipped_head():
        return False
    upgrade(url)
    return True
