"""Issue 23 (speed): the next PDFs of a batch are read in forked processes while the current file is
written. The catalogue must be the one a file-by-file load gives, a failure must read as it always
did, a file changed after its read began is read again, and no child outlives the batch."""

from __future__ import annotations

import os
import time

import pytest

from esrpdb.ingest.parallel import forked, read_ahead
from esrpdb.ingest.pipeline import ingest_paths, read_file
from tests.helpers import REPORT_PAGES, child_pids, make_pdf

pytestmark = pytest.mark.skipif(not forked.available(), reason="reading ahead needs fork and two cores")


def _renamed(machine: str) -> list:
    return [[[(x, text.replace("PDF-MBX01", machine)) for x, text in row] if row else row for row in page]
            for page in REPORT_PAGES]


@pytest.fixture
def pdfs(tmp_path, monkeypatch):
    """Three small synthetic report PDFs (tests/test_pdf_text.py's layout, one machine each) and a damaged
    fourth; read ahead whatever their size."""
    monkeypatch.setattr(read_ahead, "MIN_BYTES", 0)
    folder = tmp_path / "pdfs"
    folder.mkdir()
    for n in range(3):
        (folder / f"{n}-report.pdf").write_bytes(make_pdf(_renamed(f"MBX-{n}")))
    (folder / "3-damaged.pdf").write_bytes(make_pdf(_renamed("MBX-3"))[:400])
    return folder


def _catalogue(engine) -> list[tuple]:
    """Runs and their solutions, and each file's content fingerprint (made in the child, which pipes no lines)."""
    from sqlalchemy import text

    with engine.connect() as conn:
        return conn.execute(text("select r.machine_name, r.achieved_iops, s.key, f.content_fingerprint from runs r "
                                 "left join solutions s on s.id = r.solution_id "
                                 "join run_sources rs on rs.run_id = r.id "
                                 "join source_files f on f.id = rs.source_file_id order by 1")).all()


def test_a_batch_read_ahead_gives_the_catalogue_of_files_read_one_by_one(pdfs, catalog, empty_database_url,
                                                                         monkeypatch):
    from esrpdb.db.catalog import open_catalog

    ahead = ingest_paths(catalog.engine, [pdfs])
    assert [o.status for o in ahead] == ["loaded", "loaded", "loaded", "failed"]
    assert child_pids() == []
    monkeypatch.setattr(forked, "available", lambda: False)
    inline = open_catalog(empty_database_url)
    try:
        assert [o.status for o in ingest_paths(inline.engine, [pdfs])] == [o.status for o in ahead]
        assert _catalogue(inline.engine) == _catalogue(catalog.engine)
        assert len(_catalogue(catalog.engine)) == 3
    finally:
        inline.close()


def test_a_failure_reads_the_same_with_and_without_reading_ahead(pdfs, catalog, monkeypatch):
    damaged = pdfs / "3-damaged.pdf"
    (read_ahead_outcome,) = [o for o in ingest_paths(catalog.engine, [pdfs]) if o.path == str(damaged)]
    monkeypatch.setattr(forked, "available", lambda: False)
    (inline,) = ingest_paths(catalog.engine, [damaged])
    assert read_ahead_outcome.status == inline.status == "failed"
    assert read_ahead_outcome.message == inline.message


def test_a_file_changed_after_its_read_began_is_read_again(pdfs, tmp_path):
    path = pdfs / "1-report.pdf"
    reader = read_ahead.ReadAhead(read_file)
    reader.start([path])
    os.utime(path, ns=(1, 1))  # touched meanwhile: what the child read may be stale
    assert reader.take(path) is None
    reader.start([path])
    document = reader.take(path)
    assert document is not None and document.document.reports[0].machine_name == "MBX-1"
    reader.close()
    assert child_pids() == []


def test_children_whose_results_are_not_wanted_are_stopped(pdfs):
    reader = read_ahead.ReadAhead(read_file)
    reader.start(sorted(pdfs.iterdir()))
    assert child_pids()  # reading
    reader.close()
    assert child_pids() == []


def test_a_reading_whose_file_was_skipped_is_given_up_and_frees_its_slot(pdfs, catalog):
    """A batch run again: every PDF is skipped before its parse, so no reading is ever taken; each is
    stopped when its file's turn passes, and none holds a slot the next files need."""
    assert {o.status for o in ingest_paths(catalog.engine, [pdfs])} == {"loaded", "failed"}
    again = ingest_paths(catalog.engine, [pdfs])
    assert [o.status for o in again] == ["skipped", "skipped", "skipped", "failed"]
    assert child_pids() == []
    reader = read_ahead.ReadAhead(read_file)
    reader.start(sorted(pdfs.iterdir()))
    started = len(child_pids())
    for path in sorted(pdfs.iterdir()):
        reader.drop(path)
    assert started and child_pids() == []


def _nice(pid: int) -> int:
    with open(f"/proc/{pid}/stat", encoding="utf-8") as stat:
        return int(stat.read().rsplit(")", 1)[1].split()[16])  # field 19 of stat: nice


def test_a_reading_behind_a_larger_one_runs_at_the_lowest_priority(tmp_path, monkeypatch):
    """The batch ends when its longest reading ends: that one keeps the writer's priority, a smaller
    PDF read beside it takes only what it leaves idle (nice 19) — unless it is the PDF the writer needs
    next, which the writer would then wait for at the lowest priority."""
    monkeypatch.setattr(read_ahead, "MIN_BYTES", 0)
    monkeypatch.setattr(read_ahead, "AHEAD", 3)
    following, small, large = tmp_path / "0-next.pdf", tmp_path / "1-small.pdf", tmp_path / "2-large.pdf"
    following.write_bytes(make_pdf(_renamed("MBX-N")))
    small.write_bytes(make_pdf(_renamed("MBX-S")))
    large.write_bytes(make_pdf(_renamed("MBX-L") * 40))
    reader = read_ahead.ReadAhead(read_file)
    try:
        reader.start([following, small, large])
        children = {path: child.pid for path, (_, child) in reader._reading.items()}
        assert set(children) == {following, small, large}
        mine = os.getpriority(os.PRIO_PROCESS, 0)
        assert _nice(children[large]) == mine
        assert _nice(children[following]) == mine  # smaller than `large`, but the writer's next
        assert _nice(children[small]) == 19
        assert reader.take(following).document.reports[0].machine_name == "MBX-N"
        assert reader.take(small).document.reports[0].machine_name == "MBX-S"  # slower to start, read all the same
        assert reader.take(large) is not None
    finally:
        reader.close()
    assert child_pids() == []


def test_a_finished_reading_frees_its_slot_for_the_next_pdf(pdfs, monkeypatch):
    """A result waiting for its turn holds no core: the next PDF starts reading meanwhile (a folder of
    similar PDFs kept the writer reading the smaller ones alone while the larger ones' results waited)."""
    import time

    monkeypatch.setattr(read_ahead, "AHEAD", 1)
    first, second = pdfs / "0-report.pdf", pdfs / "1-report.pdf"
    reader = read_ahead.ReadAhead(read_file)
    try:
        reader.start([first, second])
        assert set(reader._reading) == {first} or set(reader._reading) == {second}
        started = next(iter(reader._reading))
        waiting = second if started == first else first
        child = reader._reading[started][1]
        deadline = time.monotonic() + 30
        while not forked.finished(child) and time.monotonic() < deadline:
            time.sleep(0.01)
        reader.start([first, second])
        assert set(reader._reading) == {waiting} and set(reader._read) == {started}
        assert len(child_pids()) == 1  # the finished child was reaped when its result was collected
        assert reader.take(started).document.reports[0].machine_name == f"MBX-{started.name[0]}"
        assert reader.take(waiting).document.reports[0].machine_name == f"MBX-{waiting.name[0]}"
    finally:
        reader.close()
    assert child_pids() == []


def _slow_name(path):  # runs in the child: a reading that surely outlasts the parent's next step
    import time

    time.sleep(0.4)
    return path.name


def test_the_next_pdf_the_writer_needs_is_read_first_and_a_wait_refills_the_slots(tmp_path, monkeypatch):
    """Files are written in order: the next one is started before larger ones further down (else the
    writer reads it itself and sets the pace), and while the writer waits for it a slot freed by it goes
    to the next upcoming PDF at once."""
    monkeypatch.setattr(read_ahead, "MIN_BYTES", 0)
    monkeypatch.setattr(read_ahead, "AHEAD", 1)
    small, large = tmp_path / "0-small.pdf", tmp_path / "1-large.pdf"
    small.write_bytes(make_pdf(_renamed("MBX-S")))
    large.write_bytes(make_pdf(_renamed("MBX-L") * 40))
    reader = read_ahead.ReadAhead(_slow_name)
    try:
        reader.start([small, large])
        assert set(reader._reading) == {small}  # the largest-first rule alone would have chosen `large`
        assert reader.take(small) == small.name
        assert set(reader._reading) == {large}  # started while the writer waited, not at its next start()
        assert reader.take(large) == large.name
    finally:
        reader.close()
    assert child_pids() == []


def test_a_batch_run_again_reads_nothing_ahead_and_hashes_each_file_once(pdfs, catalog, monkeypatch):
    """The files the catalogue holds already are asked for by content before any is read ahead: a folder
    ingested again starts no reading process (it started and stopped one a file), and the hash asked with
    is the one the writer uses (each file hashed once)."""
    from esrpdb.ingest.load import known_files

    ingest_paths(catalog.engine, [pdfs])
    hashed = []
    real_sha256 = known_files.sha256_of
    monkeypatch.setattr(known_files, "sha256_of",
                        lambda path, identity=None: hashed.append(path.name) or real_sha256(path, identity))

    read = []
    real_worker = read_ahead.ReadAhead._worker
    monkeypatch.setattr(read_ahead.ReadAhead, "_worker", lambda self, path: read.append(path.name) or real_worker(self, path))
    again = ingest_paths(catalog.engine, [pdfs])
    assert [o.status for o in again] == ["skipped", "skipped", "skipped", "failed"]
    assert read == ["3-damaged.pdf"]  # the one file that failed, and so is not in the catalogue
    assert sorted(hashed) == sorted(p.name for p in pdfs.iterdir())


def test_the_writer_s_own_preparation_runs_once_while_it_waits_and_never_when_it_need_not(tmp_path, monkeypatch):
    """ReadAhead.meanwhile: psycopg's warm-up (db/sessions.py) takes the time the writer would sit idle, once;
    a reading already done when the writer comes for it costs the writer nothing more."""
    monkeypatch.setattr(read_ahead, "MIN_BYTES", 0)
    monkeypatch.setattr(read_ahead, "AHEAD", 2)
    first, second = tmp_path / "0-first.pdf", tmp_path / "1-second.pdf"
    first.write_bytes(make_pdf(_renamed("MBX-F")))
    second.write_bytes(make_pdf(_renamed("MBX-S")))
    ran: list[bool] = []
    reader = read_ahead.ReadAhead(_slow_name)
    try:
        reader.start([first, second])
        reader.meanwhile(lambda: ran.append(reader._reading[first][1].finished()))
        assert reader.take(first) == first.name
        assert ran == [False]  # it ran while the reading was still going on
        assert reader.take(second) == second.name
        assert ran == [False]  # once only
    finally:
        reader.close()
    done = read_ahead.ReadAhead(read_file)
    try:
        done.start([first])
        while not done._reading[first][1].finished():
            time.sleep(0.01)
        done.meanwhile(lambda: ran.append(True))
        assert done.take(first).document.reports[0].machine_name == "MBX-F"
        assert ran == [False]  # the reading was done: nothing to wait for, nothing run
    finally:
        done.close()
    assert child_pids() == []
