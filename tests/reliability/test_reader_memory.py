"""Issue 49, item 2: a statement's memory is bounded whatever the session sets.

`work_mem` and `hash_mem_multiplier` are settings any role may `SET` (psql with the reader's URL): a hash
aggregate took a backend to 2 GB with no temporary file, a `string_agg` to 1.9 GB. The bound that holds is
the server's: each of its processes has a private-memory limit (RLIMIT_DATA) no session can lift, and past
it the statement fails with "out of memory" while the session and the server live on.

The bombs run on a private server started with a small limit (192 MB), so they stay small.
"""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

import psycopg
import pytest

from esrpdb.db import embedded, roles, server_process
from tests.helpers import plain, traversable

SMALL_LIMIT_BYTES = 192 * 2**20


def _data_limit_bytes(pid: int) -> int:
    for line in Path(f"/proc/{pid}/limits").read_text().splitlines():
        if line.startswith("Max data size"):
            return int(line.split()[3])
    raise AssertionError("no data limit line")


@pytest.mark.skipif(not Path("/proc/self/limits").exists(), reason="reads /proc")
def test_every_reader_backend_of_the_session_server_has_the_memory_limit(fresh_database_url, pg_server):
    from esrpdb.db.connection import derived_reader_url

    with psycopg.connect(plain(derived_reader_url(fresh_database_url))) as conn:
        conn.execute("set work_mem = '64GB'")  # allowed by PostgreSQL; changes nothing below
        pid = conn.execute("select pg_backend_pid()").fetchone()[0]
        assert _data_limit_bytes(pid) == server_process.BACKEND_MEMORY_LIMIT_BYTES
    assert _data_limit_bytes(pg_server.pid) == server_process.BACKEND_MEMORY_LIMIT_BYTES


@pytest.fixture(scope="module")
def small_memory_server():
    """A server of its own whose processes may each take 192 MB of private memory."""
    home = traversable(Path(tempfile.mkdtemp(prefix="esrpdb-memory-")))
    home.chmod(0o711)
    patch = pytest.MonkeyPatch()
    patch.setattr(server_process, "BACKEND_MEMORY_LIMIT_BYTES", SMALL_LIMIT_BYTES)
    try:
        server = embedded.start(home / "home")
        yield server
    finally:
        patch.undo()
        embedded.stop(home / "home")
        shutil.rmtree(home, ignore_errors=True)


BOMBS = {
    # 4 million groups of a hash aggregate held in memory: work_mem lifted, so nothing spills.
    "hash": "select count(*) from (select g::text as k, count(*) from generate_series(1, 4000000) as g "
            "group by 1) as s",
    # one value of 400 MB built in memory
    "string_agg": "select length(string_agg(repeat('x', 1000000), '')) from generate_series(1, 400)",
    # a sort of 4 million rows in memory
    "sort": "select count(*) from (select g::text || repeat('y', 40) as v from generate_series(1, 4000000) as g "
            "order by 1 offset 1) as s",
}


@pytest.mark.db  # starts an embedded server of its own
@pytest.mark.parametrize("bomb", list(BOMBS))
def test_a_reader_who_lifts_work_mem_is_stopped_at_the_limit(small_memory_server, bomb):
    reader = plain(small_memory_server.url_for(roles.READER_ROLE, "postgres"))
    with psycopg.connect(reader) as conn:
        conn.execute("set work_mem = '2GB'")
        conn.execute("set hash_mem_multiplier = 100")
        with pytest.raises(psycopg.errors.OutOfMemory):
            conn.execute(BOMBS[bomb])
        conn.rollback()
        assert conn.execute("select 1").fetchone() == (1,)  # the session lives on
    assert embedded.status(small_memory_server.home).running
    with psycopg.connect(plain(small_memory_server.admin_url())) as admin:
        assert admin.execute("select count(*) from pg_stat_activity").fetchone()[0] > 0


@pytest.mark.db
def test_a_bounded_statement_still_runs_under_the_limit(small_memory_server):
    reader = plain(small_memory_server.url_for(roles.READER_ROLE, "postgres"))
    with psycopg.connect(reader) as conn:
        assert conn.execute("select count(*) from (select g::text, count(*) from generate_series(1, 100000) as g "
                            "group by 1) as s").fetchone() == (100000,)
