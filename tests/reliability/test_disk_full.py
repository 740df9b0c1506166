"""Issue 24, item 10: a full disk under the embedded server is named as one ("no space left on
device", where, how much is free), not "recovery mode" or a `pg_ctl` dump; once space is freed,
the next command restarts the server and the catalogue is whole.

Needs a small tmpfs of its own (root, a mount the machine allows); skipped elsewhere. Small by
design: a disk some 30 MB larger than a fresh catalogue, filled by one synthetic perfmon export.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from datetime import datetime, timedelta

import pytest

from esrpdb.db import embedded
from esrpdb.db.server_log import last_failure
from tests.helpers import FIXTURES

HEADROOM_MB = 30


def _mount(point, size_mb: int, *options: str) -> bool:
    return subprocess.run(["mount", "-t", "tmpfs", "-o", ",".join([f"size={size_mb}m", "mode=0711", *options]),
                           "tmpfs", str(point)], capture_output=True).returncode == 0


@pytest.fixture
def small_disk(tmp_path):
    if os.geteuid() != 0 or shutil.which("mount") is None:
        pytest.skip("a tmpfs of its own needs root")
    point = tmp_path / "disk"
    point.mkdir()
    if not _mount(point, 400):
        pytest.skip("this machine allows no tmpfs mount")
    try:
        yield point
    finally:
        embedded.stop(point / "home")
        subprocess.run(["umount", "-l", str(point)], check=False)


def _export(path, megabytes: int):
    """Synthetic (from the typeperf sample's layout): 40 disk counters, one row a second."""
    start = datetime(2008, 10, 5, 21, 14, 21)
    header = '"(PDH-CSV 4.0)"' + "".join(f',"\\\\SERVER\\PhysicalDisk({i})\\Disk Transfers/sec"' for i in range(40))
    with path.open("w", encoding="utf-8") as out:
        out.write(header + "\n")
        n = 0
        while out.tell() < megabytes * 2**20:
            stamp = (start + timedelta(seconds=n)).strftime("%m/%d/%Y %H:%M:%S.000")
            out.write(f'"{stamp}"' + "".join(f',"{(n * i) % 1000 / 7:.6f}"' for i in range(40)) + "\n")
            n += 1
    return path


def _esrpdb(home, *args):
    env = {k: v for k, v in os.environ.items() if not k.startswith("ESRPDB_")} | {"ESRPDB_HOME": str(home)}
    return subprocess.run([sys.executable, "-m", "esrpdb.cli.main", *args], env=env, capture_output=True,
                          text=True, timeout=300)


@pytest.mark.db  # starts an embedded server of its own
def test_a_full_disk_is_named_and_the_catalogue_comes_back_when_space_is_freed(small_disk, tmp_path):
    home = small_disk / "home"
    assert _esrpdb(home, "init").returncode == 0
    used_mb = shutil.disk_usage(small_disk).used // 2**20
    subprocess.run(["mount", "-o", f"remount,size={used_mb + HEADROOM_MB}m", str(small_disk)], check=True)
    loaded = _esrpdb(home, "ingest", str(FIXTURES / "perfmon" / "typeperf-sample.csv"))
    assert loaded.returncode == 0, loaded.stderr

    filled = _esrpdb(home, "ingest", str(_export(tmp_path / "big.csv", 2 * HEADROOM_MB)))
    assert filled.returncode == 1
    assert "no space left on device" in filled.stderr and str(home / "pgdata") in filled.stderr, filled.stderr
    assert "failed" in filled.stdout

    after = _esrpdb(home, "solutions")  # the server may have ended itself (no room for its journal) or not
    if after.returncode != 0:
        (line,) = after.stderr.splitlines()
        assert "no space left on device" in line and "MB free" in line and "recovery mode" not in line, line
    assert "No space left on device" in (last_failure(home / "pgdata" / "log") or "")

    subprocess.run(["mount", "-o", "remount,size=400m", str(small_disk)], check=True)
    files = _esrpdb(home, "sql", "select count(*) as files from source_files", "--format", "csv")
    assert files.returncode == 0, files.stderr
    assert files.stdout.split() == ["files", "1"]  # the committed file is whole; the big one left nothing


def test_the_log_reason_is_the_last_failure_since_the_server_was_ready(tmp_path):
    log = tmp_path / "log"
    stamp = "2026-11-25 16:03:38.258 UTC [10887]"
    log.write_text(f"{stamp} FATAL:  could not write to file \"pg_wal/x\": No space left on device\n"
                   f"{stamp} LOG:  database system is ready to accept connections\n", encoding="utf-8")
    assert last_failure(log) is None  # it failed once, then came back
    with log.open("a", encoding="utf-8") as out:
        out.write(f"{stamp} PANIC:  could not write to file \"pg_wal/xlogtemp.1\": No space left on device\n"
                  f"{stamp} FATAL:  the database system is in recovery mode\n")
    assert last_failure(log) == 'could not write to file "pg_wal/xlogtemp.1": No space left on device'
    assert last_failure(tmp_path / "missing") is None
