"""Issue 49, item 3: one budget a document whatever process reads it; every reading process reaped by
its own pid, none outliving the ingest; a batch that always ends with its per-file table.

Before: a 120 s PDF cost 324 s in a batch (its reading worker stopped by the PDF's clock, an orphaned
helper holding the result pipe, then the batch read the PDF again); two such PDFs ended a batch with a
raw `ChildProcessError` (`Worker.result` waited on pid 0 after `stop()`, reaping another worker); after
`kill -9` of the ingest, 4 reading processes stayed CPU-bound for 182 s.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import psutil
import pytest

from esrpdb.ingest.parallel import forked, read_ahead
from esrpdb.ingest.parallel.forked import ForkFailed
from esrpdb.ingest.parallel.workers import Worker
from esrpdb.ingest.pdf import budget
from esrpdb.ingest.pipeline import ingest_paths
from tests.helpers import FIXTURES, child_pids
from tests.pdf_bombs import crowded_pdf, write

GOOD_REPORT = FIXTURES / "jetstress_html" / "seed001-md1220" / "Performance_2011_5_28_11_38_30.html"


def _end_by(item: int) -> None:  # runs in a worker: it stops mid-file, by a signal or by exiting
    if item:
        os.kill(os.getpid(), item)
    os._exit(3)


def test_each_worker_is_reaped_by_its_own_pid(tmp_path):
    """Two workers stopped mid-file: the first one's result must not reap the second (pid 0)."""
    first, second = Worker(_end_by), Worker(_end_by)
    first.send(int(signal.SIGKILL))
    second.send(0)
    for worker in (first, second):
        deadline = time.monotonic() + 10
        while not worker.finished():
            assert time.monotonic() < deadline
            time.sleep(0.01)
    time.sleep(0.2)  # both have ended: zombies waiting for their reaper
    with pytest.raises(ForkFailed, match="SIGKILL"):
        first.result()
    with pytest.raises(ForkFailed, match="the reading process stopped"):
        second.result()  # not ChildProcessError
    assert child_pids() == []


def test_a_stopped_forked_child_already_reaped_is_no_error():
    child = forked.start(time.sleep, 30)
    os.kill(child.pid, signal.SIGKILL)
    os.waitpid(child.pid, 0)  # someone else reaped it
    forked.abandon(child)
    assert child_pids() == []


@pytest.fixture
def slow_batch(tmp_path, monkeypatch):
    """Two PDFs past a 1 s time limit and a good report; each PDF's readings, in whatever process, noted in
    a file (one line a reading): a PDF whose reading spent its time is not read again."""
    if not forked.available():
        pytest.skip("reading ahead needs fork and two cores")
    monkeypatch.setattr(budget, "MAX_READ_SECONDS", 1.0)
    monkeypatch.setattr(read_ahead, "MIN_BYTES", 0)
    readings = tmp_path / "readings"
    unnoted = budget._read_in_child

    def noted(read, name, data):  # runs in the reading process, a worker or a bounded child
        with readings.open("a") as out:
            out.write(os.path.basename(name) + "\n")
        return unnoted(read, name, data)

    monkeypatch.setattr(budget, "_read_in_child", noted)
    folder = tmp_path / "batch"
    folder.mkdir()
    write(folder / "a-slow.pdf", crowded_pdf(2000, 20_000))
    write(folder / "b-slow.pdf", crowded_pdf(2000, 20_001))
    write(folder / "c-report.html", GOOD_REPORT.read_bytes())
    return folder, readings


@pytest.mark.db  # ingests into a database of its own
def test_two_pdfs_past_the_time_limit_fail_once_each_and_the_batch_ends_with_its_table(slow_batch, catalog):
    folder, readings = slow_batch
    outcomes = {os.path.basename(o.path): o for o in ingest_paths(catalog.engine, [folder])}
    assert sorted(outcomes) == ["a-slow.pdf", "b-slow.pdf", "c-report.html"]
    for name in ("a-slow.pdf", "b-slow.pdf"):
        assert outcomes[name].status == "failed"
        assert "took longer than 1 s" in outcomes[name].message and "MAX_READ_SECONDS" in outcomes[name].message
        assert str(folder / name) in outcomes[name].message and "\n" not in outcomes[name].message
    assert outcomes["c-report.html"].status == "loaded", outcomes["c-report.html"].message
    assert sorted(readings.read_text().split()) == ["a-slow.pdf", "b-slow.pdf"]  # one reading each
    assert child_pids() == []


@pytest.mark.db
def test_a_read_ahead_that_cannot_reap_still_ends_with_every_files_line(slow_batch, catalog, monkeypatch):
    folder, _ = slow_batch

    def lost(self, path):
        raise ChildProcessError(10, "No child processes")

    monkeypatch.setattr(read_ahead.ReadAhead, "drop", lost)
    outcomes = {os.path.basename(o.path): o.status for o in ingest_paths(catalog.engine, [folder])}
    assert outcomes == {"a-slow.pdf": "failed", "b-slow.pdf": "failed", "c-report.html": "loaded"}
    assert child_pids() == []


READING_FOREVER = """
import sys, time
from pathlib import Path
from esrpdb.ingest.parallel import read_ahead
from esrpdb.ingest.pdf import budget
from esrpdb.ingest.pipeline import read_file
read_ahead.MIN_BYTES = 0
budget.MAX_READ_SECONDS = 600.0
reader = read_ahead.ReadAhead(read_file, setup=budget.bound_this_process, clock=budget.pdf_clock)
reader.start([Path(p) for p in sys.argv[1:]])
print("reading", flush=True)
time.sleep(600)
"""


def test_kill_9_of_the_ingest_leaves_no_reading_process(tmp_path):
    if not forked.available():
        pytest.skip("reading ahead needs fork and two cores")
    pdfs = [write(tmp_path / f"slow{n}.pdf", crowded_pdf(2000, 20_000 + n)) for n in range(2)]
    ingest = subprocess.Popen([sys.executable, "-c", READING_FOREVER, *map(str, pdfs)], stdout=subprocess.PIPE,
                              text=True)
    try:
        assert ingest.stdout is not None and ingest.stdout.readline().strip() == "reading"
        deadline = time.monotonic() + 30
        readers: list[psutil.Process] = []
        while time.monotonic() < deadline:  # the workers, and the helpers they fork for a long PDF's second half
            readers = psutil.Process(ingest.pid).children(recursive=True)
            if len(readers) >= 3:
                break
            time.sleep(0.1)
        assert len(readers) >= 2, readers
    finally:
        ingest.send_signal(signal.SIGKILL)
        ingest.wait()
    gone, alive = psutil.wait_procs(readers, timeout=5)
    assert alive == [], [(p.pid, p.name()) for p in alive]
    assert len(gone) == len(readers)
