"""Issue 34, item 1: a home another local user prepared never runs that user's programs.

A second local user makes ESRPDB_HOME (or a folder in it) before root runs esrpdb there, with
`initdb`, `pg_ctl` and `postgres` as scripts where a copy of the server's binaries is looked for:
esrpdb refuses in one line naming the folder and its owner, and no script runs. A home whose name
holds `$(…)` is never handed to a shell.
"""

from __future__ import annotations

import os
import pwd
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from esrpdb.db import embedded, folder_owner, server_user
from tests.helpers import traversable

OTHER_USER = f"esrpdb_probe_{os.getpid()}"  # made for these tests, removed after; one a run (two suites at once)
FAKE_PROGRAMS = ("initdb", "pg_ctl", "postgres")

as_root = pytest.mark.skipif(os.geteuid() != 0, reason="a second local user can be made only as root")


@pytest.fixture(scope="module")
def other_user():
    if shutil.which("useradd") is None or shutil.which("userdel") is None:
        pytest.skip("useradd/userdel are not installed: no second local user can be made here")
    try:
        yield pwd.getpwnam(OTHER_USER)
        return
    except KeyError:
        pass
    made = subprocess.run(["useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin", OTHER_USER],
                          capture_output=True, text=True)
    if made.returncode != 0:
        pytest.skip(f"this machine refuses a second local user: {made.stderr.strip()}")
    try:
        yield pwd.getpwnam(OTHER_USER)
    finally:
        subprocess.run(["userdel", OTHER_USER], capture_output=True)


def _owned_by(path: Path, user) -> None:
    for folder, _, files in os.walk(path):
        os.chown(folder, user.pw_uid, user.pw_gid)
        for name in files:
            os.chown(Path(folder, name), user.pw_uid, user.pw_gid)


def _plant_programs(home: Path, marker: Path, user) -> Path:
    """What the other user leaves where esrpdb looks for its copy of the server's binaries."""
    bin_folder = server_user.copied_binaries(home)
    bin_folder.mkdir(parents=True)
    for name in FAKE_PROGRAMS:
        script = bin_folder / name
        script.write_text(f"#!/bin/sh\necho {name} >> '{marker}'\n")
        script.chmod(0o755)
    _owned_by(home / server_user.COPY_FOLDER, user)
    return bin_folder


@pytest.fixture
def marker(tmp_path) -> Path:
    folder = traversable(tmp_path) / "markers"
    folder.mkdir()
    folder.chmod(0o777)  # whoever runs a planted script could write here
    return folder / "ran"


@as_root
@pytest.mark.db  # would start an embedded server of its own
def test_a_home_another_user_made_is_refused_in_one_line_and_runs_none_of_its_programs(
        tmp_path, other_user, marker):
    home = traversable(tmp_path) / "home"
    home.mkdir()
    _plant_programs(home, marker, other_user)
    _owned_by(home, other_user)
    done = subprocess.run([sys.executable, "-m", "esrpdb.cli.main", "init"], capture_output=True, text=True,
                          env={**os.environ, "ESRPDB_HOME": str(home)}, timeout=120)
    assert done.returncode != 0
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert str(home) in lines[0] and OTHER_USER in lines[0]
    assert not marker.exists()
    assert not (home / "pgdata").exists()


@as_root
@pytest.mark.db  # would start an embedded server of its own
def test_a_folder_inside_roots_home_made_by_another_user_is_refused_naming_it(tmp_path, other_user, marker):
    home = traversable(tmp_path) / "home"
    home.mkdir(mode=0o755)
    _plant_programs(home, marker, other_user)
    with pytest.raises(embedded.ServerError) as refused:
        embedded.start(home)
    message = str(refused.value)
    assert str(home / server_user.COPY_FOLDER) in message and OTHER_USER in message and "\n" not in message
    assert not marker.exists()


@as_root
@pytest.mark.db  # would start an embedded server of its own
def test_a_copy_of_the_binaries_one_program_of_which_another_user_replaced_is_refused(tmp_path, other_user, marker):
    home = traversable(tmp_path) / "home"
    home.mkdir(mode=0o755)
    bin_folder = _plant_programs(home, marker, other_user)
    _owned_by(home / server_user.COPY_FOLDER, pwd.getpwuid(0))
    os.chown(bin_folder / "initdb", other_user.pw_uid, other_user.pw_gid)
    with pytest.raises(embedded.ServerError) as refused:
        embedded.start(home)
    assert str(bin_folder / "initdb") in str(refused.value) and OTHER_USER in str(refused.value)
    assert not marker.exists()


@as_root
@pytest.mark.db  # would start an embedded server of its own
def test_a_data_folder_another_user_made_is_refused_naming_them(tmp_path, other_user):
    home = traversable(tmp_path) / "home"
    (home / "pgdata").mkdir(parents=True)
    os.chown(home / "pgdata", other_user.pw_uid, other_user.pw_gid)
    with pytest.raises(embedded.ServerError) as refused:
        embedded.start(home)
    assert str(home / "pgdata") in str(refused.value) and OTHER_USER in str(refused.value)


@pytest.mark.db  # would start an embedded server of its own
def test_a_home_every_user_can_write_to_is_refused(tmp_path):
    home = traversable(tmp_path) / "home"
    home.mkdir()
    home.chmod(0o777)
    with pytest.raises(embedded.ServerError) as refused:
        embedded.start(home)
    assert str(home) in str(refused.value) and "every user" in str(refused.value)
    assert not (home / "pgdata").exists()


@pytest.mark.db  # starts an embedded server of its own
def test_command_substitution_in_the_home_is_never_run(tmp_path):
    marker = traversable(tmp_path) / "substituted"
    home = tmp_path / f"x$(touch {marker})"
    try:
        server = embedded.start(home)
        assert server.running
    finally:
        embedded.stop(home)
    assert not marker.exists()
    assert (home / "pgdata" / "PG_VERSION").is_file()  # the folder was taken as written


def test_the_home_is_never_expanded(monkeypatch, tmp_path):
    monkeypatch.setenv("ESRPDB_HOME", "~/esrpdb-$USER")
    monkeypatch.chdir(tmp_path)
    assert embedded.default_home() == tmp_path.resolve() / "~" / "esrpdb-$USER"


def test_a_binaries_folder_a_shell_would_expand_is_refused():
    assert folder_owner.shell_refusal(Path("/srv/esrpdb/postgresql/bin")) is None
    refused = folder_owner.shell_refusal(Path("/tmp/x$(id)/postgresql/bin"))
    assert refused is not None and "'$'" in refused and "\n" not in refused
