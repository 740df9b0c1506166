"""Issue 24, item 5: a running server is tied to its data folder, and esrpdb uses only data folders
it made. A copy of a home (`cp -a`, pid file included) is not the original's server: it cannot
stop it, its commands never reach it, and it starts a server of its own."""

from __future__ import annotations

import os
import subprocess

import psycopg
import pytest

from esrpdb.db import embedded


def _database_of(server) -> str:
    with psycopg.connect(server.admin_url().replace("+psycopg", "")) as conn:
        return conn.execute("SHOW data_directory").fetchone()[0]


@pytest.mark.db  # starts an embedded server of its own
def test_a_copied_home_starts_its_own_server_and_cannot_stop_the_original(tmp_path):
    original, copy = tmp_path / "original", tmp_path / "copy"
    first = embedded.start(original)
    try:
        subprocess.run(["cp", "-a", str(original), str(copy)], check=True)
        assert not embedded.status(copy).running  # its pid file names the original's data folder
        assert embedded.ready_socket_dir(copy) is None  # so a quick `sql` cannot attach to the original
        assert embedded.stop(copy) is False and embedded.status(original).running
        second = embedded.start(copy)
        try:
            assert second.pid != first.pid and second.socket_dir != first.socket_dir
            assert _database_of(second) == str(copy / "pgdata")
            assert _database_of(first) == str(original / "pgdata")
        finally:
            embedded.stop(copy)
        assert embedded.status(original).running
    finally:
        embedded.stop(original)


@pytest.mark.db  # starts an embedded server of its own
def test_a_data_folder_that_is_a_link_or_someone_elses_is_refused(tmp_path):
    target = tmp_path / "target"
    target.mkdir()
    linked = tmp_path / "linked"
    linked.mkdir()
    (linked / "pgdata").symlink_to(target)
    with pytest.raises(embedded.ServerError, match="is a link"):
        embedded.start(linked)
    if os.geteuid() == 0:
        foreign = tmp_path / "foreign"
        (foreign / "pgdata").mkdir(parents=True)
        os.chown(foreign / "pgdata", 4242, 4242)
        with pytest.raises(embedded.ServerError, match="belongs to another user"):
            embedded.start(foreign)
        assert os.stat(foreign / "pgdata").st_uid == 4242
