"""Start `postgres` itself, with its arguments as a list: no shell ever sees the data folder's path.

`pg_ctl start` runs the server through `/bin/sh -c "exec postgres -D \"<data folder>\" …"`, so a home
named `/tmp/x$(…)` had its command run by the server user's shell. Here the server is started as
pg_ctl would (its own session, output appended to the data folder's log) and waited for until its
pid file says it is ready.
"""

from __future__ import annotations

import os
import subprocess
import time
from pathlib import Path

from . import private_files

READY_TIMEOUT_S = 60.0
_started: list[subprocess.Popen] = []  # kept so each is reaped once it stops (never left a zombie)


class StartFailed(RuntimeError):
    """The server stopped, or was not ready in time; the log says why."""


def _open_log(log: Path, owner_uid: int) -> int:
    """The log, appended to, never through a link; the server's user owns it as when it wrote it itself."""
    fd = os.open(log, os.O_WRONLY | os.O_CREAT | os.O_APPEND | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
    if os.fstat(fd).st_uid != owner_uid:
        os.fchown(fd, owner_uid, -1)
    return fd


def start(binaries: Path, pgdata: Path, socket_dir: Path, owner_uid: int, **as_user) -> int:
    """Start the server on `pgdata` listening only on a socket in `socket_dir`; its pid once it is ready."""
    reap()
    command = [str(binaries / "postgres"), "-D", str(pgdata), "-h", "", "-k", str(socket_dir),
               "-c", "unix_socket_permissions=0700"]
    log = _open_log(pgdata / "log", owner_uid)
    try:
        process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=log, stderr=log,
                                   start_new_session=True, close_fds=True, cwd="/", **as_user)
    finally:
        os.close(log)
    _started.append(process)
    deadline = time.monotonic() + READY_TIMEOUT_S
    while time.monotonic() < deadline:
        postmaster = private_files.read_postmaster(pgdata)
        if postmaster is not None and postmaster.pid == process.pid and postmaster.status == "ready":
            return process.pid
        if process.poll() is not None:
            raise StartFailed(f"the server stopped (exit status {process.returncode})")
        time.sleep(0.02)
    process.terminate()
    raise StartFailed(f"the server was not ready within {READY_TIMEOUT_S:.0f} s")


def reap() -> None:
    """Collect the servers started here that have stopped since."""
    _started[:] = [process for process in _started if process.poll() is None]
