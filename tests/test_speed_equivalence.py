"""Issue 36: the catalogue from a folder of printed documents is the same with and without the speed paths.

The folder is benchmarks/bench_archive.py's kind, small: the seeds and the synthetic documents printed
by Chromium as a word processor lays them out, one of them in two columns, each large enough to be read
ahead. Ingested once as `esrpdb ingest FOLDER` runs it (PDFs read ahead in forked children, each
within the reading budget by itself, a long PDF split across two processes) and once one file after
another in this process (no read-ahead, no split), every table's rows must be equal, ids aside.
The drafting changes made for speed are held by the drafting and unattended tests, which read the
same documents.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

import pytest

from esrpdb.db.catalog import open_catalog
from esrpdb.ingest.parallel import forked, read_ahead
from esrpdb.ingest.pipeline import ingest_paths
from tests.catalogue_rows import catalogue_rows
from tests.helpers import FIXTURES, TEMPLATE, chromium, scratch_database

SOURCES = [*sorted((FIXTURES / "documents").glob("0*.txt")), *sorted((FIXTURES / "synthetic_documents").glob("*.txt"))]


@pytest.fixture(scope="module")
def printed_folder(tmp_path_factory):
    if chromium() is None:
        pytest.skip("Chromium prints the documents (apt-get install chromium)")
    from tests.pdf_renderings import print_pdf, seed_html

    folder = tmp_path_factory.mktemp("printed")
    for n, source in enumerate(SOURCES):
        print_pdf(seed_html(source.read_text(encoding="utf-8"), title=source.stem, two_columns=n == 1),
                  folder / f"{n:02d}-{source.stem}.pdf")
    return folder


def _count_takes(monkeypatch) -> list[bool]:
    """Whether each file the batch asked the read-ahead for came back read (True) or was read by the batch."""
    taken: list[bool] = []
    original_take = read_ahead.ReadAhead.take

    def counting_take(self, path):
        document = original_take(self, path)
        taken.append(document is not None)
        return document

    monkeypatch.setattr(read_ahead.ReadAhead, "take", counting_take)
    return taken


@pytest.mark.db
def test_a_printed_folder_gives_the_same_catalogue_with_and_without_the_speed_paths(
        printed_folder, catalog, empty_database_url, monkeypatch):
    if not forked.available():
        pytest.skip("the speed paths need fork and two cores")
    pdfs = sorted(printed_folder.glob("*.pdf"))
    assert len(pdfs) == len(SOURCES) and all(p.stat().st_size >= read_ahead.MIN_BYTES for p in pdfs[1:])
    taken = _count_takes(monkeypatch)
    fast = ingest_paths(catalog.engine, [printed_folder])
    assert [o.status for o in fast] == ["loaded"] * len(pdfs), [o.message for o in fast]
    assert sum(taken) >= len(pdfs) - 2  # all but the first (and perhaps one the writer reached first) read ahead

    monkeypatch.setattr(forked, "available", lambda: False)  # no read-ahead, no split: one file after another
    inline = open_catalog(empty_database_url)
    try:
        slow = ingest_paths(inline.engine, [printed_folder])
        assert [o.status for o in slow] == [o.status for o in fast]
        fast_rows, slow_rows = catalogue_rows(catalog.engine), catalogue_rows(inline.engine)
    finally:
        inline.close()
    assert fast_rows["solutions"] and fast_rows["runs"] and fast_rows["solution_facts"] and fast_rows["claims"]
    for table, rows in fast_rows.items():
        assert slow_rows[table] == rows, table


@pytest.mark.db
def test_one_document_read_as_the_command_starts_gives_the_same_catalogue_as_read_by_the_batch(
        printed_folder, catalog, empty_database_url, monkeypatch):
    """Issue 46: `esrpdb ingest FILE` reads its PDF in a worker forked before the database's side is loaded
    (ingest/reading.py: reading_started); the catalogue is the one the batch's own process writes reading
    the file itself, with no process forked."""
    if not forked.available():
        pytest.skip("the speed paths need fork and two cores")
    from esrpdb.ingest.reading import reading_started

    pdf = max(printed_folder.glob("*.pdf"), key=lambda p: p.stat().st_size)
    assert pdf.stat().st_size >= read_ahead.MIN_BYTES
    taken = _count_takes(monkeypatch)
    ahead = reading_started([pdf])
    assert ahead is not None
    fast = ingest_paths(catalog.engine, [pdf], ahead=ahead)
    assert [o.status for o in fast] == ["loaded"], [o.message for o in fast]
    assert taken == [True]  # read by the worker started first, not by the batch

    monkeypatch.setattr(forked, "available", lambda: False)  # and the budget's own child: none either
    monkeypatch.setattr(forked, "can_fork", lambda: False)
    assert reading_started([pdf]) is None
    inline = open_catalog(empty_database_url)
    try:
        slow = ingest_paths(inline.engine, [pdf])
        assert [o.status for o in slow] == ["loaded"]
        fast_rows, slow_rows = catalogue_rows(catalog.engine), catalogue_rows(inline.engine)
    finally:
        inline.close()
    assert fast_rows["runs"] and fast_rows["document_tables"]
    for table, rows in fast_rows.items():
        assert slow_rows[table] == rows, table


@pytest.mark.db
def test_the_command_as_typed_gives_the_catalogue_the_library_writes(printed_folder, pg_server, template_url,
                                                                     fresh_database_url, tmp_path, monkeypatch):
    """`esrpdb ingest FILE` in its own process, with every start-up path of issue 46 (the worker forked
    before any format loads, the light format packages, dataclasses' code read from the cache a first
    command wrote), writes the rows the library writes reading the file in this process."""
    pdf = max(printed_folder.glob("*.pdf"), key=lambda p: p.stat().st_size)
    env = {k: v for k, v in os.environ.items() if not k.startswith("ESRPDB_")}
    env["XDG_CACHE_HOME"] = str(tmp_path / "cache")
    esrpdb = shutil.which("esrpdb") or pytest.skip("the esrpdb command is not installed")

    def typed(url: str) -> str:
        done = subprocess.run([esrpdb, "--database-url", url, "ingest", "--format", "csv", str(pdf)],
                              capture_output=True, text=True, env=env)
        assert done.returncode == 0 and ",loaded," in done.stdout, done.stdout + done.stderr
        return done.stdout

    with scratch_database(pg_server, "w", TEMPLATE) as first:
        typed(first)  # compiles dataclasses' code and keeps it
    assert list((tmp_path / "cache").rglob("dataclass-code-*.marshal"))
    with scratch_database(pg_server, "c", TEMPLATE) as command_url:
        typed(command_url)
        monkeypatch.setattr(forked, "available", lambda: False)
        inline = open_catalog(fresh_database_url)
        command = open_catalog(command_url)
        try:
            slow = ingest_paths(inline.engine, [pdf])
            assert [o.status for o in slow] == ["loaded"], [o.message for o in slow]
            typed_rows, slow_rows = catalogue_rows(command.engine), catalogue_rows(inline.engine)
        finally:
            inline.close()
            command.close()
    assert typed_rows["runs"] and typed_rows["document_tables"] and typed_rows["solutions"]
    for table, rows in typed_rows.items():
        assert slow_rows[table] == rows, table


def test_a_pdf_read_alone_is_split_across_two_processes_and_reads_the_same(printed_folder, monkeypatch):
    """`esrpdb ingest FILE` names one file: its worker splits the PDF from layout.ALONE_PARALLEL_PAGES pages
    (reading.py's _bound_and_alone), where a batch's readers split from PARALLEL_PAGES; the text is the same."""
    if not forked.available():
        pytest.skip("the split needs fork and two cores")
    from esrpdb.ingest import reading
    from esrpdb.ingest.pdf import layout

    pdf = max(printed_folder.glob("*.pdf"), key=lambda p: p.stat().st_size)
    data = pdf.read_bytes()
    whole = layout.extract_layout(pdf.name, data)
    assert len(whole.page_starts) >= layout.ALONE_PARALLEL_PAGES
    split_children: list[int] = []
    original_start = forked.start
    monkeypatch.setattr(forked, "start", lambda function, *args, **kwargs: split_children.append(function)
                        or original_start(function, *args, **kwargs))
    monkeypatch.setattr(layout, "PARALLEL_PAGES", layout.PARALLEL_PAGES)  # restored after the test
    monkeypatch.setattr(layout, "_meanwhile", None)
    meanwhile_ran: list[bool] = []  # whether the second half's child had been started when it ran
    layout.reading_alone(meanwhile=lambda: meanwhile_ran.append(layout._pages_of in split_children))
    split = layout._extract(pdf.name, data)  # in this process (extract_layout reads in a budgeted child)
    assert layout._pages_of in split_children  # the second half was read by a child
    assert (split.text, split.page_starts, split.warnings) == (whole.text, whole.page_starts, whole.warnings)
    assert meanwhile_ran == [True]  # while the child read: once
    layout._extract(pdf.name, data)
    assert meanwhile_ran == [True]

    assert reading._one_file([pdf]) and not reading._one_file([printed_folder]) and not reading._one_file([pdf, pdf])
    ahead = reading.reading_started([pdf])
    assert ahead is not None
    try:
        assert ahead._setup is reading._bound_and_alone
    finally:
        ahead.close()
    reading._drafting_rules_imported()  # what the worker runs meanwhile: the modules drafting imports
    assert {"esrpdb.ingest.draft.facts", "esrpdb.ingest.draft.naming", "esrpdb.ingest.draft.systems"} <= set(sys.modules)


def _started_early(pdf):  # runs in a child of the test: start_early renices the process that calls it
    import os

    from esrpdb.ingest import reading

    reading.start_early([str(pdf)])
    ahead = reading._early[1]
    worker = next(iter(ahead._reading.values()))[1]
    try:
        return os.nice(0), os.getpriority(os.PRIO_PROCESS, worker.pid)
    finally:
        reading._stop_early()


def test_a_command_naming_one_file_yields_the_cores_to_its_worker(printed_folder):
    """`esrpdb ingest FILE`: the command, which will wait for its worker, lowers its own priority once the
    worker is forked (reading.ALONE_COMMAND_NICENESS); the worker reads at the usual one."""
    if not forked.available():
        pytest.skip("the early worker needs fork and two cores")
    from esrpdb.ingest import reading

    pdf = max(printed_folder.glob("*.pdf"), key=lambda p: p.stat().st_size)
    child = forked.start(_started_early, pdf)
    assert forked.finished(child, 60)
    command, worker = forked.result(child)
    before = os.nice(0)
    assert (command, worker) == (before + reading.ALONE_COMMAND_NICENESS, before)
