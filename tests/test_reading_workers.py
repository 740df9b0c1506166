"""Issue 36 (speed): a batch's PDFs are read by workers forked once, not by a process a PDF. A worker
reads file after file within each file's own budget; one that stops mid-file gives that file no result
and is replaced; it leaves after MAX_FILES files or once its data has grown, and with the batch."""

from __future__ import annotations

import mmap
import os
import time

import pytest

from esrpdb.ingest.parallel import forked, read_ahead, workers
from esrpdb.ingest.pdf import budget
from tests.helpers import child_pids

pytestmark = pytest.mark.skipif(not forked.available(), reason="reading ahead needs fork and two cores")


def _pid(path):  # runs in the worker
    return os.getpid(), path.name


def _slow(path):  # runs in the worker: a reading that takes `path`'s stem in tenths of a second
    time.sleep(int(path.stem.split("-")[1]) / 10)
    return os.getpid()


_kept: list[mmap.mmap] = []


def _hoard(path):  # runs in the worker: what a leaky reading leaves behind, in a private mapping of its own
    kept = mmap.mmap(-1, 8 * 2**20, flags=mmap.MAP_PRIVATE)  # (the inherited heap may hold 8 MB free, not grow)
    kept.write(b"x" * len(kept))
    _kept.append(kept)
    return os.getpid()


@pytest.fixture
def files(tmp_path, monkeypatch):
    """Five PDF-looking files, read ahead whatever their size."""
    monkeypatch.setattr(read_ahead, "MIN_BYTES", 0)
    made = []
    for n in range(5):
        path = tmp_path / f"{n}-3.pdf"
        path.write_bytes(b"%PDF-1.4\n" + bytes(n))
        made.append(path)
    return made


def _read_all(work, files, **options) -> list:
    """Every file read ahead and taken in the batch's order (the readings started as ingest_paths starts
    them), by one reading slot; no reading process is left after."""
    reader = read_ahead.ReadAhead(work, **options)
    try:
        reader.start(files)
        taken = []
        for n, path in enumerate(files):
            reader.start(files[n + 1:])
            taken.append(reader.take(path))
    finally:
        reader.close()
    assert child_pids() == []
    return taken


def test_one_worker_reads_file_after_file(files, monkeypatch):
    monkeypatch.setattr(read_ahead, "AHEAD", 1)
    taken = _read_all(_pid, files)
    assert [name for _, name in taken] == [path.name for path in files]
    assert len({pid for pid, _ in taken}) == 1 and taken[0][0] != os.getpid()


def test_a_worker_leaves_after_its_files_and_another_reads_on(files, monkeypatch):
    monkeypatch.setattr(read_ahead, "AHEAD", 1)
    monkeypatch.setattr(workers, "MAX_FILES", 2)
    pids = [pid for pid, _ in _read_all(_pid, files)]
    assert pids[0] == pids[1] != pids[2] == pids[3] != pids[4]


def test_a_worker_whose_data_grows_leaves(files, monkeypatch):
    monkeypatch.setattr(read_ahead, "AHEAD", 1)
    monkeypatch.setattr(workers, "MAX_GROWTH_BYTES", 4 * 2**20)
    pids = _read_all(_hoard, files)
    assert len(set(pids)) == len(files)  # 8 MB kept each time: no worker reads a second file


def test_each_pdf_has_its_own_time_limit_in_a_worker(tmp_path, monkeypatch):
    """Three readings of 0.6 s each in one worker with a limit of 1 s (its alarm is the limit plus one
    second): none is stopped, since the clock starts again with each file; a reading of 2.5 s is."""
    monkeypatch.setattr(read_ahead, "MIN_BYTES", 0)
    monkeypatch.setattr(read_ahead, "AHEAD", 1)
    monkeypatch.setattr(budget, "MAX_READ_SECONDS", 1.0)
    files = []
    for n, tenths in enumerate((6, 6, 6, 25, 1)):
        path = tmp_path / f"{n}-{tenths}.pdf"
        path.write_bytes(b"%PDF-1.4\n")
        files.append(path)
    pids = _read_all(_slow, files, clock=budget.pdf_clock)
    assert pids[0] == pids[1] == pids[2]  # one worker read the three
    assert pids[3] is None  # stopped by its clock: no result (the writer reads it in a bounded child)
    assert pids[4] is not None and pids[4] != pids[0]  # a new worker read the next


def test_a_stopped_worker_is_replaced_and_none_outlives_the_batch(files, monkeypatch):
    monkeypatch.setattr(read_ahead, "AHEAD", 1)
    reader = read_ahead.ReadAhead(_pid)
    try:
        reader.start(files[:1])
        (worker,) = [reading for _, reading in reader._reading.values()]
        os.kill(worker.pid, 9)
        assert reader.take(files[0]) is None  # its file is read by the writer
        reader.start(files[1:2])
        assert reader.take(files[1])[0] not in (worker.pid, os.getpid())
    finally:
        reader.close()
    assert child_pids() == []


def test_a_worker_leaves_when_its_parent_closes_the_pipe(tmp_path):
    worker = workers.Worker(_pid)
    worker.send(tmp_path / "a.pdf")
    assert worker.result()[0] == worker.pid
    worker._requests.close()  # as when the parent goes
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and not os.waitpid(worker.pid, os.WNOHANG)[0]:
        time.sleep(0.01)
    assert worker.pid not in child_pids()
