"""Start `postgres` itself, with its arguments as a list: no shell ever sees the data folder's path.

`pg_ctl start` runs the server through `/bin/sh -c "exec postgres -D \"<data folder>\" …"`, so a home
named `/tmp/x$(…)` had its command run by the server user's shell. Here the server is started as
pg_ctl would (its own session, output appended to the data folder's log) and waited for until its
pid file says it is ready.
"""

from __future__ import annotations

import os
import signal
import subprocess
import time
from pathlib import Path

from . import private_files

READY_TIMEOUT_S = 60.0
# NOTIFY is a statement, not a function to revoke: a session that listens and never reads holds the
# notification queue, which others' NOTIFYs then fill (8 GB by default). 8,192 pages of 8 kB: 64 MB.
NOTIFY_QUEUE_PAGES = 8192
# Private memory of each server process (RLIMIT_DATA, inherited by every backend the server forks): the
# one bound on a statement's memory no session can lift. `work_mem` is a setting any role may `SET` (psql
# with the reader's URL: a hash of 2 GB, a `string_agg` of 1.9 GB); past this a statement fails with "out
# of memory" and its session lives on. Shared memory (shared_buffers) is not counted. 1 GiB: PostgreSQL's
# largest single value, and far more than an ingest's statements take; the reader's 4 sessions, 4 GiB.
BACKEND_MEMORY_LIMIT_BYTES = 2**30


class StartFailed(RuntimeError):
    """The server stopped, or was not ready in time; the log says why."""


def _open_log(log: Path, owner_uid: int) -> int:
    """The log, appended to, never through a link; the server's user owns it as when it wrote it itself."""
    fd = os.open(log, os.O_WRONLY | os.O_CREAT | os.O_APPEND | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
    if os.fstat(fd).st_uid != owner_uid:
        os.fchown(fd, owner_uid, -1)
    return fd


def _spawn_detached(command: list[str], log: int, as_user: dict) -> int:
    """The server's pid, started by a short-lived child so that it is nobody's child here (as pg_ctl does):
    it outlives the command, and no process of esrpdb's, a test's included, is left with it to reap."""
    reading, writing = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the intermediate child
        try:
            os.close(reading)
            _bound_memory(BACKEND_MEMORY_LIMIT_BYTES)
            process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=log, stderr=log,
                                       start_new_session=True, close_fds=True, cwd="/", **as_user)
            os.write(writing, str(process.pid).encode())
        finally:
            os._exit(0)
    os.close(writing)
    with os.fdopen(reading, "rb") as source:
        written = source.read()
    os.waitpid(pid, 0)
    if not written:
        raise StartFailed(f"{command[0]} could not be run")
    return int(written)


def _bound_memory(limit_bytes: int) -> None:  # pragma: no cover - runs in the intermediate child
    """Soft and hard limit alike: the server, and every process it forks, inherits it and cannot raise it."""
    import resource

    resource.setrlimit(resource.RLIMIT_DATA, (limit_bytes, limit_bytes))


def _alive(pid: int) -> bool:
    import psutil

    try:
        return psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
    except (psutil.NoSuchProcess, psutil.ZombieProcess):
        return False


def start(binaries: Path, pgdata: Path, socket_dir: Path, owner_uid: int, **as_user) -> int:
    """Start the server on `pgdata` listening only on a socket in `socket_dir`; its pid once it is ready."""
    command = [str(binaries / "postgres"), "-D", str(pgdata), "-h", "", "-k", str(socket_dir),
               "-c", "unix_socket_permissions=0700", "-c", f"max_notify_queue_pages={NOTIFY_QUEUE_PAGES}"]
    log = _open_log(pgdata / "log", owner_uid)
    try:
        pid = _spawn_detached(command, log, as_user)
    finally:
        os.close(log)
    deadline = time.monotonic() + READY_TIMEOUT_S
    while time.monotonic() < deadline:
        postmaster = private_files.read_postmaster(pgdata)
        if postmaster is not None and postmaster.pid == pid and postmaster.status == "ready":
            return pid
        if not _alive(pid):
            raise StartFailed("the server stopped while starting")
        time.sleep(0.02)
    os.kill(pid, signal.SIGTERM)
    raise StartFailed(f"the server was not ready within {READY_TIMEOUT_S:.0f} s")
