"""The last net under every command: an exception that escaped becomes one `Error:` line.

Expected failures (no server, a bad URL, a refused login, an unwritable ESRPDB_HOME, missing
privileges) are named in plain words; anything else says its type and points at `--debug`,
which shows the traceback instead. No message carries a password: URLs are redacted.
"""

from __future__ import annotations

import sys


def one_line(error: BaseException) -> str:
    """What to print for an exception that no command caught."""
    from sqlalchemy import exc as sa_exc

    from ..db.connection import BadDatabaseUrl
    from ..db.embedded import ServerError
    from ..db.migrate import MigrationBlocked

    original = getattr(error, "orig", None) or error
    first = (str(original).strip().splitlines() or [type(original).__name__])[0]
    if isinstance(error, (BadDatabaseUrl, ServerError, MigrationBlocked)):
        return first
    sqlstate = getattr(original, "sqlstate", None) or ""
    if sqlstate == "53100":
        return f"the database server has no space left on device: {first}"
    if isinstance(error, sa_exc.OperationalError) or type(original).__name__ == "OperationalError":
        full = _embedded_disk_full()
        if full:
            return full
        if sqlstate == "3D000" or "does not exist" in first and "database" in first:
            return f"the database does not exist: {first}"
        if sqlstate.startswith("28") or "authentication failed" in first or "password" in first:
            return f"the server refused the login: {first}"
        return f"cannot reach the database server: {first}"
    if sqlstate == "42501" or "permission denied" in first:
        return f"missing privileges: {first} (does the role own the catalogue, or may it create databases?)"
    if isinstance(error, OSError):
        return first if getattr(error, "filename", None) is None else f"{error.filename}: {error.strerror or first}"
    return f"{type(error).__name__}: {first} (run with --debug for the traceback)"


def _embedded_disk_full() -> str | None:
    """A lost or refused connection to the embedded server: a full disk, when its log says so."""
    import os

    if any(a == "--database-url" or a.startswith("--database-url=") for a in sys.argv[1:]) \
            or os.environ.get("ESRPDB_DATABASE_URL"):
        return None
    try:
        from ..db import embedded

        return embedded.disk_full()
    except Exception:  # noqa: BLE001 - the diagnosis must never hide the error it explains
        return None


def run(app) -> None:
    """Run the Typer app; an escaped exception prints one line and exits 1 unless --debug."""
    try:
        app(standalone_mode=True)
    except SystemExit:
        raise
    except KeyboardInterrupt:
        sys.stderr.write("Error: interrupted\n")
        raise SystemExit(130) from None
    except Exception as error:  # the net: every exception, whatever its type, becomes one line
        if "--debug" in sys.argv[1:]:
            raise
        sys.stderr.write(f"Error: {one_line(error)}\n")
        raise SystemExit(1) from None
