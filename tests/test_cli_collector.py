"""Issue 46 (one document in half a second): the cyclic collector is off while a command starts (`run`:
the imports' objects all live to the end) and back on once the command runs, with what start-up made
frozen out of later collections; a reading process forked meanwhile collects its own garbage."""

from __future__ import annotations

import gc
import sys
from pathlib import Path

import pytest

from esrpdb.cli import main, startup
from esrpdb.ingest.parallel import forked, read_ahead
from tests.helpers import child_pids

FIXTURE = (Path(__file__).resolve().parents[1] / "fixtures" / "jetstress_html" / "seed000-hp-eva4400"
           / "Performance_2008_9_18_11_31_40.html")


@pytest.fixture
def collector():
    """The test process's collector as it was, whatever the command did to it."""
    enabled = gc.isenabled()
    yield
    gc.unfreeze()
    if enabled:
        gc.enable()
    else:
        gc.disable()


def _run(monkeypatch, *argv: str) -> int:
    monkeypatch.setattr(sys, "argv", ["esrpdb", *argv])
    try:
        main.run()
    except SystemExit as done:
        return int(done.code or 0)
    return 0


def test_a_command_starts_with_the_collector_off_and_runs_with_it_on(collector, monkeypatch, capsys):
    seen: list[bool] = []
    real = startup.collector_on

    def on() -> None:
        seen.append(gc.isenabled())
        real()

    monkeypatch.setattr(startup, "collector_on", on)
    assert _run(monkeypatch, "parse", str(FIXTURE)) == 0
    assert seen == [False]  # off while the command started; turned on as the command begins
    assert gc.isenabled() and gc.get_freeze_count() > 0  # start-up's objects frozen out of later collections


def test_ingest_turns_the_collector_on_once_its_catalogue_is_open(collector, monkeypatch, fresh_database_url):
    assert _run(monkeypatch, "--database-url", fresh_database_url, "ingest", str(FIXTURE)) == 0
    assert gc.isenabled() and gc.get_freeze_count() > 0


def test_collector_on_leaves_a_running_collector_alone(collector):
    gc.enable()
    frozen = gc.get_freeze_count()
    startup.collector_on()
    assert gc.isenabled() and gc.get_freeze_count() == frozen  # a library caller's process is never frozen


def _collector_state(*_):  # runs in the child
    return gc.isenabled()


@pytest.mark.skipif(not forked.can_fork(), reason="needs fork")
def test_a_child_forked_while_the_collector_is_off_turns_its_own_on(collector):
    gc.disable()
    child = forked.start(_collector_state)
    assert forked.finished(child, 30)
    assert forked.result(child) is True
    assert not gc.isenabled()  # the parent's is left as it was


def _collector_then_garbage(*_):  # runs in the reading worker: its collector's state, then cycles left behind
    state = (gc.isenabled(), gc.get_count()[0])
    for _ in range(5000):
        cycle: list = []
        cycle.append(cycle)
    return state


@pytest.mark.skipif(not forked.available(), reason="reading ahead needs fork and two cores")
def test_a_reading_worker_collects_what_a_file_left_once_its_result_is_sent(collector, tmp_path, monkeypatch):
    """A reading worker (forked while the parent's start-up holds its collector off) keeps its own off while it
    reads, the file's reading being on the path `esrpdb ingest FILE` waits on, and collects what the file left
    once the result is sent (parallel/workers.py): the cycles one file made are gone when the next begins."""
    monkeypatch.setattr(read_ahead, "MIN_BYTES", 0)
    monkeypatch.setattr(read_ahead, "AHEAD", 1)
    pdfs = [tmp_path / f"{n}.pdf" for n in range(3)]
    for pdf in pdfs:
        pdf.write_bytes(b"%PDF-1.4\n")
    gc.disable()
    reader = read_ahead.ReadAhead(_collector_then_garbage)
    try:
        reader.start(pdfs)
        states = []
        for n, pdf in enumerate(pdfs):
            reader.start(pdfs[n + 1:])
            states.append(reader.take(pdf))
    finally:
        reader.close()
    assert child_pids() == []
    assert [enabled for enabled, _ in states] == [False, False, False]  # off while a file is read
    assert all(young < 5000 for _, young in states[1:]), states  # the 5,000 cycles of the file before: collected
