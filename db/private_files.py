"""The embedded server's files that decide who can reach it: auth files, socket folder, pid file.

Pure file-system work with no PostgreSQL connection, so each rule is testable on its own.
"""

from __future__ import annotations

import hashlib
import os
import stat
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from . import roles

SOCKET_NAME = ".s.PGSQL.5432"
# sun_path is 108 bytes on Linux (104 on macOS and the BSDs), the terminating NUL included.
MAX_SOCKET_PATH_BYTES = 107 if sys.platform.startswith("linux") else 103
IDENT_MAP = "esrpdb"
HBA_TEXT = (
    "# Written by esrpdb: Unix socket only, peer authentication mapped to one OS user (pg_ident.conf).\n"
    f"local all all peer map={IDENT_MAP}\n"
)


def _ident_text(os_user: str) -> str:
    lines = [f"{IDENT_MAP} {os_user} {role}" for role in (roles.ADMIN_ROLE, roles.OWNER_ROLE, roles.READER_ROLE)]
    return "# Written by esrpdb: only this operating-system user may connect, as these roles.\n" + "\n".join(lines) + "\n"


def _os_user() -> str:
    import pwd

    return pwd.getpwuid(os.geteuid()).pw_name


def auth_files_outdated(pgdata: Path) -> bool:
    try:
        return ((pgdata / "pg_hba.conf").read_text() != HBA_TEXT
                or (pgdata / "pg_ident.conf").read_text() != _ident_text(_os_user()))
    except OSError:
        return True


def write_auth_files(pgdata: Path, server_uid: int) -> bool:
    """Peer authentication for the invoking user only; returns True when a file changed."""
    changed = False
    for name, text in (("pg_hba.conf", HBA_TEXT), ("pg_ident.conf", _ident_text(_os_user()))):
        path = pgdata / name
        try:
            if path.read_text() == text:
                continue
        except OSError:
            pass
        path.write_text(text)
        path.chmod(0o600)
        if os.geteuid() != server_uid:
            os.chown(path, server_uid, -1)
        changed = True
    return changed


def socket_dir_for(pgdata: Path, server_uid: int) -> Path:
    """The data folder when its socket path fits, else a short private folder of the server user's."""
    if len(os.fsencode(pgdata / SOCKET_NAME)) <= MAX_SOCKET_PATH_BYTES:
        return pgdata
    digest = hashlib.sha256(os.fsencode(pgdata)).hexdigest()[:12]
    short = Path(tempfile.gettempdir()) / f"esrpdb-{server_uid}-{digest}"
    if len(os.fsencode(short / SOCKET_NAME)) > MAX_SOCKET_PATH_BYTES:
        raise OSError(f"no socket folder fits the {MAX_SOCKET_PATH_BYTES}-byte Unix socket path limit "
                      f"(tried {pgdata} and {short}); choose a shorter ESRPDB_HOME or TMPDIR")
    make_private_dir(short, server_uid)
    return short


def make_private_dir(path: Path, owner_uid: int) -> None:
    """Create `path` 0700 for `owner_uid`, or accept it only if it already is exactly that.

    A link, a file, a folder of someone else's or one others can enter is refused, never
    repaired: in a shared /tmp any of those may be another user's trap.
    """
    created = False
    try:
        os.mkdir(path, 0o700)
        created = True
    except FileExistsError:
        pass
    info = os.lstat(path)
    if stat.S_ISLNK(info.st_mode) or not stat.S_ISDIR(info.st_mode):
        raise OSError(f"{path} exists and is not a directory (a link or a file); remove it and retry")
    if created and info.st_uid != owner_uid:
        os.chown(path, owner_uid, -1)
        info = os.lstat(path)
    if info.st_uid != owner_uid or stat.S_IMODE(info.st_mode) != 0o700:
        raise OSError(f"{path} is not a private folder of uid {owner_uid} with mode 0700 "
                      f"(owner {info.st_uid}, mode {stat.S_IMODE(info.st_mode):o}); remove it and retry")


# A fallback only, where a process's working folder cannot be read (see is_live_postmaster).
START_TIME_TOLERANCE_S = 2


@dataclass(frozen=True)
class Postmaster:
    """What postmaster.pid says: the server's pid, start time, socket folder and state."""

    pid: int
    start_epoch_s: int
    socket_dir: Path | None
    status: str
    data_dir: Path | None = None  # the folder the server was started on (a copied home names the original's)

    def serves(self, pgdata: Path) -> bool:
        """This pid file is the server of `pgdata`, not of a folder it was copied from."""
        try:
            return self.data_dir is not None and self.data_dir.resolve() == pgdata.resolve()
        except OSError:
            return False


def read_postmaster(pgdata: Path) -> Postmaster | None:
    """None when there is no pid file or it is still being written."""
    try:
        lines = (pgdata / "postmaster.pid").read_text().splitlines()
        return Postmaster(pid=int(lines[0]), start_epoch_s=int(lines[2]),
                          socket_dir=Path(lines[4].strip()) if lines[4].strip() else None,
                          status=lines[7].strip() if len(lines) > 7 else "starting",
                          data_dir=Path(lines[1].strip()) if lines[1].strip() else None)
    except (OSError, ValueError, IndexError):
        return None


def is_private_dir(path: Path, owner_uid: int) -> bool:
    """A real folder (not a link) of `owner_uid` that nobody else can enter: safe to find a socket in."""
    try:
        info = os.lstat(path)
    except OSError:
        return False
    return (stat.S_ISDIR(info.st_mode) and info.st_uid == owner_uid
            and stat.S_IMODE(info.st_mode) & 0o077 == 0)


def is_live_postmaster(postmaster: Postmaster, pgdata: Path) -> bool:
    """The pid is alive *and* is this data folder's postgres.

    A pid from a crashed server can be reused by any other process. Its working folder tells them apart
    (postgres runs in its data folder; root and the server's own user can read it). Only where it cannot
    be read does the start time decide: psutil derives a process's start from the boot time, which moves
    when the wall clock is stepped or drifts (a clock that runs slow in a virtual machine put a live server
    15 minutes old 2 s off, and a start beside it deleted its pid file: the server shut itself down).
    A killed server not yet reaped (a zombie) is gone. A home copied with its pid file names another data
    folder: the copy's server is not running.
    """
    if not postmaster.serves(pgdata):
        return False
    told = _told_by_proc(postmaster.pid, pgdata)
    if told is not None:
        return told
    import psutil

    try:
        process = psutil.Process(postmaster.pid)
        name = process.name()
        started = process.create_time()
        if process.status() == psutil.STATUS_ZOMBIE:
            return False
    except (psutil.NoSuchProcess, psutil.AccessDenied, psutil.ZombieProcess):
        return False
    if not name.startswith("postgres"):
        return False
    try:
        return Path(process.cwd()).resolve() == pgdata.resolve()
    except (psutil.AccessDenied, psutil.ZombieProcess, psutil.NoSuchProcess, OSError):
        return abs(started - postmaster.start_epoch_s) <= START_TIME_TOLERANCE_S


def _told_by_proc(pid: int, pgdata: Path) -> bool | None:
    """What is_live_postmaster's psutil check says, from Linux's /proc alone (psutil's import was a fiftieth
    of a second of every command that finds its server running); None where /proc cannot tell (no /proc, a
    working folder this user may not read): psutil decides then, the start time included. The same facts
    as psutil reads them: the name in /proc/PID/stat (a name that starts with "postgres" whole or cut at
    15 characters), its state (Z: a zombie) and the working folder /proc/PID/cwd links to."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        with open(f"/proc/{pid}/stat", "rb") as file:
            line = file.read()
        cwd = os.readlink(f"/proc/{pid}/cwd")
    except FileNotFoundError:  # no such process (or a zombie: its working folder is gone with it)
        return False if os.path.isdir("/proc/self") else None
    except OSError:
        return None
    name, _, rest = line[line.find(b"(") + 1:].rpartition(b")")
    if rest[1:2] == b"Z" or not name.startswith(b"postgres"):
        return False
    if cwd.endswith(" (deleted)") and not os.path.exists(cwd):
        cwd = cwd[: -len(" (deleted)")]
    try:
        return Path(cwd).resolve() == pgdata.resolve()
    except OSError:
        return None


def accepts_connections(socket_dir: Path) -> bool:
    """A server listens on this folder's socket: whatever its pid file says, it is alive."""
    import socket

    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as probe:
        probe.settimeout(2.0)
        try:
            probe.connect(os.fsdecode(socket_dir / SOCKET_NAME))
        except OSError:
            return False
    return True


def remove_stale_postmaster(pgdata: Path) -> bool:
    """Delete a pid file whose server is gone (postgres refuses to start beside a live pid).

    Never one whose server still answers on its socket: a server whose pid file is deleted shuts itself
    down within a minute."""
    postmaster = read_postmaster(pgdata)
    path = pgdata / "postmaster.pid"
    if postmaster is None and not path.exists():
        return False
    if postmaster is not None and is_live_postmaster(postmaster, pgdata):
        return False
    if (postmaster is not None and postmaster.serves(pgdata) and postmaster.socket_dir is not None
            and accepts_connections(postmaster.socket_dir)):
        return False
    path.unlink(missing_ok=True)
    return True


def remove_stale_socket_locks(socket_dir: Path) -> None:
    """Socket files and their locks left in this data folder's own socket folder when no server of it
    runs: a crash leaves them, and a copied home carries the original's (whose pid is alive)."""
    if accepts_connections(socket_dir):
        return  # a live server's socket, whatever its pid file said
    for leftover in socket_dir.glob(".s.PGSQL.*"):
        leftover.unlink(missing_ok=True)
