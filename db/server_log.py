"""Why the embedded server stopped or would not start, read from its own log, in one line.

A full disk is the common case: PostgreSQL ends itself when it cannot write its journal, and
the next command only sees "recovery mode" or a failed `pg_ctl start`. The log says which.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

TAIL_BYTES = 64 * 1024
_FAILURE = re.compile(r"\b(?:FATAL|PANIC|ERROR):\s+(.*)$")
_READY = "database system is ready to accept connections"
NO_SPACE = "No space left on device"


def last_failure(log: Path) -> str | None:
    """The last FATAL/PANIC/ERROR message since the server was last ready, or None."""
    try:
        with log.open("rb") as stream:
            stream.seek(max(stream.seek(0, 2) - TAIL_BYTES, 0))
            tail = stream.read().decode("utf-8", "replace").splitlines()
    except OSError:
        return None
    since_ready = tail[max((n for n, line in enumerate(tail) if _READY in line), default=-1) + 1:]
    failures = [match.group(1).strip() for line in since_ready if (match := _FAILURE.search(line))]
    disk_full = [failure for failure in failures if NO_SPACE in failure]
    return (disk_full or failures or [None])[-1]


def disk_full(pgdata: Path) -> str | None:
    """One line when the server's log says its disk filled up since it was last ready, else None."""
    return _disk_full(pgdata, last_failure(pgdata / "log"))


def _disk_full(pgdata: Path, failure: str | None) -> str | None:
    if failure is None or NO_SPACE not in failure:
        return None
    try:
        free = f"{shutil.disk_usage(pgdata).free / 2**20:,.0f} MB free there now"
    except OSError:
        free = "free space unknown"
    return (f"no space left on device for the database server's data in {pgdata} ({free}): free some space "
            f"on that disk and run the command again; the server restarts by itself (its log: {failure})")


def start_failure(pgdata: Path) -> str:
    """Why `pg_ctl start` failed, for its error line."""
    failure = last_failure(pgdata / "log")
    full = _disk_full(pgdata, failure)
    if full:
        return full
    return f"the server's log says: {failure}" if failure else f"see {pgdata / 'log'}"
