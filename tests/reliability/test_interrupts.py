"""Issue 26: Ctrl-C or SIGTERM during an ingest says what was committed and what was not, exits 130,
and leaves every file whole (loaded entirely or not at all); running again finishes the job."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest
from sqlalchemy import create_engine, text

from tests.helpers import FIXTURES

SAMPLE = FIXTURES / "perfmon" / "typeperf-sample.csv"
FILES = 300


def _ctrl_c_as_at_a_terminal() -> None:
    """A suite started in the background by a script inherits SIGINT ignored, and so would the command:
    it gets Ctrl-C's default, as a command typed at a terminal has."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _folder(tmp_path):
    folder = tmp_path / "exports"
    folder.mkdir()
    data = SAMPLE.read_bytes()
    for n in range(FILES):
        (folder / f"export-{n:03d}.csv").write_bytes(data + b"\n" * (n + 1))  # another file each time
    return folder


def _count(url: str, sql: str) -> int:
    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            return conn.execute(text(sql)).scalar_one()
    finally:
        engine.dispose()


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["ctrl-c", "sigterm"])
def test_an_interrupted_ingest_says_what_it_committed(fresh_database_url, tmp_path, signum):
    folder = _folder(tmp_path)
    process = _cli(fresh_database_url, "ingest", str(folder))
    engine = create_engine(fresh_database_url)
    with engine.connect() as holder:
        # Once a few files have committed, the next one is held mid-transaction (its perf_files insert
        # waits on the test's lock), so the signal lands inside the batch however fast the files load.
        deadline = time.monotonic() + 60
        while holder.execute(text("select count(*) from source_files")).scalar_one() < 5:
            holder.rollback()
            assert process.poll() is None and time.monotonic() < deadline, process.communicate()
            time.sleep(0.01)
        holder.execute(text("lock table perf_files in access exclusive mode"))
        _wait_for_lock_wait(fresh_database_url, process)
        process.send_signal(signum)
        time.sleep(0.2)  # the interrupt is raised in the waiting statement; the batch's tidy-up needs the table
        holder.rollback()
        _, stderr = process.communicate(timeout=60)
    engine.dispose()
    assert process.returncode == 130, stderr
    (line,) = [line for line in stderr.splitlines() if line.startswith("interrupted:")]
    loaded, other = int(line.split()[1]), int(line.split(", ")[1].split()[0])
    assert f"{FILES - loaded - other - 1} not started" in line and "run again" in line
    committed = _count(fresh_database_url, "select count(*) from source_files")
    assert committed in (loaded, loaded + 1)  # the file in hand: whole or not at all
    assert _count(fresh_database_url, "select count(*) from perf_files") == committed  # nothing half-written
    again = _cli(fresh_database_url, "ingest", str(folder), "--format", "json")
    _, again_stderr = again.communicate(timeout=300)
    assert again.returncode == 0, again_stderr
    assert _count(fresh_database_url, "select count(*) from source_files") == FILES


def _wait_for_lock_wait(url: str, process) -> None:
    """Until the command's statement waits on the lock the test holds (it is mid-transaction)."""
    deadline = time.monotonic() + 60
    sql = "select count(*) from pg_stat_activity where wait_event_type = 'Lock' and datname = current_database()"
    while _count(url, sql) == 0:
        assert process.poll() is None, process.communicate()
        assert time.monotonic() < deadline, "the command never reached the locked table"
        time.sleep(0.05)


def _cli(url: str, *args: str):
    env = {k: v for k, v in os.environ.items() if k != "ESRPDB_READER_URL"}
    return subprocess.Popen([sys.executable, "-m", "esrpdb.cli.main", "--database-url", url, *args], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=_ctrl_c_as_at_a_terminal)


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["ctrl-c", "sigterm"])
def test_an_interrupted_delete_deletes_nothing(fresh_database_url, signum):
    from esrpdb.ingest.pipeline import ingest_paths

    engine = create_engine(fresh_database_url)
    (outcome,) = ingest_paths(engine, [SAMPLE])
    assert outcome.status == "loaded", outcome.message
    before = _count(fresh_database_url, "select count(*) from source_files")
    with engine.connect() as holder:
        holder.execute(text("lock table perf_files in access exclusive mode"))  # the delete waits here
        process = _cli(fresh_database_url, "delete", SAMPLE.name)
        _wait_for_lock_wait(fresh_database_url, process)
        process.send_signal(signum)
        _, stderr = process.communicate(timeout=60)
        holder.rollback()
    engine.dispose()
    assert process.returncode == 130, stderr
    assert f"interrupted: nothing deleted ({SAMPLE.name} is as it was" in stderr
    assert _count(fresh_database_url, "select count(*) from source_files") == before == 1


def test_an_interrupted_site_build_leaves_out_as_it_was(fresh_database_url, tmp_path):
    out = tmp_path / "site"
    out.mkdir()
    (out / "index.html").write_text("the site that was there")
    engine = create_engine(fresh_database_url)
    with engine.connect() as holder:
        holder.execute(text("lock table solutions in access exclusive mode"))  # the build waits reading
        process = _cli(fresh_database_url, "site", str(out), "--force")
        _wait_for_lock_wait(fresh_database_url, process)
        process.send_signal(signal.SIGINT)
        _, stderr = process.communicate(timeout=60)
        holder.rollback()
    engine.dispose()
    assert process.returncode == 130, stderr
    assert f"interrupted: no site written; {out} is as it was" in stderr
    assert sorted(p.name for p in out.iterdir()) == ["index.html"]  # no staging folder left behind
    assert (out / "index.html").read_text() == "the site that was there"


def test_an_interrupt_that_comes_back_as_a_database_error_still_stops_the_batch(catalog, tmp_path):
    """Ctrl-C landing mid-query surfaces as the rollback's error ("another command is already in
    progress") with the interrupt as its context: it must stop the batch, not fail one file."""
    import types

    import psycopg

    from esrpdb.ingest.pipeline import ingest_paths

    def parse(name, data):
        try:
            raise KeyboardInterrupt
        except KeyboardInterrupt:
            raise psycopg.OperationalError("sending query failed: another command is already in progress")

    module = types.SimpleNamespace(FORMAT="interrupted", MAX_BYTES=1 << 20, identify=lambda name, head: True,
                                   parse=parse)
    files = tmp_path / "files"
    files.mkdir()
    for n in range(3):
        (files / f"{n}.txt").write_text("anything\n")
    with pytest.raises(KeyboardInterrupt):
        ingest_paths(catalog.engine, [files], modules=[module])
